//! Shared by the `models_*` shuttle tests: one check of one protocol model,
//! the replay of a stored counterexample, and the wake statistics.

#![allow(dead_code)]

use drowse_models::protocols::harness::{self, sporadic_injection, ModelConfig};
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
        config: format!("model={},{}", M::NAME, M::effective_config(config)),
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
    schedule: &str,
    scenario: fn(ModelConfig),
) {
    let line = format!(
        "property={property} test={test} checker=shuttle scheduler=replay config=model={},{} replay={file}",
        M::NAME,
        M::effective_config(config)
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
        config: format!(
            "model={},{},gap={gap}",
            M::NAME,
            M::effective_config(config)
        ),
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

/// The scenario, its name and its size for `property` (named as in
/// `ci/models.d/shuttle.tsv`). Every model is checked at the same sizes, so
/// that the table compares like with like.
///
/// # Panics
/// When `property` is not one of the five.
fn property_check<M: SleepModel>(property: &str) -> (&'static str, ModelConfig, fn(ModelConfig)) {
    match property {
        "stranded_injected" => (
            "injected_jobs",
            ModelConfig::new(2).jobs(3),
            harness::injected_jobs::<M>,
        ),
        "latch_wake" => (
            "latch_wakes_owner",
            ModelConfig::new(2),
            harness::latch_wakes_owner::<M>,
        ),
        "internal_job" => (
            "internal_job_is_found",
            ModelConfig::new(2),
            harness::internal_job_is_found::<M>,
        ),
        "counters" => (
            "counters_consistent",
            ModelConfig::new(2).jobs(2),
            harness::counters_consistent::<M>,
        ),
        "termination" => (
            "termination",
            ModelConfig::new(2).jobs(2),
            harness::termination::<M>,
        ),
        other => panic!("no model property called {other:?}"),
    }
}

/// The shuttle check of `property` on model `M`.
pub fn check_property<M: SleepModel>(property: &'static str) {
    let (test, config, scenario) = property_check::<M>(property);
    check::<M>(property, test, config, scenario);
}

/// Replays the counterexample stored for `property` on model `M`, in
/// `shuttle-tests/replays/models/<model>-<property>.txt`.
pub fn replay_property<M: SleepModel>(property: &'static str) {
    let (test, config, scenario) = property_check::<M>(property);
    let file = format!("replays/models/{}-{property}.txt", M::NAME);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
    let schedule = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    replay_stored::<M>(
        property,
        test,
        config,
        &format!("shuttle-tests/{file}"),
        &schedule,
        scenario,
    );
}

/// One `#[test]` per listed property of model `$model`, running
/// [`check_property`]; `property / replay_name` also defines `replay_name`,
/// which replays the stored counterexample ([`replay_property`]).
/// Attributes written before a property (such as `#[ignore = "..."]` for an
/// expected failure) go on its test and on its replay.
macro_rules! model_tests {
    ($model:ty; $($(#[$attr:meta])* $property:ident $(/ $replay:ident)?),* $(,)?) => {
        $( model_tests!(@one $model; [$(#[$attr])*] $property $(/ $replay)?); )*
    };
    (@one $model:ty; [$($attrs:tt)*] $property:ident) => {
        #[test]
        $($attrs)*
        fn $property() {
            models_common::check_property::<$model>(stringify!($property));
        }
    };
    (@one $model:ty; [$($attrs:tt)*] $property:ident / $replay:ident) => {
        model_tests!(@one $model; [$($attrs)*] $property);

        #[test]
        $($attrs)*
        fn $replay() {
            models_common::replay_property::<$model>(stringify!($property));
        }
    };
}
