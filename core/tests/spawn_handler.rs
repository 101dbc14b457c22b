//! `ThreadPoolBuilder::spawn_handler`, `build_scoped` and `ThreadBuilder`,
//! and what a failed or panicking build leaves behind: nothing.
#![cfg(not(any(loom, shuttle)))]

use drowse::{ThreadBuilder, ThreadPool, ThreadPoolBuilder};
use std::error::Error;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::Duration;

mod common;
use common::{named_pool, PATIENCE};

/// Start and exit counts of a pool's workers, from its handlers.
#[derive(Clone, Default)]
struct Lifecycle {
    started: Arc<Mutex<Vec<usize>>>,
    exited: Arc<Mutex<Vec<usize>>>,
}

impl Lifecycle {
    fn attach<S>(&self, builder: ThreadPoolBuilder<S>) -> ThreadPoolBuilder<S> {
        let started = Arc::clone(&self.started);
        let exited = Arc::clone(&self.exited);
        builder
            .start_handler(move |index| started.lock().unwrap().push(index))
            .exit_handler(move |index| exited.lock().unwrap().push(index))
    }

    fn started(&self) -> Vec<usize> {
        sorted(&self.started)
    }

    fn exited(&self) -> Vec<usize> {
        sorted(&self.exited)
    }
}

