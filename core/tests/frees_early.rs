//! Every latch whose set lets its owner free memory, with the owner freeing
//! it as early as it can: each round's data lives on a frame that ends as
//! soon as the wait does. Under Miri (ci/miri, several seeds) a job that
//! still held a reference to that memory in a running frame when it set
//! the latch is undefined behaviour (docs/checking.md, "Miri");
//! in a normal build these are plain functional tests.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPool;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

mod common;
use common::{pool, scaled};

/// Scope jobs (`ScopeJob`, `CountLatch` owned by a worker): the scope, and
/// the counter its jobs borrow, go as soon as the last job counts down.
#[test]
fn a_scope_and_what_its_jobs_borrow_are_freed_after_the_last_count_down() {
    let pool = pool(3);
    for round in 0..scaled(500, 6) {
        let total = AtomicUsize::new(0);
        pool.scope(|scope| {
            for value in 0..6 {
                let total = &total;
                scope.spawn(move |_| {
                    total.fetch_add(value + round, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(total.into_inner(), 15 + 6 * round);
    }
}

/// `scope_fifo` jobs, which run through the scope's per-worker FIFO queues.
#[test]
fn a_fifo_scope_is_freed_after_the_last_count_down() {
    let pool = pool(3);
    for _ in 0..scaled(500, 6) {
        let total = AtomicUsize::new(0);
        pool.scope_fifo(|scope| {
            for value in 0..6 {
                let total = &total;
                scope.spawn_fifo(move |_| {
                    total.fetch_add(value, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(total.into_inner(), 15);
    }
}

/// A scope's broadcast: each worker's job holds the scope (the original
/// report of the scope-broadcast UB) and a body that borrows from the round's frame.
#[test]
fn a_scope_broadcast_is_freed_after_the_last_count_down() {
    let pool = pool(3);
    for _ in 0..scaled(500, 6) {
        let runs = AtomicUsize::new(0);
        pool.scope(|scope| {
            scope.spawn_broadcast(|_, context| {
                runs.fetch_add(context.index() + 1, Ordering::Relaxed);
            });
        });
        assert_eq!(runs.into_inner(), 1 + 2 + 3);
    }
}

/// A scope owned by a thread outside the pool (`CountLatch` with a
/// `LockLatch`): the caller blocks, then frees the scope and its latch.
#[test]
fn an_in_place_scope_off_the_pool_is_freed_after_the_last_count_down() {
    let pool = pool(2);
    for _ in 0..scaled(500, 6) {
        let total = AtomicUsize::new(0);
        pool.in_place_scope(|scope| {
            for value in 0..4 {
                let total = &total;
                scope.spawn(move |_| {
                    total.fetch_add(value, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(total.into_inner(), 6);
    }
}

/// `join`'s stolen half (`StackJob` with a `SpinLatch`): the job lives on
/// the frame of the `join` call, which returns as soon as the thief sets the
/// latch.
#[test]
fn a_stolen_join_half_is_freed_as_soon_as_it_is_set() {
    let pool = pool(2);
    let sums = pool.install(|| {
        (0..scaled(500, 6))
            .map(|round| {
                let left = [round; 4];
                let right = [round + 1; 4];
                let (a, b) = drowse::join(
                    || left.iter().sum::<usize>(),
                    || {
                        // Long enough that the other worker may steal it.
                        thread::yield_now();
                        right.iter().sum::<usize>()
                    },
                );
                a + b
            })
            .collect::<Vec<_>>()
    });
    let expected: Vec<_> = (0..sums.len()).map(|round| 8 * round + 4).collect();
    assert_eq!(sums, expected);
}

/// `install` from outside the pool (`in_worker_cold`: a `StackJob` on the
/// caller's stack, with the caller's `LockLatch`).
#[test]
fn an_install_from_outside_frees_its_job_as_soon_as_it_is_set() {
    let pool = pool(2);
    for round in 0..scaled(500, 6) {
        let values = [round; 4];
        let sum = pool.install(|| values.iter().sum::<usize>());
        assert_eq!(sum, 4 * round);
    }
}

/// `install` from a worker of another pool (`in_worker_cross`: a
/// `StackJob` on that worker's stack, with a cross-pool `SpinLatch`).
#[test]
fn an_install_from_another_pool_frees_its_job_as_soon_as_it_is_set() {
    let outer = pool(1);
    let inner = pool(2);
    let sums = outer.install(|| {
        (0..scaled(500, 6))
            .map(|round| {
                let values = [round; 4];
                inner.install(|| values.iter().sum::<usize>())
            })
            .collect::<Vec<_>>()
    });
    let expected: Vec<_> = (0..sums.len()).map(|round| 4 * round).collect();
    assert_eq!(sums, expected);
}

/// The cross-pool `SpinLatch` again, with the owner's pool ended and freed
/// right after its install returns: the setter, a worker of the other pool,
/// may still be waking the owner through the owner's registry then.
#[test]
fn a_pool_ended_right_after_its_install_into_another_pool() {
    let inner = pool(2);
    for round in 0..scaled(200, 4) {
        let outer = pool(1);
        let values = [round; 4];
        let sum = outer.install(|| inner.install(|| values.iter().sum::<usize>()));
        outer.shutdown_and_wait();
        assert_eq!(sum, 4 * round);
    }
}

/// An outside thread's own `LockLatch` (the one its installs reuse) goes
/// when the thread exits, which here is right after its only install
/// returns, while the worker that set the latch may still be unlocking it.
#[test]
fn an_outside_thread_exits_right_after_its_install() {
    let pool = pool(2);
    for round in 0..scaled(200, 6) {
        let values = [round; 4];
        let sum = thread::scope(|threads| {
            threads
                .spawn(|| pool.install(|| values.iter().sum::<usize>()))
                .join()
                .unwrap()
        });
        assert_eq!(sum, 4 * round);
    }
}

/// Installs into its pool when dropped, and sends what the job returned.
struct InstallsWhenDropped {
    pool: Arc<ThreadPool>,
    value: usize,
    sender: mpsc::Sender<usize>,
}

impl Drop for InstallsWhenDropped {
    fn drop(&mut self) {
        let value = self.value;
        let result = self.pool.install(|| value * 2);
        self.sender.send(result).unwrap();
    }
}

thread_local! {
    static INSTALL_WHEN_DROPPED: RefCell<Option<InstallsWhenDropped>> =
        const { RefCell::new(None) };
}

/// An install from a thread-local destructor, after the thread's own
/// `LockLatch` is gone: the caller waits on a fresh latch whose `Arc` is a
/// temporary of its frame, dropped as soon as the wait ends. The thread
/// fills this thread-local before its first install, so its destructor is
/// registered first and runs after the latch's (std runs a thread's
/// thread-local destructors last registered, first run).
#[test]
fn an_install_from_a_thread_local_destructor_frees_its_own_latch() {
    let pool = Arc::new(pool(2));
    for round in 0..scaled(100, 4) {
        let (sender, receiver) = mpsc::channel();
        let thread_pool = Arc::clone(&pool);
        thread::spawn(move || {
            INSTALL_WHEN_DROPPED.with(|slot| {
                *slot.borrow_mut() = Some(InstallsWhenDropped {
                    pool: Arc::clone(&thread_pool),
                    value: round,
                    sender,
                })
            });
            // The thread's own latch, created after the slot above.
            assert_eq!(thread_pool.install(|| round + 1), round + 1);
        })
        .join()
        .unwrap();
        assert_eq!(receiver.recv().unwrap(), 2 * round);
    }
}

/// `broadcast` (`StackJob`s in a vector, one `CountLatch`): the vector goes
/// as soon as the last worker counts down.
#[test]
fn a_broadcast_frees_its_jobs_as_soon_as_the_last_one_is_set() {
    let pool = pool(3);
    for round in 0..scaled(500, 6) {
        let offset = [round; 1];
        let seen = pool.broadcast(|context| context.index() + offset[0]);
        assert_eq!(seen, [round, round + 1, round + 2]);
    }
}

/// Termination (`OnceLatch`s in the registry, which the last handle's
/// drop lets go): a pool ended while a spawned job that holds it open may
/// still be running, round after round.
#[test]
fn a_pool_ended_right_after_its_last_spawned_job_ends() {
    for _ in 0..scaled(200, 4) {
        let pool = pool(2);
        let (sender, receiver) = std::sync::mpsc::channel();
        for value in 0..3 {
            let sender = sender.clone();
            pool.spawn(move || sender.send(value).unwrap());
        }
        drop(sender);
        pool.shutdown_and_wait();
        let mut values: Vec<_> = receiver.iter().collect();
        values.sort_unstable();
        assert_eq!(values, [0, 1, 2]);
    }
}
