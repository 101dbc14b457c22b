//! A consistent reading of a pool's sleep state (the `diagnostics`
//! feature), for the checks of the tests and models; no part of the
//! protocol.

use super::counters::Counters;
use super::Sleep;
use crate::sync::atomic::Ordering;

/// The counts of a pool's sleep state, read consistently (the
/// `diagnostics` feature): what [`crate::ThreadPool::sleep_snapshot`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SleepSnapshot {
    /// Workers counted as asleep.
    pub sleeping_threads: usize,
    /// Workers counted as looking for work or asleep.
    pub inactive_threads: usize,
    /// The jobs event counter's value.
    pub jobs_event_counter: usize,
    /// Workers whose `is_blocked` flag is set.
    pub blocked_threads: usize,
    /// Workers in the pool.
    pub num_threads: usize,
    /// Sleep attempts abandoned so far because the jobs event counter had
    /// changed since the worker got sleepy. Each needs a job posted after
    /// that worker's announcement, so this never exceeds the number of
    /// posts, times the number of workers (one post can end every sleepy
    /// worker's attempt once).
    pub sleeps_abandoned: usize,
}

impl SleepSnapshot {
    /// Checks the invariants that hold whenever every sleep lock is held:
    /// `blocked == sleeping <= inactive <= threads`. Returns what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if self.sleeping_threads != self.blocked_threads {
            return Err(format!(
                "sleeping count is {} but {} workers are blocked: {self:?}",
                self.sleeping_threads, self.blocked_threads
            ));
        }
        if self.sleeping_threads > self.inactive_threads {
            return Err(format!("more sleeping than inactive threads: {self:?}"));
        }
        if self.inactive_threads > self.num_threads {
            return Err(format!("more inactive threads than workers: {self:?}"));
        }
        Ok(())
    }

    /// Checks the resting state of a pool whose workers have all exited (or
    /// are all busy): [`check`](Self::check) passes and nobody is counted
    /// inactive, sleeping or blocked. Returns what is wrong.
    pub fn check_at_rest(&self) -> Result<(), String> {
        self.check()?;
        if (
            self.inactive_threads,
            self.sleeping_threads,
            self.blocked_threads,
        ) != (0, 0, 0)
        {
            return Err(format!(
                "counters not at rest (inactive, sleeping and blocked must all be 0): {self:?}"
            ));
        }
        Ok(())
    }
}

impl Sleep {
    /// Reads the counters and every worker's `is_blocked` flag while holding
    /// every sleep lock (in index order; wakers and sleepers hold at most one
    /// at a time). No sleeper is then between joining the count and blocking,
    /// and no waker between clearing a flag and decrementing, so the snapshot
    /// satisfies [`SleepSnapshot::check`] in a correct protocol.
    pub(crate) fn snapshot(&self) -> SleepSnapshot {
        let guards: Vec<_> = self
            .worker_sleep_states
            .iter()
            .map(|state| state.is_blocked.lock().unwrap())
            .collect();
        let counters: Counters = self.hot.counters.load();
        let blocked_threads = guards.iter().filter(|is_blocked| ***is_blocked).count();
        drop(guards);
        SleepSnapshot {
            sleeping_threads: counters.sleeping_threads(),
            inactive_threads: counters.inactive_threads(),
            jobs_event_counter: counters.jobs_counter().value(),
            blocked_threads,
            num_threads: self.worker_sleep_states.len(),
            sleeps_abandoned: self.sleeps_abandoned.load(Ordering::Relaxed),
        }
    }
}
