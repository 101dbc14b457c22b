//! Drowse against rayon-core 1.13, in one process, interleaved: the numbers
//! behind `ci/bench` and docs/performance.md. The `peer_*` rows measure
//! chili 0.2 as well, on fine-grained joins (common/peers.rs).
//!
//! Every benchmark is measured in rounds; each round measures Drowse and its
//! peers (rayon-core; for the `peer_*` rows chili and rayon-core), one right
//! after the other, on fresh pools (alternating which goes first), so that
//! load from elsewhere on the machine hits them alike. The figure of a pool
//! is the median over its rounds, and the ratio is Drowse's median over the
//! peer's (lower is better for every row).
//!
//! ```text
//! compare [--quick] [--threads N] [--only NAME,...] [--samples]
//! compare --list
//! compare --callgrind-fib drowse|rayon|serial N
//! compare --callgrind-scope drowse|rayon N
//! compare --callgrind-tree drowse|rayon SUMS
//! compare --callgrind-peer-fib drowse|rayon|chili N
//! compare --callgrind-peer-tree drowse|rayon|chili SUMS
//! ```
//!
//! Output: `#` lines describe the run; with `--samples`, one `sample` line
//! per measurement (and a `detail` line per sporadic run: more latency
//! percentiles and how many jobs started late); then one tab-separated line
//! per figure and peer: `result <name> <unit> <drowse median> <peer median>
//! <ratio> <spread> <peer>`, the spread being the p25-p75 of the per-round
//! ratios and `<peer>` the peer's name (`rayon-core` or `chili`).
//! `--callgrind-fib` computes fib(N) with a join at every call on a 1-thread
//! pool (or serially) and exits; `--callgrind-scope` runs one scope that
//! spawns N jobs on a 1-thread pool, from outside it, and exits;
//! `--callgrind-tree` sums the 1023-node tree SUMS times inside one `install`
//! on a 1-thread pool. `--callgrind-peer-fib` and `--callgrind-peer-tree`
//! run the `peer_*` rows' code instead (common/peers.rs), on chili too:
//! fib(N), or SUMS sums of a 1023-node tree with a join at every node.
//! `ci/bench` runs them under callgrind.

mod common;
mod plot;

use common::peers::{self, Fork, Joins, PeerWork, Sequential};
use common::programs::{self, Cities, Grid};
use common::{median, quartiles, Drowse, Node, Pool, Rayon, Started};
use std::hint::black_box;
use std::num::NonZeroUsize;
use std::process::exit;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage: compare [--quick] [--threads N] [--only NAME,...] [--samples] [--plot SVG]
               [--drowse-search-rounds N] [--pool drowse|rayon|chili]
       compare --list
       compare --callgrind-program tsp|quicksort|mergesort|life|nbody drowse|rayon
       compare [--drowse-search-rounds N] --callgrind-sparse drowse|rayon THREADS JOBS
       compare --callgrind-fib drowse|rayon|serial N
       compare --callgrind-scope drowse|rayon N
       compare --callgrind-tree drowse|rayon SUMS
       compare --callgrind-peer-fib drowse|rayon|chili N
       compare --callgrind-peer-tree drowse|rayon|chili SUMS";

/// The argument of fib in the join benchmarks (121,392 joins).
const FIB_N: u32 = 25;
/// The pool size of the idle and sporadic benchmarks (fixed by the issue).
const SPORADIC_THREADS: usize = 8;
const SPORADIC_PERIOD: Duration = Duration::from_millis(1);
const SPORADIC_DURATION: Duration = Duration::from_secs(1);
const IDLE_DURATION: Duration = Duration::from_secs(2);
const FLOOD_SPAWNS: usize = 1_000_000;
const SCOPE_SPAWNS: usize = 100_000;
const SUM_LEN: u64 = 10_000_000;
/// Tree sums per tree measurement (one sum is a few microseconds).
const TREE_REPEATS: u32 = 2_000;
/// How long a fresh pool is left alone before a sporadic run, so that it
/// starts from sleep as a long-idle pool would.
const SETTLE: Duration = Duration::from_millis(100);

struct Options {
    quick: bool,
    threads: usize,
    only: Option<Vec<String>>,
    samples: bool,
    /// Where to write the sweep's SVG plot, if anywhere.
    plot: Option<String>,
    /// `--pool`: measure only this pool (for counting one pool's system
    /// calls with strace); no ratios then.
    pool: Option<Which>,
}

impl Options {
    /// Rounds of a benchmark that takes milliseconds per measurement.
    fn short_rounds(&self) -> usize {
        if self.quick {
            5
        } else {
            21
        }
    }

    /// Rounds of a benchmark that takes a second or more per measurement,
    /// and of the program rows.
    fn long_rounds(&self) -> usize {
        if self.quick {
            3
        } else {
            7
        }
    }

    /// Rounds of each point of the load sweep.
    fn sweep_rounds(&self) -> usize {
        if self.quick {
            1
        } else {
            5
        }
    }

    /// How long each point of the load sweep injects jobs.
    fn sweep_duration(&self) -> Duration {
        if self.quick {
            Duration::from_millis(200)
        } else {
            Duration::from_secs(1)
        }
    }

    /// The pool sizes of the program rows and the sweep: 1 (programs only),
    /// 2, 8, and every CPU when that is more.
    fn thread_counts(&self, with_one: bool) -> Vec<usize> {
        let mut counts = if with_one { vec![1, 2, 8] } else { vec![2, 8] };
        if self.threads > 8 {
            counts.push(self.threads);
        }
        counts
    }

    /// Whether `--only` selects a benchmark: by its name, or by a prefix
    /// written with a trailing `*`.
    fn selects(&self, name: &str) -> bool {
        self.only.as_ref().map_or(true, |only| {
            only.iter().any(|pattern| pattern_selects(pattern, name))
        })
    }
}

