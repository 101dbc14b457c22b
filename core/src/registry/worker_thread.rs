//! A worker thread's own state: its deque, its index, its victim picker and
//! its reference to the registry; and how it finds, runs and waits for work.

use super::current::WORKER_THREAD_STATE;
use super::{Registry, ThreadInfo};
use crate::job::{steal_until_settled, JobRef};
use crate::latch::{AsCoreLatch, CoreLatch};
use crate::sleep::{IdleState, SearchBudget};
use crate::sync::deque::{Steal, Worker};
use crate::sync::record::{self, Step};
use crate::sync::{hint, random_seed, Arc, UnsafeCell};
use crate::unwind;
use crate::yielding::Yield;
use std::cell::Cell;
use std::mem::{self, MaybeUninit};

/// A worker thread's own state. A handed-out worker's lives on its stack
/// for its whole life; a `use_current_thread` worker's is owned by
/// `ADOPTED_WORKER`.
pub(crate) struct WorkerThread {
    worker: Worker<JobRef>,
    index: usize,
    rng: XorShift64Star,
    /// The budget of this worker's next search for work; see `SearchBudget`.
    search_budget: Cell<SearchBudget>,
    /// The second halves of the joins on this thread's stack, oldest first,
    /// up to `JOIN_HALVES` deep (deeper ones are published at once): the
    /// first `published` of the `join_depth` are (or were) on the deque, the
    /// rest are private, seen by no other thread (see `push_join_half`).
    join_halves: UnsafeCell<[MaybeUninit<JobRef>; JOIN_HALVES]>,
    join_depth: Cell<usize>,
    /// How many of `join_halves`, from the oldest, were published.
    published: Cell<usize>,
    pub(super) registry: Arc<Registry>,
}

/// How many nested joins a worker can keep track of; a join deeper than
/// that publishes its second half at once, as every join did before join
/// halves were kept private. Recursions of real programs stay far below it
/// (a balanced split of 2^64 items is 64 deep); it costs 16 bytes a slot.
const JOIN_HALVES: usize = 256;

/// Where `push_join_half` put a join's second half: its place among the
/// join halves (`PUBLISHED_AT_ONCE` when there was no room), for
/// `take_private_join_half`.
#[must_use = "give it back to `take_private_join_half`"]
pub(crate) struct JoinSlot(usize);

const PUBLISHED_AT_ONCE: usize = usize::MAX;

/// How many private join halves a worker keeps before its further joins
/// run in line (`join_in_line`). They are the pieces it can hand a worker
/// that asks, besides the job its deque already offers, oldest (largest)
/// first; a join made while it holds fewer records its second half, and
/// so refills them as they are handed out. More pieces in reserve cost a
/// recorded join in more places: of a 1023-node tree's joins (every node
/// joins) a window of 1 records 5%, of 2 17%, of 3 38%, and of fib(18)'s
/// 1%, 4% and 9%. `ci/bench --quick --only 'callgrind_fib*,callgrind_tree*'`
/// read, per join for windows of 1, 2 and 3 (chili 0.2: 47.5 and 53.2),
/// 41.1, 42.2 and 42.6 on fib and 49.2, 57.0 and 69.0 on the tree, and
/// the peer rows (`ci/bench --quick --no-callgrind --only 'peer_*'`) put
/// the tree sums at 1 and 2 threads at 0.44-0.85 of chili's time with 1
/// and at 0.52-1.01 with 3. Whether a window is 0, 1 or more is policy:
/// lemma 11 of docs/proof.md holds for every size.
pub(crate) const JOIN_WINDOW: usize = 1;

impl WorkerThread {
    pub(super) fn new(
        worker: Worker<JobRef>,
        index: usize,
        registry: Arc<Registry>,
    ) -> WorkerThread {
        WorkerThread {
            worker,
            index,
            rng: XorShift64Star::new(index),
            search_budget: Cell::new(registry.sleep.full_search_budget()),
            join_halves: UnsafeCell::new([MaybeUninit::uninit(); JOIN_HALVES]),
            join_depth: Cell::new(0),
            published: Cell::new(0),
            registry,
        }
    }

