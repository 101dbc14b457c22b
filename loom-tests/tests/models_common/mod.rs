//! How the loom suite runs the lists of `drowse_models::model_tests!`
//! (`models.rs`, `research_models.rs`): one loom check of one protocol
//! model.

#![allow(dead_code)]

use drowse_loom_tests::Check;
use drowse_models::protocols::harness::{self, ModelConfig};
use drowse_models::protocols::SleepModel;
use drowse_models::Checker;

/// The loom check of `property` (named as in `ci/models.d/loom.tsv`) on
/// model `M`. Every model is checked at the same sizes and bounds, so that
/// the table compares like with like.
///
/// # Panics
/// When `property` is not one of the five.
pub fn check_property<M: SleepModel>(property: &'static str) {
    check::<M>(property, None);
}

/// [`check_property`] at preemption bound `bound` instead of the shared
/// one, for a model whose check does not finish in time at the shared one
/// (the table says so).
pub fn check_lower_bound<M: SleepModel>(property: &'static str, bound: usize) {
    check::<M>(property, Some(bound));
}

/// Explores the scenario of `property` on model `M` at the shared bound,
/// or `lower_bound` (unless `LOOM_MAX_PREEMPTIONS` says otherwise); prints
/// the result line (`config=model=<name>,...`). A deadlock aborts the
/// process.
fn check<M: SleepModel>(property: &'static str, lower_bound: Option<usize>) {
    let (config, bound) = match property {
        "stranded_injected" => (ModelConfig::new(2).jobs(1), 2),
        "latch_wake" => (ModelConfig::new(2), 2),
        "internal_job" => (ModelConfig::new(2), 2),
        "counters" => (ModelConfig::new(1).jobs(1), 3),
        "termination" => (ModelConfig::new(2).jobs(1), 2),
        other => panic!("no model property called {other:?}"),
    };
    let (test, scenario) = harness::property_scenario::<M>(property);
    Check::of_model::<M>(property, test, config)
        .bound(lower_bound.unwrap_or(bound))
        .run(move || scenario(config));
}

/// Loom keeps no stored counterexamples: an expected failure is found
/// again by the search itself.
macro_rules! replays {
    ($($any:tt)*) => {};
}
pub(crate) use replays;