/// `NAME` selects the benchmark of that name, `PREFIX*` every benchmark
/// whose name starts with PREFIX.
fn pattern_selects(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// The figures one measurement produces (several for the sporadic runs).
type Figures = Vec<f64>;

/// A benchmark: its name, the name and unit of each figure it produces,
/// which of the [`Options`]' round counts it uses, the peers measured
/// beside Drowse, and how to measure one pool once.
struct Bench {
    name: String,
    figures: Vec<(String, &'static str)>,
    rounds: Rounds,
    peers: &'static [Which],
    run: Run,
}

/// The peer of every row but the `peer_*` ones.
const RAYON_ONLY: &[Which] = &[Which::Rayon];
/// The peers of the `peer_*` rows.
const CHILI_AND_RAYON: &[Which] = &[Which::Chili, Which::Rayon];

/// Which of the [`Options`]' round counts a benchmark uses.
#[derive(Clone, Copy)]
enum Rounds {
    Short,
    Long,
    Sweep,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Drowse,
    Rayon,
    /// chili 0.2: a peer of the `peer_*` rows only.
    Chili,
}

impl Which {
    /// How the pool is named in output.
    fn name(self) -> &'static str {
        match self {
            Which::Drowse => Drowse::NAME,
            Which::Rayon => Rayon::NAME,
            Which::Chili => "chili",
        }
    }
}

/// The pool a command-line value names (`drowse`, or `rayon` /
/// `rayon-core`, or `chili` where `peers` allows it); any other value ends
/// the process with a message naming `option`.
fn which_pool(option: &str, name: &str, peers: bool) -> Which {
    match name {
        "drowse" => Which::Drowse,
        "rayon" | "rayon-core" => Which::Rayon,
        "chili" if peers => Which::Chili,
        other => {
            let chili = if peers {
                ", rayon or chili"
            } else {
                " or rayon"
            };
            eprintln!("compare: {option} takes drowse{chili}, not '{other}'");
            exit(2)
        }
    }
}

/// Calls the generic measurement `$f::<Drowse>` or `$f::<Rayon>` (rows
/// whose only peer is rayon-core).
macro_rules! by_pool {
    ($which:expr, $f:ident, $arg:expr) => {
        match $which {
            Which::Drowse => $f::<Drowse>($arg),
            Which::Rayon => $f::<Rayon>($arg),
            Which::Chili => unreachable!("chili is a peer of the peer_* rows only"),
        }
    };
}

type Run = Box<dyn Fn(&Options, Which) -> Figures>;

fn single(
    name: String,
    unit: &'static str,
    long: bool,
    run: impl Fn(&Options, Which) -> Figures + 'static,
) -> Bench {
    Bench {
        figures: vec![(name.clone(), unit)],
        name,
        rounds: if long { Rounds::Long } else { Rounds::Short },
        peers: RAYON_ONLY,
        run: Box::new(run),
    }
}

fn sporadic_bench(mode: &str, run: impl Fn(&Options, Which) -> Figures + 'static) -> Bench {
    let s = SPORADIC_THREADS;
    Bench {
        name: format!("sporadic_{mode}_{s}t"),
        figures: vec![
            (format!("sporadic_{mode}_{s}t_cpu"), "ms CPU/s"),
            (format!("sporadic_{mode}_{s}t_p50"), "us"),
            (format!("sporadic_{mode}_{s}t_p99"), "us"),
            (format!("sporadic_{mode}_{s}t_blocks"), "blocks/job"),
        ],
        rounds: Rounds::Long,
        peers: RAYON_ONLY,
        run: Box::new(run),
    }
}

/// A program row: wall time and pool CPU of one run.
fn program_bench(
    program: &str,
    threads: usize,
    run: impl Fn(&Options, Which) -> Figures + 'static,
) -> Bench {
    let name = format!("{program}_{threads}t");
    Bench {
        figures: vec![
            (format!("{name}_time"), "ms"),
            (format!("{name}_cpu"), "ms CPU"),
        ],
        name,
        rounds: Rounds::Long,
        peers: RAYON_ONLY,
        run: Box::new(run),
    }
}

/// The rates of the load sweep, in jobs per second.
const SWEEP_RATES: [u32; 5] = [100, 1_000, 10_000, 50_000, 100_000];

/// A point of the load sweep.
fn sweep_bench(mode: Mode, rate: u32, threads: usize) -> Bench {
    let name = format!("sweep_{}_{}_{threads}t", mode.name(), rate_name(rate));
    Bench {
        figures: vec![
            (format!("{name}_cpu"), "ms CPU/s"),
            (format!("{name}_p50"), "us"),
            (format!("{name}_p99"), "us"),
            (format!("{name}_p999"), "us"),
            (format!("{name}_rate"), "jobs/s"),
        ],
        name,
        rounds: Rounds::Sweep,
        peers: RAYON_ONLY,
        run: Box::new(move |o, w| {
            let period = Duration::from_secs(1) / rate;
            let mut figures = match w {
                Which::Drowse => load::<Drowse>(threads, mode, period, o.sweep_duration()),
                Which::Rayon => load::<Rayon>(threads, mode, period, o.sweep_duration()),
                Which::Chili => unreachable!("chili is a peer of the peer_* rows only"),
            };
            figures.remove(4); // blocks per job: the sporadic rows show it
            figures
        }),
    }
}

/// A `peer_*` row: one workload at one pool size, measured on Drowse,
/// chili and rayon-core.
fn peer_bench(work: PeerWork, threads: usize) -> Bench {
    let name = format!("peer_{}_{threads}t", work.name());
    Bench {
        figures: vec![(name.clone(), work.unit())],
        name,
        rounds: Rounds::Short,
        peers: CHILI_AND_RAYON,
        run: Box::new(move |_, w| peer_measure(w, threads, work)),
    }
}

fn rate_name(rate: u32) -> String {
    if rate >= 1000 {
        format!("{}khz", rate / 1000)
    } else {
        format!("{rate}hz")
    }
}

fn benches(options: &Options) -> Vec<Bench> {
    let t = options.threads;
    let s = SPORADIC_THREADS;
    let mut all = vec![
        single(format!("join_fib{FIB_N}_1t"), "ns/join", false, |_, w| {
            by_pool!(w, join_fib, 1)
        }),
        single(format!("join_fib{FIB_N}_2t"), "ns/join", false, |_, w| {
            by_pool!(w, join_fib, 2)
        }),
        single("tree1023_1t".to_string(), "us/tree", false, |_, w| {
            by_pool!(w, tree, 1)
        }),
        single(format!("tree1023_{t}t"), "us/tree", false, |o, w| {
            by_pool!(w, tree, o.threads)
        }),
        single(format!("sum10M_{t}t"), "ms", false, |o, w| {
            by_pool!(w, sum_10m, o.threads)
        }),
        single(format!("scope100k_{t}t"), "ns/spawn", false, |o, w| {
            by_pool!(w, scope_100k, o.threads)
        }),
        single(format!("spawn_flood1M_{t}t"), "ns/spawn", false, |o, w| {
            by_pool!(w, spawn_flood_1m, o.threads)
        }),
        single(format!("idle_{s}t_2s"), "ms CPU", true, |_, w| {
            by_pool!(w, idle, SPORADIC_THREADS)
        }),
        sporadic_bench("spawn", |_, w| by_pool!(w, sporadic, Mode::Spawn)),
        sporadic_bench("install", |_, w| by_pool!(w, sporadic, Mode::Install)),
    ];
    // 1, 2 and every thread, each once (`--threads 1` or 2 repeats one).
    let mut peer_threads = vec![1, 2, t];
    peer_threads.sort_unstable();
    peer_threads.dedup();
    for work in PeerWork::ALL {
        for &threads in &peer_threads {
            all.push(peer_bench(work, threads));
        }
    }
    for threads in options.thread_counts(true) {
        let mut tsp_bench = program_bench("tsp", threads, move |_, w| by_pool!(w, tsp, threads));
        // How much of the search tree a run explored: the schedule decides
        // it, so a CPU gap can be more work rather than a costlier pool.
        tsp_bench
            .figures
            .push((format!("tsp_{threads}t_nodes"), "nodes/run"));
        all.push(tsp_bench);
        all.push(program_bench("quicksort", threads, move |_, w| {
            by_pool!(w, quicksort, threads)
        }));
        all.push(program_bench("mergesort", threads, move |_, w| {
            by_pool!(w, mergesort, threads)
        }));
        all.push(program_bench("life", threads, move |_, w| {
            by_pool!(w, life, threads)
        }));
        all.push(program_bench("nbody", threads, move |_, w| {
            by_pool!(w, nbody, threads)
        }));
    }
    for threads in options.thread_counts(false) {
        all.push(single(
            format!("noop_10ms_{threads}t_cpu"),
            "ms CPU/s",
            true,
            move |_, w| by_pool!(w, noop, threads),
        ));
    }
    for mode in [Mode::Spawn, Mode::Install] {
        for threads in options.thread_counts(false) {
            for rate in SWEEP_RATES {
                all.push(sweep_bench(mode, rate, threads));
            }
        }
    }
    all
}

// ---------------------------------------------------------------------------
// Measurements: each builds a fresh pool, measures once, and finishes it.

/// ns per join of fib(FIB_N), timed inside the pool (after one warm-up run),
/// so that the install round trip is not counted.
fn join_fib<P: Pool>(threads: usize) -> Figures {
    let pool = Started::<P>::new(threads);
    pool.pool()
        .install(|| black_box(common::fib::<P>(black_box(15))));
    let (elapsed, value) = pool.pool().install(|| {
        let start = Instant::now();
        let value = common::fib::<P>(black_box(FIB_N));
        (start.elapsed(), value)
    });
    assert_eq!(value, common::fib_value(FIB_N), "{}: wrong fib", P::NAME);
    pool.finish();
    vec![elapsed.as_nanos() as f64 / common::joins_in_fib(FIB_N) as f64]
}

/// us per sum of the 1023-node tree, TREE_REPEATS sums timed inside the pool.
fn tree<P: Pool>(threads: usize) -> Figures {
    let tree = Node::tree(common::TREE_LEVELS);
    let expected = 1023 * 1024 / 2;
    let pool = Started::<P>::new(threads);
    pool.pool()
        .install(|| black_box(common::tree_sum::<P>(&tree)));
    let elapsed = pool.pool().install(|| {
        let start = Instant::now();
        for _ in 0..TREE_REPEATS {
            let total = common::tree_sum::<P>(black_box(&tree));
            assert_eq!(total, expected, "{}: wrong tree sum", P::NAME);
        }
        start.elapsed()
    });
    pool.finish();
    vec![elapsed.as_secs_f64() * 1e6 / f64::from(TREE_REPEATS)]
}

/// ms per divide-and-conquer sum of 10M u64, timed inside the pool.
fn sum_10m<P: Pool>(threads: usize) -> Figures {
    thread_local! {
        static DATA: Vec<u64> = (0..SUM_LEN).collect();
    }
    DATA.with(|data| {
        let pool = Started::<P>::new(threads);
        pool.pool().install(|| black_box(common::sum::<P>(data)));
        let (elapsed, total) = pool.pool().install(|| {
            let start = Instant::now();
            let total = common::sum::<P>(black_box(data));
            (start.elapsed(), total)
        });
        assert_eq!(total, SUM_LEN * (SUM_LEN - 1) / 2, "{}: wrong sum", P::NAME);
        pool.finish();
        vec![elapsed.as_secs_f64() * 1e3]
    })
}

/// ns per spawn of a scope with 100k spawns, called from outside the pool.
fn scope_100k<P: Pool>(threads: usize) -> Figures {
    let pool = Started::<P>::new(threads);
    common::scope_spawns(pool.pool(), 1000);
    let start = Instant::now();
    common::scope_spawns(pool.pool(), SCOPE_SPAWNS);
    let elapsed = start.elapsed();
    pool.finish();
    vec![elapsed.as_nanos() as f64 / SCOPE_SPAWNS as f64]
}

/// ns per spawn of 1M empty spawns from an outside thread, until all ran.
fn spawn_flood_1m<P: Pool>(threads: usize) -> Figures {
    let pool = Started::<P>::new(threads);
    common::spawn_flood(pool.pool(), 1000);
    let start = Instant::now();
    common::spawn_flood(pool.pool(), FLOOD_SPAWNS);
    let elapsed = start.elapsed();
    pool.finish();
    vec![elapsed.as_nanos() as f64 / FLOOD_SPAWNS as f64]
}

/// ms of CPU used by the pool's workers in the 2 s after all have started.
fn idle<P: Pool>(threads: usize) -> Figures {
    let pool = Started::<P>::new(threads);
    let before = pool_cpu(&pool);
    thread::sleep(IDLE_DURATION);
    let used = pool_cpu(&pool) - before;
    pool.finish();
    vec![used as f64 / 1e6]
}

/// ns per unit (node, call, element) of one run of a peer workload on a
/// fresh `threads`-thread pool of `which`, after a warm-up (fib(15)) on the
/// same pool; the result is checked against the sequential code's. A chili
/// pool of N threads is N - 1 workers and the thread that opens its scope;
/// a Drowse or rayon-core pool of N is N workers, the caller of `install`
/// waiting: N threads run the recursion in both.
fn peer_measure(which: Which, threads: usize, work: PeerWork) -> Figures {
    let (elapsed, result) = match which {
        Which::Drowse => work.run_on_pool::<Drowse>(threads),
        Which::Rayon => work.run_on_pool::<Rayon>(threads),
        Which::Chili => work.run_on_chili(threads),
    };
    assert_eq!(
        result,
        work.expected(),
        "{}: peer_{} computed something else than the sequential code",
        which.name(),
        work.name()
    );
    vec![elapsed.as_nanos() as f64 / work.units()]
}

/// Runs `work` once on a fresh `threads`-thread pool whose workers have all
/// started (and are asleep or searching, as a program's pool is when the
/// program first uses it). Figures: the wall time of `work` and the CPU the
/// pool's workers used meanwhile, both in ms.
fn program_run<P: Pool>(threads: usize, work: impl FnOnce(&P)) -> Figures {
    let pool = Started::<P>::new(threads);
    let cpu_before = pool_cpu(&pool);
    let start = Instant::now();
    work(pool.pool());
    let elapsed = start.elapsed();
    let cpu = pool_cpu(&pool) - cpu_before;
    pool.finish();
    vec![elapsed.as_secs_f64() * 1e3, cpu as f64 / 1e6]
}

fn is_sorted(data: &[u32]) -> bool {
    data.windows(2).all(|pair| pair[0] <= pair[1])
}

/// Checks that every run of a program computes what the first one did.
fn same_as_first<T: Copy + PartialEq + std::fmt::Debug>(first: &OnceLock<T>, value: T, what: &str) {
    let expected = *first.get_or_init(|| value);
    assert_eq!(expected, value, "{what}: a run computed something else");
}

/// Cities of the branch-and-bound instance.
const TSP_CITIES: usize = 14;
/// Elements of each sort.
const SORT_LEN: usize = 1_000_000;
/// The stencil's grid side and generations.
const LIFE_SIDE: usize = 256;
const LIFE_GENERATIONS: usize = 100;
/// Bodies and time steps of the n-body run.
const NBODY_BODIES: usize = 1024;
const NBODY_STEPS: usize = 8;
/// The noop row: one empty spawn after each 10 ms sleep, for 1 s.
const NOOP_PERIOD: Duration = Duration::from_millis(10);
const NOOP_SPAWNS: usize = 100;

fn tsp<P: Pool>(threads: usize) -> Figures {
    static CITIES: OnceLock<Cities> = OnceLock::new();
    static SHORTEST: OnceLock<u32> = OnceLock::new();
    let cities = CITIES.get_or_init(|| Cities::random(TSP_CITIES, 1));
    SHORTEST.get_or_init(|| programs::tsp_serial(cities));
    let (mut shortest, mut nodes) = (0, 0);
    let mut figures = program_run::<P>(threads, |pool| {
        (shortest, nodes) = programs::tsp(pool, cities);
    });
    same_as_first(&SHORTEST, shortest, "tsp");
    figures.push(nodes as f64);
    figures
}

fn quicksort<P: Pool>(threads: usize) -> Figures {
    let mut data = programs::random_numbers(SORT_LEN, 2);
    let figures = program_run::<P>(threads, |pool| {
        pool.install(|| programs::quicksort::<P>(&mut data))
    });
    assert!(is_sorted(&data), "{}: quicksort did not sort", P::NAME);
    figures
}

fn mergesort<P: Pool>(threads: usize) -> Figures {
    let mut data = programs::random_numbers(SORT_LEN, 3);
    let mut scratch = vec![0; SORT_LEN];
    let figures = program_run::<P>(threads, |pool| {
        pool.install(|| programs::mergesort::<P>(&mut data, &mut scratch))
    });
    assert!(is_sorted(&data), "{}: mergesort did not sort", P::NAME);
    figures
}

fn life<P: Pool>(threads: usize) -> Figures {
    static ALIVE: OnceLock<usize> = OnceLock::new();
    let mut grid = Grid::random(LIFE_SIDE, LIFE_SIDE, 4);
    let mut alive = 0;
    let figures = program_run::<P>(threads, |pool| {
        alive = programs::life(pool, &mut grid, LIFE_GENERATIONS)
    });
    same_as_first(&ALIVE, alive, "life");
    figures
}

fn nbody<P: Pool>(threads: usize) -> Figures {
    static CHECKSUM: OnceLock<u64> = OnceLock::new();
    let mut bodies = programs::random_bodies(NBODY_BODIES, 5);
    let mut checksum = 0.0;
    let figures = program_run::<P>(threads, |pool| {
        checksum = programs::nbody(pool, &mut bodies, NBODY_STEPS)
    });
    same_as_first(&CHECKSUM, checksum.to_bits(), "nbody");
    figures
}

/// The pool's CPU per second of the noop loop (ms/s).
fn noop<P: Pool>(threads: usize) -> Figures {
    let figures = program_run::<P>(threads, |pool| {
        programs::noop(pool, NOOP_PERIOD, NOOP_SPAWNS)
    });
    vec![figures[1] / (figures[0] / 1e3)]
}

#[derive(Clone, Copy)]
enum Mode {
    Spawn,
    Install,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Spawn => "spawn",
            Mode::Install => "install",
        }
    }
}