    /// Calls `func` with the current thread's worker (of any pool), or with
    /// `None` outside every pool. The reference lives only for the call.
    ///
    /// This is the one place that turns `WORKER_THREAD_STATE` into a
    /// reference.
    #[inline]
    pub(crate) fn with_current<R>(func: impl FnOnce(Option<&WorkerThread>) -> R) -> R {
        let current = WORKER_THREAD_STATE.with(Cell::get);
        // SAFETY: `WORKER_THREAD_STATE` is non-null only while it points to a
        // live `WorkerThread` of this thread, one that outlives every call
        // made on this thread while it is set:
        // - `main_loop` points it at the `WorkerThread` on its own frame
        //   through a `CurrentWorker` guard, which borrows that worker and
        //   clears it when dropped (on an unwind too), so before the worker
        //   can go; a non-null value read here was set by a `main_loop` that
        //   is below us on this thread's stack;
        // - `AdoptedWorker::adopt` points it at a boxed worker that only the
        //   thread-local destructor of `ADOPTED_WORKER` frees, after clearing
        //   it, at thread exit, inside no call into Drowse (see
        //   `AdoptedWorker`).
        // Only shared references to a `WorkerThread` are ever made after it
        // is built (its mutable parts are `Cell`s and its queues), and the
        // reference given to `func` cannot outlive this call (`func` must
        // accept any lifetime).
        func(unsafe { current.as_ref() })
    }

    /// Whether the current thread is a worker of some pool.
    #[inline]
    pub(crate) fn is_current_thread_a_worker() -> bool {
        !WORKER_THREAD_STATE.with(Cell::get).is_null()
    }

    /// Makes `worker_thread` the current thread's worker; the thread must
    /// have none.
    pub(super) fn set_current(worker_thread: *const WorkerThread) {
        WORKER_THREAD_STATE.with(|current| {
            debug_assert!(current.get().is_null());
            current.set(worker_thread);
        });
    }

    pub(crate) fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// Pushes a job onto this worker's deque and tells the sleep module.
    #[inline]
    pub(crate) fn push(&self, job: JobRef) {
        let queue_was_empty = self.worker.is_empty();
        self.worker.push(job);
        record::step(
            Step::Push {
                was_empty: queue_was_empty,
            },
            Some(self.index),
        );
        self.registry.sleep.new_internal_jobs(1, queue_was_empty);
    }

    /// Keeps `join`'s second half where only this thread sees it, unless
    /// this worker's deque is empty or some worker may be looking for work:
    /// then this worker publishes its oldest private join half (this one if
    /// it has no other), the largest piece of work it holds, as a stealable
    /// job. A private half costs no atomic operation and no fence to take
    /// back; a published one costs what any job on the deque costs.
    ///
    /// So a worker with join halves pending always offers one: its deque
    /// holds a job until a thief takes it or it takes it back, and its next
    /// join publishes another. That one is the oldest, which in a
    /// divide-and-conquer recursion is the largest piece, and which a worker
    /// deep in a long sequential leaf (a fold with no join, waiting to be
    /// told that a piece to its right found something) never gets back to
    /// otherwise. Beyond that one, while every worker is busy nobody would
    /// take a published job; a worker that runs out of work is counted
    /// inactive, and this worker's next join publishes for it, as does any
    /// wait of this worker (`wait_until`) and its `yield_now` and
    /// `yield_local`, which publish every private half. A private half is
    /// always run by its owner: `take_private_join_half` hands it back.
    #[inline]
    pub(crate) fn push_join_half(&self, job: JobRef) -> JoinSlot {
        let index = self.join_depth.get();
        if index == JOIN_HALVES {
            return self.publish_join_half_at_once(job);
        }
        // SAFETY: only this worker's thread touches `join_halves`, and no
        // reference into it outlives this call.
        self.join_halves
            .with_mut(|halves| unsafe { (*halves)[index] = MaybeUninit::new(job) });
        self.join_depth.set(index + 1);
        if self.publication_wanted() {
            self.publish_oldest_join_half();
        }
        JoinSlot(index)
    }

