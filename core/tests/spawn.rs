//! `spawn` on real threads: the panic handler, and pools that end with jobs
//! still queued.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

mod common;
use common::PATIENCE;

#[test]
fn a_spawned_panic_goes_to_the_panic_handler() {
    let (sender, receiver) = mpsc::channel::<String>();
    let sender = std::sync::Mutex::new(sender);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .panic_handler(move |payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|text| text.to_string())
                .unwrap_or_default();
            sender.lock().unwrap().send(message).unwrap();
        })
        .build()
        .unwrap();
    pool.spawn(|| panic!("spawned job panics"));
    assert_eq!(
        receiver.recv_timeout(PATIENCE).unwrap(),
        "spawned job panics"
    );
    // The worker survived the panic.
    assert_eq!(pool.install(|| 6 * 7), 42);
    let snapshot = pool.shutdown_and_snapshot();
    assert_eq!(
        (snapshot.inactive_threads, snapshot.sleeping_threads),
        (0, 0)
    );
}

#[test]
fn spawn_inside_a_pool_uses_that_pool() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (sender, receiver) = mpsc::channel();
    let pool_size = pool.current_num_threads();
    pool.install(move || {
        drowse::spawn(move || {
            sender
                .send((
                    drowse::current_thread_index(),
                    drowse::current_num_threads(),
                ))
                .unwrap();
        })
    });
    let (index, num_threads) = receiver.recv_timeout(PATIENCE).unwrap();
    assert!(index.is_some_and(|index| index < pool_size));
    assert_eq!(num_threads, pool_size);
}

fn queue_jobs_behind_a_slow_one(pool: &drowse::ThreadPool, count: &Arc<AtomicUsize>) {
    pool.spawn(|| thread::sleep(Duration::from_millis(100)));
    for _ in 0..100 {
        let count = Arc::clone(count);
        pool.spawn(move || {
            count.fetch_add(1, Ordering::SeqCst);
        });
    }
}

#[test]
fn shutdown_and_wait_runs_the_pending_spawned_jobs() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    queue_jobs_behind_a_slow_one(&pool, &count);
    let snapshot = pool.shutdown_and_snapshot();
    assert_eq!(count.load(Ordering::SeqCst), 100);
    snapshot.check_at_rest().unwrap();
}

#[test]
fn dropping_the_pool_still_runs_the_pending_spawned_jobs() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    queue_jobs_behind_a_slow_one(&pool, &count);
    let (sender, receiver) = mpsc::channel();
    pool.spawn(move || sender.send(()).unwrap());
    drop(pool);
    receiver.recv_timeout(PATIENCE).unwrap();
    // The last job was queued after the others; on two threads some of the
    // others may still be running, so wait for the count.
    let deadline = std::time::Instant::now() + PATIENCE;
    while count.load(Ordering::SeqCst) < 100 {
        assert!(std::time::Instant::now() < deadline, "jobs were lost");
        thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_spawned_job_that_shuts_its_own_pool_down_gets_a_panic_and_the_pool_still_ends() {
    // A worker cannot wait for itself to stop, so `shutdown_and_snapshot`
    // (like `shutdown_and_wait`) panics there; the pool is ended all the
    // same, and both workers leave their main loops.
    let (exit_sender, exit_receiver) = mpsc::channel();
    let exit_sender = std::sync::Mutex::new(exit_sender);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .exit_handler(move |index| exit_sender.lock().unwrap().send(index).unwrap())
        .build()
        .unwrap();
    let pool = Arc::new(std::sync::Mutex::new(Some(pool)));
    let (outcome_sender, outcome_receiver) = mpsc::channel();
    let inner = Arc::clone(&pool);
    pool.lock().unwrap().as_ref().unwrap().spawn(move || {
        let pool = inner.lock().unwrap().take().unwrap();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            pool.shutdown_and_snapshot()
        }));
        outcome_sender.send(outcome.is_err()).unwrap();
    });
    assert!(
        outcome_receiver.recv_timeout(PATIENCE).unwrap(),
        "shutting down from one of the pool's own workers panics"
    );
    let mut exited = [
        exit_receiver.recv_timeout(PATIENCE).unwrap(),
        exit_receiver.recv_timeout(PATIENCE).unwrap(),
    ];
    exited.sort_unstable();
    assert_eq!(exited, [0, 1], "both workers left the ended pool");
}