/// Waits until `due` on the injecting thread: sleeps while the wait is long
/// (with the timer slack set to 1 ns by `main`, a sleep ends within a few
/// microseconds of its deadline), and yields for the last stretch, so that
/// rates up to 100 kHz are kept without a busy core.
fn wait_until(due: Instant) {
    const SLEEP_ABOVE: Duration = Duration::from_micros(30);
    loop {
        let now = Instant::now();
        if now >= due {
            return;
        }
        let left = due - now;
        if left > SLEEP_ABOVE {
            thread::sleep(left - SLEEP_ABOVE / 2);
        } else {
            thread::yield_now();
        }
    }
}

/// Tiny jobs at a mean rate of one per `period` for `duration`, from this
/// (outside) thread, into a `threads`-thread pool that starts asleep. The
/// arrivals are an open-loop schedule fixed in advance: the gaps between
/// them are drawn uniformly between half and one and a half `period`
/// (seeded, the same for every pool), as events that do not wait for the
/// pool arrive. A job's latency runs from when it was due to its start:
/// its scheduled arrival, so that a call this thread makes late because it
/// was descheduled while the pool's workers ran is counted as late, as its
/// user would see it; or, if the previous call returned after that
/// arrival (an `install` blocks its caller), that return, so that a
/// blocking caller behind the schedule is not charged the queue of its
/// own earlier calls. Calls behind the schedule are made at once. Figures: the workers' CPU per second of the run
/// (ms/s); the p50, p99 and p99.9 of that latency (us); how many times the
/// workers blocked per job (went to sleep, or waited for a contended lock:
/// their voluntary context switches); and the rate achieved (jobs per
/// second).
fn load<P: Pool>(threads: usize, mode: Mode, period: Duration, duration: Duration) -> Figures {
    let pool = Started::<P>::new(threads);
    thread::sleep(SETTLE);
    let jobs = ((duration.as_nanos() / period.as_nanos()) as usize).max(1);
    // Each job's scheduled arrival, in ns after the start.
    let period_ns = period.as_nanos() as u64;
    let arrivals: Vec<u64> = peers::seeded_u32s(jobs)
        .iter()
        .scan(0u64, |due, &draw| {
            let arrival = *due;
            *due += period_ns / 2 + ((period_ns * u64::from(draw)) >> 32);
            Some(arrival)
        })
        .collect();
    // Arrival-to-start latency of each job in ns; u64::MAX until it has run.
    let latencies: Arc<Vec<AtomicU64>> =
        Arc::new((0..jobs).map(|_| AtomicU64::new(u64::MAX)).collect());
    let cpu_before = pool_cpu(&pool);
    let sleeps_before = pool_sleeps(&pool);
    let base = Instant::now();
    // When this thread's previous call returned: it could not call before.
    let mut previous_returned = 0u64;
    // How late each call was made, in ns after the job was due (the
    // caller's part of the job's latency; the rest is the pool's).
    let mut call_lateness = Vec::with_capacity(jobs);
    for (job, &arrival) in arrivals.iter().enumerate() {
        wait_until(base + Duration::from_nanos(arrival));
        // A job is due at its arrival, or when the previous call returned if
        // that was later: an `install` that falls behind the schedule is
        // not charged the queue of the ones before it, only its own delay.
        let due = arrival.max(previous_returned);
        call_lateness.push((base.elapsed().as_nanos() as u64).saturating_sub(due));
        let record = {
            let latencies = Arc::clone(&latencies);
            move || {
                let started = base.elapsed().as_nanos() as u64;
                latencies[job].store(started - due, Ordering::Release);
            }
        };
        match mode {
            Mode::Spawn => pool.pool().spawn(record),
            Mode::Install => pool.pool().install(record),
        }
        previous_returned = base.elapsed().as_nanos() as u64;
    }
    // Wait for the last spawned jobs; installs have all finished already.
    let deadline = Instant::now() + Duration::from_secs(30);
    while latencies
        .iter()
        .any(|l| l.load(Ordering::Acquire) == u64::MAX)
    {
        assert!(
            Instant::now() < deadline,
            "{}: jobs did not run within 30 s",
            P::NAME
        );
        thread::sleep(Duration::from_millis(1));
    }
    let elapsed = base.elapsed();
    let cpu = pool_cpu(&pool) - cpu_before;
    let sleeps = pool_sleeps(&pool) - sleeps_before;
    pool.finish();
    let by_job: Vec<u64> = latencies
        .iter()
        .map(|l| l.load(Ordering::Acquire))
        .collect();
    let mut sorted = by_job.clone();
    sorted.sort_unstable();
    if DETAIL.load(Ordering::Relaxed) {
        print_tail_split::<P>(mode, threads, period, &by_job, &call_lateness, &sorted);
        let late = sorted
            .iter()
            .filter(|&&l| l > period.as_nanos() as u64 / 2)
            .count();
        println!(
            "detail\t{}\t{}\t{threads}t\t{:.0} Hz\tp90 {} us, p99.9 {} us, max {} us, {late} of {jobs} jobs started more than half a period late",
            P::NAME,
            mode.name(),
            1.0 / period.as_secs_f64(),
            per_mille(&sorted, 900) / 1000,
            per_mille(&sorted, 999) / 1000,
            sorted[sorted.len() - 1] / 1000,
        );
    }
    vec![
        cpu as f64 / 1e6 / elapsed.as_secs_f64(),
        per_mille(&sorted, 500) as f64 / 1e3,
        per_mille(&sorted, 990) as f64 / 1e3,
        per_mille(&sorted, 999) as f64 / 1e3,
        sleeps as f64 / jobs as f64,
        jobs as f64 / elapsed.as_secs_f64(),
    ]
}

