//! Fine-grained joins against the peers, in one process: Drowse, rayon-core
//! 1.13 and chili 0.2 (a port of Spice's heartbeat scheduling) on the same
//! recursions, each pool fresh per size, the pools alternating within each
//! round, and the results asserted equal to the sequential code's.
//!
//! Workloads (a `join` at every call):
//! - `tree20`, `tree23`: the sum of a binary tree of 2^20 - 1 and 2^23 - 1
//!   boxed nodes, joining on the two children of every node (a leaf joins
//!   two empty closures); ns per node;
//! - `fib30`: `fib(30)` with `join(fib(n - 1), fib(n - 2))` down to `n < 2`;
//!   ns per call;
//! - `qsort1m`: quicksort of 1M seeded `u32`, the two sides joined down to
//!   32 elements (insertion sort below); ns per element;
//! - `blur1m`: one pass of a 3-point average over 1M `f32` (a stencil),
//!   halves joined down to blocks of 256; ns per element.
//!
//! Each at 1 thread, 2 threads and every CPU. A figure is the median over
//! the rounds; a ratio is the median of the per-round ratios (Drowse / peer,
//! lower is better), with their p25-p75. `seq` is the same recursion with no
//! pool (its ratio: Drowse / sequential).
//!
//!   cargo bench -p drowse --bench peers -- [--quick] [--only NAME,...]
//!       [--verdict]
//!
//! `--verdict` exits non-zero unless Drowse's median ratio to chili is at
//! most 1.00 on every tree and fib row at 1 and 2 threads (the target:
//! at or below chili), and prints each row's outcome. `ci/bench-peers` runs
//! this binary. Timings on a loaded machine are noise: run it alone.

use std::hint::black_box;
use std::num::NonZeroUsize;
use std::time::Instant;

