//! One interface for the two checker suites: a [`Checker`] (the loom
//! suite's `Check`, the shuttle suite's `Check`) runs a scenario of this
//! crate under its checker and prints one result line, and
//! [`model_tests!`](crate::model_tests) writes the tests of one protocol
//! model for either suite.

use crate::protocols::harness::ModelConfig;
use crate::protocols::SleepModel;
use crate::scenarios::Config;
use std::fmt::Display;

/// What a check prints about itself, whichever checker runs it: its
/// property, its test's name and its scenario's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckName {
    /// The property number of `docs/proof.md` (or `liveness`, `stats`).
    pub property: &'static str,
    /// The test's name, as printed.
    pub test: &'static str,
    /// The scenario's size, as printed.
    pub config: String,
}

impl CheckName {
    /// A check of `property` called `test`, of a scenario of size `config`.
    pub fn new(property: &'static str, test: &'static str, config: impl Display) -> CheckName {
        CheckName {
            property,
            test,
            config: config.to_string(),
        }
    }

    /// Appends `,key=value` to the printed configuration.
    pub fn with(&mut self, key: &str, value: impl Display) {
        self.config = format!("{},{key}={value}", self.config);
    }

    /// The head of the result line, `property=P test=T checker=C
    /// config=X`, where `checker` is the checker's name and the settings
    /// it prints before the configuration (`shuttle scheduler=random`).
    pub fn head(&self, checker: &str) -> String {
        format!(
            "property={} test={} checker={checker} config={}",
            self.property, self.test, self.config
        )
    }
}

/// A model checker's check of one scenario. Each suite's `Check`
/// implements it, with its checker's search settings (loom's preemption
/// bound; shuttle's scheduler and iterations) as its own builder methods.
pub trait Checker: Sized {
    /// The check `name`, with the checker's default search.
    fn named(name: CheckName) -> Self;

    /// The name the check prints.
    fn name_mut(&mut self) -> &mut CheckName;

    /// Runs `scenario` under the checker (every execution the search
    /// allows) and prints the result line; panics, after the checker's own
    /// report, if an execution fails. Returns the number of executions.
    fn run<F>(&self, scenario: F) -> usize
    where
        F: Fn() + Send + Sync + 'static;

    /// A check of `property` called `test`, of a scenario of size
    /// `config`.
    fn new(property: &'static str, test: &'static str, config: Config) -> Self {
        Self::named(CheckName::new(property, test, config))
    }

    /// Appends `,key=value` to the printed configuration.
    fn with(mut self, key: &str, value: impl Display) -> Self {
        self.name_mut().with(key, value);
        self
    }

    /// A check of protocol model `M`'s `property` (the scenario `test`, of
    /// size `config`), printed with the configuration
    /// `model=<name>,<the size the model runs>`.
    fn of_model<M: SleepModel>(
        property: &'static str,
        test: &'static str,
        config: ModelConfig,
    ) -> Self {
        Self::named(CheckName::new(
            property,
            test,
            format_args!("model={},{}", M::NAME, M::effective_config(config)),
        ))
    }
}

/// The tests of one protocol model, for the suite that invokes it:
///
/// ```text
/// model_tests! {
///     /// doc
///     mod NAME = MODEL;
///     holds [...];
///     fails [...];
///     slow [...];              // optional
///     pct [...];               // optional
///     lower_bound B [...];     // optional
/// }
/// ```
///
/// Each listed name is a property of `harness::property_scenario`, or a
/// statistics workload (`stats_sporadic_4w`: 4 workers, 4 jobs 20 yields
/// apart; `stats_forks_4w`: the same, each job pushing 2 children). Test
/// names are `NAME::property`.
///
/// - `holds`: must hold.
/// - `fails`: an expected failure (a counterexample): the test is ignored,
///   and `ci/models` runs it in its own process and requires it to fail.
/// - `slow`: holds, but takes minutes: ignored, run by `ci/models`.
/// - `pct`: an expected failure found by PCT, for a finding the shared
///   random search does not reach: `NAME::pct::property`.
/// - `lower_bound B`: checked at preemption bound `B` instead of the shared
///   one, as `NAME::lower_bound::property` (must hold).
///
/// The invoking test crate's `models_common` module says how its checker
/// runs each list: `check_property::<M>(property)` for `holds`, `fails`
/// and `slow`, `check_pct::<M>(property)`, `check_lower_bound::<M>(property,
/// B)`, `stats::<M>(workers, jobs, children, gap)`, and the macro
/// `replays!` for the stored counterexamples of `fails` and `pct` (by the
/// same path, nested in `pct`). A list whose function a suite does not
/// define (PCT under loom, a preemption bound under shuttle) does not
/// compile there.
// `crate::models_common` is the invoking test crate's module, on purpose.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! model_tests {
    (
        $(#[$doc:meta])*
        mod $module:ident = $model:ty;
        holds [$($holds:ident),* $(,)?];
        fails [$($fails:ident),* $(,)?];
        $(slow [$($slow:ident),* $(,)?];)?
        $(pct [$($pct:ident),* $(,)?];)?
        $(lower_bound $bound:literal [$($low:ident),* $(,)?];)?
    ) => {
        $(#[$doc])*
        mod $module {
            $( $crate::model_tests!(@test $model; []; $holds; check_property); )*
            $( $crate::model_tests!(
                @test $model;
                [#[ignore = "expected failure (counterexample): run by ci/models"]];
                $fails;
                check_property
            ); )*
            $($( $crate::model_tests!(
                @test $model;
                [#[ignore = "holds, but takes minutes: run by ci/models"]];
                $slow;
                check_property
            ); )*)?
            crate::models_common::replays! { $model; Shared; $($fails),* }
            $(
                /// Expected failures found by PCT.
                mod pct {
                    $( $crate::model_tests!(
                        @test $model;
                        [#[ignore = "expected failure (counterexample): run by ci/models"]];
                        $pct;
                        check_pct
                    ); )*
                    crate::models_common::replays! { $model; Pct; $($pct),* }
                }
            )?
            $(
                /// Checks at a preemption bound below the shared one.
                mod lower_bound {
                    $( $crate::model_tests!(@test $model; []; $low; check_lower_bound, $bound); )*
                }
            )?
        }
    };
    (@test $model:ty; [$($attr:tt)*]; stats_sporadic_4w; $check:ident) => {
        #[test]
        $($attr)*
        fn stats_sporadic_4w() {
            crate::models_common::stats::<$model>(4, 4, 0, 20);
        }
    };
    (@test $model:ty; [$($attr:tt)*]; stats_forks_4w; $check:ident) => {
        #[test]
        $($attr)*
        fn stats_forks_4w() {
            crate::models_common::stats::<$model>(4, 4, 2, 20);
        }
    };
    (@test $model:ty; [$($attr:tt)*]; $property:ident; $check:ident $(, $arg:expr)?) => {
        #[test]
        $($attr)*
        fn $property() {
            crate::models_common::$check::<$model>(stringify!($property) $(, $arg)?);
        }
    };
}
