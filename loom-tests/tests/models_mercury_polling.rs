#![cfg(loom)]
//! The Mercury engines model, polling variant (seed 002,
//! `models/src/protocols/mercury.rs`) on the protocol-model harness, under
//! loom: one test per property (`ci/models` runs each in its own process and
//! prints the table).
//!
//! `stranded_injected` and `internal_job` at the shared bound (2) take too
//! long for `ci/models` (its limit is 300 s per test; on the 2-core machine
//! `stranded_injected` holds at bound 2 in 345 s, and `internal_job` did
//! not finish within 580 s; see `docs/models/mercury.md`). They are kept, ignored, and `ci/models` runs
//! the same scenarios at preemption bound 1 (`*_bound1`).

#[macro_use]
mod models_common;

use drowse_models::protocols::harness::{self, ModelConfig};
use drowse_models::protocols::mercury::MercuryPolling as M;

model_tests! {
    M;
    #[ignore = "does not finish within ci/models' time limit at bound 2: ci/models runs stranded_injected_bound1"]
    stranded_injected,
    latch_wake,
    #[ignore = "does not finish within ci/models' time limit at bound 2: ci/models runs internal_job_bound1"]
    internal_job,
    counters,
    termination,
}

#[test]
fn stranded_injected_bound1() {
    models_common::check::<M>(
        "stranded_injected",
        "injected_jobs",
        ModelConfig::new(2).jobs(1),
        1,
        harness::injected_jobs::<M>,
    );
}

#[test]
fn internal_job_bound1() {
    models_common::check::<M>(
        "internal_job",
        "internal_job_is_found",
        ModelConfig::new(2),
        1,
        harness::internal_job_is_found::<M>,
    );
}
