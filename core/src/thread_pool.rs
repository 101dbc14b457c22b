//! `ThreadPool`: a handle to a pool built by `ThreadPoolBuilder`.

use crate::lifecycle::CountdownWaiter;
use crate::registry::{Registry, RegistryKind, WorkerThread};
#[cfg(feature = "diagnostics")]
use crate::sleep::SleepSnapshot;
use crate::sync::{thread, Arc};
use crate::thread_builder::ThreadSpawn;
use crate::{join, scope, spawn, Scope, ThreadPoolBuildError, ThreadPoolBuilder};
use std::error::Error;
use std::fmt;

/// A pool of worker threads. Dropping it lets the threads exit once every
/// job spawned into it has run; [`ThreadPool::shutdown_and_wait`] also waits
/// for them.
pub struct ThreadPool {
    registry: Arc<Registry>,
    // `threads` and `stopped` are read only by the opt-in shutdown methods
    // (features `extensions`, `diagnostics`); without them the workers exit
    // on their own once the pool is dropped.
    #[cfg_attr(
        not(any(feature = "extensions", feature = "diagnostics")),
        allow(dead_code)
    )]
    threads: Vec<thread::JoinHandle<()>>,
    /// The one right to wait for the workers to stop; taken by
    /// `shutdown_and_wait`.
    #[cfg_attr(
        not(any(feature = "extensions", feature = "diagnostics")),
        allow(dead_code)
    )]
    stopped: Option<CountdownWaiter>,
}

impl ThreadPool {
    /// [`Configuration::build`](crate::Configuration::build), from before
    /// [`ThreadPoolBuilder`] existed.
    #[deprecated(note = "Use `ThreadPoolBuilder::build`")]
    #[allow(deprecated)]
    pub fn new(configuration: crate::Configuration) -> Result<ThreadPool, Box<dyn Error>> {
        Self::build(configuration.into_builder()).map_err(Box::from)
    }

    pub(crate) fn build<S: ThreadSpawn>(
        builder: ThreadPoolBuilder<S>,
    ) -> Result<ThreadPool, ThreadPoolBuildError> {
        let started = Registry::start(builder, RegistryKind::Local)?;
        Ok(ThreadPool {
            registry: started.registry,
            threads: started.threads,
            stopped: Some(started.stopped),
        })
    }