    /// Whether a join starting now runs both halves in line, on this thread
    /// and recording nothing, as sequential code would: when this worker
    /// already holds `JOIN_WINDOW` private join halves and nothing calls for
    /// a publication (its deque holds a job and no worker is counted
    /// inactive; see `push_join_half`). Otherwise the join records its
    /// second half with `push_join_half`.
    ///
    /// Nobody would take the half now: every worker is busy, and this one
    /// already offers a job and holds older, larger halves to offer next.
    /// What an in-line join gives up is a later offer of its second half:
    /// it is never a job, so no wait of this worker publishes it (the
    /// caveat of lemma 11 in docs/proof.md). It reads what `push_join_half`
    /// reads, and writes nothing.
    #[inline]
    pub(crate) fn join_in_line(&self) -> bool {
        self.private_join_halves() >= JOIN_WINDOW && !self.publication_wanted()
    }

    /// How many of this worker's join halves are private: pushed by
    /// `push_join_half` and neither published nor taken back.
    #[inline]
    fn private_join_halves(&self) -> usize {
        self.join_depth.get() - self.published.get()
    }

    /// Whether this worker's next join should publish a join half: its
    /// deque is empty (so it offers nothing), or some worker may be looking
    /// for work (`Sleep::may_have_takers`). See `push_join_half`.
    #[inline]
    fn publication_wanted(&self) -> bool {
        self.worker.is_empty() || self.registry.sleep.may_have_takers()
    }

    #[cold]
    fn publish_join_half_at_once(&self, job: JobRef) -> JoinSlot {
        self.push(job);
        JoinSlot(PUBLISHED_AT_ONCE)
    }

    /// Publishes the oldest private join half; there must be one.
    #[inline(never)]
    fn publish_oldest_join_half(&self) {
        let oldest = self.published.get();
        debug_assert!(oldest < self.join_depth.get());
        // SAFETY: as in `push_join_half`; the halves below `join_depth` were
        // written by `push_join_half`.
        let job = self
            .join_halves
            .with(|halves| unsafe { (*halves)[oldest].assume_init() });
        self.published.set(oldest + 1);
        self.push(job);
    }

    /// Publishes every private join half, oldest first, before this worker
    /// waits or yields: so that other workers can take them meanwhile, and
    /// so that this worker, taking its own newest job first, runs them in the
    /// order it would have if they had been on its deque all along.
    #[inline]
    fn publish_join_halves(&self) {
        if self.private_join_halves() > 0 {
            self.publish_join_halves_cold();
        }
    }

    #[cold]
    fn publish_join_halves_cold(&self) {
        while self.private_join_halves() > 0 {
            self.publish_oldest_join_half();
        }
    }

    /// Ends the join whose second half `push_join_half` placed at `slot`:
    /// true if that half is still private, and is now the caller's to run;
    /// false if it was published (it is then on the deque, taken by the
    /// caller's own loop, or stolen).
    #[inline]
    pub(crate) fn take_private_join_half(&self, slot: JoinSlot) -> bool {
        let JoinSlot(index) = slot;
        if index == PUBLISHED_AT_ONCE {
            return false;
        }
        // Joins nest: every join started after this one has ended.
        debug_assert_eq!(self.join_depth.get(), index + 1);
        self.join_depth.set(index);
        if index >= self.published.get() {
            true
        } else {
            // Published halves are the oldest ones; this was the newest.
            debug_assert_eq!(self.published.get(), index + 1);
            self.published.set(index);
            false
        }
    }

    /// Pushes a FIFO job: into this worker's FIFO queue, with a `JobRef` to
    /// that queue on the deque (see `JobFifo`).
    #[inline]
    pub(crate) fn push_fifo(&self, job: JobRef) {
        let fifo = &self.thread_info().fifo;
        // SAFETY: the queue lives in the registry, which every worker keeps
        // alive until it exits, and workers exit only once every job is done;
        // the returned `JobRef` is pushed once and so runs once.
        self.push(unsafe { fifo.push(job) });
    }

