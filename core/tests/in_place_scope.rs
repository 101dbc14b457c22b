//! `in_place_scope` and `in_place_scope_fifo` on real threads: the body runs
//! on the calling thread, wherever that is.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

#[test]
fn the_body_runs_on_the_calling_thread_outside_any_pool() {
    let caller = thread::current().id();
    // Neither `Send` nor `'static`: the body never leaves this thread.
    let local = Rc::new(RefCell::new(Vec::new()));
    let spawned = AtomicUsize::new(0);
    let body_thread = drowse::in_place_scope(|scope| {
        local.borrow_mut().push(1);
        assert_eq!(drowse::current_thread_index(), None);
        for _ in 0..10 {
            scope.spawn(|_| {
                assert!(drowse::current_thread_index().is_some());
                spawned.fetch_add(1, Ordering::Relaxed);
            });
        }
        thread::current().id()
    });
    assert_eq!(body_thread, caller);
    assert_eq!(*local.borrow(), [1]);
    assert_eq!(spawned.into_inner(), 10);
}

#[test]
fn the_body_may_borrow_locals_mutably() {
    let mut total = 0;
    let mut slots = [0usize; 8];
    drowse::in_place_scope(|scope| {
        for (i, slot) in slots.iter_mut().enumerate() {
            scope.spawn(move |_| *slot = i * i);
        }
        total += 1;
    });
    assert_eq!(total, 1);
    assert_eq!(slots, [0, 1, 4, 9, 16, 25, 36, 49]);
}

#[test]
fn a_pools_in_place_scope_spawns_into_that_pool() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let caller = thread::current().id();
    let in_pool = AtomicUsize::new(0);
    let body_thread = pool.in_place_scope(|scope| {
        for _ in 0..20 {
            scope.spawn(|_| {
                if pool.current_thread_index().is_some() {
                    in_pool.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        thread::current().id()
    });
    assert_eq!(body_thread, caller);
    assert_eq!(in_pool.into_inner(), 20);
}

#[test]
fn an_in_place_scope_from_a_worker_of_another_pool_finishes() {
    let pool_a = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let pool_b = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (runs, body_in_a) = pool_a.install(|| {
        let runs = AtomicUsize::new(0);
        let body_in_a = pool_b.in_place_scope(|scope| {
            for _ in 0..10 {
                scope.spawn(|_| {
                    assert_eq!(pool_b.current_thread_index(), Some(0));
                    runs.fetch_add(1, Ordering::Relaxed);
                });
            }
            pool_a.current_thread_index()
        });
        (runs.into_inner(), body_in_a)
    });
    assert_eq!(runs, 10);
    assert_eq!(body_in_a, Some(0));
}

#[test]
fn in_place_scope_fifo_from_outside_runs_jobs_in_order_on_one_thread() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let order = Mutex::new(Vec::new());
    pool.in_place_scope_fifo(|scope| {
        for i in 0..10 {
            let order = &order;
            scope.spawn_fifo(move |_| order.lock().unwrap().push(i));
        }
    });
    assert_eq!(order.into_inner().unwrap(), (0..10).collect::<Vec<_>>());
}

#[test]
fn in_place_scope_fifo_on_a_worker_runs_jobs_in_order() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let order = pool.install(|| {
        let order = Mutex::new(Vec::new());
        drowse::in_place_scope_fifo(|scope| {
            for i in 0..10 {
                let order = &order;
                scope.spawn_fifo(move |_| order.lock().unwrap().push(i));
            }
        });
        order.into_inner().unwrap()
    });
    assert_eq!(order, (0..10).collect::<Vec<_>>());
}

#[test]
fn a_panic_is_resumed_after_every_job_has_run() {
    let finished = AtomicUsize::new(0);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        drowse::in_place_scope(|scope| {
            for i in 0..5 {
                let finished = &finished;
                scope.spawn(move |_| {
                    if i == 2 {
                        panic!("job two fails");
                    }
                    finished.fetch_add(1, Ordering::Relaxed);
                });
            }
        })
    }));
    let payload = outcome.expect_err("the panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"job two fails"));
    assert_eq!(finished.into_inner(), 4);
}

#[test]
fn a_panic_in_the_body_waits_for_the_spawned_jobs() {
    let finished = AtomicUsize::new(0);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        drowse::in_place_scope(|scope| {
            scope.spawn(|_| {
                thread::sleep(std::time::Duration::from_millis(20));
                finished.fetch_add(1, Ordering::Relaxed);
            });
            panic!("the body fails");
        })
    }));
    assert!(outcome.is_err());
    assert_eq!(finished.into_inner(), 1);
}
