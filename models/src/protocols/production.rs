//! The production protocol through [`SleepModel`]: the real code of
//! `core/src/sleep/` and `core/src/latch.rs`, reached through
//! `drowse::model_api` (thin wrappers, no copy).

use super::harness::ModelConfig;
use super::{QueueView, Round, SleepModel};
use drowse::model_api::{ModelIdle, ModelLatch, ModelSleep};
use drowse::sync::IS_CHECKER;
use drowse::{JecWidth, SleepSnapshot};
use std::cell::Cell;

/// Drowse's own protocol (rayon-core 1.13's), with a JEC of `JEC_BITS`
/// bits, or of the width the scenario asks for when `JEC_BITS` is 0.
#[derive(Debug)]
pub struct ProductionWith<const JEC_BITS: u32> {
    sleep: ModelSleep,
}

/// The production protocol as it ships (full-width JEC).
pub type Production = ProductionWith<0>;

/// The production protocol with a one-bit JEC, so that the counter rolls
/// over on every second bump: the same five properties must hold (the
/// fences and the final look carry injected jobs; see `docs/proof.md`).
pub type ProductionJec1 = ProductionWith<1>;

impl<const JEC_BITS: u32> SleepModel for ProductionWith<JEC_BITS> {
    const NAME: &'static str = match JEC_BITS {
        0 => "production",
        1 => "production-jec1",
        2 => "production-jec2",
        _ => "production-narrow-jec",
    };
    type Idle = ModelIdle;
    type Latch = ModelLatch;

    fn effective_config(config: ModelConfig) -> ModelConfig {
        if JEC_BITS == 0 {
            config
        } else {
            config.jec_bits(JEC_BITS)
        }
    }

    fn new(workers: usize, jec_bits: Option<u32>) -> Self {
        let jec_bits = if JEC_BITS == 0 {
            jec_bits
        } else {
            Some(JEC_BITS)
        };
        let width = match jec_bits {
            Some(bits) => JecWidth::new(bits).expect("a valid JEC width"),
            None => JecWidth::FULL,
        };
        // The models' convention (INTERFACE.md): one round under the
        // checkers, the shipped default elsewhere. For the real protocol the
        // choice is a pool parameter that the proof covers (lemma 0).
        let search_rounds_before_sleep = if IS_CHECKER { 1 } else { 32 };
        ProductionWith {
            sleep: ModelSleep::new(workers, width, search_rounds_before_sleep),
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

    fn work_found(&self, idle: ModelIdle, more_work_queued: bool, queues: &dyn QueueView) {
        self.sleep
            .work_found(idle, more_work_queued, || queues.has_any_jobs())
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
