#![cfg(loom)]
//! The production protocol on the protocol-model harness, under loom: the
//! real `core/src/sleep` code through the same interface and scenarios as
//! the models of the other protocols, one test per property
//! (`<model>::<property>`), at the same sizes and bounds
//! (`models_common::check_property`). `ci/models` runs each test in its own
//! process and prints the table of `docs/models.md`; this target has
//! `test = false` in Cargo.toml, so `cargo test` skips it (the real pool is
//! checked on the same properties by the `p*` tests). The other protocols'
//! models are in `research_models.rs`, skipped the same way.
//!
//! Expected failures (counterexamples, see `docs/models.md`) are ignored
//! here: `ci/models` runs each alone (a loom deadlock aborts the test
//! binary) and requires it to fail.

mod models_common;

use drowse_models::model_tests;

model_tests! {
    /// The production protocol: the real `core/src/sleep` code, through `drowse::model_api`.
    mod production = drowse_models::protocols::production::Production;
    holds [stranded_injected, latch_wake, internal_job, counters, termination];
    fails [];
}

model_tests! {
    /// The production protocol with a one-bit JEC, which rolls over on every second bump.
    mod production_jec1 = drowse_models::protocols::production::ProductionJec1;
    holds [stranded_injected, latch_wake, internal_job, counters, termination];
    fails [];
}
