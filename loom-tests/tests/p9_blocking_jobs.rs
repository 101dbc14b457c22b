#![cfg(loom)]
//! Property 9 under C11: jobs may block, and a queued injected job never
//! waits while every worker that is not blocked in a job sleeps (lemma 10 of
//! docs/proof.md, the hand-off). Only a scenario whose jobs are all
//! injected is here: its prediction holds under C++20 (the posts and the
//! hand-off read the counters between a `SeqCst` fence and the queues;
//! `models/src/blocking.rs` argues it beside the scenario). The scenarios
//! with a blocked internal job hold under SC only (lemma 5 (c)) and are
//! shuttle's (`shuttle-tests/tests/p9_blocking_jobs.rs`), and so is
//! `searcher_leaves_with_an_injected_job_queued`: its five threads (two
//! pools) take loom more than ten minutes at bound 1.
//!
//! Bound 1: 32,433 executions in about 4 s; bound 2 did not finish in five
//! minutes. No seeded mutant is killed here: within bound 1 loom does not
//! reach the schedule in which both posts find the injector empty beside a
//! sleeper (`finder_never_wakes` and the hand-off's weakened fence pass);
//! shuttle kills `finder_never_wakes` on this scenario at 8 and 16
//! workers, and the exact checker decides the fence (`hand_off_*` shapes).

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{injected_job_waits_for_another_injected_job, Config};

#[test]
fn injected_job_waits_for_another_injected_job_2w() {
    let config = Config::new(2);
    Check::new("9", "injected_job_waits_for_another_injected_job", config)
        .bound(1)
        .run(move || injected_job_waits_for_another_injected_job(config));
}
