#![cfg(loom)]
//! The global pool under loom, used the way a downstream test uses it
//! (`models/src/global_pool.rs`): `drowse::join`, `drowse::spawn` and
//! `drowse::scope` called from the model's main thread, outside any pool,
//! on the global pool of each execution, which ends when the main thread
//! returns (the termination part of the theorem of `docs/proof.md`,
//! property 7). loom checks that every thread has finished at the end of
//! each execution, so a pool whose workers were left asleep fails these
//! tests as a deadlock; and it checks that every loom object was dropped,
//! so a pool kept from one execution to the next would fail them too.
//! Mutant (`ci/mutants.d/`): `global_pool_never_ends` (the last user's exit
//! does not end the pool).
//!
//! Bounds keep each test to a few seconds: 2 preemptions (33,000-45,000
//! executions) where the pool is built on first use, 1 (6,751) where
//! `build_global` builds it, since `build_global` waits for both workers to
//! start and bound 2 there takes about 500,000 executions.

use drowse_loom_tests::Check;
use drowse_models::global_pool::{self, WorkerTally};
use drowse_models::Checker;
use drowse_models::Config;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The check of `test` on the execution's global pool (2 workers), at
/// preemption bound `bound`.
fn check(test: &'static str, bound: usize) -> Check {
    Check::new("7", test, Config::new(2))
        .with("pool", "global")
        .bound(bound)
}

#[test]
fn join_from_outside_on_a_built_global_pool() {
    check("join_from_outside_on_a_built_global_pool", 1)
        .run(global_pool::join_from_outside_on_a_built_global_pool);
}

#[test]
fn join_from_outside_on_the_default_global_pool() {
    check("join_from_outside_on_the_default_global_pool", 2)
        .run(global_pool::join_from_outside_on_the_default_global_pool);
}

#[test]
fn spawn_from_outside_and_wait() {
    check("spawn_from_outside_and_wait", 2).run(global_pool::spawn_from_outside_and_wait);
}

#[test]
fn spawned_job_runs_after_the_main_thread_returns() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let executions = check("spawned_job_runs_after_the_main_thread_returns", 2)
        .run(|| global_pool::spawn_from_outside_and_return(&RUNS));
    assert_eq!(RUNS.load(Ordering::Relaxed), executions);
}

#[test]
fn scope_from_outside() {
    check("scope_from_outside", 2).run(global_pool::scope_from_outside);
}

#[test]
fn each_execution_gets_a_fresh_global_pool() {
    static TALLY: WorkerTally = WorkerTally::new();
    let executions = check("each_execution_gets_a_fresh_global_pool", 1)
        .run(|| global_pool::each_execution_gets_a_fresh_global_pool(&TALLY));
    TALLY.assert_every_worker_started_and_exited(2, executions);
}
