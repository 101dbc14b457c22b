//! The sleep protocol of the RFC (seed 004) and the two alternatives its
//! section "Potential avenues for future exploration" proposes.
//!
//! One generic model, [`RfcModel`], is the protocol of the RFC's body; two
//! const parameters switch the alternatives on:
//!
//! - [`Rfc`] (`rfc`): the body as written, neither alternative;
//! - [`RfcLocalQueue`] (`rfc-local-queue`): a worker that pushes internal
//!   jobs decides whether idle threads exist by whether its own deque was
//!   empty before the push, not by the counters;
//! - [`RfcBlocks`] (`rfc-blocks`): a decision to wake wakes a block of
//!   sleepers, enough to bring the number of awake threads up to a power of
//!   two.
//!
//! A third parameter adds something the seed does not have, the *final
//! look*: after counting itself as sleeping (under its lock), the worker
//! issues a `SeqCst` fence and looks at every queue once more, and gives up
//! sleeping if it sees a job; posters issue a `SeqCst` fence between their
//! push and their read of the counters. [`RfcFinalLook`],
//! [`RfcLocalQueueFinalLook`] and [`RfcBlocksFinalLook`] are the three
//! models above with it. They exist to separate the findings: the race the
//! RFC accepts in its body (R1 in `docs/models/rfc.md`) strands jobs in
//! every literal model, which hides what each alternative does on its own,
//! and it deadlocks the statistics workload. With the final look, what
//! still fails is the alternative's own doing.
//!
//! What is taken from the seed's body:
//!
//! - Two counts packed into one 64-bit atomic: idle threads (in the
//!   stealing loop, asleep or not) and sleeping threads (a subset). A worker
//!   adds itself to the idle count when it starts looking for work and
//!   removes itself when it stops; it adds itself to the sleeping count when
//!   it goes to sleep and removes itself when it wakes (the sleeper does
//!   both, nobody else).
//! - The wake rule for new jobs: if there are not enough idle threads and
//!   there are sleepers, pick one sleeping thread and wake it. "Idle
//!   threads" here means threads that are looking for work and can steal
//!   it: the idle count minus the sleeping count. Enough means at least as
//!   many as there are new jobs.
//! - One `WorkerSleepState` per worker: a mutex around an `is_sleeping`
//!   flag that only its worker writes, and a condition variable. Waking a
//!   worker is: take its lock, and notify if the flag is set.
//! - A worker searches a fixed number of rounds and then sleeps (N rounds;
//!   32 here, 1 in checker builds, like the other models).
//! - The latch is Appendix A's four-state core latch (UNSET, SLEEPY,
//!   SLEEPING, SET), with its sleep and set operations step by step,
//!   including the single, unlooped wait.
//!
//! What the seed's body does not have, and this model therefore does not
//! have: a jobs event counter (the RFC text names none), a fence, or any
//! look at the queues between the last search round and blocking. The RFC
//! lists the resulting race among its accepted hazards ("the idle thread
//! might go to sleep"); see `docs/models/rfc.md`, finding R1.
//!
//! Literal readings (each marked `LITERAL:` at the code):
//!
//! - Where the sleeping count moves inside Appendix A's steps: it goes up
//!   together with the `is_sleeping` flag (under the worker's lock, right
//!   before blocking) and down together with it on waking. The body only
//!   says "when a thread goes to sleep" and "when awoken".
//! - Waking "one sleeping thread" picks the lowest-indexed worker whose
//!   `is_sleeping` flag is set. The flag is cleared by the sleeper when it
//!   runs again, so a worker already notified but not yet running can be
//!   picked a second time; the second notification is then lost on the
//!   thread that is waking anyway.
//! - A decision to wake wakes one thread however many jobs were pushed (the
//!   guide-level rule). The harness pushes one job at a time, so the
//!   multi-job refinements of the text do not arise.
//! - A worker that was woken starts its N search rounds again.
//! - No memory orderings are given; every counter and latch operation is a
//!   `SeqCst` read-modify-write or load, and there are no fences.
//! - Local queue: the deque check replaces only the question "are there
//!   enough idle threads?". Whether anyone sleeps is still read from the
//!   sleeping count, and a non-empty deque means "not enough idle threads".
//!   Injected jobs keep the counter rule: the seed says the check "only
//!   works from worker threads", and the injector is not a worker's deque.
//! - Blocks: "active threads" are the threads not counted as sleeping
//!   (`workers - sleeping`). The target is the smallest power of two
//!   *greater* than that number, so a decision to wake always wakes at
//!   least one thread (5 awake: wake 3, to 8, as in the seed; 4 awake: wake
//!   4, to 8; 1 awake: wake 1, to 2), capped by the number of sleepers. The
//!   other reading, "the smallest power of two at least that number", would
//!   wake nobody whenever the awake count is already a power of two (one
//!   awake worker is 2^0), which would cancel the decision to wake.

