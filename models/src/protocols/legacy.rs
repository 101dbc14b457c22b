//! Legacy Rayon's sleep module, as seed 000 describes it.
//!
//! One atomic word holds everything: bit 0 says "some workers are asleep (or
//! on their way, holding the lock)", the bits above hold `index + 1` of the
//! single sleepy worker, or 0. One mutex and one condition variable serve
//! the whole pool; `tickle` wakes every sleeper with `notify_all`.
//!
//! Where the text is loose, this model takes it literally:
//!
//! - `tickle` is "a load and a compare" and, if anyone is sleepy or asleep,
//!   "a `Release` store" that resets the word to "nobody sleepy, nobody
//!   asleep". The text calls it a store, so [`Legacy`] does a plain store,
//!   and decides whether to take the lock and `notify_all` from the value
//!   its load returned. A store can overwrite the sleepy worker's
//!   compare-and-swap to "asleep" that lands between the load and the store.
//!   [`LegacySwap`] is the same protocol with that store read as a swap
//!   (the decision then comes from the value the swap replaced), to show
//!   what the rest of the design does once that one step is atomic.
//! - `work_found` only clears the caller's own sleepiness ("reset the global
//!   state to indicate we are no longer sleepy"); it does not tickle.
//! - Setting a latch is a store of the latch's flag followed by `tickle`
//!   ("a latch is set ... must invoke tickle()").
//! - A sleeper blocks with one `wait` (no loop): any wake-up, spurious or
//!   not, puts it back to the awake state with a yield count of zero.
//!
//! The text has no counters of sleeping or idle threads, so
//! [`SleepModel::snapshot`] is `None`; [`SleepModel::check_at_rest`] checks
//! the one word instead: with every worker gone, nobody may be recorded as
//! sleepy or asleep.

use super::{QueueView, Round, SleepModel};
use drowse::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use drowse::sync::{thread, Condvar, Mutex, IS_CHECKER};

/// Fruitless rounds before a worker tries to become the sleepy one (seed:
/// `ROUNDS_UNTIL_SLEEPY`). One in checker builds, as in production.
const ROUNDS_UNTIL_SLEEPY: u32 = if IS_CHECKER { 1 } else { 32 };
/// Rounds before the sleepy worker tries to fall asleep (seed:
/// `ROUNDS_UNTIL_ASLEEP`): one more search after getting sleepy.
const ROUNDS_UNTIL_ASLEEP: u32 = ROUNDS_UNTIL_SLEEPY + 1;

/// Bit 0 of the word: some workers are asleep or about to be.
const ASLEEP_FLAG: usize = 1;

fn sleepy_value(worker: usize) -> usize {
    (worker + 1) << 1
}

fn sleepy_worker(state: usize) -> Option<usize> {
    match state >> 1 {
        0 => None,
        plus_one => Some(plus_one - 1),
    }
}

/// The legacy protocol; `SWAP` selects how `tickle` resets the word (see
/// the module documentation).
#[derive(Debug)]
pub struct LegacyModel<const SWAP: bool> {
    state: AtomicUsize,
    lock: Mutex<()>,
    wake_up: Condvar,
}

/// The legacy protocol as the seed states it: `tickle` resets the word
/// with a plain store.
pub type Legacy = LegacyModel<false>;

/// The same with `tickle`'s reset as a swap.
pub type LegacySwap = LegacyModel<true>;

/// A worker's `yields` counter, and its index.
#[derive(Debug)]
pub struct LegacyIdle {
    worker: usize,
    yields: u32,
}

/// A latch: a flag, and a tickle when it is set.
#[derive(Debug)]
pub struct LegacyLatch {
    set: AtomicBool,
}

impl<const SWAP: bool> LegacyModel<SWAP> {
    /// New work or a set latch: wake everyone.
    fn tickle(&self) {
        let mut old = self.state.load(Ordering::SeqCst);
        if old == 0 {
            return;
        }
        if SWAP {
            old = self.state.swap(0, Ordering::Release);
        } else {
            // "If there are sleepy workers, a `Release` store is needed."
            self.state.store(0, Ordering::Release);
        }
        if old & ASLEEP_FLAG != 0 {
            let _guard = self.lock.lock().unwrap();
            self.wake_up.notify_all();
        }
    }

