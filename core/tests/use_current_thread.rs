//! `ThreadPoolBuilder::use_current_thread`. The building thread stays a
//! worker for the rest of its life (its worker is dropped when it exits), so
//! each test builds its pool on a thread of its own.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::collections::BTreeSet;
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::Duration;

mod common;
use common::PATIENCE;

#[test]
fn the_building_thread_is_worker_zero() {
    let started = Arc::new(Mutex::new(Vec::new()));
    let exited = Arc::new(Mutex::new(Vec::new()));
    let builder_thread = {
        let (started, exited) = (Arc::clone(&started), Arc::clone(&exited));
        thread::spawn(move || {
            let pool = ThreadPoolBuilder::new()
                .num_threads(3)
                .use_current_thread()
                .start_handler(move |index| started.lock().unwrap().push(index))
                .exit_handler(move |index| exited.lock().unwrap().push(index))
                .build()
                .unwrap();
            assert_eq!(drowse::current_thread_index(), Some(0));
            assert_eq!(pool.current_thread_index(), Some(0));
            assert_eq!(drowse::current_num_threads(), 3);

            // `join` from worker 0 works (whoever runs the halves).
            let (a, b) = drowse::join(|| 20, || 22);
            assert_eq!(a + b, 42);
            // So does `install`, in place, and `scope`.
            assert_eq!(pool.install(drowse::current_thread_index), Some(0));
            let mut values = [0; 4];
            drowse::scope(|s| {
                for (i, value) in values.iter_mut().enumerate() {
                    s.spawn(move |_| *value = i * 10);
                }
            });
            assert_eq!(values, [0, 10, 20, 30]);

            // A job spawned from worker 0 lands on its own deque; worker 0
            // then blocks on a channel, so the other workers must take it.
            let (sender, receiver) = mpsc::channel();
            let spawned_sender = sender.clone();
            drowse::spawn(move || spawned_sender.send(drowse::current_thread_index()).unwrap());
            pool.spawn(move || sender.send(drowse::current_thread_index()).unwrap());
            let mut ran_on = BTreeSet::new();
            for _ in 0..2 {
                let index = receiver.recv_timeout(PATIENCE).expect("the job ran");
                ran_on.insert(index.expect("on a worker"));
            }
            assert!(
                !ran_on.contains(&0),
                "worker 0 was blocked, so others ran the jobs: {ran_on:?}"
            );

            // A thread can be worker 0 of one pool only.
            let error = ThreadPoolBuilder::new()
                .num_threads(2)
                .use_current_thread()
                .build()
                .expect_err("already a worker");
            assert_eq!(
                error.to_string(),
                "The current thread is already part of another thread pool."
            );
            pool
        })
    };
    let pool = builder_thread.join().unwrap();
    // From another thread, shutting down waits for the workers other than
    // worker 0, which has no main loop to leave.
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    let sorted = |indices: &Mutex<Vec<usize>>| {
        let mut indices = indices.lock().unwrap().clone();
        indices.sort_unstable();
        indices
    };
    assert_eq!(sorted(&started), [1, 2], "no handlers for worker 0");
    assert_eq!(sorted(&exited), [1, 2]);
}

#[test]
fn with_a_spawn_handler_only_the_other_workers_are_spawned() {
    let outcome = thread::spawn(|| {
        let mut spawned = Vec::new();
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .use_current_thread()
            .spawn_handler(|thread| {
                spawned.push(thread.index());
                thread::spawn(move || thread.run());
                Ok(())
            })
            .build()
            .unwrap();
        assert_eq!(drowse::current_thread_index(), Some(0));
        let (sender, receiver) = mpsc::channel();
        pool.spawn(move || sender.send(drowse::current_thread_index()).unwrap());
        let ran_on = receiver.recv_timeout(PATIENCE).expect("the job ran");
        // On the building thread (worker 0, which has no main loop),
        // shutting down waits for the other worker.
        pool.shutdown_and_wait();
        (spawned, ran_on)
    })
    .join()
    .unwrap();
    assert_eq!(outcome, (vec![1], Some(1)));
}

