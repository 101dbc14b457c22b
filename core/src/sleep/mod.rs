//! When workers sleep and who wakes them.
//!
//! The protocol (thread states, the packed counters and the jobs event
//! counter, posting work, getting sleepy, falling asleep, waking, the
//! latches and the two fences) is described in `README.md` beside this file;
//! `docs/proof.md` argues that it is correct and names the tests that check
//! each step.

mod counters;
mod policy;
#[cfg(feature = "diagnostics")]
mod snapshot;

pub use self::counters::JecWidth;
pub(crate) use self::counters::THREADS_MAX;
use self::counters::{AtomicCounters, JobsEventCounter};
pub(crate) use self::policy::SearchBudget;
use self::policy::{finder_wakes, successor_still_needed, FinderWakes, Search};
#[cfg(feature = "diagnostics")]
pub use self::snapshot::SleepSnapshot;
use crate::latch::CoreLatch;
use crate::sync::atomic::{fence, AtomicUsize, Ordering};
use crate::sync::record::{self, Step};
use crate::sync::time::Instant;
use crate::sync::{thread, Condvar, Mutex};
use crossbeam_utils::CachePadded;

/// The sleep state of one pool.
pub(crate) struct Sleep {
    worker_sleep_states: Vec<CachePadded<WorkerSleepState>>,
    /// The sleep counters and the pool's terminate count, on a cache line
    /// of their own (see `HotWords`).
    hot: CachePadded<HotWords>,
    /// The most fruitless rounds a worker searches before it gets sleepy: the
    /// search policy's setting (`policy.rs`). At least 1. The proof does not
    /// depend on it (`docs/proof.md`, lemma 0), which is why the checkers may
    /// run with 1.
    search_rounds_before_sleep: u32,
    /// Sleep attempts given up because the JEC had moved (`diagnostics`
    /// only). Checks use it to show that a worker never mistakes its own
    /// announcement for new work.
    #[cfg(feature = "diagnostics")]
    sleeps_abandoned: AtomicUsize,
}

/// The two words that every job writes from more than one thread, kept
/// together on one cache line and apart from everything else.
///
/// The sleep counters are written by every search's start and end and read
/// or written by every post; the terminate count (the registry's: see
/// `Registry::terminate`) is written by every spawn and every spawned job's
/// end. The same threads write both at the same moments: a spawn bumps the
/// terminate count and then posts, and a worker ends its search, runs the
/// job and drops the count. On one line, a job moves one line from the
/// thread that posts it to the thread that runs it; on two, it moves two,
/// each a cache miss (docs/performance.md, "What the hot paths rely on").
/// A read-mostly field on their line would miss on each of those writes,
/// hence the padding around them.
struct HotWords {
    counters: AtomicCounters,
    terminate_count: AtomicUsize,
}

/// Where one worker blocks.
#[derive(Default)]
struct WorkerSleepState {
    /// True while the worker is blocked (or about to block) and nobody has
    /// woken it. The worker holds this mutex from just before it commits to
    /// sleeping until it blocks, and any thread that wakes it takes it.
    is_blocked: Mutex<bool>,
    wake_up: Condvar,
}

/// A worker's progress towards sleep while it searches for work. A search
/// starts with `Sleep::start_looking` and ends with `Sleep::work_found`,
/// which hands back the worker's budget for its next search.
pub(crate) struct IdleState {
    worker_index: usize,
    /// Fruitless rounds since the worker started looking (or was woken).
    rounds: u32,
    /// The search policy's part: how many rounds this search has.
    search: Search,
    /// The JEC this worker saw when it got sleepy, or `NONE` while it is not
    /// sleepy.
    jobs_counter: JobsEventCounter,
}

impl IdleState {
    fn is_sleepy(&self) -> bool {
        self.jobs_counter != JobsEventCounter::NONE
    }

    /// Back to an active searcher: the full number of rounds again.
    fn wake_fully(&mut self) {
        self.rounds = 0;
        self.jobs_counter = JobsEventCounter::NONE;
    }

    /// New work may have been posted while we were sleepy: get sleepy again
    /// after the next fruitless round, instead of starting over.
    fn wake_partly(&mut self) {
        self.rounds = self.search.rounds();
        self.jobs_counter = JobsEventCounter::NONE;
    }
}

