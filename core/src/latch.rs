//! Latches: one-shot signals that a thread can wait on.
//!
//! A latch starts unset, is set once by any thread, and stays set. Each latch
//! a worker waits on has one known owner, so setting it can wake exactly that
//! thread. The worker-side latches are built on [`CoreLatch`], whose state
//! word has four values:
//!
//! ```text
//!   UNSET --get_sleepy--> SLEEPY --fall_asleep--> SLEEPING
//!     ^                                               |
//!     +-------------------- wake_up ------------------+
//!   any state --set--> SET   (and SET is final)
//! ```
//!
//! The owner moves UNSET -> SLEEPY before taking its sleep lock and
//! SLEEPY -> SLEEPING while holding it. A setter swaps in SET and looks at
//! what it replaced: only SLEEPING means "the owner holds, or held, its lock
//! on the way to blocking", and only then does the setter take that lock and
//! wake it. SLEEPY needs no action: the owner's next compare-and-swap fails
//! and it stays awake. Every change of the word is a read-modify-write, so
//! the setter and the owner always act on the newest value.

use crate::registry::{Registry, WakeInFlight};
use crate::sync::atomic::{AtomicUsize, Ordering};
use crate::sync::{Arc, Condvar, Mutex};
use std::fmt;

/// A latch's owner is not trying to sleep.
const UNSET: usize = 0;
/// The owner found no work and will take its sleep lock next.
const SLEEPY: usize = 1;
/// The owner holds, or held, its sleep lock on its way to blocking.
const SLEEPING: usize = 2;
/// The latch is set; final.
const SET: usize = 3;

/// Something that can be set once.
pub(crate) trait Latch {
    /// Sets the latch and wakes its owner if it needs waking.
    ///
    /// # Safety
    /// `this` must point to a live latch. The latch may be freed by its owner
    /// as soon as the state change is visible, so an implementation must not
    /// touch `*this` after that point; this is why it takes a raw pointer
    /// rather than `&self`.
    unsafe fn set(this: *const Self);
}

/// A latch that a worker can wait on by stealing work, and sleep on.
pub(crate) trait AsCoreLatch {
    fn as_core_latch(&self) -> &CoreLatch;
}

/// The four-state latch at the heart of the latch/sleep handshake.
pub(crate) struct CoreLatch {
    state: AtomicUsize,
}

impl CoreLatch {
    pub(crate) fn new() -> CoreLatch {
        CoreLatch {
            state: AtomicUsize::new(UNSET),
        }
    }

    /// The owner announces that it is about to take its sleep lock. False
    /// means the latch was set meanwhile and the owner must not sleep.
    #[inline]
    pub(crate) fn get_sleepy(&self) -> bool {
        self.state
            .compare_exchange(UNSET, SLEEPY, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok()
    }

    /// The owner, holding its sleep lock, commits to sleeping. False means the
    /// latch was set meanwhile.
    #[inline]
    pub(crate) fn fall_asleep(&self) -> bool {
        self.state
            .compare_exchange(SLEEPY, SLEEPING, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok()
    }

    /// The owner is awake again: back to UNSET unless the latch was set.
    #[inline]
    pub(crate) fn wake_up(&self) {
        if !self.probe() {
            let _ =
                self.state
                    .compare_exchange(SLEEPING, UNSET, Ordering::SeqCst, Ordering::Relaxed);
        }
    }

    /// Sets the latch. True when the owner was SLEEPING and must be woken by
    /// the caller through the owner's sleep lock.
    ///
    /// # Safety
    /// `this` must point to a live latch; it may be freed once this returns.
    #[inline]
    pub(crate) unsafe fn set(this: *const CoreLatch) -> bool {
        // SAFETY: the caller guarantees `this` is live until the swap has
        // happened; nothing reads `*this` after it.
        let before = unsafe { (*this).state.swap(SET, Ordering::AcqRel) };
        before == SLEEPING
    }

    /// Whether the latch is set. Acquire, so that what the setter wrote before
    /// setting (a job's result) is visible to the owner afterwards.
    #[inline]
    pub(crate) fn probe(&self) -> bool {
        self.state.load(Ordering::Acquire) == SET
    }
}

impl AsCoreLatch for CoreLatch {
    fn as_core_latch(&self) -> &CoreLatch {
        self
    }
}

impl fmt::Debug for CoreLatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match self.state.load(Ordering::Relaxed) {
            UNSET => "UNSET",
            SLEEPY => "SLEEPY",
            SLEEPING => "SLEEPING",
            _ => "SET",
        };
        f.debug_struct("CoreLatch").field("state", &state).finish()
    }
}

