//! `spawn_fifo` and `scope_fifo` on real threads: FIFO where `spawn` and
//! `scope` are LIFO.
#![cfg(not(any(loom, shuttle)))]

use drowse::{ThreadPool, ThreadPoolBuilder};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Mutex;

mod common;
use common::scaled;

fn one_thread_pool() -> ThreadPool {
    ThreadPoolBuilder::new().num_threads(1).build().unwrap()
}

/// Spawns ten jobs from the single worker while it is busy, and returns the
/// order in which they ran.
fn spawn_order(spawn: fn(Box<dyn FnOnce() + Send>)) -> Vec<usize> {
    let pool = one_thread_pool();
    let (sender, receiver) = channel();
    pool.install(|| {
        for i in 0..10 {
            let sender = sender.clone();
            spawn(Box::new(move || sender.send(i).unwrap()));
        }
    });
    drop(sender);
    receiver.into_iter().collect()
}

#[test]
fn spawn_fifo_on_one_thread_runs_in_spawn_order() {
    assert_eq!(spawn_order(drowse::spawn_fifo), (0..10).collect::<Vec<_>>());
}

#[test]
fn spawn_on_one_thread_runs_newest_first() {
    assert_eq!(
        spawn_order(drowse::spawn),
        (0..10).rev().collect::<Vec<_>>()
    );
}

#[test]
fn thread_pool_spawn_fifo_from_its_worker_runs_in_spawn_order() {
    let pool = one_thread_pool();
    let (sender, receiver) = channel();
    pool.install(|| {
        for i in 0..10 {
            let sender = sender.clone();
            pool.spawn_fifo(move || sender.send(i).unwrap());
        }
    });
    drop(sender);
    assert_eq!(
        receiver.into_iter().collect::<Vec<_>>(),
        (0..10).collect::<Vec<_>>()
    );
}

#[test]
fn spawn_fifo_from_outside_runs_every_job() {
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let (sender, receiver) = channel();
    for i in 0..100 {
        let sender = sender.clone();
        pool.spawn_fifo(move || sender.send(i).unwrap());
    }
    drop(sender);
    let mut seen: Vec<_> = receiver.into_iter().collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..100).collect::<Vec<_>>());
}

#[test]
fn scope_fifo_on_one_thread_runs_in_spawn_order() {
    let pool = one_thread_pool();
    let order = Mutex::new(Vec::new());
    pool.scope_fifo(|scope| {
        for i in 0..10 {
            let order = &order;
            scope.spawn_fifo(move |_| order.lock().unwrap().push(i));
        }
    });
    assert_eq!(order.into_inner().unwrap(), (0..10).collect::<Vec<_>>());
}

#[test]
fn scope_on_one_thread_runs_newest_first() {
    let pool = one_thread_pool();
    let order = Mutex::new(Vec::new());
    pool.scope(|scope| {
        for i in 0..10 {
            let order = &order;
            scope.spawn(move |_| order.lock().unwrap().push(i));
        }
    });
    assert_eq!(
        order.into_inner().unwrap(),
        (0..10).rev().collect::<Vec<_>>()
    );
}

#[test]
fn nested_fifo_scopes_run_level_by_level_on_one_thread() {
    // Each job of the outer scope spawns two children: FIFO runs all of one
    // generation before the next.
    let pool = one_thread_pool();
    let order = Mutex::new(Vec::new());
    pool.scope_fifo(|scope| {
        for i in 0..3 {
            let order = &order;
            scope.spawn_fifo(move |scope| {
                order.lock().unwrap().push(i);
                for child in 0..2 {
                    scope.spawn_fifo(move |_| order.lock().unwrap().push(10 * (i + 1) + child));
                }
            });
        }
    });
    assert_eq!(
        order.into_inner().unwrap(),
        [0, 1, 2, 10, 11, 20, 21, 30, 31]
    );
}

#[test]
fn a_fifo_scope_on_many_threads_runs_every_job_once() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let runs: Vec<AtomicUsize> = (0..scaled(1_000, 50))
        .map(|_| AtomicUsize::new(0))
        .collect();
    pool.scope_fifo(|scope| {
        for run in &runs {
            scope.spawn_fifo(move |scope| {
                scope.spawn_fifo(move |_| {
                    run.fetch_add(1, Ordering::Relaxed);
                });
            });
        }
    });
    assert!(runs.iter().all(|run| run.load(Ordering::Relaxed) == 1));
}

#[test]
fn the_global_scope_fifo_returns_the_body_value() {
    let count = AtomicUsize::new(0);
    let value = drowse::scope_fifo(|scope| {
        for _ in 0..10 {
            scope.spawn_fifo(|_| {
                count.fetch_add(1, Ordering::Relaxed);
            });
        }
        "done"
    });
    assert_eq!(value, "done");
    assert_eq!(count.into_inner(), 10);
}
