#![cfg(shuttle)]
//! The global pool under shuttle, used the way a downstream test uses it:
//! `drowse::join`, `drowse::spawn` and `drowse::scope` called from the
//! model's main thread, outside any pool, with no pool built by hand and
//! nothing shut down by hand.
//!
//! Each execution has a global pool of its own, built on first use (2
//! workers by default under the checkers) or by `build_global` in that
//! execution, and ended when every thread of the execution that used it has
//! exited. Shuttle reports a deadlock when an execution ends with a thread
//! still blocked, so a pool whose workers were left asleep fails these
//! tests; and a pool kept from one execution to the next would make the
//! second execution's `build_global` fail.
//!
//! Every test runs PCT (depth 3) and random schedules with the suite's fixed
//! seed (`DROWSE_SHUTTLE_SEED` and `DROWSE_SHUTTLE_ITERATIONS` apply).

use drowse::ThreadPoolBuilder;
use drowse_shuttle_tests::{config, iterations, seed};
use shuttle::scheduler::{PctScheduler, RandomScheduler};
use shuttle::sync::{Arc, Condvar, Mutex};
use shuttle::Runner;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `body` under PCT and random schedules, `default_iterations` each;
/// returns the number of executions.
fn check(name: &str, default_iterations: usize, body: fn()) -> usize {
    let iterations = iterations(default_iterations);
    let seed = seed();
    let executions = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&executions);
    let counted_body = move || {
        counted.fetch_add(1, Ordering::Relaxed);
        body();
    };
    Runner::new(PctScheduler::new_from_seed(seed, 3, iterations), config())
        .run(counted_body.clone());
    Runner::new(RandomScheduler::new_from_seed(seed, iterations), config()).run(counted_body);
    let executions = executions.load(Ordering::Relaxed);
    println!("test={name} checker=shuttle scheduler=pct,depth=3+random iterations={iterations} executions={executions} result=pass seed={seed}");
    executions
}

/// Both halves of a `join` made outside any pool run on workers of the
/// global pool, which `build_global` gave 2 workers in this execution.
#[test]
fn join_from_outside_on_a_built_global_pool() {
    check("join_from_outside_on_a_built_global_pool", 2000, || {
        ThreadPoolBuilder::new()
            .num_threads(2)
            .build_global()
            .expect("each execution builds its own global pool");
        assert_eq!(drowse::current_num_threads(), 2);
        let (a, b) = drowse::join(
            || drowse::current_thread_index().map(|index| index + 10),
            || drowse::current_thread_index().map(|index| index + 20),
        );
        let (a, b) = (a.expect("runs on a worker"), b.expect("runs on a worker"));
        assert!((10..12).contains(&a) && (20..22).contains(&b), "{a} {b}");
        assert_eq!(drowse::current_thread_index(), None);
    });
}

/// With no `build_global`, the first `join` builds the default global pool:
/// 2 workers under the checkers (the machine's parallelism does not count).
#[test]
fn join_from_outside_on_the_default_global_pool() {
    check("join_from_outside_on_the_default_global_pool", 2000, || {
        let (a, b) = drowse::join(|| 1 + 1, drowse::current_num_threads);
        assert_eq!((a, b), (2, 2));
    });
}

/// A job spawned into the global pool from outside runs on one of its
/// workers, and the main thread waits for it on a lock of its own.
#[test]
fn spawn_from_outside_and_wait() {
    check("spawn_from_outside_and_wait", 2000, || {
        let done = Arc::new((Mutex::new(None), Condvar::new()));
        let signal = Arc::clone(&done);
        drowse::spawn(move || {
            let (ran_on, wake) = &*signal;
            *ran_on.lock().unwrap() = drowse::current_thread_index();
            wake.notify_one();
        });
        let (ran_on, wake) = &*done;
        let mut ran_on = ran_on.lock().unwrap();
        while ran_on.is_none() {
            ran_on = wake.wait(ran_on).unwrap();
        }
        assert!(ran_on.is_some_and(|index| index < 2));
    });
}

/// A job spawned and not waited for still runs before the execution ends:
/// the pool ends only once its spawned jobs have run.
#[test]
fn spawned_job_runs_after_the_main_thread_returns() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let executions = check(
        "spawned_job_runs_after_the_main_thread_returns",
        2000,
        || {
            drowse::spawn(|| {
                RUNS.fetch_add(1, Ordering::Relaxed);
            });
        },
    );
    assert_eq!(RUNS.load(Ordering::Relaxed), executions);
}

/// `scope` from outside runs on the global pool and waits for its jobs.
#[test]
fn scope_from_outside() {
    check("scope_from_outside", 2000, || {
        let seen = Mutex::new(Vec::new());
        drowse::scope(|scope| {
            scope.spawn(|_| seen.lock().unwrap().push(1));
            seen.lock().unwrap().push(2);
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, [1, 2]);
    });
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

/// Each execution gets a fresh global pool: `build_global` succeeds in every
/// one (it fails once a pool exists), every execution starts 2 workers, and
/// every one of them exits before the execution ends. A second
/// `build_global` in the same execution fails, as in the std world.
#[test]
fn each_execution_gets_a_fresh_global_pool() {
    static STARTS: AtomicUsize = AtomicUsize::new(0);
    static EXITS: AtomicUsize = AtomicUsize::new(0);
    let executions = check("each_execution_gets_a_fresh_global_pool", 1000, || {
        ThreadPoolBuilder::new()
            .num_threads(2)
            .start_handler(|_| {
                STARTS.fetch_add(1, Ordering::Relaxed);
            })
            .exit_handler(|_| {
                EXITS.fetch_add(1, Ordering::Relaxed);
            })
            .build_global()
            .expect("a fresh global pool in every execution");
        let again = ThreadPoolBuilder::new().num_threads(1).build_global();
        assert!(again.is_err(), "built twice in one execution");
        assert_eq!(drowse::join(|| 1, || 2), (1, 2));
    });
    assert!(executions > 1, "{executions}");
    assert_eq!(STARTS.load(Ordering::Relaxed), 2 * executions);
    assert_eq!(EXITS.load(Ordering::Relaxed), 2 * executions);
}