/// The latch `join` waits on for its stolen half: owned by a worker of
/// `registry`, set by whichever thread ran that half.
pub(crate) struct SpinLatch<'r> {
    core_latch: CoreLatch,
    registry: &'r Arc<Registry>,
    target_worker_index: usize,
    /// Set when the setter may belong to another pool. Then the setter keeps
    /// the owner's registry alive itself, because the owner may return and
    /// drop the last reference as soon as it sees the latch set.
    cross_registry: bool,
}

impl<'r> SpinLatch<'r> {
    pub(crate) fn new(owner: &'r crate::registry::WorkerThread) -> SpinLatch<'r> {
        SpinLatch {
            core_latch: CoreLatch::new(),
            registry: owner.registry(),
            target_worker_index: owner.index(),
            cross_registry: false,
        }
    }

    /// A latch whose setter may be a worker of another pool.
    pub(crate) fn cross(owner: &'r crate::registry::WorkerThread) -> SpinLatch<'r> {
        SpinLatch {
            cross_registry: true,
            ..SpinLatch::new(owner)
        }
    }

    #[inline]
    pub(crate) fn probe(&self) -> bool {
        self.core_latch.probe()
    }
}

impl AsCoreLatch for SpinLatch<'_> {
    fn as_core_latch(&self) -> &CoreLatch {
        &self.core_latch
    }
}

impl Latch for SpinLatch<'_> {
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is live until the core latch is set (caller's
        // contract), and everything needed afterwards is copied out first.
        let (registry, target_worker_index, cross_registry) = unsafe {
            (
                (*this).registry,
                (*this).target_worker_index,
                (*this).cross_registry,
            )
        };
        // Keep the owner's pool alive across the wake-up when the owner may
        // drop it the moment it sees SET.
        let kept_alive = cross_registry.then(|| Arc::clone(registry));
        let registry: &Registry = kept_alive.as_deref().unwrap_or(registry);
        // Debug and checker builds: the registry must not be freed until this
        // wake-up is done. Declared after `kept_alive`, so dropped before it.
        let _in_flight = WakeInFlight::begin(registry.address());
        // SAFETY: as above; `core_latch` is a field of the live `*this`.
        if unsafe { CoreLatch::set(&(*this).core_latch) } {
            registry.notify_worker_latch_is_set(target_worker_index);
        }
    }
}

/// A latch for threads outside the pool: they block on a mutex and condvar.
pub(crate) struct LockLatch {
    is_set: Mutex<bool>,
    changed: Condvar,
}

impl LockLatch {
    pub(crate) fn new() -> LockLatch {
        LockLatch {
            is_set: Mutex::new(false),
            changed: Condvar::new(),
        }
    }

    /// Blocks until the latch is set, then unsets it for the next use.
    pub(crate) fn wait_and_reset(&self) {
        let mut is_set = self.is_set.lock().unwrap();
        while !*is_set {
            is_set = self.changed.wait(is_set).unwrap();
        }
        *is_set = false;
    }
}

impl Latch for LockLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is live while we hold its mutex: the owner can only
        // observe the set, and so free the latch, after taking the mutex
        // itself, which waits for our guard to drop.
        let this = unsafe { &*this };
        let mut is_set = this.is_set.lock().unwrap();
        *is_set = true;
        this.changed.notify_all();
    }
}

/// The latch a worker's main loop waits on: set once, when the pool ends.
pub(crate) struct OnceLatch {
    core_latch: CoreLatch,
}

impl OnceLatch {
    pub(crate) fn new() -> OnceLatch {
        OnceLatch {
            core_latch: CoreLatch::new(),
        }
    }

    /// Sets the latch owned by worker `owner_index` of `registry`, waking it.
    ///
    /// # Safety
    /// `this` must point to a live latch owned by that worker.
    pub(crate) unsafe fn set_and_wake(this: *const Self, registry: &Registry, owner_index: usize) {
        // SAFETY: forwarded from the caller.
        if unsafe { CoreLatch::set(&(*this).core_latch) } {
            registry.notify_worker_latch_is_set(owner_index);
        }
    }
}

impl AsCoreLatch for OnceLatch {
    fn as_core_latch(&self) -> &CoreLatch {
        &self.core_latch
    }
}

