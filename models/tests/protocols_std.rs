#![cfg(not(any(loom, shuttle)))]
//! The protocol harness in the std world: the production protocol through
//! `drowse::model_api` on real threads, one run of each scenario. (The
//! checker suites explore the schedules; this shows the harness and the
//! wrappers work outside them. The flawed models are not run here: a real
//! deadlock would hang the test.)

use drowse_models::protocols::harness::{self, ModelConfig};
use drowse_models::protocols::production::Production;
use drowse_models::protocols::SleepModel;

#[test]
fn production_scenarios_run_on_real_threads() {
    harness::injected_jobs::<Production>(ModelConfig::new(3).jobs(20));
    harness::latch_wakes_owner::<Production>(ModelConfig::new(2));
    harness::internal_job_is_found::<Production>(ModelConfig::new(2));
    harness::counters_consistent::<Production>(ModelConfig::new(3).jobs(10));
    harness::termination::<Production>(ModelConfig::new(3).jobs(10));
}

#[test]
fn production_sporadic_injection_counts_wakeups_consistently() {
    let stats = harness::sporadic_injection::<Production>(ModelConfig::new(4).jobs(8), 100);
    assert_eq!(
        stats.sleeps, stats.wakeups,
        "every sleep ended in a wake-up"
    );
    assert!(stats.useless_wakeups + stats.latch_wakeups <= stats.wakeups);
    assert_eq!(Production::NAME, "production");
}