/// Where the slowest hundredth of a load run's jobs lost their time: for
/// the jobs at or above the p99 (`by_job`, each job's latency), the median
/// of how late this thread made the call (`call_lateness`: descheduled, or
/// behind the schedule) and the median of the rest, from the call to the
/// job's start (the pool's part: the post, any wake-up, the search). A
/// tail that is mostly the caller's says the pool's threads took the CPU
/// from the caller; one that is mostly the pool's, that the job waited in
/// the pool.
fn print_tail_split<P: Pool>(
    mode: Mode,
    threads: usize,
    period: Duration,
    by_job: &[u64],
    call_lateness: &[u64],
    sorted: &[u64],
) {
    let p99 = per_mille(sorted, 990);
    let (mut caller, mut pool): (Vec<u64>, Vec<u64>) = by_job
        .iter()
        .zip(call_lateness)
        .filter(|&(&latency, _)| latency >= p99)
        .map(|(&latency, &late)| (late.min(latency), latency - late.min(latency)))
        .unzip();
    let mostly_caller = caller.iter().zip(&pool).filter(|(c, p)| c > p).count();
    let tail = caller.len();
    caller.sort_unstable();
    pool.sort_unstable();
    println!(
        "tail\t{}\t{}\t{threads}t\t{:.0} Hz\t{tail} jobs at or above the p99 ({} us): median {} us of the caller's lateness and {} us in the pool; {mostly_caller} of them mostly the caller's",
        P::NAME,
        mode.name(),
        1.0 / period.as_secs_f64(),
        p99 / 1000,
        per_mille(&caller, 500) as f64 / 1e3,
        per_mille(&pool, 500) as f64 / 1e3,
    );
}

