//! The peer workloads of Drowse's benchmarks (core/benches/common/peers.rs)
//! on four pools in one process: Drowse, rayon-core 1.13.0, chili 0.2 and
//! forte 1.0.0-beta.2. forte needs Rust 1.96, newer than the toolchain of
//! the root workspace, so these rows are a package of their own, built with
//! its own pinned toolchain and run by `ci/bench-forte`; compare's `peer_*`
//! rows (`ci/bench`) measure the first three.
//!
//! Each row is one workload at one thread count. A round measures every
//! pool once, one right after the other, each on a fresh pool, in an order
//! that alternates from round to round (forward, then backward), so that
//! load from elsewhere on the machine hits them alike. A pool's figure is
//! its median over the rounds; every result is checked equal to the
//! sequential code's. Output: `#` lines describe the run, then per row and
//! peer one tab-separated line in the format of compare's:
//! `result <row> <unit> <drowse median> <peer median> <ratio> <spread> <peer>`,
//! the ratio being Drowse's median over the peer's (lower is better) and the
//! spread the p25-p75 of the rounds' own ratios.
//!
//! ```text
//! drowse-peers-forte [--quick] [--rounds N] [--threads N,...] [--only ROW,...]
//! ```

// The benches' shared code, as compare.rs uses it. It is written for the
// root workspace's MSRV (1.80), which predates `is_multiple_of`.
#[path = "../../core/benches/common/mod.rs"]
#[allow(clippy::manual_is_multiple_of)]
mod common;

use common::peers::{self, Fork, Joins, Sequential};
use common::{Drowse, Pool, Rayon, Started};
use std::hint::black_box;
use std::num::NonZeroUsize;
use std::process::exit;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// The forte pool of every forte measurement: forte's pools are statics,
/// so a fresh pool is this one grown from zero workers and emptied again.
static FORTE: forte::ThreadPool = forte::ThreadPool::new();

/// forte's `Worker::join`; each half is handed the worker it runs on.
pub struct Forte;

impl Fork for Forte {
    type Ctx<'c> = &'c forte::Worker;

    #[inline]
    fn fork<RA: Send, RB: Send>(
        worker: &mut &forte::Worker,
        a: impl for<'c> FnOnce(&mut &'c forte::Worker) -> RA + Send,
        b: impl for<'c> FnOnce(&mut &'c forte::Worker) -> RB + Send,
    ) -> (RA, RB) {
        worker.join(
            |mut on: &forte::Worker| a(&mut on),
            |mut on: &forte::Worker| b(&mut on),
        )
    }
}

/// Runs `op` on the forte pool with `threads - 1` workers and the calling
/// thread as a member (as a chili pool of `threads` is `threads - 1`
/// workers and the thread that opens its scope), then empties the pool and
/// waits for its workers to exit.
pub fn on_forte<R>(threads: usize, op: impl FnOnce(&mut &forte::Worker) -> R) -> R {
    let workers = threads - 1;
    let size = FORTE.resize_to(workers);
    assert_eq!(
        size, workers,
        "forte: the pool has {size} workers, not {workers}"
    );
    let result = FORTE.with_worker(|mut worker| op(&mut worker));
    FORTE.depopulate();
    result
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Peer {
    Drowse,
    Rayon,
    Chili,
    Forte,
}

impl Peer {
    /// Drowse first: its measurements are the numerators of the ratios.
    const ALL: [Peer; 4] = [Peer::Drowse, Peer::Rayon, Peer::Chili, Peer::Forte];

    fn name(self) -> &'static str {
        match self {
            Peer::Drowse => Drowse::NAME,
            Peer::Rayon => Rayon::NAME,
            Peer::Chili => "chili",
            Peer::Forte => "forte",
        }
    }
}

/// Nodes of a tree of 2^levels - 1 nodes: the rows' two trees.
const TREE_LEVELS: [u32; 2] = [20, 23];
const FIB_N: u64 = 30;
/// Elements of the sorted and the blurred slice.
const SLICE_LEN: usize = 1 << 20;

/// A workload of peers.rs with its input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Work {
    Tree(u32),
    Fib,
    Sort,
    Blur,
}

