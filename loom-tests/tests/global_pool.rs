#![cfg(loom)]
//! The global pool under loom, used the way a downstream test uses it:
//! `drowse::join`, `drowse::spawn` and `drowse::scope` called from the
//! model's main thread, outside any pool, with no pool built by hand and
//! nothing shut down by hand.
//!
//! Each execution of a model has a global pool of its own, built on first
//! use (2 workers by default under the checkers) or by `build_global` in
//! that execution, and ended when every thread of the execution that used it
//! has exited (here: the main thread, as the model's closure returns). loom
//! checks that every thread has finished at the end of each execution, so a
//! pool whose workers were left asleep would fail these tests as a deadlock;
//! and it checks that every loom object was dropped, so a pool kept from one
//! execution to the next would fail them too.
//!
//! No fences or counters are checked here (the property tests do that on
//! pools built by hand). Bounds keep each test to a few seconds: 2
//! preemptions (33,000-45,000 executions) where the pool is built on first
//! use, 1 (6,751) where `build_global` builds it, since `build_global` waits
//! for both workers to start and bound 2 there takes about 500,000
//! executions.

use drowse::ThreadPoolBuilder;
use loom::sync::{Arc, Condvar, Mutex};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Every interleaving up to `bound` preemptions (unless
/// `LOOM_MAX_PREEMPTIONS` says otherwise); returns the number of executions.
fn check(bound: usize, body: impl Fn() + Send + Sync + 'static) -> usize {
    let executions = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&executions);
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(bound);
    }
    builder.check(move || {
        counted.fetch_add(1, Ordering::Relaxed);
        body();
    });
    let executions = executions.load(Ordering::Relaxed);
    println!("executions={executions}");
    executions
}

/// Both halves of a `join` made outside any pool run on workers of the
/// global pool, which `build_global` gave 2 workers in this execution.
#[test]
fn join_from_outside_on_a_built_global_pool() {
    check(1, || {
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
    check(2, || {
        let (a, b) = drowse::join(|| 1 + 1, drowse::current_num_threads);
        assert_eq!((a, b), (2, 2));
    });
}

/// A job spawned into the global pool from outside runs on one of its
/// workers, and the main thread waits for it on a lock of its own.
#[test]
fn spawn_from_outside_and_wait() {
    check(2, || {
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
    let executions = check(2, || {
        drowse::spawn(|| {
            RUNS.fetch_add(1, Ordering::Relaxed);
        });
    });
    assert_eq!(RUNS.load(Ordering::Relaxed), executions);
}

/// `scope` from outside runs on the global pool and waits for its jobs.
#[test]
fn scope_from_outside() {
    check(2, || {
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

/// Each execution gets a fresh global pool: `build_global` succeeds in every
/// one (it fails once a pool exists), every execution starts 2 workers, and
/// every one of them exits before the execution ends. A second
/// `build_global` in the same execution fails, as in the std world.
#[test]
fn each_execution_gets_a_fresh_global_pool() {
    static STARTS: AtomicUsize = AtomicUsize::new(0);
    static EXITS: AtomicUsize = AtomicUsize::new(0);
    let executions = check(1, || {
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
