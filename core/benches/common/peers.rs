//! The peer workloads: fine-grained recursions with a `join` at every call,
//! written once over [`Fork`] and run on Drowse, rayon-core 1.13, chili 0.2
//! (a heartbeat scheduler: a port of Spice) and sequentially, so that every
//! pool runs the same code.
//!
//! - [`tree_sum`]: the sum of a binary tree of boxed nodes, joining on the
//!   two children of every node (a leaf joins two empty calls);
//! - [`fib`]: `fib(n)` with `join(fib(n - 1), fib(n - 2))` down to `n < 2`;
//! - [`quicksort`]: the two sides of each partition joined, down to
//!   [`QSORT_CUTOFF`] elements (insertion sort below);
//! - [`blur`]: one pass of a 3-point average (a 1-D stencil), the halves of
//!   the output joined down to blocks of [`BLUR_BLOCK`] elements.
//!
//! chili's `join` hands each half a `&mut chili::Scope`; rayon-core's and
//! Drowse's take no argument. [`Fork::Ctx`] is what a half gets: the scope
//! for chili, `()` for the others.
//!
//! forte 1.0.0-beta.2 (a heartbeat pool with a rayon-like `join`) runs these
//! workloads in a package of its own, `peers-forte/` (`ci/bench-forte`):
//! forte from 1.0.0-alpha.5 on declares `rust-version = "1.96.0"`, and as a
//! dev-dependency of drowse it would stop every test and bench of drowse
//! from building with the workspace's toolchain. `peers-forte` pins Rust
//! 1.96.0, includes this module (through `common/mod.rs`) by path, and
//! implements `Fork` with forte's `Worker::join`.

use super::{Pool, Started};
use std::hint::black_box;
use std::marker::PhantomData;
use std::num::NonZeroUsize;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How one pool runs two halves of a recursion.
pub trait Fork {
    /// What each half is handed: chili's scope, or nothing.
    type Ctx<'c>;

    /// Runs `a` and `b`, potentially in parallel, and returns both results.
    fn fork<RA: Send, RB: Send>(
        ctx: &mut Self::Ctx<'_>,
        a: impl for<'c> FnOnce(&mut Self::Ctx<'c>) -> RA + Send,
        b: impl for<'c> FnOnce(&mut Self::Ctx<'c>) -> RB + Send,
    ) -> (RA, RB);
}

/// `a` then `b` on the calling thread: the code without a pool.
pub struct Sequential;

impl Fork for Sequential {
    type Ctx<'c> = ();

    #[inline]
    fn fork<RA: Send, RB: Send>(
        ctx: &mut (),
        a: impl for<'c> FnOnce(&mut ()) -> RA + Send,
        b: impl for<'c> FnOnce(&mut ()) -> RB + Send,
    ) -> (RA, RB) {
        (a(ctx), b(&mut ()))
    }
}

/// The free `join` of a [`Pool`]'s crate (Drowse or rayon-core), called
/// inside that pool's `install`.
pub struct Joins<P>(PhantomData<P>);

impl<P: Pool> Fork for Joins<P> {
    type Ctx<'c> = ();

    #[inline]
    fn fork<RA: Send, RB: Send>(
        _: &mut (),
        a: impl for<'c> FnOnce(&mut ()) -> RA + Send,
        b: impl for<'c> FnOnce(&mut ()) -> RB + Send,
    ) -> (RA, RB) {
        P::join(|| a(&mut ()), || b(&mut ()))
    }
}

/// chili's `Scope::join`, from a scope of a `chili::ThreadPool`.
pub struct Chili;

impl Fork for Chili {
    type Ctx<'c> = chili::Scope<'c>;

    #[inline]
    fn fork<RA: Send, RB: Send>(
        scope: &mut chili::Scope<'_>,
        a: impl for<'c> FnOnce(&mut chili::Scope<'c>) -> RA + Send,
        b: impl for<'c> FnOnce(&mut chili::Scope<'c>) -> RB + Send,
    ) -> (RA, RB) {
        scope.join(a, b)
    }
}

