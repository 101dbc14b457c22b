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
use crate::sync::record::{self, Step};
use crate::sync::{thread_local, Arc, Condvar, Mutex};
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
        // The owner may free the latch from here on, while the callers'
        // frames (the latch kinds' `set`, `Registry::terminate`) still run.
        crate::sync::yield_after_set_under_miri();
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
    /// Inlined: every stolen half of a `join` ends with it, in the user's
    /// crate (an out-of-line call there goes through the GOT).
    #[inline]
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
///
/// Always shared through an `Arc`, and set only through an `Arc` of the
/// setter's own ([`LockLatch::set`] takes `&self`, which must stay live for
/// the whole call): the owner may return, and drop what it waited on, as
/// soon as it sees the set under the mutex, which can be before the setter
/// has finished unlocking it (std's futex mutex swaps its state word, then
/// issues a wake-up on that word's address). A setter's own reference keeps
/// the mutex alive until its unlock has returned. See [`OutsideLatch`] for
/// the jobs of threads outside the pool, and docs/proof.md, "Lemma 4c: an
/// outside owner's latch outlives its setter".
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

    /// Sets the latch, waking its owner. Every access of the latch, the
    /// mutex's unlock included, is through `&self`, which the caller keeps
    /// live until this returns (an `Arc` of its own; see the type's docs).
    pub(crate) fn set(&self) {
        let mut is_set = self.is_set.lock().unwrap();
        *is_set = true;
        self.changed.notify_all();
        drop(is_set);
        // The owner may go on once the unlock's store is visible, while
        // `&self`, protected for this whole call, is still live: a setter
        // that borrowed the latch instead of holding an `Arc` of its own
        // would have it freed under that protector.
        crate::sync::yield_after_set_under_miri();
    }
}

// The `LockLatch` of each thread outside the pools, reused by each of its
// `install`-style calls (`in_worker_cold`), as rayon-core does, so that
// those calls allocate nothing. Through the facade: in the checker worlds
// each model thread has its own (a std thread-local would be shared by all
// the model threads of a process).
thread_local! {
    static THREAD_LOCK_LATCH: Arc<LockLatch> = Arc::new(LockLatch::new());
}

/// The latch a thread outside the pool waits on for a job it injected: a
/// borrow of an `Arc<LockLatch>` that outlives the wait (the thread's own,
/// see [`OutsideLatch::with_current_thread`]).
pub(crate) struct OutsideLatch<'a> {
    latch: &'a Arc<LockLatch>,
}

impl OutsideLatch<'_> {
    /// Runs `f` with this thread's latch: its reused one, or a fresh one
    /// while the thread's thread-locals are being destroyed.
    pub(crate) fn with_current_thread<R>(f: impl FnOnce(OutsideLatch<'_>) -> R) -> R {
        let mut f = Some(f);
        // `ok()`: the error is dropped within this statement, ending its
        // borrow of `f` (the checkers' error types have drop glue).
        let reused = THREAD_LOCK_LATCH
            .try_with(|latch| (f.take().expect("called once"))(OutsideLatch { latch }))
            .ok();
        match reused {
            Some(result) => result,
            None => (f.take().expect("not called: the thread-local is gone"))(OutsideLatch {
                latch: &Arc::new(LockLatch::new()),
            }),
        }
    }

    /// Blocks until the latch is set, then unsets it for the next wait.
    pub(crate) fn wait_and_reset(&self) {
        self.latch.wait_and_reset();
    }
}

impl Latch for OutsideLatch<'_> {
    unsafe fn set(this: *const Self) {
        // SAFETY: `*this`, and the `Arc` it borrows, are live until the owner
        // has seen the set (the caller's contract), which happens inside
        // `LockLatch::set` below, after this read: the setter's own
        // reference is taken while the owner still waits.
        let latch = Arc::clone(unsafe { (*this).latch });
        // Nothing of `*this` is touched from here on: the set, the notify
        // and the unlock go through `latch`, which keeps the mutex alive
        // until it is dropped, after `set` has returned.
        latch.set();
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
        let was_sleeping = unsafe { CoreLatch::set(&(*this).core_latch) };
        record::step(Step::LatchSet { was_sleeping }, Some(owner_index));
        if was_sleeping {
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
    /// The owner is not a worker thread. Its own latch, shared with the
    /// setter for the length of the set (see `LockLatch`).
    Blocking { lock_latch: Arc<LockLatch> },
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
                lock_latch: Arc::new(LockLatch::new()),
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

    /// The last count: sets the inner latch, waking the owner.
    ///
    /// # Safety
    /// `this` must be live, and its count just brought to zero by the caller.
    #[cold]
    unsafe fn set_inner(this: *const Self) {
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
                // A reference of our own, taken while the owner still waits
                // (`*this` is live: the inner latch is unset); nothing of
                // `*this` is touched after it, and it keeps the mutex alive
                // through the unlock at the end of `set`.
                let lock_latch = Arc::clone(lock_latch);
                lock_latch.set();
            }
        }
    }
}

impl Latch for CountLatch {
    /// Counts one down. Inlined: every job of a scope ends with it, and all
    /// but the last only decrement.
    #[inline]
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is live until the count reaches zero and the inner
        // latch is set; the owner cannot return before that.
        let reached_zero = unsafe { (*this).counter.fetch_sub(1, Ordering::AcqRel) } == 1;
        if reached_zero {
            // SAFETY: the count just reached zero, so the inner latch is
            // still unset and `*this` is live.
            unsafe { CountLatch::set_inner(this) }
        } else {
            // Not the last count: another setter may take the count to zero
            // and the owner free the latch from here on.
            crate::sync::yield_after_set_under_miri();
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
