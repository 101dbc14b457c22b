//! The production protocol through [`SleepModel`]: the real code of
//! `core/src/sleep/` and `core/src/latch.rs`, reached through
//! `drowse::model_api` (thin wrappers, no copy).

use super::{QueueView, Round, SleepModel};
use drowse::model_api::{ModelIdle, ModelLatch, ModelSleep};
use drowse::{JecWidth, SleepSnapshot};
use std::cell::Cell;

/// Drowse's own protocol (rayon-core 1.13's).
#[derive(Debug)]
pub struct Production {
    sleep: ModelSleep,
}

impl SleepModel for Production {
    const NAME: &'static str = "production";
    type Idle = ModelIdle;
    type Latch = ModelLatch;

    fn new(workers: usize, jec_bits: Option<u32>) -> Self {
        let width = match jec_bits {
            Some(bits) => JecWidth::new(bits).expect("a valid JEC width"),
            None => JecWidth::FULL,
        };
        Production {
            sleep: ModelSleep::new(workers, width),
        }
    }

    fn new_latch(&self) -> ModelLatch {
        ModelLatch::new()
    }

    fn probe(&self, latch: &ModelLatch) -> bool {
        latch.probe()
    }

    fn set_latch(&self, latch: &ModelLatch, owner: usize) {
        self.sleep.set_latch(latch, owner)
    }

    fn start_looking(&self, worker: usize) -> ModelIdle {
        self.sleep.start_looking(worker)
    }

    fn work_found(&self, _idle: ModelIdle) {
        self.sleep.work_found()
    }

    fn no_work_found(
        &self,
        idle: &mut ModelIdle,
        latch: &ModelLatch,
        queues: &dyn QueueView,
    ) -> Round {
        // The protocol calls its final look at the injector only after it
        // has joined the sleeping count, and blocks exactly when that look
        // finds nothing: so the closure tells us whether the worker slept.
        let blocked = Cell::new(false);
        self.sleep.no_work_found(idle, latch, || {
            let found = queues.has_injected_jobs();
            blocked.set(!found);
            found
        });
        if blocked.get() {
            Round::Slept
        } else {
            Round::Searched
        }
    }

    fn new_injected_jobs(&self, jobs: u32, queue_was_empty: bool) {
        self.sleep.new_injected_jobs(jobs, queue_was_empty)
    }

    fn new_internal_jobs(&self, _pusher: usize, jobs: u32, queue_was_empty: bool) {
        self.sleep.new_internal_jobs(jobs, queue_was_empty)
    }

    fn snapshot(&self) -> Option<SleepSnapshot> {
        Some(self.sleep.snapshot())
    }
}