/// Whether a worker that found a job owes a successor's wake-up once the
/// job has run (`Sleep::work_found`, then `Sleep::job_done`): the finder's
/// index if it does.
#[must_use = "hand it to `Sleep::job_done` after the job"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SuccessorOwed(Option<usize>);

impl Sleep {
    pub(crate) fn new(
        num_threads: usize,
        jec_width: JecWidth,
        search_rounds_before_sleep: u32,
    ) -> Sleep {
        assert!(num_threads <= THREADS_MAX, "checked by the builder");
        assert!(search_rounds_before_sleep > 0, "checked by the builder");
        Sleep {
            worker_sleep_states: (0..num_threads).map(|_| Default::default()).collect(),
            hot: CachePadded::new(HotWords {
                counters: AtomicCounters::new(jec_width),
                terminate_count: AtomicUsize::new(1),
            }),
            search_rounds_before_sleep,
            #[cfg(feature = "diagnostics")]
            sleeps_abandoned: AtomicUsize::new(0),
        }
    }

    /// The pool's terminate count, kept here for its cache line (see
    /// `HotWords`); only the registry uses it. It starts at 1.
    pub(crate) fn terminate_count(&self) -> &AtomicUsize {
        &self.hot.terminate_count
    }

    /// The budget a worker starts with.
    pub(crate) fn full_search_budget(&self) -> SearchBudget {
        SearchBudget::full(self.search_rounds_before_sleep)
    }

    /// Whether some worker is searching for work or asleep: one that would
    /// take a job published now. `join` asks before it publishes a private
    /// half beyond the one its deque offers (`WorkerThread::push_join_half`).
    /// No safety property rests on the answer: a job that is not published
    /// is not queued, and its owner runs it; a stale "no" only delays the
    /// publication to the asking worker's next join or wait (docs/proof.md,
    /// lemma 11). The load is the protocol's `SeqCst` one.
    #[inline]
    pub(crate) fn may_have_takers(&self) -> bool {
        self.hot.counters.load().inactive_threads() != 0
    }

    /// Worker `worker_index` ran out of work and starts searching, with the
    /// budget its last search handed back.
    #[inline]
    pub(crate) fn start_looking(&self, worker_index: usize, budget: SearchBudget) -> IdleState {
        debug_assert!(budget.is_within_bounds(self.search_rounds_before_sleep));
        self.hot.counters.add_inactive_thread();
        record::step(Step::StartLooking, Some(worker_index));
        IdleState {
            worker_index,
            rounds: 0,
            search: budget.start(),
            jobs_counter: JobsEventCounter::NONE,
        }
    }

    /// The searching worker took a job. `more_work_queued` says whether the
    /// queue it took the job from still holds work, and `work_left_behind`
    /// whether any queue that another worker could take a job from does
    /// (both asked after the take, and only when someone sleeps). Whom it
    /// wakes: helpers at once or a successor after the job (the
    /// `SuccessorOwed` returned, for `Sleep::job_done`), as the policy's
    /// `finder_wakes` says; and in any case, when it was the last searcher
    /// and leaves work behind, one sleeper at once (`Sleep::hand_off`,
    /// lemma 10 of docs/proof.md: its job may block). Ends the search, and
    /// returns the budget for the worker's next one.
    #[inline]
    pub(crate) fn work_found(
        &self,
        idle_state: IdleState,
        more_work_queued: impl FnOnce() -> bool,
        work_left_behind: impl FnOnce() -> bool,
    ) -> (SearchBudget, SuccessorOwed) {
        let before = self.leave_inactive(&idle_state);
        let mut successor = None;
        if before.sleeping_threads() > 0 {
            successor =
                self.wake_for_work_left(&idle_state, before, more_work_queued, work_left_behind);
        }
        record::step(Step::FinderDone, Some(idle_state.worker_index));
        (idle_state.search.found_work(), SuccessorOwed(successor))
    }

