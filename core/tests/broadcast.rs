//! `broadcast` and `spawn_broadcast` on real threads.
#![cfg(not(any(loom, shuttle)))]

use drowse::{BroadcastContext, ThreadPoolBuilder};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

mod common;
use common::{pool, scaled, wait_until_all_asleep};

/// What one run of a broadcast closure saw.
fn describe(context: BroadcastContext<'_>) -> (usize, usize, Option<usize>) {
    (
        context.index(),
        context.num_threads(),
        drowse::current_thread_index(),
    )
}

#[test]
fn broadcast_runs_once_on_every_worker_in_index_order() {
    let pool = pool(5);
    let runs = AtomicUsize::new(0);
    let seen = pool.broadcast(|context| {
        runs.fetch_add(1, Ordering::Relaxed);
        describe(context)
    });
    assert_eq!(runs.into_inner(), 5);
    let expected: Vec<_> = (0..5).map(|index| (index, 5, Some(index))).collect();
    assert_eq!(seen, expected);
}

#[test]
fn broadcast_reaches_workers_that_are_asleep() {
    let pool = pool(4);
    for _ in 0..scaled(20, 3) {
        wait_until_all_asleep(&pool);
        let indices = pool.broadcast(|context| context.index());
        assert_eq!(indices, [0, 1, 2, 3]);
    }
}

#[test]
fn spawn_broadcast_reaches_workers_that_are_asleep() {
    let pool = pool(4);
    for _ in 0..scaled(20, 3) {
        wait_until_all_asleep(&pool);
        let (sender, receiver) = channel();
        let sender = Mutex::new(sender);
        pool.spawn_broadcast(move |context| {
            sender.lock().unwrap().send(describe(context)).unwrap();
        });
        // The senders are dropped with the job's closure once every worker
        // has run it, which ends the iteration.
        let mut seen: Vec<_> = receiver.into_iter().collect();
        seen.sort_unstable();
        let expected: Vec<_> = (0..4).map(|index| (index, 4, Some(index))).collect();
        assert_eq!(seen, expected);
    }
}

#[test]
fn broadcasts_racing_workers_falling_asleep_all_finish() {
    // A small spread of run times sends some workers towards sleep while the
    // next broadcast is being pushed: the race of rayon issue #992.
    let pool = pool(7);
    for round in 0..scaled(2_000, 20) as u64 {
        let indices = pool.broadcast(|context| {
            if context.index() as u64 == round % 7 {
                thread::sleep(Duration::from_micros(context.index() as u64));
            }
            context.index()
        });
        assert_eq!(indices, (0..7).collect::<Vec<_>>());
    }
}

#[test]
fn broadcast_may_borrow_from_the_callers_stack() {
    let pool = pool(3);
    let mut per_worker = vec![0usize; 3];
    {
        let slots: Vec<Mutex<&mut usize>> = per_worker.iter_mut().map(Mutex::new).collect();
        pool.broadcast(|context| **slots[context.index()].lock().unwrap() += 10 + context.index());
    }
    assert_eq!(per_worker, [10, 11, 12]);
}

#[test]
fn broadcast_from_one_of_the_pools_own_workers() {
    let pool = pool(3);
    let (caller, seen) = pool.install(|| {
        let caller = drowse::current_thread_index();
        (caller, drowse::broadcast(describe))
    });
    assert!(caller.is_some());
    let expected: Vec<_> = (0..3).map(|index| (index, 3, Some(index))).collect();
    assert_eq!(seen, expected);
}

#[test]
fn broadcasts_between_two_pools_finish() {
    let pool_a = pool(3);
    let pool_b = pool(4);
    let runs = AtomicUsize::new(0);
    let nested = pool_a.broadcast(|_| {
        pool_b
            .broadcast(|_| {
                pool_a.broadcast(|_| runs.fetch_add(1, Ordering::Relaxed));
            })
            .len()
    });
    assert_eq!(nested, [4, 4, 4]);
    assert_eq!(runs.into_inner(), 3 * 4 * 3);
}

#[test]
fn the_global_broadcast_reaches_every_global_worker() {
    let seen = drowse::broadcast(|context| (context.index(), context.num_threads()));
    let num_threads = drowse::current_num_threads();
    let expected: Vec<_> = (0..num_threads).map(|index| (index, num_threads)).collect();
    assert_eq!(seen, expected);
}

#[test]
fn a_panic_in_one_worker_is_resumed_after_all_have_run() {
    let pool = pool(4);
    let finished = AtomicUsize::new(0);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        pool.broadcast(|context| {
            if context.index() == 2 {
                panic!("worker two fails");
            }
            thread::sleep(Duration::from_millis(10));
            finished.fetch_add(1, Ordering::Relaxed);
        })
    }));
    let payload = outcome.expect_err("the panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"worker two fails"));
    assert_eq!(finished.into_inner(), 3);
}

