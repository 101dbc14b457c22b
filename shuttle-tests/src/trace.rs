//! Trace validation (`docs/every-n.md`, "Trace validation"): a validator of
//! `drowse-every-n` observes the steps the pool records under the checker.
//! At the first step that is not a transition of the every-N model it
//! prints what left the model and stops validating; [`Validation::finish`],
//! on the model's main thread, then panics with the same report. It does
//! not panic inside the step: a worker that panics inside `wait_until`
//! aborts the process (its jobs may be referenced from other threads), and
//! the checker would report no failing execution.

use drowse::sync::record::{install, Installed, Record, Step};
use drowse_every_n::validate::{Real, Step as ModelStep, Validator};
use std::cell::RefCell;
use std::rc::Rc;

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
            match record {
                Record::Counters {
                    sleeping,
                    inactive,
                    jobs_event_counter,
                } => watch
                    .validator
                    .counters(Real::new(sleeping, inactive, jobs_event_counter)),
                Record::Step {
                    step,
                    worker,
                    thread,
                } => {
                    if let Err(problem) = watch.validator.step(model_step(step), worker, thread) {
                        eprintln!("{problem}");
                        watch.failure = Some(problem);
                    }
                }
            }
        });
        Validation {
            watch,
            _installed: installed,
        }
    }

    /// Panics with the report of the step that left the model, if one did,
    /// or unless the run reached `Registry::terminate` after `at_least`
    /// validated steps: a run that recorded nothing validated nothing.
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
        assert!(
            v.steps >= at_least,
            "trace validation: {} steps validated, expected at least {at_least}",
            v.steps
        );
        v.steps
    }
}

fn model_step(step: Step) -> ModelStep {
    match step {
        Step::StartLooking => ModelStep::StartLooking,
        Step::WorkFound => ModelStep::WorkFound,
        Step::Announce => ModelStep::Announce,
        Step::Post => ModelStep::Post,
        Step::JoinSleeping => ModelStep::JoinSleeping,
        Step::Abandon => ModelStep::Abandon,
        Step::FinalLookFound => ModelStep::FinalLookFound,
        Step::Block => ModelStep::Block,
        Step::Woken => ModelStep::Woken,
        Step::NotBlocked => ModelStep::NotBlocked,
        Step::WakeLoop { owed } => ModelStep::WakeLoop { owed },
        Step::LatchWake => ModelStep::LatchWake,
        Step::Terminate => ModelStep::Terminate,
    }
}