impl Work {
    const ALL: [Work; 5] = [
        Work::Tree(TREE_LEVELS[0]),
        Work::Tree(TREE_LEVELS[1]),
        Work::Fib,
        Work::Sort,
        Work::Blur,
    ];

    /// The row's name without its thread count; the `peer_*` rows of
    /// compare use the same names for the same work.
    fn name(self) -> String {
        match self {
            Work::Tree(levels) => format!("tree{levels}"),
            Work::Fib => format!("fib{FIB_N}"),
            Work::Sort => "qsort1m".to_string(),
            Work::Blur => "blur1m".to_string(),
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Work::Tree(_) => "ns/node",
            Work::Fib => "ns/call",
            Work::Sort | Work::Blur => "ns/elem",
        }
    }

    /// Nodes, calls or elements of one run: the figure is time over this.
    fn count(self) -> f64 {
        match self {
            Work::Tree(levels) => ((1u64 << levels) - 1) as f64,
            Work::Fib => peers::fib_calls(FIB_N) as f64,
            Work::Sort | Work::Blur => SLICE_LEN as f64,
        }
    }

    /// The tree of `levels` levels, built on first use and then shared by
    /// every run.
    fn tree(levels: u32) -> &'static peers::Node {
        static SMALL: OnceLock<peers::Node> = OnceLock::new();
        static LARGE: OnceLock<peers::Node> = OnceLock::new();
        let cell = if levels == TREE_LEVELS[0] {
            &SMALL
        } else {
            assert_eq!(levels, TREE_LEVELS[1], "no tree of {levels} levels");
            &LARGE
        };
        cell.get_or_init(|| peers::Node::tree(levels))
    }

    fn unsorted() -> &'static [u32] {
        static INPUT: OnceLock<Vec<u32>> = OnceLock::new();
        INPUT.get_or_init(|| peers::seeded_u32s(SLICE_LEN))
    }

    fn signal() -> &'static [f32] {
        static INPUT: OnceLock<Vec<f32>> = OnceLock::new();
        INPUT.get_or_init(|| {
            Work::unsorted()
                .iter()
                .map(|&x| (x % 1000) as f32)
                .collect()
        })
    }

    /// One run with `F`'s join: the time of the recursion alone (inputs
    /// and outputs are ready before the clock starts) and what it computed
    /// (the sum or fib value, or a checksum of the sorted or blurred slice).
    fn run<F: Fork>(self, ctx: &mut F::Ctx<'_>) -> (Duration, u64) {
        match self {
            Work::Tree(levels) => {
                let tree = Work::tree(levels);
                let start = Instant::now();
                let sum = peers::tree_sum::<F>(black_box(tree), ctx);
                (start.elapsed(), sum)
            }
            Work::Fib => {
                let start = Instant::now();
                let value = peers::fib::<F>(black_box(FIB_N), ctx);
                (start.elapsed(), value)
            }
            Work::Sort => {
                let mut data = Work::unsorted().to_vec();
                let start = Instant::now();
                peers::quicksort::<F>(black_box(&mut data), ctx);
                let elapsed = start.elapsed();
                (elapsed, peers::checksum(data.iter().map(|&x| u64::from(x))))
            }
            Work::Blur => {
                let input = Work::signal();
                // Written before the clock starts, so that the timed pass
                // does not fault the pages of a fresh zeroed allocation in.
                let mut out = vec![f32::NAN; input.len()];
                let start = Instant::now();
                peers::blur::<F>(input, black_box(&mut out), 0, ctx);
                let elapsed = start.elapsed();
                let bits = out.iter().map(|x| u64::from(x.to_bits()));
                (elapsed, peers::checksum(bits))
            }
        }
    }
}

