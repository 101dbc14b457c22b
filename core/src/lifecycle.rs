//! Knowing when a pool's worker threads have started and stopped, without
//! their join handles (a spawn handler may start them any way it likes) and
//! without blocking a worker of another pool that waits for them.
//!
//! Each worker that a pool hands out (one [`WorkerLifetime`] per
//! `ThreadBuilder`) counts down the pool's "stopped" countdown exactly once:
//! when its main loop has ended, or when its `ThreadBuilder` is dropped
//! without running. The global pool also has a "started" countdown, which
//! `build_global` waits on.

use crate::latch::{CoreLatch, LockLatch};
use crate::registry::{Registry, WorkerThread};
use crate::sync::atomic::{AtomicUsize, Ordering};
use crate::sync::{Arc, UnsafeCell};
use std::fmt;

/// Set in [`WorkerCountdown`]'s state once its waiter is registered.
const WAITER_REGISTERED: usize = 1 << (usize::BITS - 1);

/// A count of workers that have yet to do something, and at most one thread
/// waiting for it to reach zero.
///
/// The count and the "waiter registered" flag share one word, changed only
/// by read-modify-writes, so exactly one party learns that both the count is
/// zero and the waiter is registered: the last worker to count down when the
/// waiter came first (it wakes the waiter), or the waiter when the count was
/// already zero (it does not wait).
pub(crate) struct WorkerCountdown {
    state: AtomicUsize,
    /// Written by the waiter before it sets `WAITER_REGISTERED`; taken by the
    /// last worker after it sees that flag.
    waiter: UnsafeCell<Option<Waiter>>,
}

// SAFETY: the state is atomic; the waiter slot is written only by the one
// waiter (the holder of the one `CountdownWaiter`) before it publishes the flag (release) and read only by the one
// worker that saw the flag with the count reaching zero (acquire), or by the
// waiter itself when no worker can read it any more; so no two threads
// touch it at once, and `Waiter` is `Send` (`Arc`s of `Sync` types).
unsafe impl Sync for WorkerCountdown {}

/// How to wake the thread that waits on a countdown.
enum Waiter {
    /// A thread outside any pool, blocked on a lock latch.
    Blocking(Arc<LockLatch>),
    /// A worker of another pool, running that pool's jobs while it waits.
    Stealing {
        latch: Arc<CoreLatch>,
        registry: Arc<Registry>,
        worker_index: usize,
    },
}

impl Waiter {
    fn wake(self) {
        match self {
            // Our own reference keeps the latch alive through the set.
            Waiter::Blocking(latch) => latch.set(),
            Waiter::Stealing {
                latch,
                registry,
                worker_index,
            } => {
                // SAFETY: `latch` is live: we hold a reference to it. So is
                // the waiter's registry, for the wake-up after the set.
                if unsafe { CoreLatch::set(&*latch) } {
                    registry.notify_worker_latch_is_set(worker_index);
                }
            }
        }
    }
}

impl WorkerCountdown {
    /// A countdown of `count` workers, and the one handle that may ever wait
    /// for it.
    pub(crate) fn new(count: usize) -> (Arc<WorkerCountdown>, CountdownWaiter) {
        debug_assert!(count < WAITER_REGISTERED);
        let countdown = Arc::new(WorkerCountdown {
            state: AtomicUsize::new(count),
            waiter: UnsafeCell::new(None),
        });
        let waiter = CountdownWaiter {
            countdown: Arc::clone(&countdown),
        };
        (countdown, waiter)
    }

    /// One worker is done; the last one wakes the waiter, if it is there.
    pub(crate) fn count_down(&self) {
        // Release: what the worker did before is visible to the waiter.
        // Acquire: the waiter's write of `waiter` is visible to us.
        let before = self.state.fetch_sub(1, Ordering::AcqRel);
        debug_assert_ne!(before & !WAITER_REGISTERED, 0, "counted down past zero");
        if before == WAITER_REGISTERED | 1 {
            // SAFETY: the waiter wrote the slot before setting the flag, which
            // we have read (acquire), and touches it no more; no other worker
            // can see the count reach zero.
            let waiter = self.waiter.with_mut(|slot| unsafe { (*slot).take() });
            waiter.expect("a registered waiter").wake();
        }
    }

    /// Whether the count has reached zero.
    pub(crate) fn is_done(&self) -> bool {
        self.state.load(Ordering::Acquire) & !WAITER_REGISTERED == 0
    }
}