    /// Whether this worker holds jobs of its own not yet taken: on its deque,
    /// or join halves kept private (which rayon-core would have put on the
    /// deque, and which `yield_local` publishes and runs). Its broadcast
    /// queue is not looked at; the second halves of in-line joins are not
    /// jobs.
    #[inline]
    pub(crate) fn has_pending_tasks(&self) -> bool {
        !self.worker.is_empty() || self.private_join_halves() > 0
    }

    /// The newest job on this worker's own deque, or else the oldest job
    /// broadcast to it.
    #[inline]
    pub(crate) fn take_local_job(&self) -> Option<JobRef> {
        if let Some(job) = self.worker.pop() {
            record::step(Step::TakeOwn, Some(self.index));
            return Some(job);
        }
        self.take_broadcast_job()
    }

    fn take_broadcast_job(&self) -> Option<JobRef> {
        let broadcast_stealer = &self.thread_info().broadcast_stealer;
        steal_until_settled(|| broadcast_stealer.steal())
    }

    /// The sleeper's final look, made holding its sleep lock after it joined
    /// the sleeping count, at the queues whose pushers do not rely on the
    /// jobs event counter alone: its own broadcast queue (a broadcaster wakes
    /// it through this same lock) and the injector (ordered by the two `SeqCst`
    /// fences).
    fn has_broadcast_or_injected_job(&self) -> bool {
        !self.thread_info().broadcast_stealer.is_empty() || self.registry.has_injected_job()
    }

    fn thread_info(&self) -> &ThreadInfo {
        &self.registry.thread_infos[self.index]
    }

    /// Runs one job from anywhere (`yield_now`).
    pub(crate) fn yield_now(&self) -> Yield {
        self.publish_join_halves();
        match self.find_work() {
            Some((job, _)) => {
                // SAFETY: taken from a queue, so not run before.
                unsafe { self.execute(job) };
                Yield::Executed
            }
            None => Yield::Idle,
        }
    }

    /// Runs one job of this worker's own (`yield_local`).
    pub(crate) fn yield_local(&self) -> Yield {
        self.publish_join_halves();
        match self.take_local_job() {
            Some(job) => {
                // SAFETY: taken from a queue, so not run before.
                unsafe { self.execute(job) };
                Yield::Executed
            }
            None => Yield::Idle,
        }
    }

    /// Runs jobs (its own, stolen, injected) until `latch` is set, sleeping
    /// when there are none.
    ///
    /// # Safety
    /// `self` must be the current thread's worker.
    #[inline]
    pub(crate) unsafe fn wait_until<L: AsCoreLatch + ?Sized>(&self, latch: &L) {
        let latch = latch.as_core_latch();
        if !latch.probe() {
            // SAFETY: forwarded.
            unsafe { self.wait_until_cold(latch) };
        }
    }