#[test]
fn a_one_thread_pool_of_the_current_thread_starts_no_thread() {
    thread::spawn(|| {
        let pool = ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .spawn_handler(|_| panic!("no thread is spawned"))
            .build()
            .unwrap();
        assert_eq!(pool.current_thread_index(), Some(0));
        // Everything runs on the current thread.
        assert_eq!(drowse::join(|| 1, || 2), (1, 2));
        let mut value = 0;
        drowse::scope(|s| s.spawn(|_| value = 3));
        assert_eq!(value, 3);
    })
    .join()
    .unwrap();
}

#[test]
fn a_building_thread_that_exits_drops_its_worker_and_the_pool_goes_on() {
    // Shared with the pool's registry, which owns the panic handler: once
    // the registry is freed, only our reference is left.
    let panics = Arc::new(Mutex::new(0));
    let (result_sender, results) = mpsc::channel();
    let (pool, threads) = thread::spawn({
        let panics = Arc::clone(&panics);
        let result_sender = result_sender.clone();
        move || {
            let mut threads = Vec::new();
            let pool = ThreadPoolBuilder::new()
                .num_threads(3)
                .use_current_thread()
                .panic_handler(move |_| *panics.lock().unwrap() += 1)
                .spawn_handler(|thread| {
                    threads.push(thread::spawn(move || thread.run()));
                    Ok(())
                })
                .build()
                .unwrap();
            // Onto worker 0's own deque; the thread exits before anyone
            // need have taken it, so another worker steals it afterwards.
            pool.spawn(move || result_sender.send(drowse::current_thread_index()).unwrap());
            (pool, threads)
        }
    })
    .join()
    .unwrap();
    // The thread is gone, and with it worker 0; the other workers run the
    // job it left and new ones.
    let left_behind = results.recv_timeout(PATIENCE).expect("the job ran");
    assert!(matches!(left_behind, Some(1 | 2)), "{left_behind:?}");
    pool.spawn(move || result_sender.send(drowse::current_thread_index()).unwrap());
    let spawned = results.recv_timeout(PATIENCE).expect("the job ran");
    assert!(matches!(spawned, Some(1 | 2)), "{spawned:?}");
    assert!(matches!(
        pool.install(drowse::current_thread_index),
        Some(1 | 2)
    ));
    assert_eq!(pool.join(|| 1, || 2), (1, 2));

    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    for thread in threads {
        thread.join().unwrap();
    }
    // Every thread that held the registry has exited: worker 0's thread
    // dropped its reference when it ended, so the registry is freed.
    assert_eq!(
        Arc::strong_count(&panics),
        1,
        "the registry outlived every thread of the pool"
    );
    assert_eq!(*panics.lock().unwrap(), 0, "no job panicked");
}

#[test]
fn shutdown_on_the_building_thread_waits_for_the_other_workers() {
    // The other workers' exit handler is slow: a shutdown that did not wait
    // would return before they have all run it.
    let exited = Arc::new(Mutex::new(Vec::new()));
    let exits_seen = thread::spawn({
        let (exited, exited_now) = (Arc::clone(&exited), Arc::clone(&exited));
        move || {
            let pool = ThreadPoolBuilder::new()
                .num_threads(3)
                .use_current_thread()
                .exit_handler(move |index| {
                    thread::sleep(Duration::from_millis(50));
                    exited.lock().unwrap().push(index);
                })
                .build()
                .unwrap();
            // A job left for the others, run before they exit.
            let (sender, receiver) = mpsc::channel();
            pool.spawn(move || sender.send(()).unwrap());
            pool.shutdown_and_wait();
            receiver
                .try_recv()
                .expect("the spawned job ran before the pool stopped");
            assert_eq!(
                exited_now.lock().unwrap().len(),
                2,
                "both other workers had exited when shutdown_and_wait returned"
            );
        }
    });
    exits_seen.join().unwrap();
    let mut exited = exited.lock().unwrap().clone();
    exited.sort_unstable();
    assert_eq!(exited, [1, 2]);
}
