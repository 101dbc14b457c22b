//! The registry: one pool's worker threads, their queues and sleep state.
//!
//! Each concern has its file: the registry and the cleanup of a failed
//! build here, the global pool in `global`, the thread-locals that say which
//! worker runs on the current thread in `current` (with `AdoptedWorker`),
//! a worker's own state in `worker_thread`, and the body of a worker thread
//! in `main_loop`.

use crate::builder::{ErrorKind, PanicHandler, ThreadHandler};
use crate::job::{steal_until_settled, JobFifo, JobRef, StackJob};
use crate::latch::{OnceLatch, OutsideLatch, SpinLatch};
use crate::lifecycle::{CountdownWaiter, WorkerCountdown, WorkerLifetime};
use crate::sleep::Sleep;
#[cfg(feature = "diagnostics")]
use crate::sleep::SleepSnapshot;
use crate::sync::atomic::Ordering;
use crate::sync::deque::{Injector, Stealer, Worker};
use crate::sync::record::{self, Step};
use crate::sync::{thread, Arc, Mutex};
use crate::thread_builder::{ThreadBuilder, ThreadSpawn};
use crate::unwind;
use crate::{ThreadPoolBuildError, ThreadPoolBuilder};
use std::any::Any;
use std::fmt;
use std::mem;
use std::ptr;

mod current;
mod global;
mod main_loop;
mod wakes_in_flight;
mod worker_thread;

use current::AdoptedWorker;
#[cfg(test)]
pub(crate) use global::default_global_registry;
pub(crate) use global::{current_registry, global_registry, in_worker, init_global_registry};
pub(crate) use main_loop::main_loop;
pub(crate) use wakes_in_flight::WakeInFlight;
pub(crate) use worker_thread::WorkerThread;
#[cfg(feature = "internals")]
pub(crate) use worker_thread::JOIN_WINDOW;

pub(crate) struct Registry {
    thread_infos: Vec<ThreadInfo>,
    sleep: Sleep,
    injected_jobs: Injector<JobRef>,
    panic_handler: Option<Box<PanicHandler>>,
    start_handler: Option<Box<ThreadHandler>>,
    exit_handler: Option<Box<ThreadHandler>>,
    /// Workers handed out (every worker but a `use_current_thread` one) whose
    /// main loop has not finished.
    stopped: Arc<WorkerCountdown>,
    /// Whether worker 0 is the building thread's own (`use_current_thread`):
    /// it runs no main loop, and `stopped` does not count it.
    current_thread_worker: bool,
    /// For the global registry: handed-out workers not yet started.
    started: Option<Arc<WorkerCountdown>>,
    /// The pushing ends of the workers' broadcast queues, in index order.
    /// The lock makes each broadcast one step: two broadcasts reach every
    /// worker in the same order.
    broadcasts: Mutex<Vec<Worker<JobRef>>>,
}

struct ThreadInfo {
    /// Set when the pool ends; the worker's main loop waits on it.
    terminate: OnceLatch,
    stealer: Stealer<JobRef>,
    /// The taking end of this worker's broadcast queue: jobs that only this
    /// worker may run, one per broadcast, in the order they were broadcast.
    broadcast_stealer: Stealer<JobRef>,
    /// The queue behind this worker's `spawn_fifo` jobs (see `JobFifo`).
    fifo: JobFifo,
}

/// A registry together with the handles of its threads.
pub(crate) struct StartedRegistry {
    pub(crate) registry: Arc<Registry>,
    /// The threads the default spawn started; empty with a spawn handler.
    pub(crate) threads: Vec<thread::JoinHandle<()>>,
    /// The one right to wait until the workers have stopped (for
    /// [`Registry::wait_until_stopped`]).
    pub(crate) stopped: CountdownWaiter,
    /// For the global registry: the one right to wait until the workers have
    /// started.
    pub(crate) started: Option<CountdownWaiter>,
}

