#![cfg(shuttle)]
//! The `rfc-final-look` model (seed 004; `models/src/protocols/rfc.rs` says what
//! it takes from the seed and what it adds) on the protocol-model harness, under
//! shuttle: one test per property (`ci/models` runs each in its own
//! process and prints the table).
//!
//! Expected failures (counterexamples, see `docs/models/rfc.md`) are
//! ignored here: `ci/models` runs them and requires them to fail. Each has
//! a `replay_*` test that replays the schedule stored in
//! `shuttle-tests/replays/models/`.

#[macro_use]
mod models_common;

use drowse_models::protocols::rfc::RfcFinalLook as M;
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