/// A node of the summed tree; values are small so that sums never overflow.
pub struct Node {
    value: u64,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

impl Node {
    /// A full binary tree of `levels` levels (2^levels - 1 nodes), its
    /// boxes allocated in level order (the root, then each level from left
    /// to right) and linked from the bottom up.
    ///
    /// Level order favours neither child first: a depth-first sum visits
    /// each level's nodes in allocation order if it takes the left child
    /// first and in reverse if it takes the right one first, and either way
    /// walks every level's allocations in one direction. The boxes of a
    /// recursive build (`Box::new(build(..))`, children allocated before
    /// their parent) lie in post-order instead, and a right-child-first sum
    /// reads them backwards in one stream: on a 2^20-node tree that made
    /// the sequential code 2.5-10x faster right child first than left
    /// child first, and chili, whose `join` runs `b` before `a` once its
    /// queue holds three jobs, gained it. The journal entry *In-line joins*
    /// has the figures.
    pub fn tree(levels: u32) -> Node {
        let count = (1usize << levels) - 1;
        let mut boxes: Vec<Option<Box<Node>>> = (0..count)
            .map(|i| {
                Some(Box::new(Node {
                    value: (i as u64 + 1) % 7,
                    left: None,
                    right: None,
                }))
            })
            .collect();
        // Node i's children are 2i + 1 and 2i + 2; the first count / 2
        // nodes have them.
        for i in (0..count / 2).rev() {
            let (left, right) = (boxes[2 * i + 1].take(), boxes[2 * i + 2].take());
            let node = boxes[i].as_mut().expect("a node is linked once");
            node.left = left;
            node.right = right;
        }
        *boxes[0].take().expect("the root")
    }
}

pub fn tree_sum<F: Fork>(node: &Node, ctx: &mut F::Ctx<'_>) -> u64 {
    let (left, right) = F::fork(
        ctx,
        |c| node.left.as_deref().map_or(0, |n| tree_sum::<F>(n, c)),
        |c| node.right.as_deref().map_or(0, |n| tree_sum::<F>(n, c)),
    );
    node.value + left + right
}

pub fn fib<F: Fork>(n: u64, ctx: &mut F::Ctx<'_>) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = F::fork(ctx, |c| fib::<F>(n - 1, c), |c| fib::<F>(n - 2, c));
    a + b
}

/// Calls of `fib(n)` (each but the leaves joins once): 2 fib(n + 1) - 1.
pub fn fib_calls(n: u64) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n + 1 {
        (a, b) = (b, a + b);
    }
    2 * a - 1
}

/// Slices of at most this many elements are sorted without forking.
pub const QSORT_CUTOFF: usize = 32;
/// Blocks of at most this many output elements are blurred without forking.
pub const BLUR_BLOCK: usize = 256;

/// Quicksort (Lomuto partition around the middle element), the two sides
/// forked down to [`QSORT_CUTOFF`] elements, insertion sort below.
pub fn quicksort<F: Fork>(v: &mut [u32], ctx: &mut F::Ctx<'_>) {
    if v.len() <= QSORT_CUTOFF {
        insertion_sort(v);
        return;
    }
    let last = v.len() - 1;
    v.swap(v.len() / 2, last);
    let store = partition_around_last(v);
    let (left, right) = v.split_at_mut(store);
    let right = &mut right[1..];
    F::fork(
        ctx,
        |c| quicksort::<F>(left, c),
        |c| quicksort::<F>(right, c),
    );
}

