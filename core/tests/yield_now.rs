//! `yield_now`, `yield_local` and `current_thread_has_pending_tasks` on real
//! threads.
#![cfg(not(any(loom, shuttle)))]

use drowse::{ThreadPoolBuilder, Yield};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

#[test]
fn outside_any_pool_there_is_nothing_to_yield_to() {
    assert_eq!(drowse::yield_now(), None);
    assert_eq!(drowse::yield_local(), None);
    assert_eq!(drowse::current_thread_has_pending_tasks(), None);
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.yield_now(), None);
    assert_eq!(pool.yield_local(), None);
    assert_eq!(pool.current_thread_has_pending_tasks(), None);
}

#[test]
fn yield_now_runs_exactly_one_pending_job() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    pool.install(|| {
        assert_eq!(drowse::current_thread_has_pending_tasks(), Some(false));
        assert_eq!(drowse::yield_now(), Some(Yield::Idle));
        for _ in 0..3 {
            let runs = Arc::clone(&runs);
            drowse::spawn(move || {
                runs.fetch_add(1, Ordering::Relaxed);
            });
        }
        assert_eq!(drowse::current_thread_has_pending_tasks(), Some(true));
        assert_eq!(drowse::yield_now(), Some(Yield::Executed));
        assert_eq!(runs.load(Ordering::Relaxed), 1);
        assert_eq!(drowse::yield_local(), Some(Yield::Executed));
        assert_eq!(runs.load(Ordering::Relaxed), 2);
        assert_eq!(pool.yield_now(), Some(Yield::Executed));
        assert_eq!(runs.load(Ordering::Relaxed), 3);
        assert_eq!(drowse::current_thread_has_pending_tasks(), Some(false));
        assert_eq!(drowse::yield_now(), Some(Yield::Idle));
        assert_eq!(pool.yield_local(), Some(Yield::Idle));
    });
    assert_eq!(runs.load(Ordering::Relaxed), 3);
}

#[test]
fn yield_local_does_not_steal_but_yield_now_does() {
    // Worker 1 spawns a job onto its own deque and then waits; worker 0 can
    // reach that job only by stealing.
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (ready, is_ready) = channel::<()>();
    let (release, released) = channel::<()>();
    let (ready, is_ready) = (Mutex::new(ready), Mutex::new(is_ready));
    let (release, released) = (Mutex::new(release), Mutex::new(released));
    let stolen_runs = Arc::new(AtomicUsize::new(0));
    let outcomes = pool.broadcast(|context| {
        if context.index() == 1 {
            let stolen_runs = Arc::clone(&stolen_runs);
            drowse::spawn(move || {
                stolen_runs.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(drowse::current_thread_has_pending_tasks(), Some(true));
            ready.lock().unwrap().send(()).unwrap();
            released.lock().unwrap().recv().unwrap();
            None
        } else {
            is_ready.lock().unwrap().recv().unwrap();
            let local = drowse::yield_local();
            let anywhere = drowse::yield_now();
            release.lock().unwrap().send(()).unwrap();
            Some((local, anywhere))
        }
    });
    assert_eq!(
        outcomes,
        [Some((Some(Yield::Idle), Some(Yield::Executed))), None]
    );
    assert_eq!(stolen_runs.load(Ordering::Relaxed), 1);
}

#[test]
fn yield_now_on_another_pool_is_none() {
    let pool_a = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let pool_b = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let answers = pool_a.install(|| {
        (
            pool_b.yield_now(),
            pool_b.yield_local(),
            pool_b.current_thread_has_pending_tasks(),
            pool_a.yield_now(),
        )
    });
    assert_eq!(answers, (None, None, None, Some(Yield::Idle)));
}

#[test]
fn yield_local_runs_a_broadcast_job_waiting_for_this_worker() {
    // A spawned broadcast from the only worker lands in its own broadcast
    // queue, which is not its deque but is local work all the same.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    pool.install(|| {
        let job_runs = Arc::clone(&runs);
        drowse::spawn_broadcast(move |_| {
            job_runs.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(drowse::current_thread_has_pending_tasks(), Some(false));
        assert_eq!(runs.load(Ordering::Relaxed), 0);
        assert_eq!(drowse::yield_local(), Some(Yield::Executed));
        assert_eq!(runs.load(Ordering::Relaxed), 1);
        assert_eq!(drowse::yield_local(), Some(Yield::Idle));
    });
}

/// A join's second half that its worker keeps private (its deque held a job
/// and the other worker was busy at the join) is a pending task of that
/// worker, as it would be on rayon-core's deque: still so after a thief
/// has emptied the deque, and `yield_local` runs it.
#[test]
fn a_private_join_half_is_a_pending_task() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (j_started, is_j_started) = channel::<()>();
    let (release_j, j_released) = channel::<()>();
    let (s_ran, has_s_run) = channel::<()>();
    let j_started = Mutex::new(j_started);
    let is_j_started = Mutex::new(is_j_started);
    let j_released = Mutex::new(j_released);
    let release_j = Mutex::new(release_j);
    let s_ran = Mutex::new(s_ran);
    let has_s_run = Mutex::new(has_s_run);
    let b_runs = AtomicUsize::new(0);
    pool.install(|| {
        drowse::scope(|scope| {
            // The other worker steals `j` and is busy in it until released.
            scope.spawn(|_| {
                j_started.lock().unwrap().send(()).unwrap();
                j_released.lock().unwrap().recv().unwrap();
            });
            is_j_started.lock().unwrap().recv().unwrap();
            scope.spawn(|_| s_ran.lock().unwrap().send(()).unwrap());
            // This worker's deque holds `s` and no worker is inactive: `b`
            // stays private.
            drowse::join(
                || {
                    release_j.lock().unwrap().send(()).unwrap();
                    // The other worker, done with `j`, takes `s`, the only
                    // job on this worker's deque.
                    has_s_run.lock().unwrap().recv().unwrap();
                    assert_eq!(drowse::current_thread_has_pending_tasks(), Some(true));
                    assert_eq!(pool.current_thread_has_pending_tasks(), Some(true));
                    assert_eq!(drowse::yield_local(), Some(Yield::Executed));
                    assert_eq!(b_runs.load(Ordering::SeqCst), 1, "yield_local ran b");
                },
                || {
                    b_runs.fetch_add(1, Ordering::SeqCst);
                },
            );
        });
    });
    assert_eq!(b_runs.load(Ordering::SeqCst), 1);
}
