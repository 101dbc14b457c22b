//! The shared runner: one shuttle check, its result line, its environment.

use drowse_models::{panic_message, CheckName, Checker};
use shuttle::scheduler::{
    PctScheduler, RandomScheduler, ReplayScheduler, Scheduler as ShuttleScheduler,
};
use shuttle::Runner;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Instant;

/// Which shuttle scheduler explores the schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// Probabilistic concurrency testing (`shuttle::check_pct`): priorities
    /// with `depth - 1` change points per execution. Finds bugs of depth
    /// `depth` with a known lower-bounded probability.
    Pct {
        /// The bug depth PCT targets.
        depth: usize,
    },
    /// Uniformly random choice at each step (`shuttle::check_random`).
    Random,
}

impl Scheduler {
    /// PCT of depth `depth`.
    pub const fn pct(depth: usize) -> Scheduler {
        Scheduler::Pct { depth }
    }

    /// The `scheduler=` field of the result line.
    pub fn describe(&self) -> String {
        match self {
            Scheduler::Pct { depth } => format!("pct,depth={depth}"),
            Scheduler::Random => "random".to_string(),
        }
    }
}

/// One shuttle check: its name, a scheduler and an iteration count.
#[derive(Clone, Debug)]
pub struct Check {
    /// What the check prints about itself.
    pub name: CheckName,
    /// The scheduler.
    pub scheduler: Scheduler,
    /// Iterations when no environment variable says otherwise.
    pub default_iterations: usize,
}

impl Checker for Check {
    /// Under the random scheduler, 1000 iterations.
    fn named(name: CheckName) -> Check {
        Check {
            name,
            scheduler: Scheduler::Random,
            default_iterations: 1000,
        }
    }

    fn name_mut(&mut self) -> &mut CheckName {
        &mut self.name
    }

    /// Runs `scenario` under the scheduler; prints the result line. Panics
    /// (with shuttle's failing schedule printed before) if an execution fails.
    /// Returns the number of executions.
    fn run<F>(&self, scenario: F) -> usize
    where
        F: Fn() + Send + Sync + 'static,
    {
        let iterations = iterations(self.default_iterations);
        let seed = seed();
        let executions = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&executions);
        let body = move || {
            counter.fetch_add(1, Ordering::Relaxed);
            scenario();
        };
        let start = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| match self.scheduler {
            // These are `shuttle::check_pct` and `shuttle::check_random` with
            // a seed we know (and print), so that a failure can be rerun.
            Scheduler::Pct { depth } => {
                run_with(PctScheduler::new_from_seed(seed, depth, iterations), body)
            }
            Scheduler::Random => run_with(RandomScheduler::new_from_seed(seed, iterations), body),
        }));
        let seconds = start.elapsed().as_secs_f64();
        let executions = executions.load(Ordering::Relaxed);
        let checker = format!("shuttle scheduler={}", self.scheduler.describe());
        let line = format!("{} iterations={iterations}", self.name.head(&checker));
        match outcome {
            Ok(()) => {
                println!(
                    "{line} executions={executions} result=pass seed={seed} seconds={seconds:.2}"
                );
                executions
            }
            Err(payload) => {
                println!(
                    "{line} result=fail executions_to_failure={executions} seed={seed} seconds={seconds:.2}"
                );
                panic::resume_unwind(payload)
            }
        }
    }
}

impl Check {
    /// Under `scheduler`.
    pub fn scheduler(mut self, scheduler: Scheduler) -> Check {
        self.scheduler = scheduler;
        self
    }

    /// Under PCT of depth `depth`.
    pub fn pct(self, depth: usize) -> Check {
        self.scheduler(Scheduler::pct(depth))
    }

    /// Under the random scheduler.
    pub fn random(self) -> Check {
        self.scheduler(Scheduler::Random)
    }

    /// `iterations` executions by default.
    pub fn iterations(mut self, iterations: usize) -> Check {
        self.default_iterations = iterations;
        self
    }
}

fn run_with<S, F>(scheduler: S, body: F)
where
    S: ShuttleScheduler + 'static,
    F: Fn() + Send + Sync + 'static,
{
    Runner::new(scheduler, config()).run(body);
}

/// Shuttle's default configuration, except that an execution stops at the
/// first panic of any task. By default shuttle keeps scheduling the other
/// tasks while the panicking one unwinds; the pool's workers then run into
/// poisoned locks and abort-on-unwind guards, a second panic aborts the
/// whole test binary, and the result line is lost (the failing schedule is
/// printed before either way).
pub fn config() -> shuttle::Config {
    let mut config = shuttle::Config::new();
    config
        .ungraceful_shutdown_config
        .immediately_return_on_panic = true;
    config
}

/// The iteration count: `DROWSE_SHUTTLE_ITERATIONS` if set, else `default`
/// times `DROWSE_SHUTTLE_SCALE` (default 1).
///
/// # Panics
/// When either variable is set but not a number.
pub fn iterations(default: usize) -> usize {
    if let Ok(text) = std::env::var("DROWSE_SHUTTLE_ITERATIONS") {
        return text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("DROWSE_SHUTTLE_ITERATIONS={text:?} is not a count"));
    }
    let scale = match std::env::var("DROWSE_SHUTTLE_SCALE") {
        Ok(text) => text
            .trim()
            .parse::<f64>()
            .unwrap_or_else(|_| panic!("DROWSE_SHUTTLE_SCALE={text:?} is not a number")),
        Err(_) => 1.0,
    };
    ((default as f64 * scale).round() as usize).max(1)
}

