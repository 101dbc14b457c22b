#![cfg(loom)]
//! The `rfc-blocks` model (seed 004; `models/src/protocols/rfc.rs` says what
//! it takes from the seed) on the protocol-model harness, under
//! loom: one test per property (`ci/models` runs each in its own
//! process and prints the table).
//!
//! Expected failures (counterexamples, see `docs/models/rfc.md`) are
//! ignored here: `ci/models` runs each in its own process (a loom deadlock
//! aborts the test binary) and requires it to fail.

#[macro_use]
mod models_common;

use drowse_models::protocols::rfc::RfcBlocks as M;

model_tests! {
    M;
    #[ignore = "expected failure (counterexample): run by ci/models"]
    stranded_injected,
    latch_wake,
    #[ignore = "expected failure (counterexample): run by ci/models"]
    internal_job,
    counters,
    termination,
}
