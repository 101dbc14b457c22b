//! `join` on real threads. The checker worlds cannot run std-thread tests;
//! their suites live in loom-tests/ and shuttle-tests/.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

mod common;
use common::{fib, fib_sequential, scaled, wait_until_asleep, PATIENCE};

#[test]
fn join_recursive_fib_30_matches_sequential() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    // fib(30) is 1.6 million joins; Miri runs fib(12), 232 of them.
    let n = scaled(30, 12) as u64;
    assert_eq!(pool.install(|| fib(n)), fib_sequential(n));
}

#[test]
fn join_with_a_one_bit_jobs_event_counter() {
    let pool = ThreadPoolBuilder::new()
        .num_threads(3)
        .jobs_event_counter_bits(1)
        .build()
        .unwrap();
    let n = scaled(18, 10) as u64;
    for _ in 0..scaled(20, 3) {
        assert_eq!(pool.install(|| fib(n)), fib_sequential(n));
    }
    let snapshot = pool.shutdown_and_snapshot();
    assert_eq!(
        (snapshot.inactive_threads, snapshot.sleeping_threads),
        (0, 0)
    );
}

#[test]
fn pool_join_returns_both_results() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    assert_eq!(pool.join(|| 1 + 1, || "two"), (2, "two"));
}

/// Runs `join` on a 2-thread pool where `panicking_a` says which half panics;
/// the other half sleeps, then raises a flag. The panic must reach the caller
/// only after the flag is up, and the pool must keep working.
fn panic_waits_for_the_other_half(panicking_a: bool) {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let other_half_done = AtomicBool::new(false);
    let slow_half = || {
        thread::sleep(Duration::from_millis(100));
        other_half_done.store(true, Ordering::SeqCst);
    };
    let panicking_half = || -> () { panic!("half panics") };
    let outcome = pool.install(|| {
        panic::catch_unwind(AssertUnwindSafe(|| {
            if panicking_a {
                drowse::join(panicking_half, slow_half);
            } else {
                drowse::join(slow_half, panicking_half);
            }
        }))
    });
    let payload = outcome.expect_err("the panic reaches the caller");
    assert!(
        other_half_done.load(Ordering::SeqCst),
        "the panic arrived before the other half finished"
    );
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"half panics"));
    // The pool still runs work afterwards.
    let n = scaled(15, 8) as u64;
    assert_eq!(pool.install(|| fib(n)), fib_sequential(n));
    assert_eq!(pool.join(|| 1, || 2), (1, 2));
    let snapshot = pool.shutdown_and_snapshot();
    assert_eq!(
        (snapshot.inactive_threads, snapshot.sleeping_threads),
        (0, 0)
    );
}

#[test]
fn a_panic_in_oper_a_waits_for_oper_b() {
    panic_waits_for_the_other_half(true);
}

#[test]
fn a_panic_in_oper_b_waits_for_oper_a() {
    panic_waits_for_the_other_half(false);
}

/// A panic at the bottom of a chain of nested joins on a 1-thread pool: each
/// join's second half must run before the panic passes it, whichever way
/// the join kept that half. The outermost join publishes it (its deque is
/// empty), the next few keep it private, and the rest run in line (the
/// deque holds a job and the private window, one half, is full): with 20
/// levels every kind is passed through.
#[test]
fn a_panic_deep_in_nested_joins_runs_every_second_half() {
    const LEVELS: usize = 20;
    fn chain(level: usize, second_halves_run: &AtomicUsize) {
        if level == LEVELS {
            panic!("bottom");
        }
        drowse::join(
            || chain(level + 1, second_halves_run),
            || {
                second_halves_run.fetch_add(1, Ordering::SeqCst);
            },
        );
    }
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let second_halves_run = AtomicUsize::new(0);
    let payload = pool
        .install(|| panic::catch_unwind(AssertUnwindSafe(|| chain(0, &second_halves_run))))
        .expect_err("the panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"bottom"));
    assert_eq!(second_halves_run.load(Ordering::SeqCst), LEVELS);
}

#[test]
fn when_both_halves_panic_oper_a_wins() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let payload = pool
        .install(|| {
            panic::catch_unwind(|| {
                drowse::join(
                    || -> () { panic!("a") },
                    || -> () {
                        thread::sleep(Duration::from_millis(20));
                        panic!("b")
                    },
                )
            })
        })
        .expect_err("a panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"a"));
}

#[test]
fn join_context_reports_migration() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for _ in 0..scaled(50, 5) {
        let (a, b) = pool.install(|| {
            let caller = drowse::current_thread_index();
            drowse::join_context(
                |ctx| (ctx.migrated(), drowse::current_thread_index() == caller),
                |ctx| {
                    thread::sleep(Duration::from_micros(200));
                    (ctx.migrated(), drowse::current_thread_index() == caller)
                },
            )
        });
        assert_eq!(a, (false, true), "oper_a runs on the caller");
        assert_eq!(
            b.0, !b.1,
            "oper_b is migrated exactly when it ran elsewhere"
        );
    }
}

#[test]
fn join_context_outside_any_pool_is_migrated() {
    // From outside a pool the call moves into the global pool, so both
    // closures run on a thread other than the caller's.
    let (a, b) = drowse::join_context(|ctx| ctx.migrated(), |ctx| ctx.migrated());
    assert!(a, "oper_a runs on a global worker, not on the caller");
    // oper_b ran either inline after oper_a (on the same worker, so it is
    // migrated from the caller's point of view) or on a thief.
    assert!(b, "oper_b never runs on the calling thread");
}

#[test]
fn a_job_pushed_beside_a_sleeping_worker_wakes_it_and_is_stolen() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (a, b) = pool.install(|| {
        // The other worker is asleep when oper_b is pushed: pushing it must
        // wake that worker, or oper_a (which waits for oper_b) waits alone.
        wait_until_asleep(&pool, 1);
        let b_ran = AtomicBool::new(false);
        drowse::join_context(
            |ctx| {
                // Do not return before oper_b has run: then the other worker
                // must have stolen it.
                let deadline = Instant::now() + Duration::from_secs(10);
                while !b_ran.load(Ordering::Acquire) && Instant::now() < deadline {
                    thread::yield_now();
                }
                (ctx.migrated(), b_ran.load(Ordering::Acquire))
            },
            |ctx| {
                b_ran.store(true, Ordering::Release);
                ctx.migrated()
            },
        )
    });
    assert_eq!(a, (false, true), "oper_a ran on the caller, after oper_b");
    assert!(b, "oper_b was stolen, so it ran on another thread");
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn jobs_that_oper_a_leaves_on_the_deque_still_run() {
    // One worker, so nobody steals: when oper_a returns, the job it spawned
    // sits on top of oper_b in the worker's deque, and join must run it
    // rather than mistake it for oper_b.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (sender, receiver) = mpsc::channel();
    let (a, b) = pool.install(move || {
        drowse::join(
            move || {
                drowse::spawn(move || sender.send("spawned").unwrap());
                1
            },
            || 2,
        )
    });
    assert_eq!((a, b), (1, 2));
    assert_eq!(receiver.recv_timeout(PATIENCE), Ok("spawned"));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}