/// The seed every check uses unless `DROWSE_SHUTTLE_SEED` says otherwise, so
/// that CI runs, and the mutant kills listed in `ci/mutants.d/shuttle.tsv`,
/// are the same on every run.
pub const DEFAULT_SEED: u64 = 20_261_122;

/// The scheduler seed: [`DEFAULT_SEED`]; or `DROWSE_SHUTTLE_SEED=<u64>`; or,
/// with `DROWSE_SHUTTLE_SEED=random`, a fresh one for each check. The result
/// line prints it either way.
///
/// # Panics
/// When the variable is set to anything else.
pub fn seed() -> u64 {
    match std::env::var("DROWSE_SHUTTLE_SEED") {
        Err(_) => DEFAULT_SEED,
        Ok(text) if text.trim() == "random" => fresh_seed(),
        Ok(text) => text.trim().parse().unwrap_or_else(|_| {
            panic!("DROWSE_SHUTTLE_SEED={text:?} is neither a u64 nor \"random\"")
        }),
    }
}

fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    hasher.finish()
}

/// Replays `schedule` (a string shuttle printed for a failure) on
/// `scenario`.
pub fn replay<F>(scenario: F, schedule: &str)
where
    F: Fn() + Send + Sync + 'static,
{
    // `shuttle::replay(scenario, schedule)` with this suite's configuration.
    Runner::new(ReplayScheduler::new_from_encoded(schedule), config()).run(scenario);
}

/// [`replay`]s one mutant's counterexample, as test `test`, and prints a
/// result line. For the `replay_*` tests, which `ci/mutants` runs with their mutant's patch applied and
/// which must fail there (`result=fail`). A schedule that no longer fits
/// the code (the replay scheduler finds a step it cannot take, because a
/// change moved a scheduling point) prints `result=diverged` instead: the
/// schedule must be recorded again.
///
/// What decides is the first panic of the replay: once the scenario has
/// failed, shuttle goes on scheduling while the tasks unwind and the replay
/// scheduler, past the end of the recorded failure, panics too. The line is
/// printed at that first panic, because a later one may reach one of the
/// pool's abort guards and end the process before this function returns.
/// Replays run one at a time.
pub fn replay_counterexample<F>(test: &'static str, scenario: F, schedule: &str)
where
    F: Fn() + Send + Sync + 'static,
{
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _one_at_a_time = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    watch_replay_panics();
    *REPLAY_TEST.lock().unwrap_or_else(|e| e.into_inner()) = test;
    REPLAY_FIRST_PANIC_SEEN.store(false, Ordering::SeqCst);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| replay(scenario, schedule)));
    match outcome {
        Ok(_) => println!("test={test} checker=shuttle scheduler=replay executions=1 result=pass"),
        Err(payload) => panic::resume_unwind(payload),
    }
}

/// The replay now running, for the panic hook.
static REPLAY_TEST: Mutex<&str> = Mutex::new("");
/// Whether the running replay has panicked yet.
static REPLAY_FIRST_PANIC_SEEN: AtomicBool = AtomicBool::new(false);

/// Installs (once) a panic hook, around shuttle's, that prints the result
/// line of the running replay at its first panic: `result=diverged` when
/// that panic is the replay scheduler's, `result=fail` otherwise.
fn watch_replay_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Shuttle installs its hook at its first execution; wrap that one.
        shuttle::check_random(|| {}, 1);
        let shuttle_hook = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !REPLAY_FIRST_PANIC_SEEN.swap(true, Ordering::SeqCst) {
                let message = panic_message(info.payload()).unwrap_or("");
                let test = *REPLAY_TEST.lock().unwrap_or_else(|e| e.into_inner());
                if DIVERGENCE_MESSAGES.iter().any(|m| message.contains(m)) {
                    println!(
                        "test={test} checker=shuttle scheduler=replay result=diverged (the \
                         recorded schedule no longer fits the code; record it again)"
                    );
                } else {
                    println!(
                        "test={test} checker=shuttle scheduler=replay result=fail executions_to_failure=1"
                    );
                }
            }
            shuttle_hook(info);
        }));
    });
}

/// The panic messages of shuttle's replay scheduler when the recorded
/// schedule does not fit the execution (shuttle-schedulers 0.1, `replay.rs`).
const DIVERGENCE_MESSAGES: &[&str] = &[
    "schedule ended early",
    "scheduled task is not runnable",
    "expected context switch but next schedule step is random choice",
    "expected random choice but next schedule step is context switch",
];

/// Silences the panics whose message is `message` (a scenario's own seeded
/// panic, caught inside the scenario) so that shuttle does not print a
/// "failing schedule" for each of them. Any other panic is reported as
/// before. Call at the start of a test, in a binary whose tests all tolerate
/// it.
pub fn silence_expected_panic(message: &'static str) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Shuttle installs its hook (which prints the schedule) at its first
        // execution; wrap that hook, not the one before it.
        shuttle::check_random(|| {}, 1);
        let shuttle_hook = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if panic_message(info.payload()) != Some(message) {
                shuttle_hook(info);
            }
        }));
    });
}