/// The right to wait for a [`WorkerCountdown`], once: made with the
/// countdown by [`WorkerCountdown::new`], not `Clone`, and consumed by
/// [`wait`](Self::wait). The countdown's waiter slot is written without a
/// lock, which is sound only with one waiter ever; owning this handle is that
/// proof, so no caller carries the rule.
pub(crate) struct CountdownWaiter {
    countdown: Arc<WorkerCountdown>,
}

impl CountdownWaiter {
    /// Waits until the count is zero: blocked outside any pool, running the
    /// jobs of its own pool on a worker (of any pool: waiting for its own
    /// pool's workers would wait for itself, which the callers rule out).
    pub(crate) fn wait(self) {
        if self.countdown.is_done() {
            return;
        }
        WorkerThread::with_current(|current| match current {
            None => {
                let latch = Arc::new(LockLatch::new());
                if self.register(Waiter::Blocking(Arc::clone(&latch))) {
                    latch.wait_and_reset();
                }
            }
            Some(worker_thread) => {
                let latch = Arc::new(CoreLatch::new());
                let waiter = Waiter::Stealing {
                    latch: Arc::clone(&latch),
                    registry: Arc::clone(worker_thread.registry()),
                    worker_index: worker_thread.index(),
                };
                if self.register(waiter) {
                    // SAFETY: `worker_thread` is the current thread's worker
                    // (`with_current`); the latch is its to wait on.
                    unsafe { worker_thread.wait_until(&*latch) };
                }
            }
        })
    }

    /// Publishes `waiter`. False when the count was already zero: then nobody
    /// will wake it, and the caller must not wait. Called once: `wait`
    /// consumes the one handle.
    fn register(&self, waiter: Waiter) -> bool {
        let countdown = &*self.countdown;
        // SAFETY: only the holder of the one `CountdownWaiter` writes the
        // slot, once (`wait` consumes it), and before the flag is set;
        // workers read it only after seeing the flag.
        countdown.waiter.with_mut(|slot| unsafe {
            debug_assert!((*slot).is_none(), "a countdown got a second waiter");
            *slot = Some(waiter)
        });
        // Release: the slot's contents are visible to the last worker.
        let before = countdown
            .state
            .fetch_or(WAITER_REGISTERED, Ordering::AcqRel);
        debug_assert_eq!(before & WAITER_REGISTERED, 0, "a second waiter");
        if before == 0 {
            // Every worker was done already; none will read the slot again.
            // SAFETY: as above.
            let unused = countdown.waiter.with_mut(|slot| unsafe { (*slot).take() });
            drop(unused);
            return false;
        }
        true
    }

    /// Whether this is `countdown`'s waiter.
    pub(crate) fn is_for(&self, countdown: &Arc<WorkerCountdown>) -> bool {
        Arc::ptr_eq(&self.countdown, countdown)
    }
}

impl fmt::Debug for CountdownWaiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountdownWaiter")
            .field("countdown", &*self.countdown)
            .finish()
    }
}

impl fmt::Debug for WorkerCountdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.state.load(Ordering::Relaxed);
        f.debug_struct("WorkerCountdown")
            .field("remaining", &(state & !WAITER_REGISTERED))
            .field("waiter_registered", &(state & WAITER_REGISTERED != 0))
            .finish()
    }
}

/// One handed-out worker's duty to count down its pool's countdowns: "started"
/// when its main loop begins, "stopped" when this is dropped (at the end of
/// the main loop, or with a `ThreadBuilder` that never ran). Dropping it
/// before it started counts both.
///
/// It holds the countdowns, not the registry: the "stopped" count-down is the
/// worker's last touch of its pool, and the waiter may then drop the last
/// reference to the registry (see `main_loop`).
pub(crate) struct WorkerLifetime {
    stopped: Arc<WorkerCountdown>,
    /// `None` once counted, or for a pool that does not count starts.
    started: Option<Arc<WorkerCountdown>>,
}

impl WorkerLifetime {
    pub(crate) fn new(
        stopped: &Arc<WorkerCountdown>,
        started: Option<&Arc<WorkerCountdown>>,
    ) -> Self {
        WorkerLifetime {
            stopped: Arc::clone(stopped),
            started: started.cloned(),
        }
    }

    /// The worker's main loop has begun.
    pub(crate) fn started(&mut self) {
        if let Some(started) = self.started.take() {
            started.count_down();
        }
    }
}

impl Drop for WorkerLifetime {
    fn drop(&mut self) {
        self.started();
        self.stopped.count_down();
    }
}

impl fmt::Debug for WorkerLifetime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerLifetime")
            .field("start_pending", &self.started.is_some())
            .finish_non_exhaustive()
    }
}