/// One measurement of `work` on a fresh `threads`-thread pool of `peer`,
/// after fib(15) on the same pool as a warm-up: ns per unit, and the
/// result. Drowse and rayon-core pools are `threads` workers (the caller of
/// `install` waits), and every worker has started before the warm-up and
/// exited before this returns; chili's and forte's are `threads - 1`
/// workers and the calling thread.
fn measure(peer: Peer, threads: usize, work: Work) -> (f64, u64) {
    fn installed<P: Pool>(threads: usize, work: Work) -> (Duration, u64) {
        let pool = Started::<P>::new(threads);
        pool.pool()
            .install(|| black_box(peers::fib::<Joins<P>>(black_box(15), &mut ())));
        let timed = pool.pool().install(|| work.run::<Joins<P>>(&mut ()));
        pool.finish();
        timed
    }
    let (elapsed, result) = match peer {
        Peer::Drowse => installed::<Drowse>(threads, work),
        Peer::Rayon => installed::<Rayon>(threads, work),
        Peer::Chili => {
            let pool = chili::ThreadPool::with_config(chili::Config {
                thread_count: NonZeroUsize::new(threads),
                ..chili::Config::default()
            });
            let mut scope = pool.scope();
            black_box(peers::fib::<peers::Chili>(black_box(15), &mut scope));
            work.run::<peers::Chili>(&mut scope)
        }
        Peer::Forte => on_forte(threads, |worker| {
            black_box(peers::fib::<Forte>(black_box(15), worker));
            work.run::<Forte>(worker)
        }),
    };
    (elapsed.as_nanos() as f64 / work.count(), result)
}

/// Ends the process (exit status 3) if one measurement runs longer than
/// [`Watchdog::LIMIT`], naming it: a pool that hangs (forte 1.0.0-alpha.4's
/// could not shrink) fails the run instead of stalling it.
struct Watchdog {
    /// When the current measurement started, in ms after `base`; 0 when
    /// none is running.
    started_ms: AtomicU64,
    what: Mutex<String>,
    base: Instant,
}

impl Watchdog {
    const LIMIT: Duration = Duration::from_secs(120);

    fn start() -> &'static Watchdog {
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            started_ms: AtomicU64::new(0),
            what: Mutex::new(String::new()),
            base: Instant::now(),
        }));
        thread::spawn(move || loop {
            thread::sleep(Duration::from_secs(1));
            let started = dog.started_ms.load(Ordering::SeqCst);
            let now = dog.base.elapsed().as_millis() as u64;
            if started != 0 && now - started > Self::LIMIT.as_millis() as u64 {
                let what = dog.what.lock().unwrap();
                eprintln!(
                    "drowse-peers-forte: {what} has run for over {} s: a hang; giving up",
                    Self::LIMIT.as_secs()
                );
                exit(3);
            }
        });
        dog
    }

    fn watch<R>(&self, what: String, op: impl FnOnce() -> R) -> R {
        *self.what.lock().unwrap() = what;
        let now = self.base.elapsed().as_millis() as u64;
        self.started_ms.store(now.max(1), Ordering::SeqCst);
        let result = op();
        self.started_ms.store(0, Ordering::SeqCst);
        result
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// The p25 and p75 of `values` (not empty), nearest rank.
fn quartiles(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let rank = |q: usize| values[(values.len() * q).div_ceil(4).max(1) - 1];
    (rank(1), rank(3))
}

struct Options {
    rounds: usize,
    quick: bool,
    threads: Vec<usize>,
    only: Option<Vec<String>>,
}

const USAGE: &str =
    "usage: drowse-peers-forte [--quick] [--rounds N] [--threads N,...] [--only ROW,...]
  --quick        3 rounds a row instead of 21 (a smoke test)
  --rounds N     N rounds a row
  --threads N,.. the thread counts of the rows (default 1,2)
  --only ROW,..  only these rows (e.g. tree20_2t, fib30_1t)";

fn parse_options() -> Options {
    let mut options = Options {
        rounds: 21,
        quick: false,
        threads: vec![1, 2],
        only: None,
    };
    let mut rounds = None;
    let mut args = std::env::args().skip(1);
    let fail = |message: String| -> ! {
        eprintln!("drowse-peers-forte: {message}\n{USAGE}");
        exit(2)
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| fail(format!("{name} needs a value")))
        };
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--rounds" => {
                let text = value("--rounds");
                match text.parse::<usize>() {
                    Ok(n) if n > 0 => rounds = Some(n),
                    _ => fail(format!("--rounds needs a positive number, not '{text}'")),
                }
            }
            "--threads" => {
                let text = value("--threads");
                let counts: Result<Vec<usize>, _> = text.split(',').map(str::parse).collect();
                match counts {
                    // forte's pools hold at most 32 members.
                    Ok(counts) if counts.iter().all(|&n| (1..=32).contains(&n)) => {
                        options.threads = counts;
                    }
                    _ => fail(format!(
                        "--threads needs thread counts from 1 to 32, not '{text}'"
                    )),
                }
            }
            "--only" => {
                let text = value("--only");
                options.only = Some(text.split(',').map(str::to_string).collect());
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                exit(0)
            }
            other => fail(format!("unknown argument '{other}'")),
        }
    }
    options.rounds = rounds.unwrap_or(if options.quick { 3 } else { 21 });
    options
}