use super::{QueueView, Round, SleepModel};
use drowse::sync::atomic::{fence, AtomicU64, Ordering};
use drowse::sync::{thread, Condvar, Mutex, IS_CHECKER};
use drowse::SleepSnapshot;

/// Fruitless search rounds before a worker sleeps (the RFC's N, "determined
/// by some experimentation"). One in checker builds.
const SEARCH_ROUNDS: u32 = if IS_CHECKER { 1 } else { 32 };

/// The sleeping count: bits 0-31 of the counters word.
const SLEEPING_ONE: u64 = 1;
/// The idle count: bits 32-63.
const IDLE_SHIFT: u32 = 32;
const IDLE_ONE: u64 = 1 << IDLE_SHIFT;
const COUNT_MASK: u64 = 0xffff_ffff;

const UNSET: u64 = 0;
const SLEEPY: u64 = 1;
const SLEEPING: u64 = 2;
const SET: u64 = 3;

fn sleeping(word: u64) -> usize {
    (word & COUNT_MASK) as usize
}

fn idle(word: u64) -> usize {
    ((word >> IDLE_SHIFT) & COUNT_MASK) as usize
}

/// Who pushed the new jobs, as far as the wake decision cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// Into the injector, from outside the pool.
    Injected,
    /// Onto the pusher's own deque; whether it was empty before the push.
    Internal {
        /// The pusher's deque was empty before the push.
        queue_was_empty: bool,
    },
}

/// The RFC's protocol; `LOCAL_QUEUE` and `BLOCKS` switch on the two
/// alternatives, `FINAL_LOOK` adds the final look (see the module
/// documentation).
///
/// LITERAL: the RFC gives no memory orderings; every operation on the
/// counters and on latches is `SeqCst`, and only the final look adds fences.
#[derive(Debug)]
pub struct RfcModel<const LOCAL_QUEUE: bool, const BLOCKS: bool, const FINAL_LOOK: bool> {
    /// Sleeping threads (bits 0-31) and idle threads (bits 32-63).
    counters: AtomicU64,
    workers: Vec<WorkerSleepState>,
}

/// The RFC's body, neither alternative.
pub type Rfc = RfcModel<false, false, false>;
/// Idle threads judged by the pusher's own deque (internal jobs only).
pub type RfcLocalQueue = RfcModel<true, false, false>;
/// Wake blocks of threads up to the next power of two.
pub type RfcBlocks = RfcModel<false, true, false>;
/// [`Rfc`] with the final look (not in the seed; see the module
/// documentation).
pub type RfcFinalLook = RfcModel<false, false, true>;
/// [`RfcLocalQueue`] with the final look.
pub type RfcLocalQueueFinalLook = RfcModel<true, false, true>;
/// [`RfcBlocks`] with the final look.
pub type RfcBlocksFinalLook = RfcModel<false, true, true>;

/// The RFC's `WorkerSleepState`.
#[derive(Debug, Default)]
struct WorkerSleepState {
    is_sleeping: Mutex<bool>,
    condvar: Condvar,
}

/// A searching worker's index and fruitless rounds.
#[derive(Debug)]
pub struct RfcIdle {
    worker: usize,
    rounds: u32,
}

/// Appendix A's core latch.
#[derive(Debug)]
pub struct RfcLatch {
    state: AtomicU64,
}

