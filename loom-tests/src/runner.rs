//! The shared runner: one loom check, its result line, its environment.

use drowse_models::{panic_message, CheckName, Checker};
use std::any::Any;
use std::cell::RefCell;
use std::panic;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Instant;

/// The panic message of `drowse_models::join_panic_reaches_caller`'s seeded
/// panic. That panic is expected and caught in every execution; the runner's
/// hook keeps loom from printing a backtrace for each.
pub const SEEDED_PANIC: &str = "seeded panic in join's first half";

/// One loom check: its name and a preemption bound.
#[derive(Clone, Debug)]
pub struct Check {
    /// What the check prints about itself.
    pub name: CheckName,
    /// The preemption bound when `LOOM_MAX_PREEMPTIONS` does not say
    /// otherwise.
    pub default_bound: usize,
}

impl Checker for Check {
    /// At preemption bound 2.
    fn named(name: CheckName) -> Check {
        Check {
            name,
            default_bound: 2,
        }
    }

    fn name_mut(&mut self) -> &mut CheckName {
        &mut self.name
    }

    /// Explores `scenario` under every interleaving within the bound and
    /// prints the result line (`result=incomplete` when `LOOM_MAX_DURATION`
    /// or `LOOM_MAX_PERMUTATIONS` ended the search first). Panics (loom's
    /// report printed before) if an execution fails; a deadlock aborts the
    /// process. Returns the number of executions.
    fn run<F>(&self, scenario: F) -> usize
    where
        F: Fn() + Send + Sync + 'static,
    {
        // One check at a time per process, whatever `--test-threads` says,
        // so that the printed seconds are those of one check alone. Loom maps
        // a fresh stack for every model thread of every execution (half the
        // suite's time is system time), and two checks side by side on two
        // cores each ran two to three times slower (suite: 5m16s in parallel,
        // 4m57s serialized, with other work on the machine).
        let _one_at_a_time = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        install_hook();
        let bound = preemption_bound(self.default_bound);
        let executions = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&executions);
        let head = format!("{} bound={bound}", self.name.head("loom"));
        let start = Instant::now();
        CURRENT.with(|current| {
            *current.borrow_mut() = Some(Current {
                head: head.clone(),
                executions: Arc::clone(&executions),
                start,
            })
        });

        let mut builder = loom::model::Builder::new();
        builder.preemption_bound = Some(bound);
        builder.check(move || {
            counter.fetch_add(1, Ordering::Relaxed);
            scenario();
        });

        CURRENT.with(|current| *current.borrow_mut() = None);
        let executions = executions.load(Ordering::Relaxed);
        // `LOOM_MAX_DURATION` and `LOOM_MAX_PERMUTATIONS` end the search
        // early without saying so; say so here.
        let cut_off = builder
            .max_duration
            .is_some_and(|limit| start.elapsed() >= limit)
            || builder
                .max_permutations
                .is_some_and(|limit| executions >= limit);
        let result = if cut_off { "incomplete" } else { "pass" };
        println!(
            "{head} executions={executions} result={result} seconds={:.1}",
            start.elapsed().as_secs_f64()
        );
        executions
    }
}

impl Check {
    /// At preemption bound `bound` (unless `LOOM_MAX_PREEMPTIONS` is set).
    pub fn bound(mut self, bound: usize) -> Check {
        self.default_bound = bound;
        self
    }
}

/// The preemption bound: `LOOM_MAX_PREEMPTIONS` if set, else `default`.
///
/// # Panics
/// When the variable is set but not a number.
pub fn preemption_bound(default: usize) -> usize {
    match std::env::var("LOOM_MAX_PREEMPTIONS") {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("LOOM_MAX_PREEMPTIONS={text:?} is not a number")),
        Err(_) => default,
    }
}

/// Serializes the checks of one test binary; see `Checker::run`.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

struct Current {
    head: String,
    executions: Arc<AtomicUsize>,
    start: Instant,
}

std::thread_local! {
    // The check running on this test thread. Loom runs every model thread as
    // a coroutine on the test's own OS thread, so the panic hook, which runs
    // on the panicking thread, finds it here whichever model thread panicked.
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// Installs (once per process) the panic hook: silent for the seeded panic,
/// otherwise the default report followed by the failing result line.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default_hook = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if is_seeded_panic(info.payload()) {
                return;
            }
            default_hook(info);
            // Taken, so that the panic a deadlock report causes while
            // unwinding does not print the line again.
            let line = CURRENT.try_with(|current| {
                current.try_borrow_mut().ok().and_then(|mut current| {
                    current.take().map(|current| {
                        format!(
                            "{} executions_to_failure={} result=fail seconds={:.1}",
                            current.head,
                            current.executions.load(Ordering::Relaxed),
                            current.start.elapsed().as_secs_f64()
                        )
                    })
                })
            });
            if let Some(line) = line.ok().flatten() {
                // Printed with `eprintln!` so that it is not captured: a
                // deadlock aborts the process before the harness could show
                // captured output.
                eprintln!("{line}");
            }
        }));
    });
}

fn is_seeded_panic(payload: &(dyn Any + Send)) -> bool {
    panic_message(payload) == Some(SEEDED_PANIC)
}
