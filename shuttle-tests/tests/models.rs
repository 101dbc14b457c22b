#![cfg(shuttle)]
//! The protocol models (`models/src/protocols/`) on the protocol-model
//! harness, under shuttle: one module per model, one test per property
//! (`<model>::<property>`) and per statistics workload, every model at the
//! same sizes (`models_common::check_property`). `ci/models` runs each test
//! in its own process and prints the table of `docs/models.md`.
//!
//! Expected failures (counterexamples, see `docs/models.md`) are ignored
//! here: `ci/models` runs them and requires them to fail, and runs
//! `<model>::replay::<property>`, which replays the schedule stored in
//! `shuttle-tests/replays/models/<model>-<property>.txt`.

mod models_common;

use drowse_models::model_tests;

model_tests! {
    /// The production protocol: the real `core/src/sleep` code, through `drowse::model_api`.
    mod production = drowse_models::protocols::production::Production;
    holds [stranded_injected, latch_wake, internal_job, counters, termination, stats_sporadic_4w, stats_forks_4w];
    fails [];
}

model_tests! {
    /// The production protocol with a one-bit JEC, which rolls over on every second bump.
    mod production_jec1 = drowse_models::protocols::production::ProductionJec1;
    holds [stranded_injected, latch_wake, internal_job, counters, termination, stats_sporadic_4w];
    fails [];
}

model_tests! {
    /// Legacy Rayon (seed 000), literally: findings L1 and L2 of `docs/models.md`.
    mod legacy = drowse_models::protocols::legacy::Legacy;
    holds [];
    fails [stranded_injected, internal_job, counters, termination];
    pct [latch_wake];
}

model_tests! {
    /// Legacy Rayon with `tickle`'s load and store read as one swap (removes L1; L2 remains).
    mod legacy_swap = drowse_models::protocols::legacy::LegacySwap;
    holds [stranded_injected, latch_wake, internal_job, counters, termination, stats_sporadic_4w];
    fails [];
}

model_tests! {
    /// Blitz as documented (seed 003): findings B1 and B2 of `docs/models.md`.
    mod blitz = drowse_models::protocols::blitz::Blitz;
    holds [stranded_injected, latch_wake, termination, stats_sporadic_4w];
    fails [internal_job, counters];
}

model_tests! {
    /// The RFC's protocol (seed 004) as written: finding R1 of `docs/models/rfc.md`.
    mod rfc = drowse_models::protocols::rfc::Rfc;
    holds [latch_wake, termination];
    fails [internal_job, stats_sporadic_4w];
    pct [stranded_injected, counters];
}

model_tests! {
    /// The RFC with the local-queue judgement of idle threads: findings R1 and R2.
    mod rfc_local_queue = drowse_models::protocols::rfc::RfcLocalQueue;
    holds [latch_wake, termination];
    fails [internal_job, stats_sporadic_4w];
    pct [stranded_injected, counters];
}

model_tests! {
    /// The RFC waking blocks of threads up to the next power of two: finding R1 (and R3).
    mod rfc_blocks = drowse_models::protocols::rfc::RfcBlocks;
    holds [latch_wake, termination];
    fails [internal_job, stats_sporadic_4w];
    pct [stranded_injected, counters];
}

model_tests! {
    /// The RFC plus a final look after counting oneself asleep (not in the seed).
    mod rfc_final_look = drowse_models::protocols::rfc::RfcFinalLook;
    holds [stranded_injected, latch_wake, internal_job, counters, termination, stats_sporadic_4w, stats_forks_4w];
    fails [];
}

model_tests! {
    /// The local-queue alternative plus the final look: finding R2 remains.
    mod rfc_local_queue_final_look = drowse_models::protocols::rfc::RfcLocalQueueFinalLook;
    holds [stranded_injected, latch_wake, counters, termination, stats_sporadic_4w, stats_forks_4w];
    fails [internal_job];
}

model_tests! {
    /// The blocks alternative plus the final look.
    mod rfc_blocks_final_look = drowse_models::protocols::rfc::RfcBlocksFinalLook;
    holds [stranded_injected, latch_wake, internal_job, counters, termination, stats_sporadic_4w, stats_forks_4w];
    fails [];
}

model_tests! {
    /// The Mercury engines (seed 002): findings M1 (under PCT) and M2 of
    /// `docs/models/mercury.md`.
    mod mercury = drowse_models::protocols::mercury::Mercury;
    holds [stranded_injected, latch_wake, counters, termination, stats_sporadic_4w];
    fails [internal_job];
    pct [stranded_injected];
}

model_tests! {
    /// The Mercury engines, polling variant (seed 002).
    mod mercury_polling = drowse_models::protocols::mercury::MercuryPolling;
    holds [stranded_injected, latch_wake, internal_job, counters, termination, stats_sporadic_4w];
    fails [];
}