    /// `work_found` when someone sleeps: the policy's wake-ups
    /// (`finder_wakes`), decided from `before` (the counters its decrement
    /// returned), and the hand-off. Returns the finder's index if it owes a
    /// successor after its job.
    #[cold]
    fn wake_for_work_left(
        &self,
        idle_state: &IdleState,
        before: counters::Counters,
        more_work_queued: impl FnOnce() -> bool,
        work_left_behind: impl FnOnce() -> bool,
    ) -> Option<usize> {
        let other_searchers = before.awake_but_idle_threads() - 1;
        let wakes = finder_wakes(
            before.sleeping_threads(),
            other_searchers,
            idle_state.search.successor_would_help(),
            more_work_queued,
        );
        if let FinderWakes::Helpers(helpers) = wakes {
            // At least one: whatever the hand-off would wake, these do.
            self.wake_any_threads(helpers);
            return None;
        }
        if other_searchers == 0 && self.hand_off(idle_state.worker_index, work_left_behind) {
            // Woken now, before the job: no successor is owed after it.
            return None;
        }
        (wakes == FinderWakes::SuccessorAfterJob).then_some(idle_state.worker_index)
    }

    /// The hand-off (lemma 10 of docs/proof.md), made by the last searcher
    /// to leave its search while someone sleeps (its decrement of the
    /// inactive count read one awake inactive worker, itself, and a
    /// sleeper): after the hand-off fence, if some queue still holds a job
    /// that another worker could take (`work_left_behind`), it wakes one
    /// sleeper. It leaves to run a job or to return to its caller, and
    /// either may block for good (a job is user code), so the work it
    /// leaves behind must not depend on it. True if it woke someone.
    ///
    /// When others still searched at its decrement, the last of them to
    /// leave makes this check later, or goes to sleep through the JEC check
    /// and the final look; when nobody slept, a later post wakes for
    /// itself (lemma 10 says why each covers the work left here).
    #[cold]
    fn hand_off(&self, worker_index: usize, work_left_behind: impl FnOnce() -> bool) -> bool {
        // HandOffFence: orders our decrement of the inactive count before
        // our reads of the queues, against the fence a poster of injected
        // work runs between its push and its read of the counters.
        fence(Ordering::SeqCst);
        if !work_left_behind() {
            return false;
        }
        record::step(Step::HandOff, Some(worker_index));
        self.wake_any_threads(1);
        true
    }

    /// A worker has run the job it found; `owed` is what its `work_found`
    /// returned.
    #[inline]
    pub(crate) fn job_done(&self, owed: SuccessorOwed) {
        if let Some(finder) = owed.0 {
            self.wake_successor(finder);
        }
    }

    /// Wakes one sleeper if the policy still wants a successor
    /// (`successor_still_needed`) by the counters now. The read orders
    /// nothing: a wake-up goes through `wake_any_threads`, which needs no
    /// particular count to be right (no step of docs/proof.md uses a
    /// finder's wake-ups).
    #[cold]
    fn wake_successor(&self, finder: usize) {
        let counters = self.hot.counters.load();
        if successor_still_needed(
            counters.sleeping_threads(),
            counters.awake_but_idle_threads(),
        ) {
            record::step(Step::Successor, Some(finder));
            self.wake_any_threads(1);
        }
    }

    /// The latch the searching worker waited for was set: it stops searching
    /// with no job taken. It returns to its caller, which may block (in a
    /// job, waiting for work queued here), so when it was the last searcher
    /// and someone sleeps it hands off as a finder does (`Sleep::hand_off`;
    /// `work_left_behind` as for `work_found`). Ends the search, and
    /// returns the budget for the worker's next one.
    #[inline]
    pub(crate) fn stop_looking(
        &self,
        idle_state: IdleState,
        work_left_behind: impl FnOnce() -> bool,
    ) -> SearchBudget {
        let before = self.leave_inactive(&idle_state);
        if before.sleeping_threads() > 0 && before.awake_but_idle_threads() == 1 {
            self.hand_off(idle_state.worker_index, work_left_behind);
        }
        idle_state.search.end()
    }

    /// The end of a search on the counters: one fewer inactive worker.
    /// Returns the counters as they were just before.
    #[inline]
    fn leave_inactive(&self, idle_state: &IdleState) -> counters::Counters {
        let before = self.hot.counters.sub_inactive_thread();
        record::step(Step::WorkFound, Some(idle_state.worker_index));
        before
    }