/// Set when its count drops to zero. `scope` uses one to wait for every
/// spawned job (the count starts at one, for the scope's own body), and
/// `broadcast` one to wait for every worker's share.
///
/// Its owner is the thread that waits. A worker (of any pool: not
/// necessarily the pool whose jobs count down) waits by running other jobs
/// of its own pool and may sleep, so the last setter wakes it through its
/// pool's sleep state. A thread outside every pool (`in_place_scope`,
/// `broadcast` from outside) blocks on a lock instead.
pub(crate) struct CountLatch {
    counter: AtomicUsize,
    kind: CountLatchKind,
}

enum CountLatchKind {
    /// The owner is worker `worker_index` of `registry`.
    Stealing {
        core_latch: CoreLatch,
        registry: Arc<Registry>,
        worker_index: usize,
    },
    /// The owner is not a worker thread.
    Blocking { lock_latch: LockLatch },
}

impl CountLatch {
    /// A latch with count one, owned by `owner` (`None`: a thread outside
    /// every pool).
    pub(crate) fn new(owner: Option<&crate::registry::WorkerThread>) -> CountLatch {
        CountLatch::with_count(1, owner)
    }

    /// A latch that is set by the `count`-th call of `set`.
    pub(crate) fn with_count(
        count: usize,
        owner: Option<&crate::registry::WorkerThread>,
    ) -> CountLatch {
        debug_assert!(count > 0, "a count latch must start unset");
        let kind = match owner {
            Some(owner) => CountLatchKind::Stealing {
                core_latch: CoreLatch::new(),
                registry: Arc::clone(owner.registry()),
                worker_index: owner.index(),
            },
            None => CountLatchKind::Blocking {
                lock_latch: LockLatch::new(),
            },
        };
        CountLatch {
            counter: AtomicUsize::new(count),
            kind,
        }
    }

    pub(crate) fn increment(&self) {
        let before = self.counter.fetch_add(1, Ordering::Relaxed);
        debug_assert!(before > 0, "incremented a count latch that was already set");
    }

    /// Waits until the count reaches zero: by running other jobs when the
    /// owner is a worker, by blocking otherwise.
    ///
    /// # Safety
    /// `owner` must be the current thread's worker (`None` outside every
    /// pool) and the owner this latch was made for.
    pub(crate) unsafe fn wait(&self, owner: Option<&crate::registry::WorkerThread>) {
        match (&self.kind, owner) {
            (
                CountLatchKind::Stealing {
                    core_latch,
                    registry,
                    worker_index,
                },
                Some(owner),
            ) => {
                debug_assert!(Arc::ptr_eq(registry, owner.registry()));
                debug_assert_eq!(*worker_index, owner.index());
                // SAFETY: forwarded.
                unsafe { owner.wait_until(core_latch) };
            }
            (CountLatchKind::Blocking { lock_latch }, None) => lock_latch.wait_and_reset(),
            _ => unreachable!("a count latch waited on by a thread it was not made for"),
        }
    }
}

impl Latch for CountLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is live until the count reaches zero and the inner
        // latch is set; the owner cannot return before that.
        let reached_zero = unsafe { (*this).counter.fetch_sub(1, Ordering::AcqRel) } == 1;
        if !reached_zero {
            return;
        }
        // SAFETY: the inner latch is still unset, so `*this` is live.
        match unsafe { &(*this).kind } {
            CountLatchKind::Stealing {
                core_latch,
                registry,
                worker_index,
            } => {
                // The owner may free the latch, and with it `registry`, as
                // soon as the core latch is set: copy out what the wake-up
                // needs first.
                let registry = Arc::clone(registry);
                let worker_index = *worker_index;
                let core_latch: *const CoreLatch = core_latch;
                // SAFETY: as above; nothing of `*this` is touched after the
                // swap inside `CoreLatch::set`.
                if unsafe { CoreLatch::set(core_latch) } {
                    registry.notify_worker_latch_is_set(worker_index);
                }
            }
            CountLatchKind::Blocking { lock_latch } => {
                let lock_latch: *const LockLatch = lock_latch;
                // SAFETY: live until the owner has seen the set, which
                // `LockLatch::set` makes happen only after its last access.
                unsafe { LockLatch::set(lock_latch) }
            }
        }
    }
}

/// A latch given by reference, so that a job can set a latch it does not own.
impl<L: Latch> Latch for &L {
    unsafe fn set(this: *const Self) {
        // SAFETY: `*this` is a live reference to a live latch.
        unsafe { L::set(*this) }
    }
}

#[cfg(test)]
mod test;
