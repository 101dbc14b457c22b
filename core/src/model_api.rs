//! Thin public wrappers over the sleep protocol's internals, for
//! `drowse-models` only.
//!
//! **Unstable, not part of Drowse's API.** This module exists so that the
//! protocol-model harness in `models/` can drive the real sleep protocol
//! (`Sleep`, `IdleState`, `CoreLatch`) through the same interface as the
//! models of other protocols, without a copy of the code. Every wrapper
//! forwards to the production function of the same name; it may change or
//! disappear in any release.

use crate::latch::CoreLatch;
use crate::sleep::{IdleState, JecWidth, Sleep, SleepSnapshot};

/// How many private join halves a worker keeps before its further joins run
/// in line: the production `JOIN_WINDOW` (`registry/worker_thread.rs`), so
/// that scenarios of in-line joins nest one join deeper than it.
pub const JOIN_WINDOW: usize = crate::registry::JOIN_WINDOW;

/// The sleep state of one pool: the protocol's `Sleep` (`core/src/sleep/`).
pub struct ModelSleep(Sleep);

/// One worker's progress towards sleep: the protocol's `IdleState`.
pub struct ModelIdle(IdleState);

/// The four-state latch workers wait and sleep on: the protocol's
/// `CoreLatch`.
pub struct ModelLatch(CoreLatch);

impl std::fmt::Debug for ModelSleep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad("ModelSleep { .. }")
    }
}

impl std::fmt::Debug for ModelIdle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad("ModelIdle { .. }")
    }
}

impl std::fmt::Debug for ModelLatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl ModelSleep {
    /// `Sleep::new`. `search_rounds_before_sleep` must be at least 1 (the builder's
    /// `search_rounds_before_sleep`).
    pub fn new(
        num_threads: usize,
        jec_width: JecWidth,
        search_rounds_before_sleep: u32,
    ) -> ModelSleep {
        ModelSleep(Sleep::new(
            num_threads,
            jec_width,
            search_rounds_before_sleep,
        ))
    }

    /// `Sleep::start_looking`, always with the full search budget: a model
    /// worker does not carry its budget from one search to the next, which
    /// no property depends on (`docs/proof.md`, lemma 0).
    pub fn start_looking(&self, worker_index: usize) -> ModelIdle {
        ModelIdle(
            self.0
                .start_looking(worker_index, self.0.full_search_budget()),
        )
    }

    /// `Sleep::work_found`, then at once `Sleep::job_done`; ends the
    /// search. A pool runs the job it found between the two, and a model
    /// runs it after: the successor a finder may owe is then woken before
    /// the model's job instead of after it, which no property depends on
    /// (docs/proof.md uses only the hand-off, which comes before the job
    /// in both). `work_left_behind` is the hand-off's look at every queue
    /// (`Sleep::hand_off`), asked after its fence.
    pub fn work_found(
        &self,
        idle_state: ModelIdle,
        more_work_queued: bool,
        work_left_behind: impl FnOnce() -> bool,
    ) {
        let (_, successor) = self
            .0
            .work_found(idle_state.0, || more_work_queued, work_left_behind);
        self.0.job_done(successor);
    }

    /// `Sleep::no_work_found`.
    pub fn no_work_found(
        &self,
        idle_state: &mut ModelIdle,
        latch: &ModelLatch,
        has_injected_jobs: impl FnOnce() -> bool,
    ) {
        self.0
            .no_work_found(&mut idle_state.0, &latch.0, has_injected_jobs)
    }

    /// `Sleep::new_injected_jobs`.
    pub fn new_injected_jobs(&self, num_jobs: u32, queue_was_empty: bool) {
        self.0.new_injected_jobs(num_jobs, queue_was_empty)
    }

    /// `Sleep::new_internal_jobs`.
    pub fn new_internal_jobs(&self, num_jobs: u32, queue_was_empty: bool) {
        self.0.new_internal_jobs(num_jobs, queue_was_empty)
    }

    /// Sets `latch`, owned by worker `owner_index`, and wakes the owner if it
    /// was SLEEPING: what every latch of the pool does (`CoreLatch::set`
    /// then `Sleep::notify_worker_latch_is_set`).
    pub fn set_latch(&self, latch: &ModelLatch, owner_index: usize) {
        // SAFETY: `latch` is a live reference for the whole call.
        if unsafe { CoreLatch::set(&latch.0) } {
            self.0.notify_worker_latch_is_set(owner_index);
        }
    }

    /// `Sleep::snapshot`.
    pub fn snapshot(&self) -> SleepSnapshot {
        self.0.snapshot()
    }
}

impl ModelLatch {
    /// `CoreLatch::new`.
    pub fn new() -> ModelLatch {
        ModelLatch(CoreLatch::new())
    }

    /// `CoreLatch::probe`.
    pub fn probe(&self) -> bool {
        self.0.probe()
    }
}

impl Default for ModelLatch {
    fn default() -> Self {
        Self::new()
    }
}