fn main() {
    common::exit_unless_std_world("drowse-peers-forte");
    let options = parse_options();
    let mut rows: Vec<(Work, usize)> = Vec::new();
    for work in Work::ALL {
        for &threads in &options.threads {
            rows.push((work, threads));
        }
    }
    let row_name = |work: Work, threads: usize| format!("{}_{threads}t", work.name());
    if let Some(only) = &options.only {
        for name in only {
            if !rows.iter().any(|&(w, t)| row_name(w, t) == *name) {
                eprintln!("drowse-peers-forte: no row named '{name}'");
                exit(2);
            }
        }
        rows.retain(|&(w, t)| only.contains(&row_name(w, t)));
    }
    let cpus = thread::available_parallelism().map_or(0, NonZeroUsize::get);
    println!(
        "# peers: drowse vs rayon-core 1.13.0, chili 0.2 and forte 1.0.0-beta.2; {} mode; {} rounds a row; {cpus} CPUs available",
        if options.quick { "quick" } else { "full" },
        options.rounds,
    );
    println!("# figure = median over rounds; ratio = drowse / peer; spread = p25-p75 of the rounds' ratios");
    let dog = Watchdog::start();
    for (work, threads) in rows {
        let row = row_name(work, threads);
        let expected = dog.watch(format!("{row} on the sequential code"), || {
            work.run::<Sequential>(&mut ()).1
        });
        let mut figures: Vec<Vec<f64>> = vec![Vec::new(); Peer::ALL.len()];
        for round in 0..options.rounds {
            let mut order: Vec<usize> = (0..Peer::ALL.len()).collect();
            if round % 2 == 1 {
                order.reverse();
            }
            for slot in order {
                let peer = Peer::ALL[slot];
                let what = format!("{row} on {} (round {round})", peer.name());
                let (figure, result) = dog.watch(what, || measure(peer, threads, work));
                assert_eq!(
                    result,
                    expected,
                    "{}: {row} computed something else than the sequential code",
                    peer.name()
                );
                figures[slot].push(figure);
            }
        }
        let drowse = median(&mut figures[0].clone());
        for (slot, peer) in Peer::ALL.iter().enumerate().skip(1) {
            let other = median(&mut figures[slot].clone());
            let mut ratios: Vec<f64> = figures[0]
                .iter()
                .zip(&figures[slot])
                .map(|(d, p)| d / p)
                .collect();
            let (low, high) = quartiles(&mut ratios);
            println!(
                "result\t{row}\t{}\t{drowse:.2}\t{other:.2}\t{:.2}\t{low:.2}-{high:.2}\t{}",
                work.unit(),
                drowse / other,
                peer.name()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pool computes what the sequential code does, at 1 and 3
    /// threads, on the workloads that need no tree (the trees take longest
    /// to build; the binary checks them on every run).
    #[test]
    fn every_pool_computes_the_sequential_result() {
        for work in [Work::Fib, Work::Sort, Work::Blur] {
            let expected = work.run::<Sequential>(&mut ()).1;
            for threads in [1, 3] {
                for peer in Peer::ALL {
                    let (_, result) = measure(peer, threads, work);
                    assert_eq!(
                        result,
                        expected,
                        "{} at {threads} threads: {}",
                        peer.name(),
                        work.name()
                    );
                }
            }
        }
    }
}