/// Whether a registry is the global one, which `build_global` waits on until
/// its workers have started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegistryKind {
    Local,
    Global,
}

impl Registry {
    pub(crate) fn start<S: ThreadSpawn>(
        mut builder: ThreadPoolBuilder<S>,
        kind: RegistryKind,
    ) -> Result<StartedRegistry, ThreadPoolBuildError> {
        let num_threads = builder.resolved_num_threads();
        let jec_width = builder.jec_width()?;
        let search_rounds_before_sleep = builder.checked_search_rounds_before_sleep()?;
        let use_current_thread = builder.use_current_thread && num_threads > 0;
        if use_current_thread && WorkerThread::is_current_thread_a_worker() {
            return Err(ThreadPoolBuildError::new(
                ErrorKind::CurrentThreadAlreadyInPool,
            ));
        }
        // Threads that run a main loop: all but the current thread's worker.
        let handed_out = num_threads - usize::from(use_current_thread);

        let workers: Vec<Worker<JobRef>> = (0..num_threads)
            .map(|_| {
                if builder.breadth_first {
                    Worker::new_fifo()
                } else {
                    Worker::new_lifo()
                }
            })
            .collect();
        let broadcasts: Vec<Worker<JobRef>> =
            (0..num_threads).map(|_| Worker::new_fifo()).collect();
        let (stopped, stopped_waiter) = WorkerCountdown::new(handed_out);
        let (started, started_waiter) = match kind {
            RegistryKind::Global => {
                let (started, waiter) = WorkerCountdown::new(handed_out);
                (Some(started), Some(waiter))
            }
            RegistryKind::Local => (None, None),
        };
        let registry = Arc::new(Registry {
            thread_infos: workers
                .iter()
                .zip(&broadcasts)
                .map(|(worker, broadcast)| ThreadInfo {
                    terminate: OnceLatch::new(),
                    stealer: worker.stealer(),
                    broadcast_stealer: broadcast.stealer(),
                    fifo: JobFifo::new(),
                })
                .collect(),
            sleep: Sleep::new(num_threads, jec_width, search_rounds_before_sleep),
            injected_jobs: Injector::new(),
            panic_handler: builder.panic_handler.take(),
            start_handler: builder.start_handler.take(),
            exit_handler: builder.exit_handler.take(),
            stopped,
            current_thread_worker: use_current_thread,
            started,
            broadcasts: Mutex::new(broadcasts),
        });
        record::injector(&registry.injected_jobs);

        // Until the build succeeds, an error or a panic (of a `thread_name`
        // closure, of a spawn handler) ends the pool and waits for every
        // worker already started.
        let mut abandon = AbandonOnFailure {
            registry: &registry,
            threads: Vec::with_capacity(handed_out),
            stopped: Some(stopped_waiter),
        };
        let mut workers = workers.into_iter().enumerate();
        let current_thread_worker =
            use_current_thread.then(|| workers.next().expect("at least one worker").1);
        // Each worker's lifetime token exists before its thread does, so that
        // a failure drops the tokens of the workers never handed out, and the
        // countdown still reaches zero.
        let mut pending = workers
            .map(|(index, worker)| (index, worker, registry.worker_lifetime()))
            .collect::<Vec<_>>()
            .into_iter();
        if use_current_thread {
            // Names are asked for in index order, as if thread 0 were started.
            let _ = builder.name_for_thread(0);
        }
        while let Some((index, worker, lifetime)) = pending.next() {
            let thread = ThreadBuilder {
                name: builder.name_for_thread(index),
                stack_size: builder.stack_size,
                worker,
                registry: Arc::clone(&registry),
                index,
                lifetime,
            };
            match builder.spawn_handler.spawn_worker(thread) {
                Ok(Some(handle)) => abandon.threads.push(handle),
                Ok(None) => {}
                Err(error) => {
                    drop(pending);
                    drop(abandon);
                    return Err(ThreadPoolBuildError::new(ErrorKind::Io(error)));
                }
            }
        }
        let threads = mem::take(&mut abandon.threads);
        let stopped = abandon.stopped.take().expect("taken only here");
        // Owns nothing now (an empty `Vec`, no waiter, a borrow).
        mem::forget(abandon);

        if let Some(worker) = current_thread_worker {
            // The worker lives as long as the thread: a thread-local owns it
            // and drops it when the thread exits (see `AdoptedWorker`).
            AdoptedWorker::adopt(WorkerThread::new(worker, 0, Arc::clone(&registry)));
        }
        Ok(StartedRegistry {
            registry,
            threads,
            stopped,
            started: started_waiter,
        })
    }

