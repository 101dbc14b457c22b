//! Trace validation (`docs/every-n.md`, "Trace validation"): a validator of
//! `drowse-every-n` observes the steps the pool records under the checker
//! and panics, naming the step, at the first one that is not a transition
//! of the every-N model.

use drowse::sync::trace::{install, Installed, Record, Step};
use drowse_every_n::validate::{Step as ModelStep, Validator};
use std::cell::RefCell;
use std::rc::Rc;

/// A validator watching the current execution until dropped.
pub struct Validation {
    validator: Rc<RefCell<Validator>>,
    _installed: Installed,
}

impl Validation {
    /// Installs a validator for a pool of `workers` workers. Call it inside
    /// the model, before the pool is built.
    pub fn start(workers: usize) -> Validation {
        let validator = Rc::new(RefCell::new(Validator::new(workers)));
        let observer = Rc::clone(&validator);
        let installed = install(move |record| {
            let mut v = observer.borrow_mut();
            match record {
                Record::Counters(word) => v.counters(word as u64),
                Record::Step { step, worker } => {
                    if let Err(problem) = v.step(model_step(step), worker) {
                        drop(v);
                        panic!("{problem}");
                    }
                }
            }
        });
        Validation {
            validator,
            _installed: installed,
        }
    }

    /// Panics unless the run reached `Registry::terminate` after `at_least`
    /// validated steps: a run that recorded nothing validated nothing.
    pub fn finish(self, at_least: usize) -> usize {
        let v = self.validator.borrow();
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
        Step::Terminate => ModelStep::Terminate,
    }
}
