#![cfg(shuttle)]
//! The global pool under shuttle, used the way a downstream test uses it
//! (`models/src/global_pool.rs`): `drowse::join`, `drowse::spawn` and
//! `drowse::scope` called from the model's main thread, outside any pool,
//! on the global pool of each execution, which ends when every thread of
//! the execution that used it has exited (the termination part of the
//! theorem of `docs/proof.md`, property 7). Shuttle reports a deadlock when
//! an execution ends with a thread still blocked, so a pool whose workers
//! were left asleep fails these tests; and a pool kept from one execution
//! to the next would make the second execution's `build_global` fail. The
//! mutant `global_pool_never_ends` (`ci/mutants.d/`) is killed here. Two
//! tests, written here, share the pool between threads of the model:
//! `the_global_pool_outlives_the_main_thread_while_a_user_runs` and
//! `users_one_after_another_each_get_a_pool`.
//!
//! Every test runs PCT (depth 3) and random schedules with the suite's fixed
//! seed (`DROWSE_SHUTTLE_SEED` and `DROWSE_SHUTTLE_ITERATIONS` apply), and
//! prints a result line for each.

use drowse_models::global_pool::{self, WorkerTally};
use drowse_models::Checker;
use drowse_models::Config;
use drowse_shuttle_tests::Check;
use shuttle::sync::{Arc, Condvar, Mutex};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `scenario` on the execution's global pool (2 workers) under PCT
/// (depth 3) and random schedules, `iterations` each, as test `test`;
/// returns the number of executions of both.
fn check<F>(test: &'static str, iterations: usize, scenario: F) -> usize
where
    F: Fn() + Clone + Send + Sync + 'static,
{
    let check = Check::new("7", test, Config::new(2))
        .with("pool", "global")
        .iterations(iterations);
    check.clone().pct(3).run(scenario.clone()) + check.random().run(scenario)
}

#[test]
fn join_from_outside_on_a_built_global_pool() {
    check(
        "join_from_outside_on_a_built_global_pool",
        2000,
        global_pool::join_from_outside_on_a_built_global_pool,
    );
}

#[test]
fn join_from_outside_on_the_default_global_pool() {
    check(
        "join_from_outside_on_the_default_global_pool",
        2000,
        global_pool::join_from_outside_on_the_default_global_pool,
    );
}

#[test]
fn spawn_from_outside_and_wait() {
    check(
        "spawn_from_outside_and_wait",
        2000,
        global_pool::spawn_from_outside_and_wait,
    );
}

#[test]
fn spawned_job_runs_after_the_main_thread_returns() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let executions = check(
        "spawned_job_runs_after_the_main_thread_returns",
        2000,
        || global_pool::spawn_from_outside_and_return(&RUNS),
    );
    assert_eq!(RUNS.load(Ordering::Relaxed), executions);
}

#[test]
fn scope_from_outside() {
    check("scope_from_outside", 2000, global_pool::scope_from_outside);
}

/// Threads of the model share the execution's global pool, and it lives
/// until the last thread that used it exits: here the main thread uses it
/// first, and a thread that the main thread does not join may go on using
/// it after the main thread has returned.
#[test]
fn the_global_pool_outlives_the_main_thread_while_a_user_runs() {
    static SECOND_JOINS: AtomicUsize = AtomicUsize::new(0);
    let executions = check(
        "the_global_pool_outlives_the_main_thread_while_a_user_runs",
        2000,
        || {
            assert_eq!(drowse::join(|| 5, || 6), (5, 6));
            let first_join_done = Arc::new((Mutex::new(false), Condvar::new()));
            let signal = Arc::clone(&first_join_done);
            let other = shuttle::thread::spawn(move || {
                assert_eq!(drowse::join(|| 1, || 2), (1, 2));
                let (done, wake) = &*signal;
                *done.lock().unwrap() = true;
                wake.notify_one();
                // Possibly after the main thread has returned.
                assert_eq!(drowse::join(|| 3, || 4), (3, 4));
                SECOND_JOINS.fetch_add(1, Ordering::Relaxed);
            });
            let (done, wake) = &*first_join_done;
            let mut done = done.lock().unwrap();
            while !*done {
                done = wake.wait(done).unwrap();
            }
            // Not joined.
            drop(other);
        },
    );
    assert_eq!(SECOND_JOINS.load(Ordering::Relaxed), executions);
}

/// Threads that use the global pool one after another, with no thread
/// holding it in between (the main thread never uses it), each get a pool:
/// the first one ends when its only user exits, and the next use builds a
/// fresh one, as at the start of an execution.
#[test]
fn users_one_after_another_each_get_a_pool() {
    check("users_one_after_another_each_get_a_pool", 2000, || {
        for round in 0..2 {
            let user = shuttle::thread::spawn(move || drowse::join(|| round, || round + 1));
            assert_eq!(user.join().unwrap(), (round, round + 1));
        }
    });
}

#[test]
fn each_execution_gets_a_fresh_global_pool() {
    static TALLY: WorkerTally = WorkerTally::new();
    let executions = check("each_execution_gets_a_fresh_global_pool", 1000, || {
        global_pool::each_execution_gets_a_fresh_global_pool(&TALLY)
    });
    TALLY.assert_every_worker_started_and_exited(2, executions);
}
