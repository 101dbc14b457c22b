//! `ThreadPool`: a handle to a pool built by `ThreadPoolBuilder`.

use crate::registry::{Registry, WorkerThread};
use crate::sleep::SleepSnapshot;
use crate::sync::{thread, Arc};
use crate::{join, scope, spawn, Scope, ThreadPoolBuildError, ThreadPoolBuilder};
use std::fmt;

/// A pool of worker threads. Dropping it lets the threads exit once every
/// job spawned into it has run; [`ThreadPool::shutdown_and_wait`] also waits
/// for them.
pub struct ThreadPool {
    registry: Arc<Registry>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl ThreadPool {
    pub(crate) fn build(builder: ThreadPoolBuilder) -> Result<ThreadPool, ThreadPoolBuildError> {
        let started = Registry::start(builder)?;
        Ok(ThreadPool {
            registry: started.registry,
            threads: started.threads,
        })
    }

    /// Runs `op` on one of this pool's threads and returns its result. Calls
    /// to `join`, `scope` and `spawn` inside `op` use this pool.
    ///
    /// From outside any pool the caller blocks until `op` is done; from a
    /// worker of another pool, that worker keeps running its own pool's jobs
    /// meanwhile. A panic in `op` is resumed on the caller.
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|_, _| op())
    }

    /// [`join`](crate::join) in this pool.
    pub fn join<A, B, RA, RB>(&self, oper_a: A, oper_b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.install(|| join::join(oper_a, oper_b))
    }

    /// [`scope`](crate::scope()) in this pool.
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.install(|| scope::scope(op))
    }

    /// [`spawn`](crate::spawn()) into this pool.
    pub fn spawn<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn::spawn_in(op, &self.registry)
    }

    /// The number of threads in this pool.
    pub fn current_num_threads(&self) -> usize {
        self.registry.num_threads()
    }

    /// The index of the current thread in this pool, or `None` when the
    /// current thread is not one of its workers.
    pub fn current_thread_index(&self) -> Option<usize> {
        // SAFETY: a non-null current worker is live for the whole call.
        let worker_thread = unsafe { WorkerThread::current().as_ref() }?;
        Arc::ptr_eq(worker_thread.registry(), &self.registry).then(|| worker_thread.index())
    }

    /// Ends the pool and waits until every worker thread has exited. Jobs
    /// already spawned into the pool run first. Returns the sleep state read
    /// after the last worker exited: at rest, with no thread counted as
    /// inactive or sleeping.
    ///
    /// Called from one of this pool's own workers (say from a spawned job
    /// that owns the handle), it cannot wait for itself: it ends the pool and
    /// returns without waiting, and the snapshot is taken at that moment.
    pub fn shutdown_and_wait(mut self) -> SleepSnapshot {
        let threads = std::mem::take(&mut self.threads);
        let on_own_worker = self.current_thread_index().is_some();
        let registry = Arc::clone(&self.registry);
        drop(self);
        if on_own_worker {
            return registry.sleep_snapshot();
        }
        for handle in threads {
            // A worker's panics are caught inside it (handler or abort), so
            // `join` fails only if the thread itself could not unwind cleanly;
            // there is nothing left to clean up then.
            let _ = handle.join();
        }
        registry.sleep_snapshot()
    }

    /// The sleep counters and blocked workers, read while holding every
    /// worker's sleep lock. For checkers and diagnostics: in a correct
    /// protocol the result always passes [`SleepSnapshot::check`].
    pub fn sleep_snapshot(&self) -> SleepSnapshot {
        self.registry.sleep_snapshot()
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.registry.terminate();
    }
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("num_threads", &self.current_num_threads())
            .finish_non_exhaustive()
    }
}

/// The index of the current thread in its pool, or `None` outside any pool.
pub fn current_thread_index() -> Option<usize> {
    // SAFETY: a non-null current worker is live for the whole call.
    unsafe { WorkerThread::current().as_ref() }.map(WorkerThread::index)
}

mod scheduling;
#[cfg(test)]
mod test;