    /// The searching worker found nothing in one round. `has_injected_jobs`
    /// is its last look at every queue fed from outside the pool, made after
    /// it has joined the sleeping count.
    #[inline]
    pub(crate) fn no_work_found(
        &self,
        idle_state: &mut IdleState,
        latch: &CoreLatch,
        has_injected_jobs: impl FnOnce() -> bool,
    ) {
        if idle_state.rounds < idle_state.search.rounds() {
            thread::yield_now();
            idle_state.rounds += 1;
        } else if !idle_state.is_sleepy() {
            idle_state.jobs_counter = self.announce_sleepy();
            record::step(Step::Announce, Some(idle_state.worker_index));
            idle_state.search.got_sleepy(Instant::now());
            // Only an even JEC can stand for "nothing posted since I got
            // sleepy"; a poster makes it odd.
            debug_assert!(idle_state.jobs_counter.is_sleepy());
            // One more round after getting sleepy, then try to sleep.
            thread::yield_now();
        } else {
            self.sleep(idle_state, latch, has_injected_jobs);
        }
    }

    /// Makes the JEC even (unless it already is) and returns the value to
    /// compare against before sleeping: the value after our own bump, or we
    /// would mistake our own bump for new work.
    #[cold]
    fn announce_sleepy(&self) -> JobsEventCounter {
        let (_, after) = self
            .hot
            .counters
            .bump_jobs_counter_if(JobsEventCounter::is_active);
        after.jobs_counter()
    }

    #[cold]
    fn sleep(
        &self,
        idle_state: &mut IdleState,
        latch: &CoreLatch,
        has_injected_jobs: impl FnOnce() -> bool,
    ) {
        let worker_index = idle_state.worker_index;
        // The steps are those of "Falling asleep" in docs/proof.md. 1: the
        // latch goes from UNSET to SLEEPY.
        if !latch.get_sleepy() {
            // The latch we wait for was set: no reason to sleep.
            return;
        }
        record::step(Step::GetSleepy, Some(worker_index));
        // 2: take our sleep lock; 3: the latch goes from SLEEPY to SLEEPING.
        let sleep_state = &self.worker_sleep_states[worker_index];
        let mut is_blocked = sleep_state.is_blocked.lock().unwrap();
        debug_assert!(!*is_blocked);
        if !latch.fall_asleep() {
            idle_state.wake_fully();
            return;
        }

        // 4, IncSleepers: join the sleeping count only if nothing was posted
        // since we got sleepy: the JEC check and the increment are one
        // compare-and-swap.
        loop {
            let counters = self.hot.counters.load();
            if counters.jobs_counter() != idle_state.jobs_counter {
                record::step(Step::Abandon, Some(worker_index));
                #[cfg(feature = "diagnostics")]
                self.sleeps_abandoned.fetch_add(1, Ordering::Relaxed);
                idle_state.search.met_work_awake();
                idle_state.wake_partly();
                latch.wake_up();
                return;
            }
            if self.hot.counters.try_add_sleeping_thread(counters) {
                record::step(Step::JoinSleeping, Some(worker_index));
                break;
            }
        }

        // 5, SleepFence: orders our increment before the final look at the
        // injector, against the fence a poster runs between its push and its
        // read of the counters. See the module documentation.
        fence(Ordering::SeqCst);

        // 6, FinalCheck.
        if has_injected_jobs() {
            // Nobody can have woken us: a waker needs our lock. Undo our own
            // increment.
            self.hot.counters.sub_sleeping_thread();
            record::step(Step::FinalLookFound, Some(worker_index));
            idle_state.search.met_work_awake();
        } else {
            // 7: block until a waker clears `is_blocked`.
            idle_state.search.blocking(Instant::now());
            *is_blocked = true;
            record::step(Step::Block, Some(worker_index));
            while *is_blocked {
                is_blocked = sleep_state.wake_up.wait(is_blocked).unwrap();
            }
            drop(is_blocked);
            idle_state.search.woke(Instant::now());
        }

        idle_state.wake_fully();
        latch.wake_up();
    }

    /// The latch that worker `target_worker_index` waits on was set while it
    /// was SLEEPING: wake it.
    pub(crate) fn notify_worker_latch_is_set(&self, target_worker_index: usize) {
        record::step(Step::LatchWake, Some(target_worker_index));
        self.wake_specific_thread(target_worker_index);
    }