const fn model_name(local_queue: bool, blocks: bool, final_look: bool) -> &'static str {
    match (local_queue, blocks, final_look) {
        (false, false, false) => "rfc",
        (true, false, false) => "rfc-local-queue",
        (false, true, false) => "rfc-blocks",
        (true, true, false) => "rfc-local-queue-blocks",
        (false, false, true) => "rfc-final-look",
        (true, false, true) => "rfc-local-queue-final-look",
        (false, true, true) => "rfc-blocks-final-look",
        (true, true, true) => "rfc-local-queue-blocks-final-look",
    }
}

/// How many sleepers to wake after `jobs` new jobs, given the pool size,
/// the counters word read after the push, and how the jobs were pushed.
/// Pure, so that the two alternatives can be compared case by case.
pub fn sleepers_to_wake(
    local_queue: bool,
    blocks: bool,
    workers: usize,
    word: u64,
    jobs: u32,
    pushed: Pushed,
) -> usize {
    let sleepers = sleeping(word);
    let enough_idle = match pushed {
        // LITERAL: an empty deque means "enough idle threads", a non-empty
        // one "not enough", whatever the counts say.
        Pushed::Internal { queue_was_empty } if local_queue => queue_was_empty,
        // LITERAL: injected jobs keep the counter rule under the local-queue
        // alternative ("this check only works from worker threads").
        _ => idle(word).saturating_sub(sleepers) >= jobs as usize,
    };
    if enough_idle || sleepers == 0 {
        return 0;
    }
    if !blocks {
        // LITERAL: "pick one sleeping thread and wake it", whatever `jobs`.
        return 1;
    }
    // LITERAL: active = not counted as sleeping; target = the smallest power
    // of two above it (see the module documentation).
    let active = workers.saturating_sub(sleepers);
    let target = (active + 1).next_power_of_two();
    (target - active).min(sleepers)
}

impl<const LOCAL_QUEUE: bool, const BLOCKS: bool, const FINAL_LOOK: bool>
    RfcModel<LOCAL_QUEUE, BLOCKS, FINAL_LOOK>
{
    fn new_jobs(&self, jobs: u32, pushed: Pushed) {
        if FINAL_LOOK {
            // Not in the seed: orders the push before the read of the
            // counters (the other half is in `sleep`).
            fence(Ordering::SeqCst);
        }
        let word = self.counters.load(Ordering::SeqCst);
        let count = sleepers_to_wake(LOCAL_QUEUE, BLOCKS, self.workers.len(), word, jobs, pushed);
        self.wake_sleepers(count);
    }

    /// Wakes up to `count` workers whose `is_sleeping` flag is set, lowest
    /// index first. LITERAL: the flag is the sleeper's to clear, so a worker
    /// notified a moment ago can be chosen again.
    fn wake_sleepers(&self, mut count: usize) {
        for state in &self.workers {
            if count == 0 {
                return;
            }
            let is_sleeping = state.is_sleeping.lock().unwrap();
            if *is_sleeping {
                state.condvar.notify_one();
                count -= 1;
            }
        }
    }

    /// Appendix A's sleep operation, for the worker that owns `idle`.
    fn sleep(&self, idle: &mut RfcIdle, latch: &RfcLatch, queues: &dyn QueueView) -> Round {
        // Latch UNSET -> SLEEPY; failing means it was set.
        if latch
            .state
            .compare_exchange(UNSET, SLEEPY, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return Round::Searched;
        }
        // The worker's own sleep lock.
        let state = &self.workers[idle.worker];
        let mut is_sleeping = state.is_sleeping.lock().unwrap();
        // Latch SLEEPY -> SLEEPING; failing means it was set meanwhile.
        if latch
            .state
            .compare_exchange(SLEEPY, SLEEPING, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return Round::Searched;
        }
        // LITERAL: the sleeping count goes up with the flag, under the lock.
        *is_sleeping = true;
        self.counters.fetch_add(SLEEPING_ONE, Ordering::SeqCst);
        if FINAL_LOOK {
            // Not in the seed: once counted as sleeping, look at every queue
            // once more; a job found there means a poster may have judged
            // this worker an awake idle thread and woken nobody.
            fence(Ordering::SeqCst);
            if queues.has_any_jobs() {
                *is_sleeping = false;
                self.counters.fetch_sub(SLEEPING_ONE, Ordering::SeqCst);
                drop(is_sleeping);
                let _ = latch.state.compare_exchange(
                    SLEEPING,
                    UNSET,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                );
                idle.rounds = 0;
                return Round::Searched;
            }
        }
        // One wait, no loop: whatever woke us, the worker loop decides.
        let mut is_sleeping = state.condvar.wait(is_sleeping).unwrap();
        // LITERAL: and down with the flag, under the lock, on waking.
        *is_sleeping = false;
        self.counters.fetch_sub(SLEEPING_ONE, Ordering::SeqCst);
        drop(is_sleeping);
        // Latch SLEEPING -> UNSET; failing means it was set while we slept.
        let _ = latch
            .state
            .compare_exchange(SLEEPING, UNSET, Ordering::SeqCst, Ordering::SeqCst);
        // LITERAL: a woken worker searches its N rounds again.
        idle.rounds = 0;
        Round::Slept
    }
}