    fn still_sleepy(&self, worker: usize) -> bool {
        sleepy_worker(self.state.load(Ordering::SeqCst)) == Some(worker)
    }

    /// Sleepy to asleep: under the lock, one CAS that removes us as the
    /// sleepy worker and sets the asleep flag; then block once.
    fn sleep(&self, idle: &mut LegacyIdle) -> Round {
        let guard = self.lock.lock().unwrap();
        let old = self.state.load(Ordering::SeqCst);
        let round = if sleepy_worker(old) == Some(idle.worker)
            && self
                .state
                .compare_exchange(old, ASLEEP_FLAG, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        {
            drop(self.wake_up.wait(guard).unwrap());
            Round::Slept
        } else {
            // Tickled since we got sleepy: awake again.
            drop(guard);
            Round::Searched
        };
        idle.yields = 0;
        round
    }
}

impl<const SWAP: bool> SleepModel for LegacyModel<SWAP> {
    const NAME: &'static str = if SWAP { "legacy-swap" } else { "legacy" };
    type Idle = LegacyIdle;
    type Latch = LegacyLatch;

    fn new(_workers: usize, _jec_bits: Option<u32>) -> Self {
        LegacyModel {
            state: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake_up: Condvar::new(),
        }
    }

    fn new_latch(&self) -> LegacyLatch {
        LegacyLatch {
            set: AtomicBool::new(false),
        }
    }

    fn probe(&self, latch: &LegacyLatch) -> bool {
        latch.set.load(Ordering::Acquire)
    }

    fn set_latch(&self, latch: &LegacyLatch, _owner: usize) {
        latch.set.store(true, Ordering::Release);
        self.tickle();
    }

    fn start_looking(&self, worker: usize) -> LegacyIdle {
        LegacyIdle { worker, yields: 0 }
    }

    fn work_found(&self, idle: LegacyIdle, _more_work_queued: bool, _queues: &dyn QueueView) {
        if idle.yields > ROUNDS_UNTIL_SLEEPY {
            // We are (or were) the sleepy worker: stop being it, unless a
            // tickle already did.
            let old = self.state.load(Ordering::SeqCst);
            if sleepy_worker(old) == Some(idle.worker) {
                let _ = self.state.compare_exchange(
                    old,
                    old & ASLEEP_FLAG,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                );
            }
        }
    }

    fn no_work_found(
        &self,
        idle: &mut LegacyIdle,
        _latch: &LegacyLatch,
        _queues: &dyn QueueView,
    ) -> Round {
        if idle.yields < ROUNDS_UNTIL_SLEEPY {
            idle.yields += 1;
            thread::yield_now();
            Round::Searched
        } else if idle.yields == ROUNDS_UNTIL_SLEEPY {
            // Try to become the one sleepy worker; keep trying otherwise.
            let old = self.state.load(Ordering::SeqCst);
            if sleepy_worker(old).is_none()
                && self
                    .state
                    .compare_exchange(
                        old,
                        old | sleepy_value(idle.worker),
                        Ordering::SeqCst,
                        Ordering::SeqCst,
                    )
                    .is_ok()
            {
                idle.yields += 1;
            }
            thread::yield_now();
            Round::Searched
        } else if !self.still_sleepy(idle.worker) {
            // A tickle reset the word: back to awake.
            idle.yields = 0;
            Round::Searched
        } else if idle.yields < ROUNDS_UNTIL_ASLEEP {
            idle.yields += 1;
            thread::yield_now();
            Round::Searched
        } else {
            self.sleep(idle)
        }
    }

    fn new_injected_jobs(&self, _jobs: u32, _queue_was_empty: bool) {
        self.tickle();
    }

    fn new_internal_jobs(&self, _pusher: usize, _jobs: u32, _queue_was_empty: bool) {
        self.tickle();
    }

    fn check_at_rest(&self) -> Result<(), String> {
        match self.state.load(Ordering::SeqCst) {
            0 => Ok(()),
            state => Err(format!(
                "state word is {state:#x} with every worker gone (sleepy: {:?}, asleep flag: {})",
                sleepy_worker(state),
                state & ASLEEP_FLAG
            )),
        }
    }
}
