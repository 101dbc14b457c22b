//! `ThreadPool`: install, thread indices, cross-pool calls and the sleep
//! snapshots.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::Duration;

mod common;
use common::{fib, fib_sequential, named_pool, scaled, wait_until_all_asleep, PATIENCE};

#[test]
fn install_returns_the_value() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    assert_eq!(pool.install(|| 6 * 7), 42);
    pool.shutdown_and_wait();
}

#[test]
fn install_resumes_a_panic_on_the_caller() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.install(|| -> () { panic!("inside") })
    }));
    assert!(outcome.is_err());
    assert_eq!(pool.install(|| 1), 1);
}

#[test]
fn thread_indices_inside_and_outside_pools() {
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let other = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    assert_eq!(drowse::current_thread_index(), None);
    assert_eq!(pool.current_thread_index(), None);
    assert_eq!(pool.current_num_threads(), 3);

    let (free, own, num_threads) = pool.install(|| {
        (
            drowse::current_thread_index(),
            pool.current_thread_index(),
            drowse::current_num_threads(),
        )
    });
    let index = free.expect("a worker has an index");
    assert!(index < 3);
    assert_eq!(own, Some(index));
    assert_eq!(num_threads, 3);

    // A worker of `other` is no worker of `pool`.
    let seen_from_other = other.install(|| pool.current_thread_index());
    assert_eq!(seen_from_other, None);
}

#[test]
fn install_from_a_worker_of_another_pool() {
    let pool_a = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let pool_b = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let (index_a, inside_b) = pool_a.install(|| {
        let index_a = pool_a.current_thread_index();
        let inside_b = pool_b.install(|| {
            (
                pool_b.current_thread_index(),
                pool_a.current_thread_index(),
                drowse::current_num_threads(),
                drowse::join(|| 20, || 22),
            )
        });
        (index_a, inside_b)
    });
    assert!(index_a.is_some());
    let (index_b, a_seen_in_b, num_threads_in_b, joined) = inside_b;
    assert!(index_b.is_some_and(|index| index < 3));
    assert_eq!(a_seen_in_b, None, "B's job runs on B's worker");
    assert_eq!(num_threads_in_b, 3);
    assert_eq!(joined, (20, 22));
    pool_a.shutdown_and_snapshot().check().unwrap();
    pool_b.shutdown_and_snapshot().check().unwrap();
}

#[test]
fn many_cross_pool_installs_in_parallel() {
    let pool_a = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let pool_b = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let total = AtomicUsize::new(0);
    let installs = scaled(200, 20);
    pool_a.scope(|s| {
        for i in 0..installs {
            let (pool_b, total) = (&pool_b, &total);
            s.spawn(move |_| {
                let value = pool_b.install(|| i * 2);
                total.fetch_add(value, Ordering::Relaxed);
            });
        }
    });
    assert_eq!(
        total.into_inner(),
        (0..installs).map(|i| i * 2).sum::<usize>()
    );
}

#[test]
fn shutdown_and_wait_leaves_the_pool_at_rest() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let sum: usize = pool.install(|| {
        let (a, b) = drowse::join(|| (0..1000).sum::<usize>(), || (1000..2000).sum::<usize>());
        a + b
    });
    assert_eq!(sum, (0..2000).sum::<usize>());
    let snapshot = pool.shutdown_and_snapshot();
    assert_eq!(snapshot.num_threads, 4);
    snapshot.check_at_rest().unwrap();
}

#[test]
fn sleep_snapshots_pass_their_check_on_an_idle_and_a_busy_pool() {
    let pool = ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    // Idle: the workers go to sleep after their fruitless search rounds.
    thread::sleep(Duration::from_millis(200));
    let idle = pool.sleep_snapshot();
    idle.check().unwrap();
    assert_eq!(idle.num_threads, 4);
    assert!(idle.sleeping_threads <= idle.inactive_threads);
    // Busy, with snapshots taken from inside.
    pool.scope(|s| {
        for _ in 0..scaled(100, 20) {
            s.spawn(|_| pool.sleep_snapshot().check().unwrap());
        }
    });
    pool.sleep_snapshot().check().unwrap();
    let snapshot = pool.shutdown_and_snapshot();
    assert_eq!(
        (snapshot.inactive_threads, snapshot.sleeping_threads),
        (0, 0)
    );
}

#[test]
fn pool_debug_names_its_size() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    assert!(format!("{pool:?}").contains("num_threads: 2"));
}

#[test]
fn install_from_a_worker_of_the_same_pool_runs_in_place() {
    // As in rayon-core: `install` called on a worker of the same pool runs
    // the closure right there, before anything queued. With one worker the
    // order is fully determined: the nested install first, then the rest of
    // the outer closure, then the job the outer closure spawned.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let order = std::sync::Arc::new(Mutex::new(Vec::new()));
    let spawned_order = std::sync::Arc::clone(&order);
    let indices = pool.install(|| {
        drowse::spawn(move || spawned_order.lock().unwrap().push("spawned"));
        let outer = drowse::current_thread_index();
        let inner = pool.install(|| {
            order.lock().unwrap().push("nested");
            drowse::current_thread_index()
        });
        order.lock().unwrap().push("after");
        (outer, inner)
    });
    assert_eq!(indices, (Some(0), Some(0)));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    assert_eq!(*order.lock().unwrap(), ["nested", "after", "spawned"]);
}

#[test]
fn spawn_into_another_pool_runs_there() {
    // `ThreadPool::spawn` called on a worker of pool `a` runs the job on a
    // thread of pool `b`, not on the calling worker.
    let (a, b) = (named_pool("a"), named_pool("b"));
    let (sender, receiver) = mpsc::channel();
    a.install(|| {
        b.spawn(move || {
            let name = thread::current().name().map(str::to_owned);
            sender.send(name).unwrap();
        });
    });
    assert_eq!(receiver.recv_timeout(PATIENCE), Ok(Some("b-0".to_owned())));
    a.shutdown_and_snapshot().check_at_rest().unwrap();
    b.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn idle_workers_fall_asleep_and_do_so_again_after_work() {
    // The point of the sleep protocol: a pool with nothing to do does not
    // keep its threads spinning.
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let snapshot = wait_until_all_asleep(&pool);
    assert_eq!(
        (snapshot.inactive_threads, snapshot.blocked_threads),
        (3, 3),
        "every sleeping worker is idle and blocked"
    );
    // Bursts of work with pauses between them, so that workers get sleepy,
    // sleep, are woken and give up sleep attempts along the way; each time
    // they must all end up asleep again.
    // Under Miri, which runs a program thousands of times slower, fewer and
    // smaller bursts (ci/miri).
    let (bursts, base) = if cfg!(miri) { (4, 8) } else { (20, 18) };
    for burst in 0..bursts {
        assert_eq!(
            pool.install(|| fib(base + burst % 3)),
            fib_sequential(base + burst % 3)
        );
        thread::sleep(Duration::from_micros(200 * burst));
    }
    wait_until_all_asleep(&pool);
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}
