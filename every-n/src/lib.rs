//! Drowse's sleep protocol for every pool size `N`: the counter abstraction
//! ([`model`]), written once as data, and its translation to SMT-LIB
//! ([`smt`]) for z3, and an explicit-state search at a concrete `N`
//! ([`explicit`]) for the counterexamples of mutants. `ci/prove` runs the
//! binary of this package; see `docs/every-n.md`. With the `validate`
//! feature, `validate` checks the steps Drowse records under the checkers
//! against the model (trace validation, the checker suites' glue).

pub mod explicit;
pub mod lin;
pub mod liveness;
pub mod model;
pub mod smt;
#[cfg(feature = "validate")]
pub mod validate;
