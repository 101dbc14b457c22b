//! The benchmark workloads, written once over [`Pool`] and run unchanged on
//! Drowse and on rayon-core 1.13, so that both are measured by the same code.
//!
//! Shared by the `compare` bench (the table of `ci/bench`) and the `micro`
//! bench (divan); each uses a subset, hence the `dead_code` allowance.
#![allow(dead_code)]

pub mod peers;
pub mod programs;

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Runs on a worker thread with its index (a start or exit handler).
pub type ThreadHook = Arc<dyn Fn(usize) + Send + Sync>;

/// What the workloads need from a pool. Both implementations forward to
/// functions of the same name and signature in their crate.
pub trait Pool: Sized + Send + Sync + 'static {
    /// How the pool is named in output.
    const NAME: &'static str;

    /// A pool of `threads` workers that runs `on_start` and `on_exit` on each.
    fn build(threads: usize, on_start: ThreadHook, on_exit: ThreadHook) -> Self;

    /// `ThreadPool::install`.
    fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R;

    /// `ThreadPool::spawn`.
    fn spawn(&self, op: impl FnOnce() + Send + 'static);

    /// The crate's free `join`, for use inside `install`.
    fn join<RA: Send, RB: Send>(
        oper_a: impl FnOnce() -> RA + Send,
        oper_b: impl FnOnce() -> RB + Send,
    ) -> (RA, RB);

    /// `ThreadPool::scope`, spawning `count` jobs that each run `job`.
    fn scope_spawn<F: Fn() + Sync>(&self, count: usize, job: &F);

    /// `ThreadPool::scope`, spawning `initial` jobs that each run `job`; a
    /// job then spawns, from inside itself and into the same scope, as many
    /// more jobs as `job` returned (a search that spawns per open node).
    fn scope_spawn_more<F: Fn() -> usize + Sync>(&self, initial: usize, job: &F);
}

/// When not 0, the `search_rounds_before_sleep` that [`Drowse`] pools are
/// built with (`compare --drowse-search-rounds`): an experiment on the
/// search policy through the public builder, with no change to the pool.
pub static DROWSE_SEARCH_ROUNDS: AtomicU32 = AtomicU32::new(0);

macro_rules! pool_for_crate {
    ($(#[$doc:meta])* $pool:ident, $krate:ident, $name:literal, $configure:expr) => {
        $(#[$doc])*
        pub struct $pool($krate::ThreadPool);

        impl Pool for $pool {
            const NAME: &'static str = $name;

            fn build(threads: usize, on_start: ThreadHook, on_exit: ThreadHook) -> Self {
                let builder = $krate::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .start_handler(move |index| on_start(index))
                    .exit_handler(move |index| on_exit(index));
                let pool = ($configure)(builder)
                    .build()
                    .unwrap_or_else(|error| panic!("{}: the pool did not start: {error}", $name));
                $pool(pool)
            }

            #[inline]
            fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
                self.0.install(op)
            }

            #[inline]
            fn spawn(&self, op: impl FnOnce() + Send + 'static) {
                self.0.spawn(op)
            }

            #[inline]
            fn join<RA: Send, RB: Send>(
                oper_a: impl FnOnce() -> RA + Send,
                oper_b: impl FnOnce() -> RB + Send,
            ) -> (RA, RB) {
                $krate::join(oper_a, oper_b)
            }

            fn scope_spawn<F: Fn() + Sync>(&self, count: usize, job: &F) {
                self.0.scope(|scope| {
                    for _ in 0..count {
                        scope.spawn(|_| job());
                    }
                })
            }

            fn scope_spawn_more<F: Fn() -> usize + Sync>(&self, initial: usize, job: &F) {
                fn run<'scope, F: Fn() -> usize + Sync>(
                    scope: &$krate::Scope<'scope>,
                    job: &'scope F,
                ) {
                    for _ in 0..job() {
                        scope.spawn(move |scope| run(scope, job));
                    }
                }
                self.0.scope(|scope| {
                    for _ in 0..initial {
                        scope.spawn(move |scope| run(scope, job));
                    }
                })
            }
        }
    };
}

pool_for_crate!(
    /// A `drowse::ThreadPool`.
    Drowse,
    drowse,
    "drowse",
    |builder: drowse::ThreadPoolBuilder| match DROWSE_SEARCH_ROUNDS.load(Ordering::Relaxed) {
        0 => builder,
        rounds => builder.search_rounds_before_sleep(rounds),
    }
);
pool_for_crate!(
    /// A `rayon_core::ThreadPool` (rayon-core 1.13.0 from crates.io).
    Rayon,
    rayon_core,
    "rayon-core",
    |builder: rayon_core::ThreadPoolBuilder| builder
);

