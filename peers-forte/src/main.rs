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

use common::peers::{self, Fork, PeerWork};
use common::{median, quartiles, Drowse, Pool, Rayon};
use std::hint::black_box;
use std::num::NonZeroUsize;
use std::process::exit;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
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

/// One measurement of `work` on a fresh `threads`-thread pool of `peer`,
/// after fib(15) on the same pool as a warm-up: ns per unit, and the
/// result. Drowse and rayon-core pools are `threads` workers (the caller of
/// `install` waits), and every worker has started before the warm-up and
/// exited before this returns; chili's and forte's are `threads - 1`
/// workers and the calling thread.
fn measure(peer: Peer, threads: usize, work: PeerWork) -> (f64, u64) {
    let (elapsed, result) = match peer {
        Peer::Drowse => work.run_on_pool::<Drowse>(threads),
        Peer::Rayon => work.run_on_pool::<Rayon>(threads),
        Peer::Chili => work.run_on_chili(threads),
        Peer::Forte => on_forte(threads, |worker| {
            black_box(peers::fib::<Forte>(black_box(peers::WARM_UP_FIB_N), worker));
            work.run::<Forte>(worker)
        }),
    };
    (elapsed.as_nanos() as f64 / work.units(), result)
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
    let mut rows: Vec<(PeerWork, usize)> = Vec::new();
    for work in PeerWork::ALL {
        for &threads in &options.threads {
            rows.push((work, threads));
        }
    }
    let row_name = |work: PeerWork, threads: usize| format!("{}_{threads}t", work.name());
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
        let expected = dog.watch(format!("{row} on the sequential code"), || work.expected());
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
        for work in [PeerWork::Fib, PeerWork::Sort, PeerWork::Blur] {
            let expected = work.expected();
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
