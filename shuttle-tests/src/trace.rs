//! Trace validation (`docs/every-n.md`, "Trace validation"): a validator of
//! `drowse-every-n` observes the steps the pool records under the checker.
//! At the first step that is not a transition of the every-N model it
//! prints what left the model and stops validating; [`Validation::finish`],
//! on the model's main thread, then panics with the same report. It does
//! not panic inside the step: a worker that panics inside `wait_until`
//! aborts the process (its jobs may be referenced from other threads), and
//! the checker would report no failing execution.

use drowse::sync::record::{install, Installed};
use drowse_every_n::validate::{GuardCounts, Validator};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// What the validations of this OS thread's executions saw, summed (both
/// checkers run every execution of a test on the test's own thread).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub executions: usize,
    pub steps: usize,
    pub wake_ups_spent: usize,
    pub found_not_blocked: usize,
    pub wake_ups_dropped: usize,
    pub drops_beside_later_sleepers: usize,
    pub internal_posts: usize,
    pub deque_takes: usize,
    pub successors: usize,
    pub deferred_latch_sets: usize,
    /// How each kind of guard was checked (`GuardCounts::lines`).
    pub guards: GuardCounts,
}

std::thread_local! {
    static TALLY: Cell<Tally> = Cell::new(Tally::default());
}

/// The sum over the validations finished so far on this thread.
pub fn tally() -> Tally {
    TALLY.with(Cell::get)
}

/// Prints, for the validations finished so far on this thread (`test`'s
/// executions), how many guards of each kind were checked, how (exactly,
/// or by the premise the docs argue instead) and which were skipped, with
/// the reason: one line per kind.
pub fn report(test: &str) -> Tally {
    let tally = tally();
    eprintln!(
        "trace validation of {test}: {} executions, {} steps; guards:",
        tally.executions, tally.steps
    );
    for line in tally.guards.lines() {
        eprintln!("  {test}: {line}");
    }
    tally
}

struct Watch {
    validator: Validator,
    /// The first step that left the model.
    failure: Option<String>,
}

/// A validator watching the current execution until dropped.
pub struct Validation {
    watch: Rc<RefCell<Watch>>,
    _installed: Installed,
}

impl Validation {
    /// Installs a validator for a pool of `workers` workers. Call it inside
    /// the model, before the pool is built.
    pub fn start(workers: usize) -> Validation {
        let watch = Rc::new(RefCell::new(Watch {
            validator: Validator::new(workers),
            failure: None,
        }));
        let observer = Rc::clone(&watch);
        let installed = install(move |record| {
            let mut watch = observer.borrow_mut();
            if watch.failure.is_some() {
                return;
            }
            if let Err(problem) = watch.validator.record(record) {
                eprintln!("{problem}");
                watch.failure = Some(problem);
            }
        });
        Validation {
            watch,
            _installed: installed,
        }
    }

    /// Panics with the report of the step that left the model, if one did,
    /// or unless the run reached `Registry::terminate` after `at_least`
    /// validated steps (a run that recorded nothing validated nothing) and
    /// ended as the model's runs end (`Validator::end`: every worker left
    /// its main loop, nothing owed). Call it after the pool has shut down.
    pub fn finish(self, at_least: usize) -> usize {
        let watch = self.watch.borrow();
        if let Some(problem) = &watch.failure {
            panic!("{problem}");
        }
        let v = &watch.validator;
        assert!(
            v.terminated,
            "trace validation: no Registry::terminate recorded"
        );
        if let Err(problem) = v.end() {
            panic!("{problem}");
        }
        assert!(
            v.steps >= at_least,
            "trace validation: {} steps validated, expected at least {at_least}",
            v.steps
        );
        TALLY.with(|t| {
            let mut sum = t.get();
            sum.executions += 1;
            sum.steps += v.steps;
            sum.wake_ups_spent += v.wake_ups_spent;
            sum.found_not_blocked += v.found_not_blocked;
            sum.wake_ups_dropped += v.wake_ups_dropped;
            sum.drops_beside_later_sleepers += v.drops_beside_later_sleepers;
            sum.internal_posts += v.internal_posts;
            sum.deque_takes += v.deque_takes;
            sum.successors += v.successors;
            sum.deferred_latch_sets += v.deferred_latch_sets;
            sum.guards.add(&v.guards);
            t.set(sum);
        });
        v.steps
    }
}