/// The sporadic rows: 1 kHz for 1 s on SPORADIC_THREADS threads.
fn sporadic<P: Pool>(mode: Mode) -> Figures {
    let mut figures = load::<P>(SPORADIC_THREADS, mode, SPORADIC_PERIOD, SPORADIC_DURATION);
    figures.remove(3); // p99.9: of 1,000 jobs, the second slowest
    figures.truncate(4);
    figures
}

/// Whether `--samples` asked for the latency details of the sporadic runs.
static DETAIL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The value below which `per_mille` thousandths of `sorted` lie (the
/// nearest-rank quantile).
fn per_mille(sorted: &[u64], per_mille: usize) -> u64 {
    let rank = (sorted.len() * per_mille).div_ceil(1000).max(1);
    sorted[rank - 1]
}

fn pool_sleeps<P: Pool>(pool: &Started<P>) -> u64 {
    pool.sleeps().unwrap_or_else(|| {
        eprintln!("compare: per-thread context switch counts are not available on this platform");
        exit(2)
    })
}

fn pool_cpu<P: Pool>(pool: &Started<P>) -> u64 {
    pool.cpu_ns().unwrap_or_else(|| {
        eprintln!("compare: per-thread CPU clocks are not available on this platform");
        exit(2)
    })
}

// ---------------------------------------------------------------------------

fn run(options: &Options) {
    let all = benches(options);
    if let Some(only) = &options.only {
        for pattern in only {
            if !all.iter().any(|b| pattern_selects(pattern, &b.name)) {
                eprintln!("compare: no benchmark named '{pattern}' (see --list)");
                exit(2);
            }
        }
    }
    let mut results: Vec<(String, f64, f64)> = Vec::new();
    println!(
        "# compare: drowse vs rayon-core 1.13.0 (and chili 0.2 on the peer_* rows); {} mode; {} threads for the *_{}t rows; {} CPUs available",
        if options.quick { "quick" } else { "full" },
        options.threads,
        options.threads,
        available_cpus(),
    );
    println!(
        "# rounds: {} per short benchmark, {} per long one (idle, sporadic, programs), {} per sweep point of {} ms; figure = median over rounds; ratio = drowse / peer",
        options.short_rounds(),
        options.long_rounds(),
        options.sweep_rounds(),
        options.sweep_duration().as_millis(),
    );
    let rounds_policy = common::DROWSE_SEARCH_ROUNDS.load(Ordering::Relaxed);
    if rounds_policy != 0 {
        println!("# drowse pools built with search_rounds_before_sleep({rounds_policy})");
    }
    for bench in &all {
        if !options.selects(&bench.name) {
            continue;
        }
        let rounds = match bench.rounds {
            Rounds::Short => options.short_rounds(),
            Rounds::Long => options.long_rounds(),
            Rounds::Sweep => options.sweep_rounds(),
        };
        // Drowse first, then its peers; each round's figures per pool.
        let pools: Vec<Which> = std::iter::once(Which::Drowse)
            .chain(bench.peers.iter().copied())
            .collect();
        let mut measured: Vec<Vec<Figures>> = vec![Vec::new(); pools.len()];
        for round in 0..rounds {
            let mut order: Vec<usize> = (0..pools.len()).collect();
            if round % 2 == 1 {
                order.reverse();
            }
            for slot in order {
                let which = pools[slot];
                if options.pool.is_some_and(|only| only != which) {
                    continue;
                }
                let figures = (bench.run)(options, which);
                if options.samples {
                    for ((name, unit), value) in bench.figures.iter().zip(&figures) {
                        let pool = which.name();
                        println!("sample\t{name}\t{unit}\t{pool}\t{round}\t{value:.3}");
                    }
                }
                measured[slot].push(figures);
            }
        }
        if options.pool.is_some() {
            continue;
        }
        let drowse = &measured[0];
        for (index, (name, unit)) in bench.figures.iter().enumerate() {
            for (peer, other) in pools.iter().zip(&measured).skip(1) {
                let d = median(&mut drowse.iter().map(|f| f[index]).collect::<Vec<_>>());
                let r = median(&mut other.iter().map(|f| f[index]).collect::<Vec<_>>());
                let ratio = if r > 0.0 {
                    format!("{:.2}", d / r)
                } else {
                    "-".to_string()
                };
                // The spread: the ratio of the two measurements of each
                // round (made back to back, so under the same outside load),
                // and the middle half of those ratios.
                let mut paired: Vec<f64> = drowse
                    .iter()
                    .zip(other)
                    .filter(|(_, r)| r[index] > 0.0)
                    .map(|(d, r)| d[index] / r[index])
                    .collect();
                let spread = if paired.is_empty() {
                    "-".to_string()
                } else {
                    let (p25, p75) = quartiles(&mut paired);
                    format!("{p25:.2}-{p75:.2}")
                };
                println!(
                    "result\t{name}\t{unit}\t{}\t{}\t{ratio}\t{spread}\t{}",
                    figure(d),
                    figure(r),
                    peer.name()
                );
                if *peer == Which::Rayon {
                    results.push((name.clone(), d, r));
                }
            }
        }
    }
    if let Some(path) = &options.plot {
        match plot::sweep_svg(path, &results, &options.thread_counts(false)) {
            Ok(true) => println!("# sweep plot written to {path}"),
            Ok(false) => println!("# no sweep plot: no sweep point ran"),
            Err(error) => {
                eprintln!("compare: cannot write the sweep plot {path}: {error}");
                exit(1)
            }
        }
    }
}

/// Three significant digits, without exponents.
fn figure(value: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    let digits = (2 - value.abs().log10().floor() as i32).max(0) as usize;
    format!("{value:.digits$}")
}

fn available_cpus() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// fib(n) with a join at every call on a 1-thread pool, or serially; the
/// pool's thread has exited when this returns.
fn callgrind_fib(pool: &str, n: u32) {
    fn on_pool<P: Pool>(n: u32) -> u64 {
        let pool = Started::<P>::new(1);
        let value = pool.pool().install(|| common::fib::<P>(black_box(n)));
        pool.finish();
        value
    }
    let value = match pool {
        "drowse" => on_pool::<Drowse>(n),
        "rayon" | "rayon-core" => on_pool::<Rayon>(n),
        "serial" => common::fib_serial(black_box(n)),
        other => {
            eprintln!("compare: --callgrind-fib takes drowse, rayon or serial, not '{other}'");
            exit(2)
        }
    };
    assert_eq!(value, common::fib_value(n), "{pool}: wrong fib");
    println!(
        "callgrind-fib\t{pool}\t{n}\t{}\t{value}",
        common::joins_in_fib(n)
    );
}

/// `sums` sums of the 1023-node tree inside one `install` on a 1-thread
/// pool (the `tree1023_1t` row's work); the pool's thread has exited when
/// this returns.
fn callgrind_tree(pool: &str, sums: u32) {
    fn on_pool<P: Pool>(sums: u32) {
        let tree = Node::tree(common::TREE_LEVELS);
        let pool = Started::<P>::new(1);
        let total = pool.pool().install(|| {
            (0..sums)
                .map(|_| common::tree_sum::<P>(black_box(&tree)))
                .sum::<u64>()
        });
        pool.finish();
        assert_eq!(
            total,
            u64::from(sums) * 1023 * 1024 / 2,
            "{}: wrong tree sum",
            P::NAME
        );
    }
    by_pool!(which_pool("--callgrind-tree", pool, false), on_pool, sums);
    println!("callgrind-tree\t{pool}\t{sums}");
}

/// The levels of the tree of `--callgrind-peer-tree`: 1023 nodes.
const PEER_CALLGRIND_TREE_LEVELS: u32 = 10;

/// A peer workload under callgrind.
#[derive(Clone, Copy)]
enum PeerCallgrind {
    /// fib(N) (`--callgrind-peer-fib`).
    Fib(u32),
    /// SUMS sums of the 1023-node peer tree (`--callgrind-peer-tree`).
    Tree(u32),
}

/// A workload of the `peer_*` rows (common/peers.rs, the same code for
/// every pool) on a 1-thread pool of `pool` (Drowse, rayon-core, or chili's
/// `Scope::join` on a 1-thread `chili::ThreadPool`), checked against the
/// sequential code; the pool's threads have exited when this returns.
/// `peers::fib` joins at every call with n >= 2, as `common::fib` does;
/// `peers::tree_sum` joins at every node, a leaf on two empty halves, so a
/// sum of the 1023-node tree makes 1023 joins.
fn callgrind_peer(work: PeerCallgrind, pool: &str) {
    fn run<F: Fork>(work: PeerCallgrind, tree: &peers::Node, ctx: &mut F::Ctx<'_>) -> u64 {
        match work {
            PeerCallgrind::Fib(n) => peers::fib::<F>(black_box(u64::from(n)), ctx),
            PeerCallgrind::Tree(sums) => (0..sums)
                .map(|_| peers::tree_sum::<F>(black_box(tree), ctx))
                .sum(),
        }
    }
    fn on_pool<P: Pool>(work: PeerCallgrind, tree: &peers::Node) -> u64 {
        let pool = Started::<P>::new(1);
        let value = pool.pool().install(|| run::<Joins<P>>(work, tree, &mut ()));
        pool.finish();
        value
    }
    let (option, arg) = match work {
        PeerCallgrind::Fib(n) => ("--callgrind-peer-fib", n),
        PeerCallgrind::Tree(sums) => ("--callgrind-peer-tree", sums),
    };
    let which = which_pool(option, pool, true);
    let tree = peers::Node::tree(PEER_CALLGRIND_TREE_LEVELS);
    // What the sequential code computes: a closed form for fib, one
    // sequential sum for the tree (the same in every run of this mode, so
    // it cancels in a difference of two sizes).
    let expected = match work {
        PeerCallgrind::Fib(n) => common::fib_value(n),
        PeerCallgrind::Tree(sums) => {
            u64::from(sums) * peers::tree_sum::<Sequential>(&tree, &mut ())
        }
    };
    let value = match which {
        Which::Drowse => on_pool::<Drowse>(work, &tree),
        Which::Rayon => on_pool::<Rayon>(work, &tree),
        Which::Chili => {
            let pool = chili::ThreadPool::with_config(chili::Config {
                thread_count: NonZeroUsize::new(1),
                ..chili::Config::default()
            });
            let value = run::<peers::Chili>(work, &tree, &mut pool.scope());
            drop(pool);
            value
        }
    };
    assert_eq!(
        value,
        expected,
        "{}: {option} computed something else than the sequential code",
        which.name()
    );
    println!("callgrind-peer\t{option}\t{pool}\t{arg}\t{value}");
}

/// One scope spawning `n` jobs on a 1-thread pool, from outside the pool;
/// the pool's thread has exited when this returns.
fn callgrind_scope(pool: &str, n: usize) {
    fn on_pool<P: Pool>(n: usize) {
        let pool = Started::<P>::new(1);
        common::scope_spawns(pool.pool(), black_box(n));
        pool.finish();
    }
    by_pool!(which_pool("--callgrind-scope", pool, false), on_pool, n);
    println!("callgrind-scope\t{pool}\t{n}");
}

/// `jobs` empty spawns into a `threads`-thread pool, one per 10 ms from this
/// thread, then the pool is finished: under callgrind, the difference of two
/// job counts is the pool's instructions per sparse job (the job's wake-up,
/// its run, and the search after it until the worker sleeps again).
fn callgrind_sparse(pool: &str, threads: usize, jobs: usize) {
    fn on_pool<P: Pool>(threads: usize, jobs: usize) {
        let pool = Started::<P>::new(threads);
        thread::sleep(SETTLE);
        programs::noop(pool.pool(), Duration::from_millis(10), jobs);
        thread::sleep(SETTLE);
        pool.finish();
    }
    match which_pool("--callgrind-sparse", pool, false) {
        Which::Drowse => on_pool::<Drowse>(threads, jobs),
        Which::Rayon => on_pool::<Rayon>(threads, jobs),
        Which::Chili => unreachable!("which_pool refuses chili here"),
    }
    println!("callgrind-sparse\t{pool}\t{threads}\t{jobs}");
}

/// One run of a program row on a 1-thread pool, for callgrind.
fn callgrind_program(program: &str, pool: &str) {
    let run: fn(usize) -> Figures = match (program, pool) {
        ("tsp", "drowse") => tsp::<Drowse>,
        ("tsp", "rayon") => tsp::<Rayon>,
        ("quicksort", "drowse") => quicksort::<Drowse>,
        ("quicksort", "rayon") => quicksort::<Rayon>,
        ("mergesort", "drowse") => mergesort::<Drowse>,
        ("mergesort", "rayon") => mergesort::<Rayon>,
        ("life", "drowse") => life::<Drowse>,
        ("life", "rayon") => life::<Rayon>,
        ("nbody", "drowse") => nbody::<Drowse>,
        ("nbody", "rayon") => nbody::<Rayon>,
        _ => {
            eprintln!("compare: --callgrind-program takes tsp|quicksort|mergesort|life|nbody and drowse|rayon, not '{program} {pool}'");
            exit(2)
        }
    };
    run(1);
    println!("callgrind-program\t{program}\t{pool}");
}

fn main() {
    common::exit_unless_std_world("compare");
    let mut options = Options {
        quick: false,
        threads: available_cpus(),
        only: None,
        samples: false,
        plot: None,
        pool: None,
    };
    // BENCH_QUICK=1 is --quick, for smoke-testing a whole ci/bench run.
    if std::env::var_os("BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0") {
        options.quick = true;
    }
    // Linux: let the injecting thread's short sleeps end on time (the
    // default slack of 50 us would cap the sweep's rates).
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_TIMERSLACK only changes this thread's timer slack.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong);
    }
    let mut args = std::env::args().skip(1);
    let value_of = |args: &mut dyn Iterator<Item = String>, flag: &str| {
        args.next().unwrap_or_else(|| {
            eprintln!("compare: {flag} needs a value\n{USAGE}");
            exit(2)
        })
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every bench binary.
            "--bench" => {}
            "--quick" => options.quick = true,
            "--samples" => {
                options.samples = true;
                DETAIL.store(true, Ordering::Relaxed);
            }
            "--threads" => {
                let text = value_of(&mut args, "--threads");
                options.threads = match text.parse() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        eprintln!("compare: --threads needs a positive number, not '{text}'");
                        exit(2)
                    }
                };
            }
            "--pool" => {
                options.pool = Some(which_pool("--pool", &value_of(&mut args, "--pool"), true))
            }
            "--plot" => options.plot = Some(value_of(&mut args, "--plot")),
            "--drowse-search-rounds" => {
                let text = value_of(&mut args, "--drowse-search-rounds");
                match text.parse::<u32>() {
                    Ok(n) if n > 0 => common::DROWSE_SEARCH_ROUNDS.store(n, Ordering::Relaxed),
                    _ => {
                        eprintln!(
                            "compare: --drowse-search-rounds needs a positive number, not '{text}'"
                        );
                        exit(2)
                    }
                }
            }
            "--callgrind-sparse" => {
                let pool = value_of(&mut args, "--callgrind-sparse");
                let numbers: Vec<usize> = (0..2)
                    .map(|_| {
                        let text = value_of(&mut args, "--callgrind-sparse");
                        text.parse().unwrap_or_else(|_| {
                            eprintln!("compare: --callgrind-sparse needs numbers, not '{text}'");
                            exit(2)
                        })
                    })
                    .collect();
                callgrind_sparse(&pool, numbers[0], numbers[1]);
                return;
            }
            "--callgrind-program" => {
                let program = value_of(&mut args, "--callgrind-program");
                let pool = value_of(&mut args, "--callgrind-program");
                callgrind_program(&program, &pool);
                return;
            }
            "--only" => {
                let text = value_of(&mut args, "--only");
                options.only = Some(text.split(',').map(str::to_string).collect());
            }
            "--list" => {
                for bench in benches(&options) {
                    let units: Vec<String> = bench
                        .figures
                        .iter()
                        .map(|(name, unit)| format!("{name} ({unit})"))
                        .collect();
                    println!("{}\t{}", bench.name, units.join(", "));
                }
                return;
            }
            "--callgrind-fib" => {
                let pool = value_of(&mut args, "--callgrind-fib");
                let text = value_of(&mut args, "--callgrind-fib");
                let n = text.parse().unwrap_or_else(|_| {
                    eprintln!("compare: --callgrind-fib needs a number, not '{text}'");
                    exit(2)
                });
                callgrind_fib(&pool, n);
                return;
            }
            "--callgrind-tree" => {
                let pool = value_of(&mut args, "--callgrind-tree");
                let text = value_of(&mut args, "--callgrind-tree");
                let sums = text.parse().unwrap_or_else(|_| {
                    eprintln!("compare: --callgrind-tree needs a number, not '{text}'");
                    exit(2)
                });
                callgrind_tree(&pool, sums);
                return;
            }
            option @ ("--callgrind-peer-fib" | "--callgrind-peer-tree") => {
                let pool = value_of(&mut args, option);
                let text = value_of(&mut args, option);
                let number = text.parse().unwrap_or_else(|_| {
                    eprintln!("compare: {option} needs a number, not '{text}'");
                    exit(2)
                });
                let work = if option == "--callgrind-peer-fib" {
                    PeerCallgrind::Fib(number)
                } else {
                    PeerCallgrind::Tree(number)
                };
                callgrind_peer(work, &pool);
                return;
            }
            "--callgrind-scope" => {
                let pool = value_of(&mut args, "--callgrind-scope");
                let text = value_of(&mut args, "--callgrind-scope");
                let n = text.parse().unwrap_or_else(|_| {
                    eprintln!("compare: --callgrind-scope needs a number, not '{text}'");
                    exit(2)
                });
                callgrind_scope(&pool, n);
                return;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => {
                eprintln!("compare: unknown argument '{other}'\n{USAGE}");
                exit(2);
            }
        }
    }
    run(&options);
}