    /// `num_jobs` jobs were pushed into the injector; `queue_was_empty` says
    /// whether it held nothing before.
    #[inline]
    pub(crate) fn new_injected_jobs(&self, num_jobs: u32, queue_was_empty: bool) {
        // Orders the push before our read of the counters, against the fence
        // a sleeper runs between joining the sleeping count and its final
        // look at the injector.
        fence(Ordering::SeqCst);
        self.new_jobs(num_jobs, queue_was_empty)
    }

    /// `num_jobs` jobs were pushed onto a worker's own deque. No fence: the
    /// design accepts that a sleepy thread may overlook such a job (on a JEC
    /// rollover, or under C11 when the post writes nothing): its pusher is awake.
    #[inline]
    pub(crate) fn new_internal_jobs(&self, num_jobs: u32, queue_was_empty: bool) {
        self.new_jobs(num_jobs, queue_was_empty)
    }

    #[inline]
    fn new_jobs(&self, num_jobs: u32, queue_was_empty: bool) {
        // Make the JEC odd so that sleepy threads notice, and decide from that
        // same read how many sleepers to wake.
        let (_, counters) = self
            .hot
            .counters
            .bump_jobs_counter_if(JobsEventCounter::is_sleepy);
        record::step(Step::Post, None);
        let sleepers = to_u32(counters.sleeping_threads());
        if sleepers == 0 {
            return;
        }
        let awake_but_idle = to_u32(counters.awake_but_idle_threads());
        let threads_to_wake = if !queue_was_empty {
            // Work is piling up: wake one thread per job.
            num_jobs.min(sleepers)
        } else if awake_but_idle < num_jobs {
            // Idle threads will pick up what they can; wake the rest.
            (num_jobs - awake_but_idle).min(sleepers)
        } else {
            0
        };
        self.wake_any_threads(threads_to_wake as usize);
    }

    #[cold]
    fn wake_any_threads(&self, mut threads_to_wake: usize) {
        record::step(
            Step::WakeLoop {
                owed: threads_to_wake,
            },
            None,
        );
        if threads_to_wake == 0 {
            return;
        }
        for index in 0..self.worker_sleep_states.len() {
            if self.wake_specific_thread(index) {
                threads_to_wake -= 1;
                if threads_to_wake == 0 {
                    return;
                }
            }
        }
    }

    /// Wakes worker `index` if it is blocked. True if this call woke it.
    fn wake_specific_thread(&self, index: usize) -> bool {
        let sleep_state = &self.worker_sleep_states[index];
        let mut is_blocked = sleep_state.is_blocked.lock().unwrap();
        if !*is_blocked {
            record::step(Step::NotBlocked, Some(index));
            return false;
        }
        *is_blocked = false;
        // The waker, not the sleeper, takes the sleeper off the count:
        // posters then see it as awake at once, and since we hold its lock
        // and have cleared `is_blocked`, no other waker can count it off
        // again.
        self.hot.counters.sub_sleeping_thread();
        record::step(Step::Woken, Some(index));
        drop(is_blocked);
        // Notified after the unlock, so that the sleeper finds the lock
        // free when it runs: notified under it, a sleeper that runs at once
        // (on another CPU, or preempting us) blocks again on our lock and
        // waits for our unlock to wake it a second time. Why no
        // notification is lost: the sleep README, "The notification comes
        // after the unlock", and lemma 2 of docs/proof.md. `self` outlives
        // the call as it outlived the unlock: every waker holds the registry.
        sleep_state.wake_up.notify_one();
        true
    }
}

// The packed counters need a `usize` of at least 32 bits: on a 16-bit
// target the two thread counts would take every bit and leave the JEC none,
// and `to_u32` relies on `usize` being at least as wide as the counts.
#[cfg(target_pointer_width = "16")]
compile_error!("Drowse needs a target whose usize has at least 32 bits (the sleep counters and their jobs event counter share one usize)");

/// A thread count as a `u32`: it fits in `THREADS_BITS` bits (at most 16),
/// so the conversion loses nothing.
fn to_u32(count: usize) -> u32 {
    debug_assert!(count <= THREADS_MAX);
    count as u32
}

#[cfg(test)]
mod test;