    /// Waits until every worker handed out has finished its main loop (or
    /// been dropped unstarted): blocked outside any pool, running the jobs of
    /// its own pool on a worker of another pool.
    ///
    /// The building thread of a `use_current_thread` pool (worker 0, which
    /// `stopped` does not count) waits by running the pool's jobs.
    ///
    /// # Panics
    /// In debug builds, when called on a handed-out worker of this pool
    /// (which would wait for itself), or with another countdown's waiter.
    pub(crate) fn wait_until_stopped(&self, waiter: CountdownWaiter) {
        debug_assert!(waiter.is_for(&self.stopped), "another registry's waiter");
        WorkerThread::with_current(|current| {
            debug_assert!(
                !current.is_some_and(|worker_thread| worker_thread.registry.is_same(self)
                    && self.is_handed_out(worker_thread.index())),
                "a worker waits for its own pool to stop"
            );
        });
        waiter.wait();
    }

    /// Whether worker `index` runs a main loop: every worker but the building
    /// thread's own worker 0 of a `use_current_thread` pool.
    pub(crate) fn is_handed_out(&self, index: usize) -> bool {
        !(self.current_thread_worker && index == 0)
    }

    /// Whether every worker handed out has finished its main loop.
    // Read by the opt-in shutdown methods (see `ThreadPool`'s fields).
    #[cfg_attr(
        not(any(feature = "extensions", feature = "diagnostics")),
        allow(dead_code)
    )]
    pub(crate) fn has_stopped(&self) -> bool {
        self.stopped.is_done()
    }

    /// The duty of a handed-out worker to count itself started and stopped.
    fn worker_lifetime(&self) -> WorkerLifetime {
        WorkerLifetime::new(&self.stopped, self.started.as_ref())
    }

    pub(crate) fn num_threads(&self) -> usize {
        self.thread_infos.len()
    }

    /// Where this registry lives; only compared, never read through.
    pub(crate) fn address(&self) -> usize {
        self as *const Registry as usize
    }

    fn is_same(&self, other: &Registry) -> bool {
        ptr::eq(self, other)
    }

    /// Calls the panic handler with a spawned job's panic, or aborts the
    /// process when there is none (a panic nobody can observe must not pass
    /// silently).
    pub(crate) fn handle_panic(&self, payload: Box<dyn Any + Send>) {
        match &self.panic_handler {
            Some(handler) => {
                let abort = unwind::AbortIfPanic;
                handler(payload);
                mem::forget(abort);
            }
            None => {
                let _abort = unwind::AbortIfPanic;
                unwind::resume_unwinding(payload);
            }
        }
    }

    /// Runs `func`, sending a panic to the panic handler.
    pub(crate) fn catch_unwind(&self, func: impl FnOnce()) {
        if let Err(payload) = unwind::halt_unwinding(func) {
            self.handle_panic(payload);
        }
    }

    /// Pushes a job from outside the pool (or from another pool).
    pub(crate) fn inject(&self, job: JobRef) {
        crate::sync::debug_assert_shared!(
            self.sleep.terminate_count().load(Ordering::Acquire) != 0,
            "a job was injected into a pool that has ended"
        );
        let queue_was_empty = self.injected_jobs.is_empty();
        self.injected_jobs.push(job);
        record::step(
            Step::InjectPush {
                was_empty: queue_was_empty,
            },
            None,
        );
        self.sleep.new_injected_jobs(1, queue_was_empty);
    }

    /// Whether the injector holds a job (part of the sleeper's final look,
    /// `WorkerThread::has_broadcast_or_injected_job`).
    fn has_injected_job(&self) -> bool {
        !self.injected_jobs.is_empty()
    }

    /// Whether any queue that every worker may take from holds a job: the
    /// injector or some worker's deque (broadcast queues are their
    /// workers' own, and a broadcaster wakes their owners itself). The
    /// hand-off's look (`Sleep::hand_off`), made only by the last searcher
    /// to leave while someone sleeps: it reads one line per worker.
    pub(crate) fn has_stealable_job(&self) -> bool {
        self.has_injected_job()
            || self
                .thread_infos
                .iter()
                .any(|thread_info| !thread_info.stealer.is_empty())
    }

    fn pop_injected_job(&self) -> Option<JobRef> {
        let job = steal_until_settled(|| self.injected_jobs.steal());
        if job.is_some() {
            record::step(Step::TakeInjected, None);
        }
        job
    }

    /// Gives worker `i` the `i`-th job, which only that worker will run (when
    /// it has no local work left, before it steals), and wakes every worker
    /// that sleeps.
    ///
    /// A worker's final look before it blocks
    /// (`WorkerThread::has_broadcast_or_injected_job`, made holding its
    /// sleep lock) includes its broadcast queue, and the wake-up below takes
    /// that same lock: either our push comes before the final look, which
    /// then sees the job, or the worker is blocked by the time we hold its
    /// lock, and we wake it. (rayon issue #992 was a missed wake-up where the
    /// final look skipped this queue.)
    ///
    /// # Panics
    /// Unless given exactly one job per worker.
    pub(crate) fn inject_broadcast(&self, jobs: impl ExactSizeIterator<Item = JobRef>) {
        assert_eq!(
            jobs.len(),
            self.num_threads(),
            "a broadcast needs one job per worker"
        );
        {
            let broadcasts = self.broadcasts.lock().unwrap();
            crate::sync::debug_assert_shared!(
                self.sleep.terminate_count().load(Ordering::Acquire) != 0,
                "a job was broadcast into a pool that has ended"
            );
            for (queue, job) in broadcasts.iter().zip(jobs) {
                queue.push(job);
            }
        }
        for index in 0..self.num_threads() {
            self.notify_worker_latch_is_set(index);
        }
    }

    /// Calls `func` with the current thread's worker if it is a worker of
    /// this pool, with `None` otherwise.
    pub(crate) fn with_current_thread<R>(
        &self,
        func: impl FnOnce(Option<&WorkerThread>) -> R,
    ) -> R {
        WorkerThread::with_current(|worker_thread| {
            func(worker_thread.filter(|worker_thread| worker_thread.registry.is_same(self)))
        })
    }

    /// Pushes onto the current worker's deque when it belongs to this pool,
    /// injects otherwise.
    pub(crate) fn inject_or_push(&self, job: JobRef) {
        self.with_current_thread(|worker_thread| match worker_thread {
            Some(worker_thread) => worker_thread.push(job),
            None => self.inject(job),
        })
    }

    /// Runs `op` on a worker of this pool and returns its result. From a
    /// worker of this pool it runs in place; from outside it is injected and
    /// the caller blocks; from another pool's worker it is injected and that
    /// worker keeps running its own pool's jobs while it waits.
    pub(crate) fn in_worker<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        WorkerThread::with_current(|worker_thread| match worker_thread {
            None => self.in_worker_cold(op),
            Some(worker_thread) if !worker_thread.registry.is_same(self) => {
                self.in_worker_cross(worker_thread, op)
            }
            Some(worker_thread) => op(worker_thread, false),
        })
    }

    #[cold]
    fn in_worker_cold<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        OutsideLatch::with_current_thread(|latch| {
            let job = StackJob::new(run_injected(op), latch);
            // SAFETY: `job` stays on this stack until its latch is set below.
            self.inject(unsafe { job.as_job_ref() });
            job.latch.wait_and_reset();
            // SAFETY: the latch was set.
            unsafe { job.into_result() }
        })
    }

    #[cold]
    fn in_worker_cross<OP, R>(&self, current_thread: &WorkerThread, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        debug_assert!(!current_thread.registry.is_same(self));
        let job = StackJob::new(run_injected(op), SpinLatch::cross(current_thread));
        // SAFETY: `job` stays on this stack until its latch is set below.
        self.inject(unsafe { job.as_job_ref() });
        // SAFETY: `current_thread` is the current thread's worker.
        unsafe { current_thread.wait_until(&job.latch) };
        // SAFETY: the latch was set.
        unsafe { job.into_result() }
    }

    pub(crate) fn notify_worker_latch_is_set(&self, target_worker_index: usize) {
        self.sleep.notify_worker_latch_is_set(target_worker_index);
    }

    /// Another reason to keep the workers alive (a spawned job). Inlined:
    /// every spawn calls it, and a call costs more than its one atomic add.
    #[inline]
    pub(crate) fn increment_terminate_count(&self) {
        let before = self.sleep.terminate_count().fetch_add(1, Ordering::AcqRel);
        assert_ne!(before, 0, "a job was spawned into a pool that has ended");
        assert_ne!(before, usize::MAX, "terminate count overflow");
    }

    /// One reason to keep the workers alive is gone; with the last one, tell
    /// every worker to exit once it is out of work.
    ///
    /// The terminate count has one reason for each `ThreadPool` handle and
    /// each spawned job not yet run. It is stored in `Sleep`, beside the
    /// sleep counters, only for its cache line (`Sleep::terminate_count`).
    pub(crate) fn terminate(&self) {
        if self.sleep.terminate_count().fetch_sub(1, Ordering::AcqRel) == 1 {
            record::step(Step::Terminate, None);
            for (index, thread_info) in self.thread_infos.iter().enumerate() {
                // SAFETY: the latch lives in `self`, which outlives this call,
                // and belongs to worker `index`.
                unsafe { OnceLatch::set_and_wake(&thread_info.terminate, self, index) };
            }
        }
    }

    #[cfg(feature = "diagnostics")]
    pub(crate) fn sleep_snapshot(&self) -> SleepSnapshot {
        self.sleep.snapshot()
    }
}

