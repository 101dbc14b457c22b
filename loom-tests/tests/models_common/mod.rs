//! Shared by the `models_*` loom tests: one loom check of one protocol model.

#![allow(dead_code)]

use drowse_loom_tests::Check;
use drowse_models::protocols::harness::ModelConfig;
use drowse_models::protocols::SleepModel;

/// Explores `scenario` on model `M` at preemption bound `bound` (unless
/// `LOOM_MAX_PREEMPTIONS` says otherwise); prints the result line
/// (`config=model=<name>,...`). A deadlock aborts the process.
pub fn check<M: SleepModel>(
    property: &'static str,
    test: &'static str,
    config: ModelConfig,
    bound: usize,
    scenario: fn(ModelConfig),
) {
    let check = Check {
        property,
        test,
        config: format!("model={},{config}", M::NAME),
        default_bound: bound,
    };
    check.run(move || scenario(config));
}