#[test]
fn spawn_broadcast_panics_go_to_the_panic_handler_once_per_worker() {
    let (sender, receiver) = channel();
    let sender = Mutex::new(sender);
    let pool = ThreadPoolBuilder::new()
        .num_threads(3)
        .panic_handler(move |payload| {
            let message = *payload.downcast::<&str>().unwrap();
            sender.lock().unwrap().send(message).unwrap();
        })
        .build()
        .unwrap();
    pool.spawn_broadcast(|_| panic!("every worker fails"));
    for _ in 0..3 {
        assert_eq!(
            receiver.recv_timeout(Duration::from_secs(20)).unwrap(),
            "every worker fails"
        );
    }
    assert!(receiver.recv_timeout(Duration::from_millis(50)).is_err());
}

#[test]
fn a_spawned_broadcast_keeps_its_pool_alive() {
    let pool = pool(3);
    let runs = Arc::new(AtomicUsize::new(0));
    let (release, released) = channel::<()>();
    let released = Mutex::new(released);
    let chosen = AtomicBool::new(false);
    let job_runs = Arc::clone(&runs);
    pool.spawn_broadcast(move |_| {
        if !chosen.swap(true, Ordering::Relaxed) {
            // One worker waits until the handle is about to go.
            released.lock().unwrap().recv().unwrap();
        }
        job_runs.fetch_add(1, Ordering::Relaxed);
    });
    let snapshot = {
        let pool = pool;
        release.send(()).unwrap();
        pool.shutdown_and_snapshot()
    };
    assert_eq!(runs.load(Ordering::Relaxed), 3);
    snapshot.check_at_rest().unwrap();
}

#[test]
fn a_blocking_broadcast_runs_after_an_earlier_spawned_one_everywhere() {
    let pool = pool(4);
    let (sender, receiver) = channel();
    let sender = Mutex::new(sender);
    pool.spawn_broadcast(move |context| sender.lock().unwrap().send(context.index()).unwrap());
    // Each worker's broadcast queue is FIFO, so when every worker has run
    // this one, every worker has run the spawned one before it.
    pool.broadcast(|_| ());
    let mut indices: Vec<_> = receiver.try_iter().collect();
    indices.sort_unstable();
    assert_eq!(indices, [0, 1, 2, 3]);
}

#[test]
fn a_broadcast_runs_after_the_workers_local_jobs() {
    let pool = pool(1);
    let (sender, receiver) = channel();
    pool.install(|| drowse::spawn(move || sender.send(22).unwrap()));
    // The spawned job sits on the worker's deque, which it empties before
    // it takes a broadcast job.
    pool.broadcast(|_| ());
    assert_eq!(receiver.try_recv(), Ok(22));
}

#[test]
fn scope_spawn_broadcast_runs_once_per_worker_and_borrows() {
    let pool = pool(3);
    let runs = AtomicUsize::new(0);
    let indices = Mutex::new(Vec::new());
    pool.scope(|scope| {
        scope.spawn_broadcast(|_, context| {
            runs.fetch_add(1, Ordering::Relaxed);
            indices.lock().unwrap().push(context.index());
        });
    });
    assert_eq!(runs.into_inner(), 3);
    let mut indices = indices.into_inner().unwrap();
    indices.sort_unstable();
    assert_eq!(indices, [0, 1, 2]);
}

#[test]
fn scope_fifo_spawn_broadcast_runs_once_per_worker() {
    let pool = pool(4);
    let runs = AtomicUsize::new(0);
    let total = pool.scope_fifo(|scope| {
        scope.spawn_broadcast(|_, context| {
            runs.fetch_add(context.num_threads(), Ordering::Relaxed);
        });
        5
    });
    assert_eq!(total, 5);
    assert_eq!(runs.into_inner(), 4 * 4);
}

/// Counts its drop through a borrowed counter.
struct CountsDrop<'a>(&'a AtomicUsize);

impl Drop for CountsDrop<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn a_scope_broadcast_body_is_dropped_before_the_scope_returns() {
    let pool = pool(4);
    // Each round is a chance for the owner to free the scope while the last
    // job that counted it down is still in its frame; Miri runs
    // fewer rounds, over several seeds (ci/miri).
    for _ in 0..scaled(200, 10) {
        let drops = AtomicUsize::new(0);
        pool.scope(|scope| {
            let guard = CountsDrop(&drops);
            scope.spawn_broadcast(move |_, _| {
                let _ = &guard;
            });
        });
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn broadcast_context_debug_names_the_worker() {
    let pool = pool(2);
    let text = pool.broadcast(|context| format!("{context:?}"));
    assert!(text[1].contains("index: 1"), "{}", text[1]);
    assert!(text[1].contains("num_threads: 2"), "{}", text[1]);
}