struct Node {
    value: u64,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

fn build_tree(layers: u32, next: &mut u64) -> Node {
    *next += 1;
    let value = *next % 7;
    let child = |next: &mut u64| (layers > 1).then(|| Box::new(build_tree(layers - 1, next)));
    let left = child(next);
    let right = child(next);
    Node { value, left, right }
}

fn sum_sequential(node: &Node) -> u64 {
    let left = node.left.as_deref().map_or(0, sum_sequential);
    let right = node.right.as_deref().map_or(0, sum_sequential);
    node.value + left + right
}

fn sum_drowse(node: &Node) -> u64 {
    let (left, right) = drowse::join(
        || node.left.as_deref().map_or(0, sum_drowse),
        || node.right.as_deref().map_or(0, sum_drowse),
    );
    node.value + left + right
}

fn sum_rayon(node: &Node) -> u64 {
    let (left, right) = rayon_core::join(
        || node.left.as_deref().map_or(0, sum_rayon),
        || node.right.as_deref().map_or(0, sum_rayon),
    );
    node.value + left + right
}

fn sum_chili(node: &Node, scope: &mut chili::Scope<'_>) -> u64 {
    let (left, right) = scope.join(
        |scope| node.left.as_deref().map_or(0, |n| sum_chili(n, scope)),
        |scope| node.right.as_deref().map_or(0, |n| sum_chili(n, scope)),
    );
    node.value + left + right
}

fn fib_sequential(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    fib_sequential(n - 1) + fib_sequential(n - 2)
}

fn fib_drowse(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = drowse::join(|| fib_drowse(n - 1), || fib_drowse(n - 2));
    a + b
}

fn fib_rayon(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rayon_core::join(|| fib_rayon(n - 1), || fib_rayon(n - 2));
    a + b
}

fn fib_chili(n: u64, scope: &mut chili::Scope<'_>) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = scope.join(|s| fib_chili(n - 1, s), |s| fib_chili(n - 2, s));
    a + b
}

// The slice workloads, written once and stamped out per pool: each pool's
// `fork!` runs two expressions, each with the context its recursion needs
// (`()`, or chili's scope).
macro_rules! fork_seq {
    ($ctx:ident, $c1:ident => $a:expr, $c2:ident => $b:expr) => {{
        let $c1 = ();
        $a;
        let $c2 = ();
        $b;
    }};
}
macro_rules! fork_drowse {
    ($ctx:ident, $c1:ident => $a:expr, $c2:ident => $b:expr) => {
        drowse::join(
            || {
                let $c1 = ();
                $a
            },
            || {
                let $c2 = ();
                $b
            },
        )
    };
}
macro_rules! fork_rayon {
    ($ctx:ident, $c1:ident => $a:expr, $c2:ident => $b:expr) => {
        rayon_core::join(
            || {
                let $c1 = ();
                $a
            },
            || {
                let $c2 = ();
                $b
            },
        )
    };
}
macro_rules! fork_chili {
    ($ctx:ident, $c1:ident => $a:expr, $c2:ident => $b:expr) => {
        $ctx.join(|$c1| $a, |$c2| $b)
    };
}

const QSORT_CUTOFF: usize = 32;
const BLUR_BLOCK: usize = 256;

macro_rules! slice_workloads {
    ($module:ident, $ctx:ty, $fork:ident) => {
        mod $module {
            use super::{BLUR_BLOCK, QSORT_CUTOFF};

            /// Quicksort (Lomuto, middle pivot), sides forked down to
            /// `QSORT_CUTOFF` elements, insertion sort below.
            #[allow(unused_variables, clippy::unused_unit)]
            pub fn quicksort(v: &mut [u32], ctx: $ctx) {
                if v.len() <= QSORT_CUTOFF {
                    for i in 1..v.len() {
                        let mut j = i;
                        while j > 0 && v[j - 1] > v[j] {
                            v.swap(j - 1, j);
                            j -= 1;
                        }
                    }
                    return;
                }
                let last = v.len() - 1;
                v.swap(v.len() / 2, last);
                let pivot = v[last];
                let mut store = 0;
                for i in 0..last {
                    if v[i] < pivot {
                        v.swap(i, store);
                        store += 1;
                    }
                }
                v.swap(store, last);
                let (left, right) = v.split_at_mut(store);
                let right = &mut right[1..];
                $fork!(ctx, c => quicksort(left, c), c => quicksort(right, c));
            }

            /// `out[k]` = the average of `input[i - 1..=i + 1]`, `i = start
            /// + k` (clamped at the ends); halves forked down to
            /// `BLUR_BLOCK` elements.
            #[allow(unused_variables, clippy::unused_unit)]
            pub fn blur(input: &[f32], out: &mut [f32], start: usize, ctx: $ctx) {
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
                $fork!(ctx, c => blur(input, left, start, c), c => blur(input, right, start + half, c));
            }
        }
    };
}

slice_workloads!(slice_seq, (), fork_seq);
slice_workloads!(slice_drowse, (), fork_drowse);
slice_workloads!(slice_rayon, (), fork_rayon);
slice_workloads!(slice_chili, &mut chili::Scope<'_>, fork_chili);

fn seeded_u32s(len: usize) -> Vec<u32> {
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

/// A checksum that any difference in a sorted or blurred result changes.
fn checksum(values: impl Iterator<Item = u64>) -> u64 {
    values.enumerate().fold(0u64, |sum, (i, v)| {
        sum.wrapping_mul(31).wrapping_add(v ^ i as u64)
    })
}

/// Calls of `fib(n)`: fib(n + 1) * 2 - 1.
fn fib_calls(n: u64) -> u64 {
    2 * fib_sequential(n + 1) - 1
}

enum Work {
    Tree(Node, u64),
    Fib(u64),
    Sort(Vec<u32>),
    Blur(Vec<f32>),
}

impl Work {
    fn units(&self) -> f64 {
        match self {
            Work::Tree(_, nodes) => *nodes as f64,
            Work::Fib(n) => fib_calls(*n) as f64,
            Work::Sort(v) => v.len() as f64,
            Work::Blur(v) => v.len() as f64,
        }
    }
}

/// The four ways to run one workload; each returns (result, seconds).
struct Pools {
    drowse: drowse::ThreadPool,
    rayon: rayon_core::ThreadPool,
    chili: chili::ThreadPool,
}

impl Pools {
    fn new(threads: usize) -> Pools {
        Pools {
            drowse: drowse::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a Drowse pool"),
            rayon: rayon_core::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a rayon-core pool"),
            chili: chili::ThreadPool::with_config(chili::Config {
                thread_count: NonZeroUsize::new(threads),
                ..chili::Config::default()
            }),
        }
    }

    fn run(&self, pool: usize, work: &Work) -> (u64, f64) {
        // The slice workloads write into buffers made before the clock starts.
        let mut sorted = match work {
            Work::Sort(v) => v.clone(),
            _ => Vec::new(),
        };
        let mut blurred = match work {
            Work::Blur(v) => vec![0.0f32; v.len()],
            _ => Vec::new(),
        };
        let start = Instant::now();
        let result = match (pool, work) {
            (_, Work::Sort(_)) => {
                let v = black_box(&mut sorted[..]);
                match pool {
                    0 => slice_seq::quicksort(v, ()),
                    1 => self.drowse.install(|| slice_drowse::quicksort(v, ())),
                    2 => self.rayon.install(|| slice_rayon::quicksort(v, ())),
                    _ => slice_chili::quicksort(v, &mut self.chili.scope()),
                }
                checksum(sorted.iter().map(|&x| u64::from(x)))
            }
            (_, Work::Blur(input)) => {
                let out = black_box(&mut blurred[..]);
                match pool {
                    0 => slice_seq::blur(input, out, 0, ()),
                    1 => self
                        .drowse
                        .install(|| slice_drowse::blur(input, out, 0, ())),
                    2 => self.rayon.install(|| slice_rayon::blur(input, out, 0, ())),
                    _ => slice_chili::blur(input, out, 0, &mut self.chili.scope()),
                }
                checksum(blurred.iter().map(|&x| u64::from(x.to_bits())))
            }
            (0, Work::Tree(tree, _)) => sum_sequential(black_box(tree)),
            (1, Work::Tree(tree, _)) => self.drowse.install(|| sum_drowse(black_box(tree))),
            (2, Work::Tree(tree, _)) => self.rayon.install(|| sum_rayon(black_box(tree))),
            (3, Work::Tree(tree, _)) => sum_chili(black_box(tree), &mut self.chili.scope()),
            (0, Work::Fib(n)) => fib_sequential(black_box(*n)),
            (1, Work::Fib(n)) => self.drowse.install(|| fib_drowse(black_box(*n))),
            (2, Work::Fib(n)) => self.rayon.install(|| fib_rayon(black_box(*n))),
            (3, Work::Fib(n)) => fib_chili(black_box(*n), &mut self.chili.scope()),
            _ => unreachable!("four pools"),
        };
        (result, start.elapsed().as_secs_f64())
    }
}

const NAMES: [&str; 4] = ["seq", "drowse", "rayon-core", "chili"];

fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let position = q * (values.len() - 1) as f64;
    let low = position.floor() as usize;
    let high = position.ceil() as usize;
    values[low] + (values[high] - values[low]) * (position - low as f64)
}

struct Row {
    name: String,
    threads: usize,
    unit: &'static str,
    /// Per pool, ns per unit of each round.
    per_round: [Vec<f64>; 4],
}

impl Row {
    fn median(&self, pool: usize) -> f64 {
        quantile(&mut self.per_round[pool].clone(), 0.5)
    }

    /// Drowse / `pool`: median and p25-p75 of the per-round ratios.
    fn ratio(&self, pool: usize) -> (f64, f64, f64) {
        let mut ratios: Vec<f64> = self.per_round[1]
            .iter()
            .zip(&self.per_round[pool])
            .map(|(drowse, other)| drowse / other)
            .collect();
        (
            quantile(&mut ratios, 0.5),
            quantile(&mut ratios, 0.25),
            quantile(&mut ratios, 0.75),
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let verdict = args.iter().any(|a| a == "--verdict");
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').map(str::to_owned).collect());
    let cpus = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let mut thread_counts = vec![1, 2, cpus];
    thread_counts.dedup();
    let rounds = if quick { 5 } else { 11 };

    let mut workloads: Vec<(&str, &str, Work)> = Vec::new();
    for (name, layers) in [("tree20", 20), ("tree23", 23)] {
        if quick && layers > 20 {
            continue;
        }
        let mut next = 0;
        let tree = build_tree(layers, &mut next);
        workloads.push((name, "ns/node", Work::Tree(tree, (1 << layers) - 1)));
    }
    workloads.push(("fib30", "ns/call", Work::Fib(if quick { 27 } else { 30 })));
    workloads.push(("qsort1m", "ns/elem", Work::Sort(seeded_u32s(1 << 20))));
    let blur_input = seeded_u32s(1 << 20)
        .into_iter()
        .map(|x| (x % 1000) as f32)
        .collect();
    workloads.push(("blur1m", "ns/elem", Work::Blur(blur_input)));

    let mut rows = Vec::new();
    for &threads in &thread_counts {
        let pools = Pools::new(threads);
        for (name, unit, work) in &workloads {
            let row_name = format!("{name}_{threads}t");
            if let Some(only) = &only {
                if !only.iter().any(|o| o == &row_name || o == name) {
                    continue;
                }
            }
            let expected = pools.run(0, work).0;
            let mut row = Row {
                name: row_name,
                threads,
                unit,
                per_round: Default::default(),
            };
            for round in 0..rounds {
                // Alternate the order, so that no pool always runs first.
                let order: [usize; 4] = if round % 2 == 0 {
                    [0, 1, 2, 3]
                } else {
                    [3, 2, 1, 0]
                };
                for pool in order {
                    let (result, seconds) = pools.run(pool, work);
                    assert_eq!(
                        result, expected,
                        "{} disagrees on {}",
                        NAMES[pool], row.name
                    );
                    row.per_round[pool].push(seconds * 1e9 / work.units());
                }
            }
            rows.push(row);
        }
    }

    println!("# peers: Drowse vs rayon-core 1.13 vs chili 0.2, same process; {rounds} rounds; {cpus} CPUs available");
    println!(
        "{:<12} {:<8} {:>8} {:>8} {:>8} {:>8}  {:>18} {:>18} {:>8}",
        "benchmark",
        "unit",
        "seq",
        "drowse",
        "rayon",
        "chili",
        "drowse/chili p25-75",
        "drowse/rayon p25-75",
        "drowse/seq"
    );
    let mut failed = Vec::new();
    for row in &rows {
        let (chili, chili_low, chili_high) = row.ratio(3);
        let (rayon, rayon_low, rayon_high) = row.ratio(2);
        let (seq, _, _) = row.ratio(0);
        println!(
            "{:<12} {:<8} {:>8.2} {:>8.2} {:>8.2} {:>8.2}  {:>5.2} {:>5.2}-{:<5.2} {:>5.2} {:>5.2}-{:<5.2} {:>8.2}",
            row.name,
            row.unit,
            row.median(0),
            row.median(1),
            row.median(2),
            row.median(3),
            chili,
            chili_low,
            chili_high,
            rayon,
            rayon_low,
            rayon_high,
            seq
        );
        let verdict_row = row.name.starts_with("tree") || row.name.starts_with("fib");
        if verdict_row && row.threads <= 2 && chili > 1.0 {
            failed.push(format!("{} ({chili:.2})", row.name));
        }
    }
    if verdict {
        if failed.is_empty() {
            println!("verdict: at or below chili on every tree and fib row at 1 and 2 threads");
        } else {
            println!("verdict: FAIL: above chili on {}", failed.join(", "));
            std::process::exit(1);
        }
    }
}
