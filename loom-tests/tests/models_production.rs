#![cfg(loom)]
//! The production protocol (the real `core/src/sleep` code, through
//! `drowse::model_api`)
//! on the protocol-model harness, under loom: one test per property
//! (`ci/models` runs each in its own process and prints the table).

mod models_common;

use drowse_models::protocols::harness::{self, ModelConfig};
use drowse_models::protocols::production::Production as M;
use models_common::check;

#[test]
fn stranded_injected() {
    check::<M>(
        "stranded_injected",
        "injected_jobs",
        ModelConfig::new(2).jobs(1),
        2,
        harness::injected_jobs::<M>,
    );
}

#[test]
fn latch_wake() {
    check::<M>(
        "latch_wake",
        "latch_wakes_owner",
        ModelConfig::new(2),
        2,
        harness::latch_wakes_owner::<M>,
    );
}

#[test]
fn internal_job() {
    check::<M>(
        "internal_job",
        "internal_job_is_found",
        ModelConfig::new(2),
        2,
        harness::internal_job_is_found::<M>,
    );
}

#[test]
fn counters() {
    check::<M>(
        "counters",
        "counters_consistent",
        ModelConfig::new(1).jobs(1),
        3,
        harness::counters_consistent::<M>,
    );
}

#[test]
fn termination() {
    check::<M>(
        "termination",
        "termination",
        ModelConfig::new(2).jobs(1),
        2,
        harness::termination::<M>,
    );
}
