//! Blitz's sleep/wake protocol as its documentation (seed 003) states it.
//!
//! The model follows the document's code snippets and numbered steps
//! literally. It is a model of the text, not of Blitz's source, which this
//! project has not read. Where the text is ambiguous or contradicts itself,
//! the literal reading is taken and marked `LITERAL:` below:
//!
//! - Announcing sleepiness calls `incrementJecIfSleepy()`, the same function
//!   posters call, and then saves the JEC from a separate `loadSeqCst()`.
//!   With "even = sleepy" that makes the JEC *odd* on announcement, and a
//!   poster that then finds it odd leaves it alone: the JEC check before
//!   sleeping sees no change although work was posted. (The document's
//!   "Why It Works" diagram instead has the poster do an unconditional
//!   `JEC++`; the code snippets, which this model follows, do not.)
//! - Step 4 ("check if JEC changed") and step 5 ("CAS to add self to
//!   sleeping_threads") are two operations, not one compare-and-swap.
//! - Step 7 (the final look at the injector) returns when it finds a job,
//!   exactly as the "Fence 2" snippet shows: without taking itself off the
//!   sleeping count and without putting its latch back to UNSET.
//! - A latch setter wakes the owner when the latch was SLEEPY or SLEEPING
//!   ("Poster: if (state >= SLEEPY) wake()"); waking is
//!   `wakeSpecificThread` (lock, check `is_blocked`, clear, signal,
//!   decrement).
//! - What a worker does when its latch is not UNSET at step 1 is not stated;
//!   it then does not sleep (the latch was set, or is left SLEEPY/SLEEPING
//!   by an earlier attempt).
//! - Finding work decrements the inactive count; the document does not say
//!   that a worker that finds work wakes others, so it does not.
//!
//! Rounds: the document's 32 yield rounds, announcement at round 32, one
//! pre-sleep round and the sleep attempt at round 34 become 1, 1, 1 in
//! checker builds (the same shape, fewer yields).

use super::{QueueView, Round, SleepModel};
use drowse::sync::atomic::{fence, AtomicBool, AtomicUsize, Ordering};
use drowse::sync::{thread, Condvar, Mutex, IS_CHECKER};
use drowse::SleepSnapshot;

/// Yield rounds before the announcement (document: rounds 0-31).
const YIELD_ROUNDS: u32 = if IS_CHECKER { 1 } else { 32 };
/// The announcement round (document: round 32).
const ANNOUNCE_ROUND: u32 = YIELD_ROUNDS;
/// The first sleep round (document: round 34, after the pre-sleep yield).
const SLEEP_ROUND: u32 = ANNOUNCE_ROUND + 2;

const SLEEPING_ONE: usize = 1;
const INACTIVE_SHIFT: u32 = 16;
const INACTIVE_ONE: usize = 1 << INACTIVE_SHIFT;
const THREAD_MASK: usize = 0xffff;
const JEC_SHIFT: u32 = 32;

const UNSET: usize = 0;
const SLEEPY: usize = 1;
const SLEEPING: usize = 2;
const SET: usize = 3;

/// The documented protocol.
#[derive(Debug)]
pub struct Blitz {
    counters: AtomicUsize,
    jec_mask: usize,
    workers: Vec<WorkerSleepState>,
}

#[derive(Debug, Default)]
struct WorkerSleepState {
    mutex: Mutex<()>,
    is_blocked: AtomicBool,
    condvar: Condvar,
}

/// A worker's round and JEC snapshot.
#[derive(Debug)]
pub struct BlitzIdle {
    worker: usize,
    rounds: u32,
    jobs_counter: usize,
}

/// The four-state `CoreLatch` of the document.
#[derive(Debug)]
pub struct BlitzLatch {
    state: AtomicUsize,
}

fn sleeping(word: usize) -> usize {
    word & THREAD_MASK
}

fn inactive(word: usize) -> usize {
    (word >> INACTIVE_SHIFT) & THREAD_MASK
}

impl Blitz {
    fn jec(&self, word: usize) -> usize {
        (word >> JEC_SHIFT) & self.jec_mask
    }