/// Sorts `v` by insertion: the pieces below a quicksort's cut-off.
pub fn insertion_sort(v: &mut [u32]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Partitions `v` (not empty) around its last element (Lomuto): the
/// smaller elements first, then the pivot; returns the pivot's final
/// index. The quicksorts choose the pivot and move it last before.
pub fn partition_around_last(v: &mut [u32]) -> usize {
    let last = v.len() - 1;
    let pivot = v[last];
    let mut store = 0;
    for i in 0..last {
        if v[i] < pivot {
            v.swap(i, store);
            store += 1;
        }
    }
    v.swap(store, last);
    store
}

/// `out[k]` = the average of `input[i - 1..=i + 1]` for `i = start + k`
/// (clamped at the ends), the halves of `out` forked down to [`BLUR_BLOCK`]
/// elements.
pub fn blur<F: Fork>(input: &[f32], out: &mut [f32], start: usize, ctx: &mut F::Ctx<'_>) {
    if out.len() <= BLUR_BLOCK {
        let last = input.len() - 1;
        for (k, slot) in out.iter_mut().enumerate() {
            let i = start + k;
            *slot = (input[i.saturating_sub(1)] + input[i] + input[(i + 1).min(last)]) / 3.0;
        }
        return;
    }
    let half = out.len() / 2;
    let (left, right) = out.split_at_mut(half);
    F::fork(
        ctx,
        |c| blur::<F>(input, left, start, c),
        |c| blur::<F>(input, right, start + half, c),
    );
}

/// `len` pseudo-random `u32` from a fixed seed (xorshift64).
pub fn seeded_u32s(len: usize) -> Vec<u32> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u32
        })
        .collect()
}

/// A checksum that any difference in a sorted or blurred output changes
/// (each value mixed with its position).
pub fn checksum(values: impl Iterator<Item = u64>) -> u64 {
    values.enumerate().fold(0u64, |sum, (i, v)| {
        sum.wrapping_mul(31).wrapping_add(v ^ i as u64)
    })
}

/// The workloads of the `peer_*` rows (compare) and of `peers-forte`, with
/// a `join` at every call; their inputs are built once per process.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PeerWork {
    /// The sum of a tree of 2^levels - 1 nodes ([`PEER_TREE_LEVELS`]).
    Tree(u32),
    /// fib([`PEER_FIB_N`]).
    Fib,
    /// Quicksort of [`PEER_SLICE_LEN`] seeded `u32`.
    Sort,
    /// One 3-point blur of [`PEER_SLICE_LEN`] `f32`.
    Blur,
}

/// The trees of the peer rows: 2^20 - 1 and 2^23 - 1 nodes.
pub const PEER_TREE_LEVELS: [u32; 2] = [20, 23];
pub const PEER_FIB_N: u64 = 30;
pub const PEER_SLICE_LEN: usize = 1 << 20;
/// The warm-up run on each fresh pool before the timed one: fib of this.
pub const WARM_UP_FIB_N: u64 = 15;

impl PeerWork {
    pub const ALL: [PeerWork; 5] = [
        PeerWork::Tree(PEER_TREE_LEVELS[0]),
        PeerWork::Tree(PEER_TREE_LEVELS[1]),
        PeerWork::Fib,
        PeerWork::Sort,
        PeerWork::Blur,
    ];

    /// The row's name without its thread count.
    pub fn name(self) -> String {
        match self {
            PeerWork::Tree(levels) => format!("tree{levels}"),
            PeerWork::Fib => format!("fib{PEER_FIB_N}"),
            PeerWork::Sort => "qsort1m".to_string(),
            PeerWork::Blur => "blur1m".to_string(),
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            PeerWork::Tree(_) => "ns/node",
            PeerWork::Fib => "ns/call",
            PeerWork::Sort | PeerWork::Blur => "ns/elem",
        }
    }

    /// What a figure is per: nodes, calls or elements of one run.
    pub fn units(self) -> f64 {
        match self {
            PeerWork::Tree(levels) => ((1u64 << levels) - 1) as f64,
            PeerWork::Fib => fib_calls(PEER_FIB_N) as f64,
            PeerWork::Sort | PeerWork::Blur => PEER_SLICE_LEN as f64,
        }
    }