impl<const LOCAL_QUEUE: bool, const BLOCKS: bool, const FINAL_LOOK: bool> SleepModel
    for RfcModel<LOCAL_QUEUE, BLOCKS, FINAL_LOOK>
{
    const NAME: &'static str = model_name(LOCAL_QUEUE, BLOCKS, FINAL_LOOK);
    type Idle = RfcIdle;
    type Latch = RfcLatch;

    /// `jec_bits` is ignored: the RFC has no jobs event counter.
    fn new(workers: usize, _jec_bits: Option<u32>) -> Self {
        RfcModel {
            counters: AtomicU64::new(0),
            workers: (0..workers).map(|_| WorkerSleepState::default()).collect(),
        }
    }

    fn new_latch(&self) -> RfcLatch {
        RfcLatch {
            state: AtomicU64::new(UNSET),
        }
    }

    fn probe(&self, latch: &RfcLatch) -> bool {
        latch.state.load(Ordering::SeqCst) == SET
    }

    /// Appendix A's set operation.
    fn set_latch(&self, latch: &RfcLatch, owner: usize) {
        // UNSET, SLEEPY and SET need nothing more; SLEEPING: take the
        // owner's lock (so that it is really waiting) and notify.
        if latch.state.swap(SET, Ordering::SeqCst) == SLEEPING {
            let state = &self.workers[owner];
            let _is_sleeping = state.is_sleeping.lock().unwrap();
            state.condvar.notify_one();
        }
    }

    fn start_looking(&self, worker: usize) -> RfcIdle {
        self.counters.fetch_add(IDLE_ONE, Ordering::SeqCst);
        RfcIdle { worker, rounds: 0 }
    }

    fn work_found(&self, _idle: RfcIdle, _more_work_queued: bool, _queues: &dyn QueueView) {
        self.counters.fetch_sub(IDLE_ONE, Ordering::SeqCst);
    }

    fn no_work_found(&self, idle: &mut RfcIdle, latch: &RfcLatch, queues: &dyn QueueView) -> Round {
        if idle.rounds < SEARCH_ROUNDS {
            idle.rounds += 1;
            thread::yield_now();
            return Round::Searched;
        }
        let round = self.sleep(idle, latch, queues);
        if round == Round::Searched {
            // The latch was set: the harness's next probe ends the search.
            thread::yield_now();
        }
        round
    }

    fn new_injected_jobs(&self, jobs: u32, _queue_was_empty: bool) {
        self.new_jobs(jobs, Pushed::Injected);
    }

    fn new_internal_jobs(&self, _pusher: usize, jobs: u32, queue_was_empty: bool) {
        self.new_jobs(jobs, Pushed::Internal { queue_was_empty });
    }

    fn snapshot(&self) -> Option<SleepSnapshot> {
        let guards: Vec<_> = self
            .workers
            .iter()
            .map(|state| state.is_sleeping.lock().unwrap())
            .collect();
        let word = self.counters.load(Ordering::SeqCst);
        let blocked_threads = guards.iter().filter(|is_sleeping| ***is_sleeping).count();
        drop(guards);
        Some(SleepSnapshot {
            sleeping_threads: sleeping(word),
            inactive_threads: idle(word),
            jobs_event_counter: 0,
            blocked_threads,
            num_threads: self.workers.len(),
            sleeps_abandoned: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(idle: u64, sleeping: u64) -> u64 {
        (idle << IDLE_SHIFT) | sleeping
    }

    const EMPTY: Pushed = Pushed::Internal {
        queue_was_empty: true,
    };
    const NOT_EMPTY: Pushed = Pushed::Internal {
        queue_was_empty: false,
    };

    #[test]
    fn names() {
        assert_eq!(Rfc::NAME, "rfc");
        assert_eq!(RfcLocalQueue::NAME, "rfc-local-queue");
        assert_eq!(RfcBlocks::NAME, "rfc-blocks");
        assert_eq!(RfcFinalLook::NAME, "rfc-final-look");
        assert_eq!(RfcLocalQueueFinalLook::NAME, "rfc-local-queue-final-look");
        assert_eq!(RfcBlocksFinalLook::NAME, "rfc-blocks-final-look");
    }

    /// The case of finding R2: the pusher is busy, the only other worker is
    /// asleep, the pusher's deque was empty. The counters see no awake idle
    /// thread and wake the sleeper; the local-queue rule wakes nobody.
    #[test]
    fn local_queue_skips_the_only_sleeper() {
        let w = word(1, 1);
        assert_eq!(sleepers_to_wake(false, false, 2, w, 1, EMPTY), 1);
        assert_eq!(sleepers_to_wake(true, false, 2, w, 1, EMPTY), 0);
        assert_eq!(sleepers_to_wake(true, false, 2, w, 1, NOT_EMPTY), 1);
        // Injected jobs keep the counter rule.
        assert_eq!(sleepers_to_wake(true, false, 2, w, 1, Pushed::Injected), 1);
    }

    /// The counter rule skips waking while an awake thread is idle, asleep
    /// or not yet (finding R1's decision).
    #[test]
    fn counters_skip_while_someone_is_idle_and_awake() {
        let w = word(1, 0);
        assert_eq!(sleepers_to_wake(false, false, 2, w, 1, Pushed::Injected), 0);
        let w = word(2, 1);
        assert_eq!(sleepers_to_wake(false, false, 2, w, 1, Pushed::Injected), 0);
        assert_eq!(sleepers_to_wake(false, false, 2, w, 2, Pushed::Injected), 1);
    }

    #[test]
    fn blocks_reach_the_next_power_of_two() {
        // The seed's example: 8 workers, 3 asleep, 5 awake: wake 3.
        let w = word(3, 3);
        assert_eq!(sleepers_to_wake(false, true, 8, w, 1, Pushed::Injected), 3);
        // 4 awake of 8 (4 asleep): to 8.
        let w = word(4, 4);
        assert_eq!(sleepers_to_wake(false, true, 8, w, 1, Pushed::Injected), 4);
        // 1 awake of 4: to 2.
        let w = word(3, 3);
        assert_eq!(sleepers_to_wake(false, true, 4, w, 1, Pushed::Injected), 1);
        // 3 awake of 4: to 4.
        let w = word(1, 1);
        assert_eq!(sleepers_to_wake(false, true, 4, w, 1, Pushed::Injected), 1);
        // 2 awake of 4: to 4, both sleepers.
        let w = word(2, 2);
        assert_eq!(sleepers_to_wake(false, true, 4, w, 1, Pushed::Injected), 2);
        // Nobody awake (injected from outside), 4 asleep: to 1.
        let w = word(4, 4);
        assert_eq!(sleepers_to_wake(false, true, 4, w, 1, Pushed::Injected), 1);
        // Capped by the sleepers: 5 awake of 6 wants 3, only 1 sleeps.
        let w = word(1, 1);
        assert_eq!(sleepers_to_wake(false, true, 6, w, 1, Pushed::Injected), 1);
    }
}