fn sorted(indices: &Mutex<Vec<usize>>) -> Vec<usize> {
    let mut indices = indices.lock().unwrap().clone();
    indices.sort_unstable();
    indices
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

#[test]
fn a_spawn_handler_with_std_threads_runs_the_pool() {
    let lifecycle = Lifecycle::default();
    let mut handles = Vec::new();
    let mut seen = Vec::new();
    let pool = lifecycle
        .attach(ThreadPoolBuilder::new().num_threads(3))
        .thread_name(|index| format!("custom-{index}"))
        .stack_size(512 * 1024)
        .spawn_handler(|thread: ThreadBuilder| {
            seen.push((
                thread.index(),
                thread.name().map(str::to_owned),
                thread.stack_size(),
            ));
            let handle = thread::Builder::new()
                .name(thread.name().unwrap().to_owned())
                .spawn(move || {
                    thread.run();
                    // The worker is gone from this thread once `run` returns.
                    drowse::current_thread_index()
                })?;
            handles.push(handle);
            Ok(())
        })
        .build()
        .unwrap();
    assert_eq!(
        seen,
        (0..3)
            .map(|index| (index, Some(format!("custom-{index}")), Some(512 * 1024)))
            .collect::<Vec<_>>(),
        "one ThreadBuilder per worker, in index order, with its settings"
    );
    let (sum, name) = pool.install(|| {
        let (a, b) = drowse::join(|| 20, || 22);
        (a + b, thread::current().name().map(str::to_owned))
    });
    assert_eq!(sum, 42);
    assert!(name.unwrap().starts_with("custom-"));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    // `shutdown_and_wait` waited for every `run` to return.
    assert_eq!(lifecycle.exited(), [0, 1, 2]);
    for handle in handles {
        assert_eq!(handle.join().unwrap(), None);
    }
    assert_eq!(lifecycle.started(), [0, 1, 2]);
}

#[test]
fn a_spawn_handler_with_scoped_threads_may_borrow() {
    let borrowed = AtomicUsize::new(0);
    let result = thread::scope(|scope| {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .spawn_handler(|thread| {
                let borrowed = &borrowed;
                thread::Builder::new().spawn_scoped(scope, move || {
                    borrowed.fetch_add(1, Ordering::Relaxed);
                    thread.run();
                })?;
                Ok(())
            })
            .build()
            .unwrap();
        let result = pool.install(|| drowse::join(|| 1, || 2));
        // Dropping the pool lets the scoped threads finish, so that the scope
        // can end.
        drop(pool);
        result
    });
    assert_eq!(result, (1, 2));
    assert_eq!(borrowed.into_inner(), 2);
}

#[test]
fn build_scoped_runs_the_wrapper_on_each_thread_and_joins_them() {
    let lifecycle = Lifecycle::default();
    let wrapped = Mutex::new(Vec::new());
    let value = lifecycle
        .attach(ThreadPoolBuilder::new().num_threads(3))
        .thread_name(|index| format!("scoped-{index}"))
        .build_scoped(
            |thread| {
                wrapped
                    .lock()
                    .unwrap()
                    .push((thread.index(), thread::current().name().map(str::to_owned)));
                thread.run()
            },
            |pool| {
                assert_eq!(pool.current_num_threads(), 3);
                pool.install(|| drowse::join(|| 6, || 7))
            },
        )
        .unwrap();
    assert_eq!(value, (6, 7));
    // `build_scoped` returned, so every thread has ended.
    assert_eq!(lifecycle.exited(), [0, 1, 2]);
    let mut wrapped = wrapped.into_inner().unwrap();
    wrapped.sort();
    assert_eq!(
        wrapped,
        (0..3)
            .map(|index| (index, Some(format!("scoped-{index}"))))
            .collect::<Vec<_>>(),
        "the wrapper ran once per worker, on a thread with the worker's name"
    );
}

#[test]
fn build_scoped_returns_the_build_error() {
    let error = ThreadPoolBuilder::new()
        .num_threads(1)
        .jobs_event_counter_bits(0)
        .build_scoped(|thread| thread.run(), |_pool| unreachable!())
        .expect_err("an invalid counter width");
    assert!(error.to_string().contains("jobs event counter"), "{error}");
}

#[test]
fn a_failing_spawn_handler_fails_the_build_and_leaves_no_worker_running() {
    let lifecycle = Lifecycle::default();
    let handles = Mutex::new(Vec::new());
    let error = lifecycle
        .attach(ThreadPoolBuilder::new().num_threads(5))
        .spawn_handler(|thread| {
            if thread.index() == 3 {
                return Err(io::Error::other("no more threads"));
            }
            handles
                .lock()
                .unwrap()
                .push(thread::spawn(move || thread.run()));
            Ok(())
        })
        .build()
        .expect_err("the spawn handler failed");
    assert_eq!(error.to_string(), "no more threads");
    let source = error.source().expect("the handler's error is the source");
    assert_eq!(
        source.downcast_ref::<io::Error>().map(io::Error::kind),
        Some(io::ErrorKind::Other)
    );
    // By the time `build` returned, the three workers that had been started
    // were told to end and had ended.
    assert_eq!(lifecycle.exited(), [0, 1, 2]);
    assert_eq!(lifecycle.started(), [0, 1, 2]);
    for handle in handles.into_inner().unwrap() {
        handle.join().unwrap();
    }
}

#[test]
fn a_panicking_thread_name_leaves_no_worker_running() {
    // Before the fix the workers started before the panic were never told
    // to end: `exited` stayed empty for good.
    let lifecycle = Lifecycle::default();
    let builder = lifecycle
        .attach(ThreadPoolBuilder::new().num_threads(6))
        .thread_name(|index| {
            assert!(index < 4, "no name for thread {index}");
            format!("named-{index}")
        });
    let payload = panic::catch_unwind(AssertUnwindSafe(|| builder.build()))
        .expect_err("the thread_name panic reaches the caller of build");
    assert!(
        panic_message(&*payload).contains("no name for thread 4"),
        "{:?}",
        panic_message(&*payload)
    );
    // The threads started in index order before the panic: 0 to 3. All of
    // them had exited by the time the panic left `build`.
    assert_eq!(lifecycle.exited(), [0, 1, 2, 3]);
    assert_eq!(lifecycle.started(), [0, 1, 2, 3]);
}

#[test]
fn a_panicking_spawn_handler_leaves_no_worker_running() {
    let lifecycle = Lifecycle::default();
    let builder = lifecycle
        .attach(ThreadPoolBuilder::new().num_threads(4))
        .spawn_handler(|thread| {
            assert!(thread.index() < 2, "the handler gives up");
            thread::spawn(move || thread.run());
            Ok(())
        });
    let payload = panic::catch_unwind(AssertUnwindSafe(|| builder.build()))
        .expect_err("the handler's panic reaches the caller of build");
    assert!(panic_message(&*payload).contains("the handler gives up"));
    assert_eq!(lifecycle.exited(), [0, 1]);
}

#[test]
fn a_failed_build_inside_a_pool_waits_by_working() {
    // Building from a worker of another pool: when the build fails, the
    // wait for the started workers happens on that worker, which must not
    // wedge its pool (here a one-worker pool) meanwhile.
    let outer = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let lifecycle = Lifecycle::default();
    let error = outer.install(|| {
        lifecycle
            .attach(ThreadPoolBuilder::new().num_threads(3))
            .spawn_handler(|thread| {
                if thread.index() == 2 {
                    return Err(io::Error::other("third fails"));
                }
                thread::spawn(move || thread.run());
                Ok(())
            })
            .build()
            .expect_err("the third thread fails")
    });
    assert_eq!(error.to_string(), "third fails");
    assert_eq!(lifecycle.exited(), [0, 1]);
    assert_eq!(outer.install(|| 5), 5);
    outer.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn run_on_a_worker_thread_panics_clearly() {
    let outer = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let outcome = outer.install(|| {
        panic::catch_unwind(AssertUnwindSafe(|| {
            ThreadPoolBuilder::new()
                .num_threads(1)
                .spawn_handler(|thread| {
                    // Runs the worker on the calling thread, which is a worker
                    // of `outer` already.
                    thread.run();
                    Ok(())
                })
                .build()
        }))
    });
    let payload = outcome.expect_err("a thread cannot be the worker of two pools");
    assert!(
        panic_message(&*payload).contains("already a worker of a pool"),
        "{:?}",
        panic_message(&*payload)
    );
    assert_eq!(outer.install(drowse::current_thread_index), Some(0));
    outer.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn a_thread_builder_that_never_runs_does_not_block_shutdown() {
    // Worker 1's builder is dropped: the pool works with worker 0 alone, and
    // shutting down does not wait for a thread that never existed.
    let mut handles = Vec::new();
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .spawn_handler(|thread| {
            if thread.index() == 0 {
                handles.push(thread::spawn(move || thread.run()));
            }
            Ok(())
        })
        .build()
        .unwrap();
    let (sender, receiver) = mpsc::channel();
    pool.spawn(move || sender.send(drowse::current_thread_index()).unwrap());
    assert_eq!(receiver.recv_timeout(PATIENCE), Ok(Some(0)));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    for handle in handles {
        handle.join().unwrap();
    }
}

#[test]
fn shutdown_and_wait_from_another_pools_worker_runs_that_pools_jobs() {
    // Pool `a` has one worker. It calls `b.shutdown_and_wait()` while `b`'s
    // only worker is inside a job that cannot finish until a job it spawned
    // into `a` has run. Only `a`'s worker can run that job, and it is
    // waiting: it must keep running `a`'s jobs while it waits. (If it
    // blocked, `b`'s job would give up after PATIENCE and report it.)
    let a = Arc::new(named_pool("a"));
    let b = named_pool("b");
    let (go_sender, go_receiver) = mpsc::channel::<()>();
    let (outcome_sender, outcome_receiver) = mpsc::channel();
    let a_for_b = Arc::clone(&a);
    b.spawn(move || {
        // Wait until `a`'s worker is about to wait for `b`.
        go_receiver.recv_timeout(PATIENCE).unwrap();
        let (ran_sender, ran_receiver) = mpsc::channel();
        a_for_b.spawn(move || {
            let name = thread::current().name().map(str::to_owned);
            ran_sender.send(name).unwrap();
        });
        drop(a_for_b);
        outcome_sender
            .send(ran_receiver.recv_timeout(PATIENCE))
            .unwrap();
    });
    let snapshot = a.install(move || {
        go_sender.send(()).unwrap();
        b.shutdown_and_snapshot()
    });
    snapshot.check_at_rest().unwrap();
    assert_eq!(
        outcome_receiver.recv_timeout(PATIENCE).unwrap(),
        Ok(Some("a-0".to_owned())),
        "a's worker ran a's job while it waited for b to shut down"
    );
    Arc::try_unwrap(a)
        .expect("b's job let go of a")
        .shutdown_and_snapshot()
        .check_at_rest()
        .unwrap();
}

#[test]
fn shutdown_and_wait_without_join_handles_waits_for_run_to_return() {
    // With a spawn handler the pool has no join handles; it still waits
    // until every `run` has returned. The exit handler is slow, so a
    // shutdown that did not wait would see it unfinished.
    let exited = Arc::new(AtomicUsize::new(0));
    let pool = ThreadPoolBuilder::new()
        .num_threads(3)
        .exit_handler({
            let exited = Arc::clone(&exited);
            move |_| {
                thread::sleep(Duration::from_millis(50));
                exited.fetch_add(1, Ordering::SeqCst);
            }
        })
        .spawn_handler(|thread| {
            thread::spawn(move || thread.run());
            Ok(())
        })
        .build()
        .unwrap();
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    assert_eq!(exited.load(Ordering::SeqCst), 3);
}

#[test]
#[allow(deprecated)]
fn the_deprecated_configuration_builds_pools() {
    let started = Arc::new(AtomicUsize::new(0));
    let configuration = drowse::Configuration::new()
        .thread_name(|index| format!("configured-{index}"))
        .num_threads(3)
        .panic_handler(|_| {})
        .stack_size(1 << 20)
        .breadth_first()
        .start_handler({
            let started = Arc::clone(&started);
            move |_| {
                started.fetch_add(1, Ordering::SeqCst);
            }
        })
        .exit_handler(|_| {});
    assert!(format!("{configuration:?}").contains("num_threads: 3"));
    let pool = configuration.build().unwrap();
    assert_eq!(pool.current_num_threads(), 3);
    let name = pool.install(|| thread::current().name().map(str::to_owned));
    assert!(name.unwrap().starts_with("configured-"));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    assert_eq!(started.load(Ordering::SeqCst), 3);

    let pool = ThreadPool::new(drowse::Configuration::new().num_threads(2)).unwrap();
    assert_eq!(pool.current_num_threads(), 2);
    // Miri gives a thread any stack size it asks for (it has no stacks to
    // run out of), so only a real build can show the error.
    if !cfg!(miri) {
        let error: Box<dyn Error> = drowse::Configuration::new()
            .num_threads(1)
            .stack_size(isize::MAX as usize)
            .build()
            .expect_err("no thread gets that stack");
        assert!(error
            .downcast_ref::<drowse::ThreadPoolBuildError>()
            .is_some());
    }
}

#[test]
fn breadth_first_runs_a_workers_own_jobs_oldest_first() {
    // One worker, so nobody steals: the order is the deque's.
    #[allow(deprecated)]
    let pool = ThreadPoolBuilder::new()
        .num_threads(1)
        .breadth_first()
        .build()
        .unwrap();
    let order = Mutex::new(Vec::new());
    pool.scope(|scope| {
        for job in 0..4 {
            let order = &order;
            scope.spawn(move |_| order.lock().unwrap().push(job));
        }
    });
    assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3]);
    assert_eq!(pool.install(|| drowse::join(|| 1, || 2)), (1, 2));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn the_public_types_have_rayon_cores_auto_traits() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<ThreadBuilder>();
    send_sync::<ThreadPool>();
    send_sync::<drowse::ThreadPoolBuildError>();
}

#[test]
fn shutdown_and_wait_on_one_of_the_pools_own_workers_panics() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (handle_sender, handle_receiver) = mpsc::channel::<ThreadPool>();
    let (message_sender, message_receiver) = mpsc::channel();
    // The job receives the only handle and shuts the pool down from inside.
    pool.spawn(move || {
        let pool = handle_receiver.recv_timeout(PATIENCE).unwrap();
        let outcome = panic::catch_unwind(AssertUnwindSafe(move || pool.shutdown_and_wait()));
        let payload = outcome.expect_err("shutting down from an own worker panics");
        let message = match payload.downcast::<&str>() {
            Ok(message) => (*message).to_owned(),
            Err(payload) => payload
                .downcast::<String>()
                .map(|message| *message)
                .unwrap_or_default(),
        };
        message_sender.send(message).unwrap();
    });
    handle_sender.send(pool).unwrap();
    let message = message_receiver.recv_timeout(PATIENCE).unwrap();
    assert!(
        message.contains("one of the pool's own workers"),
        "the panic names the mistake: {message:?}"
    );
}

#[test]
fn shutdown_and_wait_returns_after_every_worker_let_go_of_the_pool() {
    // With a spawn handler there are no join handles: the wait is the
    // countdown, the last thing each worker does. By then each worker has
    // dropped its reference to the pool, so the pool (and the handlers it
    // owns) is dropped before `shutdown_and_wait` returns.
    struct SetOnDrop(Arc<AtomicUsize>);
    impl Drop for SetOnDrop {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    // Fewer pools under Miri, which runs a program thousands of times slower
    // (ci/miri).
    for _ in 0..if cfg!(miri) { 5 } else { 50 } {
        let handlers_dropped = Arc::new(AtomicUsize::new(0));
        let on_drop = SetOnDrop(Arc::clone(&handlers_dropped));
        let pool = ThreadPoolBuilder::new()
            .num_threads(4)
            .exit_handler(move |_| {
                let _ = &on_drop;
            })
            .spawn_handler(|thread| {
                thread::spawn(move || thread.run());
                Ok(())
            })
            .build()
            .unwrap();
        pool.shutdown_and_wait();
        assert_eq!(
            handlers_dropped.load(Ordering::SeqCst),
            1,
            "the pool's handlers were dropped before shutdown_and_wait returned"
        );
    }
}