    fn tree(levels: u32) -> &'static Node {
        static TREES: [OnceLock<Node>; 2] = [OnceLock::new(), OnceLock::new()];
        let index = PEER_TREE_LEVELS
            .iter()
            .position(|&l| l == levels)
            .expect("a peer tree size");
        TREES[index].get_or_init(|| Node::tree(levels))
    }

    fn sort_input() -> &'static [u32] {
        static INPUT: OnceLock<Vec<u32>> = OnceLock::new();
        INPUT.get_or_init(|| seeded_u32s(PEER_SLICE_LEN))
    }

    fn blur_input() -> &'static [f32] {
        static INPUT: OnceLock<Vec<f32>> = OnceLock::new();
        INPUT.get_or_init(|| {
            seeded_u32s(PEER_SLICE_LEN)
                .into_iter()
                .map(|x| (x % 1000) as f32)
                .collect()
        })
    }

    /// One run with `F`'s fork: the time of the recursion alone (outputs
    /// are allocated and written before the clock starts) and its result (the sum, or
    /// a checksum of the sorted or blurred output).
    pub fn run<F: Fork>(self, ctx: &mut F::Ctx<'_>) -> (Duration, u64) {
        match self {
            PeerWork::Tree(levels) => {
                let tree = PeerWork::tree(levels);
                let start = Instant::now();
                let sum = tree_sum::<F>(black_box(tree), ctx);
                (start.elapsed(), sum)
            }
            PeerWork::Fib => {
                let start = Instant::now();
                let value = fib::<F>(black_box(PEER_FIB_N), ctx);
                (start.elapsed(), value)
            }
            PeerWork::Sort => {
                let mut data = PeerWork::sort_input().to_vec();
                let start = Instant::now();
                quicksort::<F>(black_box(&mut data), ctx);
                let elapsed = start.elapsed();
                (elapsed, checksum(data.iter().map(|&x| u64::from(x))))
            }
            PeerWork::Blur => {
                let input = PeerWork::blur_input();
                // Not zeros: a zeroed allocation's pages would be faulted
                // in by the timed pass.
                let mut out = vec![-1.0f32; input.len()];
                let start = Instant::now();
                blur::<F>(input, black_box(&mut out), 0, ctx);
                let elapsed = start.elapsed();
                (
                    elapsed,
                    checksum(out.iter().map(|x| u64::from(x.to_bits()))),
                )
            }
        }
    }

    /// One run (`PeerWork::run`) on a fresh pool of `P` with `threads`
    /// workers, all started, after a warm-up (fib([`WARM_UP_FIB_N`])) on
    /// it; the caller of `install` waits, so `threads` threads run the
    /// recursion. The pool is finished (its workers exited) before this
    /// returns.
    pub fn run_on_pool<P: Pool>(self, threads: usize) -> (Duration, u64) {
        let pool = Started::<P>::new(threads);
        pool.pool().install(|| {
            black_box(fib::<Joins<P>>(black_box(WARM_UP_FIB_N), &mut ()));
        });
        let timed = pool.pool().install(|| self.run::<Joins<P>>(&mut ()));
        pool.finish();
        timed
    }

    /// One run on a fresh chili pool of `threads` threads (`threads - 1`
    /// workers and the thread that opens its scope), after the same
    /// warm-up.
    pub fn run_on_chili(self, threads: usize) -> (Duration, u64) {
        let pool = chili::ThreadPool::with_config(chili::Config {
            thread_count: NonZeroUsize::new(threads),
            ..chili::Config::default()
        });
        let mut scope = pool.scope();
        black_box(fib::<Chili>(black_box(WARM_UP_FIB_N), &mut scope));
        self.run::<Chili>(&mut scope)
    }

    /// The result of the sequential code, which every pool's must equal.
    pub fn expected(self) -> u64 {
        static EXPECTED: [OnceLock<u64>; 5] = [const { OnceLock::new() }; 5];
        let index = PeerWork::ALL
            .iter()
            .position(|&w| w == self)
            .expect("a peer workload");
        *EXPECTED[index].get_or_init(|| self.run::<Sequential>(&mut ()).1)
    }
}
