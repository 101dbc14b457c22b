//! `scope` on real threads.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

mod common;
use common::scaled;

#[test]
fn ten_thousand_spawns_sum_into_an_atomic() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let sum = AtomicUsize::new(0);
    let spawns = scaled(10_000, 40);
    pool.scope(|s| {
        for i in 0..spawns {
            let sum = &sum;
            s.spawn(move |_| {
                sum.fetch_add(i, Ordering::Relaxed);
            });
        }
    });
    assert_eq!(sum.into_inner(), (0..spawns).sum::<usize>());
}

#[test]
fn nested_spawns_all_finish_before_the_scope_returns() {
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let count = AtomicUsize::new(0);
    pool.scope(|s| {
        for _ in 0..10 {
            s.spawn(|s| {
                for _ in 0..10 {
                    s.spawn(|_| {
                        count.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
        }
    });
    assert_eq!(count.into_inner(), 100);
}

#[test]
fn scope_returns_the_body_value() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let mut data = vec![0u32; 16];
    let total = pool.scope(|s| {
        for (i, slot) in data.iter_mut().enumerate() {
            s.spawn(move |_| *slot = i as u32 * 2);
        }
        7
    });
    assert_eq!(total, 7);
    assert_eq!(data, (0..16).map(|i| i * 2).collect::<Vec<u32>>());
}

#[test]
fn a_panicking_spawned_job_reaches_the_caller_after_every_other_job() {
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let finished = AtomicUsize::new(0);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            s.spawn(|_| panic!("spawned job panics"));
            for _ in 0..50 {
                s.spawn(|_| {
                    thread::sleep(Duration::from_millis(2));
                    finished.fetch_add(1, Ordering::SeqCst);
                });
            }
        })
    }));
    let payload = outcome.expect_err("the panic reaches the scope's caller");
    assert_eq!(
        finished.load(Ordering::SeqCst),
        50,
        "the panic arrived before every other spawned job had run"
    );
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"spawned job panics"));
    // The pool still works.
    assert_eq!(pool.install(|| 40 + 2), 42);
}

#[test]
fn a_panicking_scope_body_waits_for_its_spawned_jobs() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let finished = AtomicUsize::new(0);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.scope(|s| {
            for _ in 0..10 {
                s.spawn(|_| {
                    thread::sleep(Duration::from_millis(5));
                    finished.fetch_add(1, Ordering::SeqCst);
                });
            }
            panic!("body panics");
        })
    }));
    assert!(outcome.is_err());
    assert_eq!(finished.load(Ordering::SeqCst), 10);
}

#[test]
fn a_worker_runs_its_own_scope_spawns_newest_first() {
    // As in rayon-core: a job spawned from a worker goes onto that worker's
    // own deque, which it pops newest first. With one worker the order is
    // fully determined.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let order = Mutex::new(Vec::new());
    pool.scope(|scope| {
        for job in 0..4 {
            let order = &order;
            scope.spawn(move |_| order.lock().unwrap().push(job));
        }
    });
    assert_eq!(*order.lock().unwrap(), [3, 2, 1, 0]);
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn scope_debug_names_the_pool_size() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let text = pool.scope(|scope| format!("{scope:?}"));
    assert!(
        text.starts_with("Scope") && text.contains("num_threads: 2"),
        "{text}"
    );
}