/// Refuses to run in a checker world, where the pool's primitives only work
/// inside a model. The benches compile there (clippy checks every target in
/// every world) but measure only the `std` build.
pub fn exit_unless_std_world(bench: &str) {
    if drowse::sync::IS_CHECKER {
        eprintln!("{bench}: built with a checker cfg (loom or shuttle); benchmarks run only in the std world");
        std::process::exit(2);
    }
}

// ---------------------------------------------------------------------------
// Per-thread CPU time.

/// The CPU clock of one worker thread, readable from any thread of the
/// process while that worker is alive (`pthread_getcpuclockid`).
#[derive(Clone, Copy, Debug)]
pub struct CpuClock(#[cfg(target_os = "linux")] libc::clockid_t);

impl CpuClock {
    /// The calling thread's CPU clock, or `None` where this is not supported.
    pub fn of_current_thread() -> Option<CpuClock> {
        #[cfg(target_os = "linux")]
        {
            let mut clock: libc::clockid_t = 0;
            // SAFETY: `pthread_self()` is the live calling thread and `clock`
            // is a valid place for the result.
            let status = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
            (status == 0).then_some(CpuClock(clock))
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }

    /// CPU time the thread has used, in nanoseconds. The thread must not have
    /// exited.
    pub fn read_ns(self) -> u64 {
        #[cfg(target_os = "linux")]
        {
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `now` is a valid place for the result; an invalid clock
            // (an exited thread) is reported as an error, not UB.
            let status = unsafe { libc::clock_gettime(self.0, &mut now) };
            assert_eq!(
                status,
                0,
                "clock_gettime on a worker's CPU clock failed: {}",
                std::io::Error::last_os_error()
            );
            now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
        }
        #[cfg(not(target_os = "linux"))]
        {
            unreachable!("no CpuClock exists on this platform")
        }
    }
}

/// The kernel's id of the calling thread, where `/proc/self/task/<id>` exists.
fn kernel_thread_id() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `gettid` has no preconditions.
        Some(unsafe { libc::gettid() })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// How many times a thread has blocked (`voluntary_ctxt_switches` in
/// `/proc/self/task/<id>/status`): each time a worker goes to sleep on its
/// condition variable counts once; `yield_now` does not count.
fn voluntary_switches(thread_id: i32) -> u64 {
    let path = format!("/proc/self/task/{thread_id}/status");
    let status = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {path}: {error}"));
    status
        .lines()
        .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or_else(|| panic!("{path} has no voluntary_ctxt_switches line"))
}

/// What a worker registers when it starts, to be read from outside.
#[derive(Clone, Copy)]
struct Probe {
    clock: Option<CpuClock>,
    thread_id: Option<i32>,
}

// ---------------------------------------------------------------------------
// A pool whose threads are counted in and out.

#[derive(Default)]
struct Census {
    started: AtomicUsize,
    exited: AtomicUsize,
    probes: Mutex<Vec<Probe>>,
}

/// A pool built and waited for: every worker has run its start handler and
/// registered its CPU clock. [`Started::finish`] drops the pool and waits
/// until every worker has run its exit handler, so that no thread of one
/// measurement is still winding down during the next.
pub struct Started<P: Pool> {
    pool: P,
    threads: usize,
    census: Arc<Census>,
}

impl<P: Pool> Started<P> {
    pub fn new(threads: usize) -> Self {
        let census = Arc::new(Census::default());
        let on_start: ThreadHook = {
            let census = Arc::clone(&census);
            Arc::new(move |_| {
                census.probes.lock().unwrap().push(Probe {
                    clock: CpuClock::of_current_thread(),
                    thread_id: kernel_thread_id(),
                });
                census.started.fetch_add(1, Ordering::SeqCst);
            })
        };
        let on_exit: ThreadHook = {
            let census = Arc::clone(&census);
            Arc::new(move |_| {
                census.exited.fetch_add(1, Ordering::SeqCst);
            })
        };
        let pool = P::build(threads, on_start, on_exit);
        wait_for(&census.started, threads, "start");
        Started {
            pool,
            threads,
            census,
        }
    }

    pub fn pool(&self) -> &P {
        &self.pool
    }

    /// The CPU time used so far by all the pool's workers together, in
    /// nanoseconds, or `None` where per-thread CPU clocks are not available.
    pub fn cpu_ns(&self) -> Option<u64> {
        let probes = self.census.probes.lock().unwrap();
        probes
            .iter()
            .map(|probe| probe.clock.map(CpuClock::read_ns))
            .sum()
    }

    /// How many times the pool's workers have blocked so far, all together,
    /// or `None` where this cannot be read.
    pub fn sleeps(&self) -> Option<u64> {
        let probes = self.census.probes.lock().unwrap();
        probes
            .iter()
            .map(|probe| probe.thread_id.map(voluntary_switches))
            .sum()
    }

    pub fn finish(self) {
        let Started {
            pool,
            threads,
            census,
        } = self;
        drop(pool);
        wait_for(&census.exited, threads, "exit");
    }
}

fn wait_for(count: &AtomicUsize, target: usize, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while count.load(Ordering::SeqCst) < target {
        assert!(
            Instant::now() < deadline,
            "only {} of {target} pool threads ran their {what} handler within 30 s",
            count.load(Ordering::SeqCst)
        );
        thread::sleep(Duration::from_millis(1));
    }
}

// ---------------------------------------------------------------------------
// Workloads.

/// Fibonacci with a `join` at every call with `n >= 2`.
pub fn fib<P: Pool>(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = P::join(|| fib::<P>(n - 1), || fib::<P>(n - 2));
    a + b
}

/// The same recursion without a pool: the cost of the work itself.
pub fn fib_serial(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    fib_serial(black_box(n - 1)) + fib_serial(black_box(n - 2))
}

/// How many joins `fib(n)` makes: J(n) = J(n-1) + J(n-2) + 1, J(0) = J(1) = 0,
/// which is fib(n + 1) - 1.
pub fn joins_in_fib(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64); // fib(0), fib(1)
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    b - 1 // fib(n + 1) - 1
}

/// The value `fib` returns, computed without recursion (to check results).
pub fn fib_value(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// Below this many elements, `sum` adds serially.
pub const SUM_CUTOFF: usize = 1024;

/// Divide-and-conquer sum: halves joined until a piece has at most
/// [`SUM_CUTOFF`] elements.
pub fn sum<P: Pool>(data: &[u64]) -> u64 {
    if data.len() <= SUM_CUTOFF {
        return data.iter().sum();
    }
    let (left, right) = data.split_at(data.len() / 2);
    let (a, b) = P::join(|| sum::<P>(left), || sum::<P>(right));
    a + b
}

/// A complete binary tree node.
pub struct Node {
    value: u64,
    children: Option<Box<(Node, Node)>>,
}

impl Node {
    /// A complete binary tree of `2^levels - 1` nodes, valued 1, 2, 3, ...
    /// in preorder.
    pub fn tree(levels: u32) -> Node {
        fn build(levels: u32, next: &mut u64) -> Node {
            let value = *next;
            *next += 1;
            let children =
                (levels > 1).then(|| Box::new((build(levels - 1, next), build(levels - 1, next))));
            Node { value, children }
        }
        assert!(levels >= 1, "a tree has at least one level");
        build(levels, &mut 1)
    }

    /// The number of nodes with children: one join each in `tree_sum`.
    pub fn inner_nodes(&self) -> u64 {
        match &self.children {
            None => 0,
            Some(children) => 1 + children.0.inner_nodes() + children.1.inner_nodes(),
        }
    }
}

/// The levels of the benchmark tree: 1023 nodes, 511 of them with children.
pub const TREE_LEVELS: u32 = 10;

/// Sums the values of a tree with a `join` at every node that has children.
pub fn tree_sum<P: Pool>(node: &Node) -> u64 {
    match &node.children {
        None => node.value,
        Some(children) => {
            let (a, b) = P::join(|| tree_sum::<P>(&children.0), || tree_sum::<P>(&children.1));
            node.value + a + b
        }
    }
}

/// Spawns `count` empty jobs into the pool from the calling (outside) thread
/// and waits until all have run.
pub fn spawn_flood<P: Pool>(pool: &P, count: usize) {
    struct Done {
        ran: AtomicUsize,
        all: Mutex<bool>,
        signal: Condvar,
    }
    // Leaked so that jobs capture a plain `'static` reference rather than a
    // reference count that every spawn would touch (a few bytes per run).
    let done: &'static Done = Box::leak(Box::new(Done {
        ran: AtomicUsize::new(0),
        all: Mutex::new(false),
        signal: Condvar::new(),
    }));
    for _ in 0..count {
        pool.spawn(move || {
            if done.ran.fetch_add(1, Ordering::AcqRel) + 1 == count {
                *done.all.lock().unwrap() = true;
                done.signal.notify_one();
            }
        });
    }
    let mut all = done.all.lock().unwrap();
    while !*all {
        all = done.signal.wait(all).unwrap();
    }
}

/// Runs a scope in the pool that spawns `count` jobs, each bumping a counter;
/// checks that all of them ran.
pub fn scope_spawns<P: Pool>(pool: &P, count: usize) {
    let ran = AtomicUsize::new(0);
    pool.scope_spawn(count, &|| {
        ran.fetch_add(1, Ordering::Relaxed);
    });
    assert_eq!(
        ran.load(Ordering::Relaxed),
        count,
        "{}: scope lost jobs",
        P::NAME
    );
}

/// The median of `values` (not empty; sorts them): the middle one, or the
/// mean of the two middle ones.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// The p25 and p75 of `values` (not empty; sorts them), nearest rank: the
/// spread of the per-round ratios in the benches' tables.
pub fn quartiles(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let rank = |q: usize| values[(values.len() * q).div_ceil(4).max(1) - 1];
    (rank(1), rank(3))
}
