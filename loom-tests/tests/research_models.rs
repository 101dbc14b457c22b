#![cfg(loom)]
//! The models of the other protocols in the seeds (`models/src/protocols/`:
//! legacy Rayon, Blitz, the RFC and its variants, Mercury), under loom, on
//! the same harness, sizes and bounds as the production protocol in
//! `models.rs`: one module per model, one test per property
//! (`<model>::<property>`).
//!
//! This target has `test = false` in Cargo.toml, so `cargo test` (and with
//! it `ci/run`) does not run it: these are findings about protocols Drowse
//! does not ship, and their exhaustive checks take several minutes.
//! `ci/models` runs each test in its own process (`--test research_models`)
//! and prints the table of `docs/models.md`; `ci/run` still checks every
//! model under shuttle (`shuttle-tests/tests/models.rs`).
//!
//! Expected failures (counterexamples, see `docs/models.md`) are ignored:
//! `ci/models` runs each alone (a loom deadlock aborts the test binary) and
//! requires it to fail.

mod models_common;

use drowse_models::model_tests;

model_tests! {
    /// Legacy Rayon (seed 000), literally: findings L1 and L2 of `docs/models.md`.
    mod legacy = drowse_models::protocols::legacy::Legacy;
    holds [];
    fails [stranded_injected, latch_wake, internal_job, counters, termination];
}

model_tests! {
    /// Legacy Rayon with `tickle`'s load and store read as one swap (removes L1; L2 remains).
    mod legacy_swap = drowse_models::protocols::legacy::LegacySwap;
    holds [];
    fails [stranded_injected, latch_wake, internal_job, counters, termination];
}

model_tests! {
    /// Blitz as documented (seed 003): findings B1 and B2 of `docs/models.md`.
    mod blitz = drowse_models::protocols::blitz::Blitz;
    holds [stranded_injected, latch_wake, counters, termination];
    fails [internal_job];
}

model_tests! {
    /// The RFC's protocol (seed 004) as written: finding R1 of `docs/models/rfc.md`.
    mod rfc = drowse_models::protocols::rfc::Rfc;
    holds [latch_wake, counters, termination];
    fails [stranded_injected, internal_job];
}

model_tests! {
    /// The RFC with the local-queue judgement of idle threads: findings R1 and R2.
    mod rfc_local_queue = drowse_models::protocols::rfc::RfcLocalQueue;
    holds [latch_wake, counters, termination];
    fails [stranded_injected, internal_job];
}

model_tests! {
    /// The RFC waking blocks of threads up to the next power of two: finding R1 (and R3).
    mod rfc_blocks = drowse_models::protocols::rfc::RfcBlocks;
    holds [latch_wake, counters, termination];
    fails [stranded_injected, internal_job];
}

model_tests! {
    /// The RFC plus a final look after counting oneself asleep (not in the seed).
    mod rfc_final_look = drowse_models::protocols::rfc::RfcFinalLook;
    holds [stranded_injected, latch_wake, internal_job, counters, termination];
    fails [];
}

model_tests! {
    /// The local-queue alternative plus the final look: finding R2 remains.
    mod rfc_local_queue_final_look = drowse_models::protocols::rfc::RfcLocalQueueFinalLook;
    holds [stranded_injected, latch_wake, counters, termination];
    fails [internal_job];
}

model_tests! {
    /// The blocks alternative plus the final look.
    mod rfc_blocks_final_look = drowse_models::protocols::rfc::RfcBlocksFinalLook;
    holds [stranded_injected, latch_wake, internal_job, counters, termination];
    fails [];
}

model_tests! {
    /// The Mercury engines (seed 002): finding M3 of `docs/models/mercury.md`.
    mod mercury = drowse_models::protocols::mercury::Mercury;
    holds [latch_wake];
    fails [stranded_injected, internal_job, counters];
    slow [termination];
}

model_tests! {
    /// The Mercury engines, polling variant (seed 002). `stranded_injected`
    /// and `internal_job` at the shared bound 2 take longer than `ci/models`
    /// allows (`stranded_injected` held in 345 s; `internal_job` had not
    /// finished after 580 s): they are checked at bound 1 here;
    /// `LOOM_MAX_PREEMPTIONS=2` runs them at bound 2.
    mod mercury_polling = drowse_models::protocols::mercury::MercuryPolling;
    holds [latch_wake];
    fails [];
    slow [counters, termination];
    lower_bound 1 [stranded_injected, internal_job];
}