    /// `incrementJecIfSleepy`: if the JEC is even, add one (within its
    /// bits); returns the word before.
    fn increment_jec_if_sleepy(&self) -> usize {
        loop {
            let old = self.counters.load(Ordering::SeqCst);
            if self.jec(old) % 2 == 1 {
                return old;
            }
            let jec = (self.jec(old) + 1) & self.jec_mask;
            let new = (old & !(self.jec_mask << JEC_SHIFT)) | (jec << JEC_SHIFT);
            if self
                .counters
                .compare_exchange(old, new, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return old;
            }
            thread::yield_now();
        }
    }

    /// `newJobs`: the smart wake decision.
    fn new_jobs(&self, num_jobs: u32, queue_was_empty: bool) {
        let old = self.increment_jec_if_sleepy();
        let sleepers = sleeping(old);
        if sleepers == 0 {
            return;
        }
        let awake_but_idle = inactive(old).saturating_sub(sleepers);
        let num_jobs = num_jobs as usize;
        let to_wake = if queue_was_empty {
            if awake_but_idle < num_jobs {
                (num_jobs - awake_but_idle).min(sleepers)
            } else {
                0
            }
        } else {
            num_jobs.min(sleepers)
        };
        self.wake_threads(to_wake);
    }

    fn wake_threads(&self, mut count: usize) {
        for index in 0..self.workers.len() {
            if count == 0 {
                return;
            }
            if self.wake_specific_thread(index) {
                count -= 1;
            }
        }
    }

    /// `wakeSpecificThread`: the waker decrements.
    fn wake_specific_thread(&self, index: usize) -> bool {
        let state = &self.workers[index];
        let _guard = state.mutex.lock().unwrap();
        if state.is_blocked.load(Ordering::Relaxed) {
            state.is_blocked.store(false, Ordering::Relaxed);
            state.condvar.notify_one();
            self.counters.fetch_sub(SLEEPING_ONE, Ordering::SeqCst);
            true
        } else {
            false
        }
    }

