//! The registry: one pool's worker threads, their queues and sleep state.

use crate::builder::{ErrorKind, PanicHandler, ThreadHandler};
use crate::job::{JobFifo, JobRef, StackJob};
use crate::latch::{AsCoreLatch, CoreLatch, LockLatch, OnceLatch, SpinLatch};
use crate::lifecycle::{WorkerCountdown, WorkerLifetime};
#[cfg(feature = "diagnostics")]
use crate::sleep::SleepSnapshot;
use crate::sleep::{IdleState, Sleep};
use crate::sync::atomic::{AtomicUsize, Ordering};
use crate::sync::deque::{Injector, Steal, Stealer, Worker};
use crate::sync::{hint, random_seed, thread, thread_local, Arc, ExecutionOnceLock, Mutex};
use crate::thread_builder::{ThreadBuilder, ThreadSpawn};
use crate::unwind;
use crate::yielding::Yield;
use crate::{ThreadPoolBuildError, ThreadPoolBuilder};
use std::any::Any;
use std::cell::Cell;
use std::fmt;
use std::mem;
use std::ptr;

mod wakes_in_flight;

pub(crate) use wakes_in_flight::WakeInFlight;

pub(crate) struct Registry {
    thread_infos: Vec<ThreadInfo>,
    sleep: Sleep,
    injected_jobs: Injector<JobRef>,
    panic_handler: Option<Box<PanicHandler>>,
    start_handler: Option<Box<ThreadHandler>>,
    exit_handler: Option<Box<ThreadHandler>>,
    /// One for each `ThreadPool` handle and each spawned job not yet run.
    /// When it drops to zero, every worker's terminate latch is set.
    terminate_count: AtomicUsize,
    /// Workers handed out (every worker but a `use_current_thread` one) whose
    /// main loop has not finished.
    stopped: WorkerCountdown,
    /// For the global registry: handed-out workers not yet started.
    started: Option<WorkerCountdown>,
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
        let rounds_until_sleepy = builder.rounds_until_sleepy()?;
        let use_current_thread = builder.use_current_thread && num_threads > 0;
        if use_current_thread && !WorkerThread::current().is_null() {
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
            sleep: Sleep::new(num_threads, jec_width, rounds_until_sleepy),
            injected_jobs: Injector::new(),
            panic_handler: builder.panic_handler.take(),
            start_handler: builder.start_handler.take(),
            exit_handler: builder.exit_handler.take(),
            terminate_count: AtomicUsize::new(1),
            stopped: WorkerCountdown::new(handed_out),
            started: (kind == RegistryKind::Global).then(|| WorkerCountdown::new(handed_out)),
            broadcasts: Mutex::new(broadcasts),
        });

        // Until the build succeeds, an error or a panic (of a `thread_name`
        // closure, of a spawn handler) ends the pool and waits for every
        // worker already started.
        let mut abandon = AbandonOnFailure {
            registry: &registry,
            threads: Vec::with_capacity(handed_out),
        };
        let mut workers = workers.into_iter().enumerate();
        let current_thread_worker =
            use_current_thread.then(|| workers.next().expect("at least one worker").1);
        // Each worker's lifetime token exists before its thread does, so that
        // a failure drops the tokens of the workers never handed out, and the
        // countdown still reaches zero.
        let mut pending = workers
            .map(|(index, worker)| (index, worker, WorkerLifetime::new(&registry)))
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
        mem::forget(abandon);

        if let Some(worker) = current_thread_worker {
            // The worker lives as long as the thread: a thread-local owns it
            // and drops it when the thread exits (see `AdoptedWorker`).
            AdoptedWorker::adopt(WorkerThread::new(worker, 0, Arc::clone(&registry)));
        }
        Ok(StartedRegistry { registry, threads })
    }

    /// Waits until every worker handed out has started its main loop (or
    /// been dropped unstarted). Only the global registry counts starts.
    pub(crate) fn wait_until_started(&self) {
        if let Some(started) = &self.started {
            let current = WorkerThread::current();
            // SAFETY: `current` is the current thread's worker, if any.
            unsafe { started.wait(current.as_ref()) }
        }
    }

    /// Waits until every worker handed out has finished its main loop (or
    /// been dropped unstarted): blocked outside any pool, running the jobs of
    /// its own pool on a worker of another pool.
    ///
    /// # Panics
    /// In debug builds, when called on a worker of this pool (which would
    /// wait for itself).
    pub(crate) fn wait_until_stopped(&self) {
        let current = WorkerThread::current();
        // SAFETY: a non-null current worker is live for the whole call.
        let current = unsafe { current.as_ref() };
        debug_assert!(
            !current.is_some_and(|worker_thread| worker_thread.registry.is_same(self)),
            "a worker waits for its own pool to stop"
        );
        // SAFETY: `current` is the current thread's worker, if any.
        unsafe { self.stopped.wait(current) }
    }

    /// Whether every worker handed out has finished its main loop.
    pub(crate) fn has_stopped(&self) -> bool {
        self.stopped.is_done()
    }

    /// A handed-out worker has begun its main loop.
    pub(crate) fn worker_started(&self) {
        if let Some(started) = &self.started {
            started.count_down();
        }
    }

    /// A handed-out worker has finished its main loop, or will never run.
    pub(crate) fn worker_stopped(&self) {
        self.stopped.count_down();
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
        debug_assert_ne!(
            self.terminate_count.load(Ordering::Acquire),
            0,
            "a job was injected into a pool that has ended"
        );
        let queue_was_empty = self.injected_jobs.is_empty();
        self.injected_jobs.push(job);
        self.sleep.new_injected_jobs(1, queue_was_empty);
    }

    /// Whether the injector holds a job: the sleeper's final check.
    fn has_injected_job(&self) -> bool {
        !self.injected_jobs.is_empty()
    }

    fn pop_injected_job(&self) -> Option<JobRef> {
        loop {
            match self.injected_jobs.steal() {
                Steal::Success(job) => return Some(job),
                Steal::Empty => return None,
                Steal::Retry => hint::spin_loop(),
            }
        }
    }

    /// Gives worker `i` the `i`-th job, which only that worker will run (when
    /// it has no local work left, before it steals), and wakes every worker
    /// that sleeps.
    ///
    /// A worker's final look before it blocks (`WorkerThread::has_injected_job`,
    /// made holding its sleep lock) includes its broadcast queue, and the
    /// wake-up below takes that same lock: either our push comes before the
    /// final look, which then sees the job, or the worker is blocked by the
    /// time we hold its lock, and we wake it. (rayon issue #992 was a missed
    /// wake-up where the final look skipped this queue.)
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
            debug_assert_ne!(
                self.terminate_count.load(Ordering::Acquire),
                0,
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

    /// The current thread's worker, if it is a worker of this pool.
    pub(crate) fn current_thread(&self) -> Option<&WorkerThread> {
        // SAFETY: a non-null current worker is live for the whole call, and
        // for as long as the caller (on this thread) can hold the reference.
        let worker_thread = unsafe { WorkerThread::current().as_ref() }?;
        worker_thread
            .registry
            .is_same(self)
            .then_some(worker_thread)
    }

    /// Pushes onto the current worker's deque when it belongs to this pool,
    /// injects otherwise.
    pub(crate) fn inject_or_push(&self, job: JobRef) {
        let worker_thread = WorkerThread::current();
        // SAFETY: a non-null current worker is live for the whole call.
        match unsafe { worker_thread.as_ref() } {
            Some(worker_thread) if worker_thread.registry.is_same(self) => worker_thread.push(job),
            _ => self.inject(job),
        }
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
        let worker_thread = WorkerThread::current();
        // SAFETY: a non-null current worker is live for the whole call.
        match unsafe { worker_thread.as_ref() } {
            None => self.in_worker_cold(op),
            Some(worker_thread) if !worker_thread.registry.is_same(self) => {
                self.in_worker_cross(worker_thread, op)
            }
            Some(worker_thread) => op(worker_thread, false),
        }
    }

    #[cold]
    fn in_worker_cold<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        let job = StackJob::new(
            |injected| {
                let worker_thread = WorkerThread::current();
                assert!(injected && !worker_thread.is_null());
                // SAFETY: checked non-null; we run on that worker.
                op(unsafe { &*worker_thread }, true)
            },
            LockLatch::new(),
        );
        // SAFETY: `job` stays on this stack until its latch is set below.
        self.inject(unsafe { job.as_job_ref() });
        job.latch.wait_and_reset();
        // SAFETY: the latch was set.
        unsafe { job.into_result() }
    }

    #[cold]
    fn in_worker_cross<OP, R>(&self, current_thread: &WorkerThread, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread, bool) -> R + Send,
        R: Send,
    {
        debug_assert!(!current_thread.registry.is_same(self));
        let job = StackJob::new(
            |injected| {
                let worker_thread = WorkerThread::current();
                assert!(injected && !worker_thread.is_null());
                // SAFETY: checked non-null; we run on that worker.
                op(unsafe { &*worker_thread }, true)
            },
            SpinLatch::cross(current_thread),
        );
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

    /// Another reason to keep the workers alive (a spawned job).
    pub(crate) fn increment_terminate_count(&self) {
        let before = self.terminate_count.fetch_add(1, Ordering::AcqRel);
        assert_ne!(before, 0, "a job was spawned into a pool that has ended");
        assert_ne!(before, usize::MAX, "terminate count overflow");
    }

    /// One reason to keep the workers alive is gone; with the last one, tell
    /// every worker to exit once it is out of work.
    pub(crate) fn terminate(&self) {
        if self.terminate_count.fetch_sub(1, Ordering::AcqRel) == 1 {
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

/// The global pool, built on first use or by `build_global`. Holds why the
/// build failed when it did: the global pool is built at most once.
///
/// In the std world it is never torn down; its threads live until the
/// process exits. Under loom and shuttle each execution of a model has its
/// own (built on first use or by `build_global` in that execution), which
/// ends, as a dropped `ThreadPool` does, once every thread of the execution
/// that used it has exited (see `ExecutionOnceLock`).
static GLOBAL_REGISTRY: ExecutionOnceLock<Result<Arc<Registry>, String>> =
    ExecutionOnceLock::new(end_global_registry);

/// Ends an execution's global pool under the checkers: its workers exit once
/// the jobs spawned into it have run.
fn end_global_registry(global: &Result<Arc<Registry>, String>) {
    if let Ok(registry) = global {
        registry.terminate();
    }
}

/// Builds the global pool from `builder`, unless its build was attempted
/// before, and waits until its workers have started.
pub(crate) fn init_global_registry<S: ThreadSpawn>(
    builder: ThreadPoolBuilder<S>,
) -> Result<(), ThreadPoolBuildError> {
    // Answered here without touching the cell: under the checkers, getting
    // the cell's value makes this thread hold the pool, and a worker of the
    // global pool (calling `build_global` from a job) must not hold its own
    // pool, or the pool could never end.
    if GLOBAL_REGISTRY.is_initialized() {
        return Err(ThreadPoolBuildError::new(
            ErrorKind::GlobalPoolAlreadyInitialized,
        ));
    }
    let mut outcome = Err(ThreadPoolBuildError::new(
        ErrorKind::GlobalPoolAlreadyInitialized,
    ));
    let mut panic = None;
    let slot = GLOBAL_REGISTRY.get_or_init(|| {
        match unwind::halt_unwinding(|| Registry::start(builder, RegistryKind::Global)) {
            Ok(Ok(started)) => {
                // The global pool's threads are detached: nobody joins them.
                outcome = Ok(());
                Ok(started.registry)
            }
            Ok(Err(error)) => {
                let reason = format!("building it failed: {error}");
                outcome = Err(error);
                Err(reason)
            }
            Err(payload) => {
                panic = Some(payload);
                Err("building it panicked".to_owned())
            }
        }
    });
    if let Some(payload) = panic {
        unwind::resume_unwinding(payload);
    }
    outcome?;
    let registry = slot.as_ref().expect("built just now");
    registry.wait_until_started();
    Ok(())
}

/// The global pool, built with default settings if needed.
///
/// # Panics
/// When the global pool could not be built (now or by an earlier
/// `build_global`). Only where the target cannot start threads at all does
/// the default build fall back to a pool of one worker: the calling thread.
pub(crate) fn global_registry() -> &'static Arc<Registry> {
    let slot = GLOBAL_REGISTRY.get_or_init(|| {
        default_global_registry(|builder| Registry::start(builder, RegistryKind::Global))
            .map(|started| started.registry)
            .map_err(|error| format!("building it failed: {error}"))
    });
    match slot {
        Ok(registry) => registry,
        Err(reason) => panic!("The global thread pool has not been initialized: {reason}"),
    }
}

/// Builds the default global pool with `start`. Where threads are not
/// supported at all, falls back to a one-worker pool made of the calling
/// thread (unless it is a worker already); any other error is returned.
pub(crate) fn default_global_registry<F>(
    mut start: F,
) -> Result<StartedRegistry, ThreadPoolBuildError>
where
    F: FnMut(ThreadPoolBuilder) -> Result<StartedRegistry, ThreadPoolBuildError>,
{
    match start(ThreadPoolBuilder::new()) {
        Err(error) if error.is_unsupported() && WorkerThread::current().is_null() => {
            let fallback = ThreadPoolBuilder::new().num_threads(1).use_current_thread();
            start(fallback).map_err(|_| error)
        }
        result => result,
    }
}

/// The pool of the current worker, or the global pool.
pub(crate) fn current_registry() -> Arc<Registry> {
    // SAFETY: a non-null current worker is live for the whole call.
    match unsafe { WorkerThread::current().as_ref() } {
        Some(worker_thread) => Arc::clone(&worker_thread.registry),
        None => Arc::clone(global_registry()),
    }
}

/// Runs `op` on a worker: this one, or one of the global pool.
pub(crate) fn in_worker<OP, R>(op: OP) -> R
where
    OP: FnOnce(&WorkerThread, bool) -> R + Send,
    R: Send,
{
    // SAFETY: a non-null current worker is live for the whole call.
    match unsafe { WorkerThread::current().as_ref() } {
        Some(worker_thread) => op(worker_thread, false),
        None => global_registry().in_worker(op),
    }
}

thread_local! {
    /// The worker running on this thread, or null. (Not a `const`
    /// initialiser: loom's `thread_local!` rejects those.)
    #[allow(clippy::missing_const_for_thread_local)]
    static WORKER_THREAD_STATE: Cell<*const WorkerThread> = Cell::new(ptr::null());
}

thread_local! {
    /// The worker that `use_current_thread` made of this thread, if any.
    #[allow(clippy::missing_const_for_thread_local)]
    static ADOPTED_WORKER: AdoptedWorker = AdoptedWorker(Cell::new(ptr::null_mut()));
}

/// Owns worker 0 of a pool built with `use_current_thread`: the building
/// thread, which runs no main loop (and so has no stack frame that could own
/// its worker), from the build until the thread exits. Dropping it then
/// frees the worker and its reference to the registry; rayon-core leaks
/// both, which a checker reports (loom fails every execution that leaks an
/// `Arc`). Where thread-local destructors do not run (the main thread on
/// some platforms), the worker stays allocated until the process ends, as
/// rayon-core's does.
///
/// Dropping worker 0 at thread exit is sound because nothing needs it any
/// more by then:
/// - references to a worker are taken from `WORKER_THREAD_STATE` on its own
///   thread and live only for the call into Drowse that took them; a
///   thread-local destructor runs after the thread's main function has
///   returned and is not nested in another one, so no such call is under
///   way on this thread;
/// - other threads never hold a reference to another thread's
///   `WorkerThread`: they reach worker 0 through the registry, by its index
///   (its sleep state, its terminate latch, its broadcast and FIFO queues),
///   and through the stealer of its deque in `thread_infos`, which shares
///   the deque's buffer with the `Worker` handle dropped here, so jobs left
///   on that deque can still be stolen and run by the other workers (a latch
///   setter copies the registry out of a `SpinLatch` before the set, so it
///   does not read the owner's worker afterwards either);
/// - nothing waits for worker 0 to leave: the registry's `stopped` and
///   `started` countdowns count the handed-out workers only;
/// - the registry is reference-counted: dropping worker 0's reference frees
///   it only if no pool handle, other worker, latch or waiter holds one, and
///   then nothing else can reach it.
///
/// The drop clears `WORKER_THREAD_STATE` first, so that a thread-local
/// destructor that runs later and calls into Drowse finds no worker (and
/// goes to the global pool) instead of a freed one.
struct AdoptedWorker(Cell<*mut WorkerThread>);

impl AdoptedWorker {
    /// Makes `worker_thread` this thread's worker until the thread exits.
    fn adopt(worker_thread: WorkerThread) {
        let worker_thread = Box::into_raw(Box::new(worker_thread));
        WorkerThread::set_current(worker_thread);
        // Only while this thread is destroying its thread-locals (a pool
        // built from a thread-local destructor) may the owner be gone
        // already; the worker then lives until the process ends, as
        // rayon-core's always does.
        let _ = ADOPTED_WORKER.try_with(|adopted| {
            debug_assert!(adopted.0.get().is_null(), "a thread adopts one worker");
            adopted.0.set(worker_thread);
        });
    }
}

impl Drop for AdoptedWorker {
    fn drop(&mut self) {
        let worker_thread = self.0.replace(ptr::null_mut());
        if worker_thread.is_null() {
            return;
        }
        if std::thread::panicking() {
            // Dropped while a panic unwinds: never in the std world (a
            // thread's panic stops at its boundary, before its thread-locals
            // go), but loom drops the thread-locals of a thread whose panic
            // failed the execution this way, outside its scheduler, where the
            // worker's `Arc`s cannot be touched (touching them panics again,
            // which aborts the test binary instead of reporting the failure).
            // Freeing the registry here would also run the destructors of the
            // pool's handlers during the unwinding. Leak it, as rayon-core
            // always does.
            return;
        }
        // In the std world `WORKER_THREAD_STATE` (no destructor) is always
        // there to clear. Under loom every thread-local of a finished thread
        // is taken before any is dropped, and shuttle may have destroyed it
        // before this one: then nothing on this thread can read it any more,
        // and there is nothing to clear.
        let _ = WORKER_THREAD_STATE.try_with(|current| {
            debug_assert_eq!(current.get(), worker_thread.cast_const());
            current.set(ptr::null());
        });
        // SAFETY: `worker_thread` came from `Box::into_raw` in `adopt` and is
        // freed only here, once (the slot was nulled above). No reference to
        // it remains: the thread's main function has returned, this
        // destructor runs inside no call into Drowse, other threads never
        // refer to it, and `WORKER_THREAD_STATE` no longer points to it (see
        // `AdoptedWorker`).
        drop(unsafe { Box::from_raw(worker_thread) });
    }
}

/// A worker thread's own state. A handed-out worker's lives on its stack
/// for its whole life; a `use_current_thread` worker's is owned by
/// `ADOPTED_WORKER`.
pub(crate) struct WorkerThread {
    worker: Worker<JobRef>,
    index: usize,
    rng: XorShift64Star,
    registry: Arc<Registry>,
}

impl WorkerThread {
    fn new(worker: Worker<JobRef>, index: usize, registry: Arc<Registry>) -> WorkerThread {
        WorkerThread {
            worker,
            index,
            rng: XorShift64Star::new(index),
            registry,
        }
    }

    /// The current thread's worker, or null outside any pool.
    #[inline]
    pub(crate) fn current() -> *const WorkerThread {
        WORKER_THREAD_STATE.with(Cell::get)
    }

    /// Makes `worker_thread` the current thread's worker; the thread must
    /// have none.
    fn set_current(worker_thread: *const WorkerThread) {
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
        self.registry.sleep.new_internal_jobs(1, queue_was_empty);
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

    /// Whether this worker's own deque is empty (its broadcast queue is not
    /// looked at).
    #[inline]
    pub(crate) fn local_deque_is_empty(&self) -> bool {
        self.worker.is_empty()
    }

    /// The newest job on this worker's own deque, or else the oldest job
    /// broadcast to it.
    #[inline]
    pub(crate) fn take_local_job(&self) -> Option<JobRef> {
        if let Some(job) = self.worker.pop() {
            return Some(job);
        }
        self.take_broadcast_job()
    }

    fn take_broadcast_job(&self) -> Option<JobRef> {
        let broadcast_stealer = &self.thread_info().broadcast_stealer;
        loop {
            match broadcast_stealer.steal() {
                Steal::Success(job) => return Some(job),
                Steal::Empty => return None,
                Steal::Retry => hint::spin_loop(),
            }
        }
    }

    /// The sleeper's final look, made holding its sleep lock after it joined
    /// the sleeping count, at the queues whose pushers do not rely on the
    /// jobs event counter alone: its own broadcast queue (a broadcaster wakes
    /// it through this same lock) and the injector (ordered by the two `SeqCst`
    /// fences).
    fn has_injected_job(&self) -> bool {
        !self.thread_info().broadcast_stealer.is_empty() || self.registry.has_injected_job()
    }

    fn thread_info(&self) -> &ThreadInfo {
        &self.registry.thread_infos[self.index]
    }

    /// Runs one job from anywhere (`yield_now`).
    pub(crate) fn yield_now(&self) -> Yield {
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
        // Jobs on this stack may be referenced from other threads' queues;
        // unwinding out of here would free them under those threads' feet.
        let abort = unwind::AbortIfPanic;
        'work: while !latch.probe() {
            if let Some(job) = self.take_local_job() {
                // SAFETY: popped from a queue, so not run before.
                unsafe { self.execute(job) };
                continue;
            }
            let mut idle_state: IdleState = self.registry.sleep.start_looking(self.index);
            while !latch.probe() {
                if let Some((job, more_work_queued)) = self.find_work() {
                    self.registry.sleep.work_found(more_work_queued);
                    // SAFETY: taken from a queue, so not run before.
                    unsafe { self.execute(job) };
                    // The job may have pushed local work.
                    continue 'work;
                }
                self.registry
                    .sleep
                    .no_work_found(&mut idle_state, latch, || self.has_injected_job());
            }
            // The latch is set: whatever we were waiting for is the work we
            // found.
            self.registry.sleep.work_found(false);
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
    /// deque, the injector), and whether the queue it came from still held
    /// work that other workers could take after the take (a broadcast
    /// queue's jobs are this worker's alone, so they never count).
    fn find_work(&self) -> Option<(JobRef, bool)> {
        if let Some(job) = self.take_local_job() {
            return Some((job, !self.worker.is_empty()));
        }
        if let Some((job, victim)) = self.steal() {
            let victim_has_more = !self.registry.thread_infos[victim].stealer.is_empty();
            return Some((job, victim_has_more));
        }
        let job = self.registry.pop_injected_job()?;
        Some((job, self.registry.has_injected_job()))
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
                    Steal::Success(job) => Some((job, victim)),
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

/// The body of every worker thread that was handed out.
///
/// # Safety
/// Must run on a thread that is no pool's worker, with `thread` as built by
/// `Registry::start` (its `worker` is the queue whose stealer is
/// `registry.thread_infos[index].stealer`).
pub(crate) unsafe fn main_loop(thread: ThreadBuilder) {
    let ThreadBuilder {
        worker,
        index,
        registry,
        mut lifetime,
        ..
    } = thread;
    lifetime.started();
    let worker_thread = &WorkerThread::new(worker, index, registry);
    WorkerThread::set_current(worker_thread);
    let registry = &*worker_thread.registry;

    if let Some(handler) = &registry.start_handler {
        registry.catch_unwind(|| handler(index));
    }

    // SAFETY: `worker_thread` is this thread's worker.
    unsafe { worker_thread.wait_until(&registry.thread_infos[index].terminate) };
    debug_assert!(
        worker_thread.take_local_job().is_none(),
        "a worker exits with jobs on its deque"
    );

    if let Some(handler) = &registry.exit_handler {
        registry.catch_unwind(|| handler(index));
    }
    WORKER_THREAD_STATE.with(|current| current.set(ptr::null()));
    // Last: whoever waits for the pool to stop may go on now.
    drop(lifetime);
}

/// Ends a registry whose build failed or panicked: every worker is told to
/// exit and waited for.
struct AbandonOnFailure<'r> {
    registry: &'r Arc<Registry>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Drop for AbandonOnFailure<'_> {
    fn drop(&mut self) {
        self.registry.terminate();
        self.registry.wait_until_stopped();
        for handle in self.threads.drain(..) {
            // The main loop has ended; the thread is only finishing.
            let _ = handle.join();
        }
    }
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
