//! Shared by the loom tests of `models.rs`: one loom check of one protocol model.

#![allow(dead_code)]

use drowse_loom_tests::Check;
use drowse_models::protocols::harness::{self, ModelConfig};
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
        config: format!("model={},{}", M::NAME, M::effective_config(config)),
        default_bound: bound,
    };
    check.run(move || scenario(config));
}

/// The loom check of `property` (named as in `ci/models.d/loom.tsv`) on
/// model `M`. Every model is checked at the same sizes and bounds, so that
/// the table compares like with like; `lower_bound` replaces the bound for
/// a model whose check does not finish in time at the shared one (the
/// table says so).
///
/// # Panics
/// When `property` is not one of the five.
pub fn check_property<M: SleepModel>(property: &'static str, lower_bound: Option<usize>) {
    let (config, bound) = match property {
        "stranded_injected" => (ModelConfig::new(2).jobs(1), 2),
        "latch_wake" => (ModelConfig::new(2), 2),
        "internal_job" => (ModelConfig::new(2), 2),
        "counters" => (ModelConfig::new(1).jobs(1), 3),
        "termination" => (ModelConfig::new(2).jobs(1), 2),
        other => panic!("no model property called {other:?}"),
    };
    let (test, scenario) = harness::property_scenario::<M>(property);
    check::<M>(
        property,
        test,
        config,
        lower_bound.unwrap_or(bound),
        scenario,
    );
}

/// One module of tests for one model: `mod NAME = MODEL; holds [...];
/// fails [...];`, optionally followed by `slow [...];` and
/// `lower_bound B [...];`, one test per property of [`check_property`].
/// A property under `fails` is an expected failure: its test is ignored
/// (`ci/models` runs it in its own process, since a loom deadlock aborts
/// the binary, and requires it to fail). A property under `slow` must hold
/// but takes minutes: its test is ignored so that the loom suite stays
/// short, and `ci/models` runs it. A property under `lower_bound B` is
/// checked at preemption bound `B` instead of the shared one, as
/// `NAME::lower_bound::property` (must hold). Test names are
/// `NAME::property`.
macro_rules! model_tests {
    (
        $(#[$doc:meta])*
        mod $module:ident = $model:ty;
        holds [$($holds:ident),* $(,)?];
        fails [$($fails:ident),* $(,)?];
        $(slow [$($slow:ident),* $(,)?];)?
        $(lower_bound $bound:literal [$($low:ident),* $(,)?];)?
    ) => {
        $(#[$doc])*
        mod $module {
            $(
                #[test]
                fn $holds() {
                    crate::models_common::check_property::<$model>(stringify!($holds), None);
                }
            )*
            $(
                #[test]
                #[ignore = "expected failure (counterexample): run by ci/models"]
                fn $fails() {
                    crate::models_common::check_property::<$model>(stringify!($fails), None);
                }
            )*
            $($(
                #[test]
                #[ignore = "holds, but takes minutes: run by ci/models"]
                fn $slow() {
                    crate::models_common::check_property::<$model>(stringify!($slow), None);
                }
            )*)?
            $(
                /// Checks at a preemption bound below the shared one.
                mod lower_bound {
                    $(
                        #[test]
                        fn $low() {
                            crate::models_common::check_property::<$model>(
                                stringify!($low),
                                Some($bound),
                            );
                        }
                    )*
                }
            )?
        }
    };
}