    /// Latch SLEEPING -> UNSET (the document's `wakeUp()`).
    fn latch_wake_up(latch: &BlitzLatch) {
        let _ = latch
            .state
            .compare_exchange(SLEEPING, UNSET, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Steps 1-9 of "Round 34+: ACTUAL SLEEP".
    fn sleep(&self, idle: &mut BlitzIdle, latch: &BlitzLatch, queues: &dyn QueueView) -> Round {
        // 1. CAS latch UNSET -> SLEEPY.
        if latch
            .state
            .compare_exchange(UNSET, SLEEPY, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // LITERAL: not stated; the latch is not UNSET, so do not sleep.
            // (The yield is only a scheduling point: a latch left SLEEPING
            // by step 7 brings every later round here.)
            thread::yield_now();
            return Round::Searched;
        }
        // 2. Lock the worker's mutex.
        let state = &self.workers[idle.worker];
        let guard = state.mutex.lock().unwrap();
        // 3. CAS latch SLEEPY -> SLEEPING.
        if latch
            .state
            .compare_exchange(SLEEPY, SLEEPING, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // Set meanwhile.
            return Round::Searched;
        }
        // 4. JEC changed since the snapshot? Unlock, wakeUp(), round 32.
        if self.jec(self.counters.load(Ordering::SeqCst)) != idle.jobs_counter {
            drop(guard);
            Self::latch_wake_up(latch);
            idle.rounds = ANNOUNCE_ROUND;
            return Round::Searched;
        }
        // 5. LITERAL: a separate CAS adds us to the sleeping count.
        loop {
            let old = self.counters.load(Ordering::SeqCst);
            if self
                .counters
                .compare_exchange(old, old + SLEEPING_ONE, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                break;
            }
            thread::yield_now();
        }
        // 6. SeqCst fence.
        fence(Ordering::SeqCst);
        // 7. Injected jobs? LITERAL: return, as the "Fence 2" snippet does
        // (the sleeping count and the latch stay as they are).
        if queues.has_injected_jobs() {
            return Round::Searched;
        }
        // 8. Block on the condvar.
        state.is_blocked.store(true, Ordering::Relaxed);
        let mut guard = guard;
        while state.is_blocked.load(Ordering::Relaxed) {
            guard = state.condvar.wait(guard).unwrap();
        }
        drop(guard);
        // 9. On wake: wakeUp() the latch, rounds back to 0.
        Self::latch_wake_up(latch);
        idle.rounds = 0;
        Round::Slept
    }
}

impl SleepModel for Blitz {
    const NAME: &'static str = "blitz";
    type Idle = BlitzIdle;
    type Latch = BlitzLatch;

    fn new(workers: usize, jec_bits: Option<u32>) -> Self {
        let bits = jec_bits.unwrap_or(32);
        assert!((1..=32).contains(&bits), "the JEC has 1 to 32 bits");
        Blitz {
            counters: AtomicUsize::new(0),
            jec_mask: (1usize << bits) - 1,
            workers: (0..workers).map(|_| WorkerSleepState::default()).collect(),
        }
    }

    fn new_latch(&self) -> BlitzLatch {
        BlitzLatch {
            state: AtomicUsize::new(UNSET),
        }
    }

    fn probe(&self, latch: &BlitzLatch) -> bool {
        latch.state.load(Ordering::Acquire) == SET
    }

    fn set_latch(&self, latch: &BlitzLatch, owner: usize) {
        let old = latch.state.swap(SET, Ordering::AcqRel);
        // LITERAL: "Poster: if (state >= SLEEPY) wake()".
        if old == SLEEPY || old == SLEEPING {
            self.wake_specific_thread(owner);
        }
    }

    fn start_looking(&self, worker: usize) -> BlitzIdle {
        self.counters.fetch_add(INACTIVE_ONE, Ordering::SeqCst);
        BlitzIdle {
            worker,
            rounds: 0,
            jobs_counter: usize::MAX,
        }
    }

    fn work_found(&self, _idle: BlitzIdle, _more_work_queued: bool, _queues: &dyn QueueView) {
        self.counters.fetch_sub(INACTIVE_ONE, Ordering::SeqCst);
    }

    fn no_work_found(
        &self,
        idle: &mut BlitzIdle,
        latch: &BlitzLatch,
        queues: &dyn QueueView,
    ) -> Round {
        if idle.rounds < ANNOUNCE_ROUND {
            thread::yield_now();
            idle.rounds += 1;
            Round::Searched
        } else if idle.rounds == ANNOUNCE_ROUND {
            // LITERAL: the same `incrementJecIfSleepy` as posters, then a
            // separate load of the current value.
            let _ = self.increment_jec_if_sleepy();
            idle.jobs_counter = self.jec(self.counters.load(Ordering::SeqCst));
            idle.rounds += 1;
            thread::yield_now();
            Round::Searched
        } else if idle.rounds < SLEEP_ROUND {
            // Round 33: the pre-sleep yield.
            idle.rounds += 1;
            thread::yield_now();
            Round::Searched
        } else {
            self.sleep(idle, latch, queues)
        }
    }

    fn new_injected_jobs(&self, jobs: u32, queue_was_empty: bool) {
        fence(Ordering::SeqCst);
        self.new_jobs(jobs, queue_was_empty)
    }

    fn new_internal_jobs(&self, _pusher: usize, jobs: u32, queue_was_empty: bool) {
        self.new_jobs(jobs, queue_was_empty)
    }

    fn snapshot(&self) -> Option<SleepSnapshot> {
        let guards: Vec<_> = self
            .workers
            .iter()
            .map(|state| state.mutex.lock().unwrap())
            .collect();
        let word = self.counters.load(Ordering::SeqCst);
        let blocked_threads = self
            .workers
            .iter()
            .filter(|state| state.is_blocked.load(Ordering::Relaxed))
            .count();
        drop(guards);
        Some(SleepSnapshot {
            sleeping_threads: sleeping(word),
            inactive_threads: inactive(word),
            jobs_event_counter: self.jec(word),
            blocked_threads,
            num_threads: self.workers.len(),
            sleeps_abandoned: 0,
        })
    }
}
