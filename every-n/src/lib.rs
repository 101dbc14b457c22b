//! Drowse's sleep protocol for every pool size `N`: the counter abstraction
//! ([`model`]), written once as data, and its translation to SMT-LIB
//! ([`smt`]) for z3. `ci/prove` runs the binary of this package; see
//! `docs/every-n.md`.

pub mod lin;
pub mod model;
pub mod smt;