    #[cold]
    unsafe fn wait_until_cold(&self, latch: &CoreLatch) {
        self.publish_join_halves();
        // Jobs on this stack may be referenced from other threads' queues;
        // unwinding out of here would free them under those threads' feet.
        let abort = unwind::AbortIfPanic;
        'work: while !latch.probe() {
            if let Some(job) = self.take_local_job() {
                // SAFETY: popped from a queue, so not run before.
                unsafe { self.execute(job) };
                continue;
            }
            let mut idle_state: IdleState = self
                .registry
                .sleep
                .start_looking(self.index, self.search_budget.get());
            while !latch.probe() {
                if let Some((job, source)) = self.find_work() {
                    let (budget, successor) = self.registry.sleep.work_found(
                        idle_state,
                        || self.has_more_work(source),
                        || self.registry.has_stealable_job(),
                    );
                    self.search_budget.set(budget);
                    // SAFETY: taken from a queue, so not run before.
                    unsafe { self.execute(job) };
                    self.registry.sleep.job_done(successor);
                    // The job may have pushed local work.
                    continue 'work;
                }
                self.registry
                    .sleep
                    .no_work_found(&mut idle_state, latch, || {
                        self.has_broadcast_or_injected_job()
                    });
            }
            // The latch is set: whatever we were waiting for is done. No job
            // was taken, so nobody is woken to help; but our caller may now
            // block (we may be inside a job), so work we leave queued is
            // handed off (`Sleep::stop_looking`).
            self.search_budget.set(
                self.registry
                    .sleep
                    .stop_looking(idle_state, || self.registry.has_stealable_job()),
            );
            break;
        }
        mem::forget(abort);
    }

    /// # Safety
    /// The job must not have run before.
    #[inline]
    pub(crate) unsafe fn execute(&self, job: JobRef) {
        // SAFETY: forwarded.
        unsafe { job.execute() }
    }

    /// A job from anywhere (our deque or broadcast queue, a random victim's
    /// deque, the injector), and which queue it came from.
    fn find_work(&self) -> Option<(JobRef, JobSource)> {
        if let Some(job) = self.take_local_job() {
            return Some((job, JobSource::Own));
        }
        if let Some((job, victim)) = self.steal() {
            return Some((job, JobSource::Victim(victim)));
        }
        let job = self.registry.pop_injected_job()?;
        Some((job, JobSource::Injector))
    }

    /// Whether `source` still holds work that other workers could take (a
    /// broadcast queue's jobs are this worker's alone, so they never count).
    /// Asked only when there are sleepers to wake: reading another queue's
    /// ends costs a cache miss on a line its owner or pusher is writing, which
    /// a flood of jobs would pay on every take.
    fn has_more_work(&self, source: JobSource) -> bool {
        match source {
            JobSource::Own => !self.worker.is_empty(),
            JobSource::Victim(victim) => !self.registry.thread_infos[victim].stealer.is_empty(),
            JobSource::Injector => self.registry.has_injected_job(),
        }
    }

    /// Steals the oldest job of some other worker, starting at a random one,
    /// and says whose it was.
    fn steal(&self) -> Option<(JobRef, usize)> {
        let thread_infos = &self.registry.thread_infos;
        let num_threads = thread_infos.len();
        if num_threads <= 1 {
            return None;
        }
        loop {
            let mut retry = false;
            let start = self.rng.next_below(num_threads);
            let job = (start..num_threads)
                .chain(0..start)
                .filter(|&victim| victim != self.index)
                .find_map(|victim| match thread_infos[victim].stealer.steal() {
                    Steal::Success(job) => {
                        record::step(Step::Steal, Some(victim));
                        Some((job, victim))
                    }
                    Steal::Empty => None,
                    Steal::Retry => {
                        retry = true;
                        None
                    }
                });
            if job.is_some() || !retry {
                return job;
            }
            // A retry means another thread's take won the race for the same
            // slot: work is moving, so try again at once. A yield here costs
            // a system call per lost race, which floods of small jobs (many
            // races) pay in throughput.
            hint::spin_loop();
        }
    }
}

/// The queue a job was found in.
#[derive(Clone, Copy)]
enum JobSource {
    /// This worker's own deque or broadcast queue.
    Own,
    /// Another worker's deque.
    Victim(usize),
    /// The pool's injector.
    Injector,
}

/// A small random number generator for picking victims. In the std world
/// each worker of each pool gets a random seed; under the checkers
/// (`sync::random_seed` is constant there) the seed depends on the worker
/// index alone, so that a schedule replays the same choices.
struct XorShift64Star {
    state: Cell<u64>,
}

impl XorShift64Star {
    fn new(index: usize) -> Self {
        // Any non-zero seed works; spread the indices apart.
        let seed = (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ random_seed();
        XorShift64Star {
            state: Cell::new(seed | 1),
        }
    }

    fn next(&self) -> u64 {
        let mut x = self.state.get();
        debug_assert_ne!(x, 0, "xorshift stays at zero forever");
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state.set(x);
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..bound`.
    fn next_below(&self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

#[cfg(test)]
mod test;
