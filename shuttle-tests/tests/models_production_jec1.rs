#![cfg(shuttle)]
//! The production protocol (the real `core/src/sleep` code, through
//! `drowse::model_api`) with a one-bit JEC, which rolls over on every
//! second bump, on the protocol-model harness under shuttle: one test per
//! property (`ci/models` runs each in its own process and prints the table).

#[macro_use]
mod models_common;

use drowse_models::protocols::production::ProductionJec1 as M;
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
