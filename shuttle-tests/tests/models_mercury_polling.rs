#![cfg(shuttle)]
//! The Mercury engines, polling variant (seed 002) model (`models/src/protocols/mercury.rs`) on the
//! protocol-model harness, under shuttle: one test per property
//! (`ci/models` runs each in its own process and prints the table).
//!
//! Expected failures (counterexamples, see `docs/models/mercury.md`) are
//! ignored here: `ci/models` runs them and requires them to fail. Each has a
//! `replay_*` test that replays the schedule stored in
//! `shuttle-tests/replays/models/`.

#[macro_use]
mod models_common;

use drowse_models::protocols::mercury::MercuryPolling as M;
use models_common::stats;

model_tests! {
    M;
    stranded_injected,
    latch_wake,
    internal_job,
    counters,
    termination,
}

#[test]
fn stats_sporadic_4w() {
    stats::<M>(4, 4, 20);
}