/// The job closure of `in_worker_cold` and `in_worker_cross`: runs `op` on
/// the worker of this pool that took the injected job.
fn run_injected<OP, R>(op: OP) -> impl FnOnce(bool) -> R + Send
where
    OP: FnOnce(&WorkerThread, bool) -> R + Send,
    R: Send,
{
    |injected| {
        assert!(injected, "an injected job runs from the injector");
        WorkerThread::with_current(|worker_thread| {
            op(
                worker_thread.expect("an injected job runs on a worker"),
                true,
            )
        })
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        wakes_in_flight::assert_none_in_flight(self.address());
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("num_threads", &self.num_threads())
            .finish_non_exhaustive()
    }
}

/// Ends a registry whose build failed or panicked: every worker is told to
/// exit and waited for.
struct AbandonOnFailure<'r> {
    registry: &'r Arc<Registry>,
    threads: Vec<thread::JoinHandle<()>>,
    /// The registry's one stop waiter, until a successful build hands it on.
    stopped: Option<CountdownWaiter>,
}

impl Drop for AbandonOnFailure<'_> {
    fn drop(&mut self) {
        self.registry.terminate();
        if let Some(waiter) = self.stopped.take() {
            self.registry.wait_until_stopped(waiter);
        }
        for handle in self.threads.drain(..) {
            // The main loop has ended; the thread is only finishing.
            let _ = handle.join();
        }
    }
}
