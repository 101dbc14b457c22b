//! Shared by the `models_*` shuttle tests: one check of one protocol model,
//! the replay of a stored counterexample, and the wake statistics.

#![allow(dead_code)]

use drowse_models::protocols::harness::{sporadic_injection, ModelConfig};
use drowse_models::protocols::SleepModel;
use drowse_shuttle_tests::{replay, Check, Scheduler};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// PCT depth of the model checks when `DROWSE_MODELS_PCT` is set (the
/// default is the random scheduler, which finds the Blitz internal-job
/// counterexample within a few thousand executions where PCT of depth 3
/// did not in 20,000).
pub const DEPTH: usize = 3;
/// Default iterations of every model check.
pub const ITERATIONS: usize = 5000;

/// Checks `scenario` on model `M` under PCT; prints the result line
/// (`config=model=<name>,...`).
pub fn check<M: SleepModel>(
    property: &'static str,
    test: &'static str,
    config: ModelConfig,
    scenario: fn(ModelConfig),
) {
    let check = Check {
        property,
        test,
        scheduler: if std::env::var("DROWSE_MODELS_PCT").is_err() {
            Scheduler::Random
        } else {
            Scheduler::pct(DEPTH)
        },
        config: format!("model={},{config}", M::NAME),
        default_iterations: ITERATIONS,
    };
    check.run(move || scenario(config));
}

/// Replays the stored schedule `schedule` (the contents of a file in
/// `shuttle-tests/replays/models/`) of `scenario` on `M`; prints a result
/// line.
pub fn replay_stored<M: SleepModel>(
    property: &'static str,
    test: &'static str,
    config: ModelConfig,
    file: &str,
    schedule: &'static str,
    scenario: fn(ModelConfig),
) {
    let line = format!(
        "property={property} test={test} checker=shuttle scheduler=replay config=model={},{config} replay={file}",
        M::NAME
    );
    assert!(
        !schedule.trim().is_empty(),
        "{file} holds no schedule: record it with `ci/models --record`"
    );
    let outcome = std::panic::catch_unwind(|| replay(move || scenario(config), schedule));
    match outcome {
        Ok(()) => println!("{line} executions=1 result=pass"),
        Err(payload) => {
            println!("{line} executions=1 result=fail");
            std::panic::resume_unwind(payload)
        }
    }
}

/// The statistics workload: `jobs` jobs injected one by one, `gap` yields
/// apart, into `workers` workers, under shuttle's random scheduler with a
/// fixed seed. Prints the totals and the means per execution.
pub fn stats<M: SleepModel>(workers: usize, jobs: usize, gap: usize) {
    let config = ModelConfig::new(workers).jobs(jobs);
    let totals: Arc<[AtomicUsize; 5]> = Arc::new(Default::default());
    let in_body = Arc::clone(&totals);
    let check = Check {
        property: "stats",
        test: "sporadic_injection",
        scheduler: Scheduler::Random,
        config: format!("model={},{config},gap={gap}", M::NAME),
        default_iterations: 300,
    };
    let executions = check.run(move || {
        let stats = sporadic_injection::<M>(config, gap);
        in_body[0].fetch_add(1, Ordering::Relaxed);
        in_body[1].fetch_add(stats.wakeups, Ordering::Relaxed);
        in_body[2].fetch_add(stats.useless_wakeups, Ordering::Relaxed);
        in_body[3].fetch_add(stats.sleeps, Ordering::Relaxed);
        in_body[4].fetch_add(stats.latch_wakeups, Ordering::Relaxed);
    });
    let completed = totals[0].load(Ordering::Relaxed);
    assert_eq!(completed, executions, "every execution completed");
    let [wakeups, useless, sleeps, latch] =
        [1, 2, 3, 4].map(|index| totals[index].load(Ordering::Relaxed));
    assert!(
        useless + latch <= wakeups,
        "useless and latch wake-ups are wake-ups"
    );
    assert_eq!(wakeups, sleeps, "every sleep ended in a wake-up");
    let mean = |total: usize| total as f64 / executions as f64;
    println!(
        "stats model={} config={config},gap={gap} executions={executions} sleeps={sleeps} wakeups={wakeups} useless_wakeups={useless} latch_wakeups={latch} per_execution: sleeps={:.2} wakeups={:.2} useless_wakeups={:.2} latch_wakeups={:.2}",
        M::NAME,
        mean(sleeps),
        mean(wakeups),
        mean(useless),
        mean(latch)
    );
}