    /// Runs `op` on one of this pool's threads and returns its result. Calls
    /// to `join`, `scope` and `spawn` inside `op` use this pool.
    ///
    /// From outside any pool the caller blocks until `op` is done; from a
    /// worker of another pool, that worker keeps running its own pool's jobs
    /// meanwhile. A panic in `op` is resumed on the caller.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let threads = pool.install(drowse::current_num_threads);
    /// assert_eq!(threads, 2);
    /// ```
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|_, _| op())
    }

    /// [`join`](crate::join) in this pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.join(|| 1 + 1, || 2 + 2), (2, 4));
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut results = [0; 2];
    /// let (first, second) = results.split_at_mut(1);
    /// pool.scope(|scope| {
    ///     scope.spawn(|_| first[0] = 1);
    ///     scope.spawn(|_| second[0] = 2);
    /// });
    /// assert_eq!(results, [1, 2]);
    /// ```
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.install(|| scope::scope(op))
    }

    /// [`spawn`](crate::spawn()) into this pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (sender, receiver) = std::sync::mpsc::channel();
    /// pool.spawn(move || sender.send(drowse::current_thread_index()).unwrap());
    /// let index = receiver.recv().unwrap();
    /// assert!(matches!(index, Some(0 | 1)));
    /// ```
    pub fn spawn<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn::spawn_in(op, &self.registry)
    }

    /// The number of threads in this pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// assert_eq!(pool.current_num_threads(), 3);
    /// ```
    pub fn current_num_threads(&self) -> usize {
        self.registry.num_threads()
    }

    /// The index of the current thread in this pool, or `None` when the
    /// current thread is not one of its workers.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// // Not one of the pool's threads here; one of them inside `install`.
    /// assert_eq!(pool.current_thread_index(), None);
    /// assert!(matches!(pool.install(|| pool.current_thread_index()), Some(0 | 1)));
    /// ```
    pub fn current_thread_index(&self) -> Option<usize> {
        self.registry
            .with_current_thread(|worker_thread| worker_thread.map(WorkerThread::index))
    }

    /// Ends the pool and waits until every worker thread has exited (for
    /// threads started by a spawn handler: until each has dropped its queues
    /// and its reference to the pool, the last thing its
    /// [`ThreadBuilder::run`](crate::ThreadBuilder::run) does). Jobs already
    /// spawned into the pool run first. So when it returns, nothing of the
    /// pool runs or remains on those threads: the pool's handlers have been
    /// dropped, unless some other reference (a job of another pool, say)
    /// still holds the pool.
    ///
    /// Called from a worker of another pool, that worker keeps running its
    /// own pool's jobs while it waits, as in [`install`](Self::install).
    /// Called on the thread that built the pool with
    /// [`use_current_thread`](crate::ThreadPoolBuilder::use_current_thread)
    /// (worker 0 for good), it waits for the other workers, running the
    /// pool's jobs meanwhile; from any other thread, the wait is also for
    /// the workers other than that one.
    ///
    /// # Panics
    /// When called from one of this pool's other workers (say from a spawned
    /// job that owns the handle): a worker cannot wait for itself to stop.
    /// The pool is still ended.
    #[cfg(feature = "extensions")]
    pub fn shutdown_and_wait(self) {
        self.shutdown_and_wait_for_registry();
    }

    /// [`shutdown_and_wait`](Self::shutdown_and_wait), then the sleep state
    /// read after the last worker exited: at rest, with no thread counted as
    /// inactive or sleeping.
    ///
    /// # Panics
    /// As [`shutdown_and_wait`](Self::shutdown_and_wait).
    #[cfg(feature = "diagnostics")]
    pub fn shutdown_and_snapshot(self) -> SleepSnapshot {
        self.shutdown_and_wait_for_registry().sleep_snapshot()
    }

    /// Ends the pool, waits for its workers, and hands back the registry
    /// for a last look.
    #[cfg_attr(
        not(any(feature = "extensions", feature = "diagnostics")),
        allow(dead_code)
    )]
    fn shutdown_and_wait_for_registry(mut self) -> Arc<Registry> {
        let threads = std::mem::take(&mut self.threads);
        let stopped = self.stopped.take().expect("taken only here");
        let registry = Arc::clone(&self.registry);
        let own_handed_out_worker = registry.with_current_thread(|worker_thread| {
            worker_thread.is_some_and(|worker_thread| registry.is_handed_out(worker_thread.index()))
        });
        // Ends the pool, on the panic below too.
        drop(self);
        assert!(
            !own_handed_out_worker,
            "ThreadPool::shutdown_and_wait was called on one of the pool's own workers, \
             which cannot wait for itself to stop"
        );
        let on_a_worker = WorkerThread::is_current_thread_a_worker();
        if on_a_worker || threads.is_empty() {
            // A worker of another pool must not block: it waits by running
            // its own pool's jobs. Without handles (a spawn handler started
            // the threads) only the countdown tells when they are done.
            registry.wait_until_stopped(stopped);
        }
        for handle in threads {
            // A worker's panics are caught inside it (handler or abort), so
            // `join` fails only if the thread itself could not unwind cleanly;
            // there is nothing left to clean up then. After the wait above,
            // the threads are only finishing.
            let _ = handle.join();
        }
        crate::sync::debug_assert_shared!(registry.has_stopped());
        registry
    }

    /// The sleep counters and blocked workers, read while holding every
    /// worker's sleep lock. In a correct protocol the result always passes
    /// [`SleepSnapshot::check`].
    #[cfg(feature = "diagnostics")]
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
    WorkerThread::with_current(|worker_thread| worker_thread.map(WorkerThread::index))
}

mod scheduling;
#[cfg(test)]
mod test;
