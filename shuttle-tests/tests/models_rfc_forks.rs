#![cfg(shuttle)]
//! Wake statistics of a workload with internal jobs
//! (`drowse_models::protocols::rfc::sporadic_forks`): 4 workers, 4 parent
//! jobs injected 20 yields apart, each pushing 2 children onto its own
//! deque. The harness's `sporadic_injection` pushes no internal job, so it
//! cannot show what the RFC's local-queue alternative changes; this one
//! can. One test per model, each printing a `stats` line like
//! `models_common::stats` (`ci/models` reads it). See `docs/models/rfc.md`.

use drowse_models::protocols::harness::ModelConfig;
use drowse_models::protocols::production::Production;
use drowse_models::protocols::rfc::{
    sporadic_forks, RfcBlocksFinalLook, RfcFinalLook, RfcLocalQueueFinalLook,
};
use drowse_models::protocols::SleepModel;
use drowse_shuttle_tests::{Check, Scheduler};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const WORKERS: usize = 4;
const PARENTS: usize = 4;
const CHILDREN: usize = 2;
const GAP: usize = 20;

/// Runs the workload on `M` under shuttle's random scheduler (300
/// executions, the seed from the environment) and prints the totals.
fn forks_stats<M: SleepModel>() {
    let config = ModelConfig::new(WORKERS).jobs(PARENTS);
    let shown = format!("{config},children={CHILDREN},gap={GAP}");
    // executions, sleeps, wake-ups, useless, latch
    let totals: Arc<[AtomicUsize; 5]> = Arc::new(Default::default());
    let in_body = Arc::clone(&totals);
    let check = Check {
        property: "stats",
        test: "sporadic_forks",
        scheduler: Scheduler::Random,
        config: format!("model={},{shown}", M::NAME),
        default_iterations: 300,
    };
    let executions = check.run(move || {
        let stats = sporadic_forks::<M>(config, CHILDREN, GAP);
        for (total, value) in in_body.iter().zip([
            1,
            stats.sleeps,
            stats.wakeups,
            stats.useless_wakeups,
            stats.latch_wakeups,
        ]) {
            total.fetch_add(value, Ordering::Relaxed);
        }
    });
    let [completed, sleeps, wakeups, useless, latch] =
        [0, 1, 2, 3, 4].map(|index| totals[index].load(Ordering::Relaxed));
    assert_eq!(completed, executions, "every execution completed");
    assert_eq!(wakeups, sleeps, "every sleep ended in a wake-up");
    assert!(
        useless + latch <= wakeups,
        "useless and latch wake-ups are wake-ups"
    );
    println!(
        "stats model={} config={shown} executions={executions} sleeps={sleeps} wakeups={wakeups} useless_wakeups={useless} latch_wakeups={latch}",
        M::NAME
    );
}

#[test]
fn forks_production() {
    forks_stats::<Production>();
}

#[test]
fn forks_rfc_final_look() {
    forks_stats::<RfcFinalLook>();
}

#[test]
fn forks_rfc_local_queue_final_look() {
    forks_stats::<RfcLocalQueueFinalLook>();
}

#[test]
fn forks_rfc_blocks_final_look() {
    forks_stats::<RfcBlocksFinalLook>();
}
