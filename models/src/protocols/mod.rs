//! Executable models of sleep/wake protocols, all behind one trait.
//!
//! Every protocol the project compares (the production protocol, legacy
//! Rayon, Blitz as documented, Mercury, the RFC's alternatives) implements
//! [`SleepModel`]. The pool in [`harness`] drives any model, and each
//! property is written once there as a generic scenario, so every scenario
//! runs on every model under loom and under shuttle. See `INTERFACE.md` in
//! this directory for the contract.

pub mod blitz;
pub mod harness;
pub mod legacy;
pub mod mercury;
pub mod production;
pub mod rfc;

use drowse::sync::atomic::{AtomicUsize, Ordering};
use drowse::SleepSnapshot;

/// What a worker can see of the pool's queues while it decides to sleep.
/// Each call looks at the queues anew.
pub trait QueueView {
    /// True if the injector (jobs from outside the pool) holds a job.
    fn has_injected_jobs(&self) -> bool;
    /// True if any worker's deque holds a job.
    fn has_internal_jobs(&self) -> bool;
    /// True if worker `index`'s deque holds a job.
    fn worker_has_jobs(&self, index: usize) -> bool;
    /// True if any queue holds a job.
    fn has_any_jobs(&self) -> bool {
        self.has_injected_jobs() || self.has_internal_jobs()
    }
}

/// What one call of [`SleepModel::no_work_found`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// The worker did not block (it yielded, got sleepy, or gave up an
    /// attempt to sleep).
    Searched,
    /// The worker blocked and has been woken (by a poster, another worker,
    /// a latch set or termination).
    Slept,
}

/// A sleep/wake protocol, seen from the pool that uses it.
///
/// The harness calls, per worker: [`start_looking`](Self::start_looking)
/// when its own deque runs dry, then for every fruitless search round
/// [`no_work_found`](Self::no_work_found) (which may block), and
/// [`work_found`](Self::work_found) when a round finds a job or the awaited
/// latch is set. Pushers call [`new_injected_jobs`](Self::new_injected_jobs)
/// after pushing into the injector and
/// [`new_internal_jobs`](Self::new_internal_jobs) after a worker pushed onto
/// its own deque. Any thread sets a latch with
/// [`set_latch`](Self::set_latch).
pub trait SleepModel: Send + Sync + Sized + 'static {
    /// Short name used in result lines and tables (`production`, `legacy`,
    /// ...).
    const NAME: &'static str;

    /// One worker's progress towards sleep while it searches.
    type Idle: Send;

    /// A latch one worker waits on (its owner). Any thread may set it.
    type Latch: Send + Sync;

    /// A model of a pool of `workers` workers. `jec_bits` is the width of
    /// the jobs event counter where the model has one (ignored otherwise);
    /// `None` is the model's full width.
    fn new(workers: usize, jec_bits: Option<u32>) -> Self;

    /// A new, unset latch.
    fn new_latch(&self) -> Self::Latch;

    /// True once `latch` has been set.
    fn probe(&self, latch: &Self::Latch) -> bool;

    /// Sets `latch`, owned by worker `owner`, and wakes the owner if the
    /// protocol says so.
    fn set_latch(&self, latch: &Self::Latch, owner: usize);

    /// Worker `worker` ran out of work and starts searching.
    fn start_looking(&self, worker: usize) -> Self::Idle;

    /// The searching worker found a job (or its latch was set); `idle` ends.
    /// `more_work_queued` says whether the queue the job came from still
    /// held work after the take (false when the latch was set); a model may
    /// use it to decide whether to wake helpers. `queues` is the pool's
    /// queues as they are after the take, for a model that looks at them
    /// before its job runs (the production protocol's hand-off).
    fn work_found(&self, idle: Self::Idle, more_work_queued: bool, queues: &dyn QueueView);

    /// One search round of the worker that owns `idle` found nothing.
    /// `latch` is the latch it waits on. May block; returns
    /// [`Round::Slept`] if it did.
    fn no_work_found(
        &self,
        idle: &mut Self::Idle,
        latch: &Self::Latch,
        queues: &dyn QueueView,
    ) -> Round;

    /// `jobs` jobs were pushed into the injector; `queue_was_empty` says
    /// whether it was empty before the push.
    fn new_injected_jobs(&self, jobs: u32, queue_was_empty: bool);

    /// Worker `pusher` pushed `jobs` jobs onto its own deque.
    /// `queue_was_empty` says whether that deque was empty before the push
    /// (the RFC variant judges idleness by exactly this).
    fn new_internal_jobs(&self, pusher: usize, jobs: u32, queue_was_empty: bool);

    /// The configuration this model actually runs a scenario with, for
    /// result lines: a model that fixes a parameter (the JEC width of
    /// `production-jec1`) says so here. The default changes nothing.
    fn effective_config(config: harness::ModelConfig) -> harness::ModelConfig {
        config
    }

    /// A consistent view of the model's counters, for models that have the
    /// production protocol's sleeping / inactive counts (taken so that
    /// [`SleepSnapshot::check`] must pass in a correct protocol). `None`
    /// for models without such counters.
    fn snapshot(&self) -> Option<SleepSnapshot> {
        None
    }

    /// Other invariants of the model's own state, checked while the pool is
    /// at rest (every worker has exited). Returns what is wrong.
    fn check_at_rest(&self) -> Result<(), String> {
        match self.snapshot() {
            Some(snapshot) => snapshot.check_at_rest(),
            None => Ok(()),
        }
    }
}

/// Wake statistics of one run, counted by the harness.
#[derive(Debug, Default)]
pub struct Stats {
    /// Times a worker blocked ([`Round::Slept`] returned).
    pub sleeps: AtomicUsize,
    /// Times a blocked worker was woken (same as `sleeps` once every worker
    /// has exited; counted separately so a run's tables read naturally).
    pub wakeups: AtomicUsize,
    /// Wake-ups after which the worker's next search round found no job and
    /// its latch was not set.
    pub useless_wakeups: AtomicUsize,
    /// Wake-ups after which the worker found the latch it waits on set
    /// (termination, a gate): not caused by posted work.
    pub latch_wakeups: AtomicUsize,
}

/// Plain numbers read from [`Stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatsSnapshot {
    /// See [`Stats::sleeps`].
    pub sleeps: usize,
    /// See [`Stats::wakeups`].
    pub wakeups: usize,
    /// See [`Stats::useless_wakeups`].
    pub useless_wakeups: usize,
    /// See [`Stats::latch_wakeups`].
    pub latch_wakeups: usize,
}

impl Stats {
    /// The current numbers.
    pub fn read(&self) -> StatsSnapshot {
        StatsSnapshot {
            sleeps: self.sleeps.load(Ordering::SeqCst),
            wakeups: self.wakeups.load(Ordering::SeqCst),
            useless_wakeups: self.useless_wakeups.load(Ordering::SeqCst),
            latch_wakeups: self.latch_wakeups.load(Ordering::SeqCst),
        }
    }
}
