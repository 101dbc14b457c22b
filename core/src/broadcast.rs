//! `broadcast` and `spawn_broadcast`: run a closure once on every worker of
//! a pool.
//!
//! Each worker has a broadcast queue of its own, which only it takes from:
//! after its own deque and before stealing (see `WorkerThread::take_local_job`).
//! A broadcast pushes one job into every worker's queue and wakes every
//! sleeping worker (`Registry::inject_broadcast`).

use crate::job::{HeapJob, JobRef, StackJob};
use crate::latch::CountLatch;
use crate::registry::{self, Registry, WorkerThread};
use crate::sync::Arc;
use std::fmt;
use std::marker::PhantomData;

/// Runs `op` once on every worker thread of the current pool (the global
/// pool outside any pool) and returns their results, in worker index order.
///
/// See [`ThreadPool::broadcast`](crate::ThreadPool::broadcast).
///
/// # Examples
///
/// ```
/// let pool = drowse::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
/// let indices = pool.install(|| drowse::broadcast(|context| context.index()));
/// // One result per worker, in the order of the workers' indices.
/// assert_eq!(indices, [0, 1, 2]);
/// ```
pub fn broadcast<OP, R>(op: OP) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    broadcast_in(op, &registry::current_registry())
}

/// Runs `op` once on every worker thread of the current pool (the global
/// pool outside any pool), without waiting for it. `op` cannot borrow from
/// the caller's stack, since it may run after the caller has returned.
///
/// See [`ThreadPool::spawn_broadcast`](crate::ThreadPool::spawn_broadcast).
///
/// # Examples
///
/// ```
/// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (sender, receiver) = std::sync::mpsc::channel();
/// pool.install(|| {
///     drowse::spawn_broadcast(move |context| sender.send(context.index()).unwrap())
/// });
/// let mut indices: Vec<usize> = receiver.iter().take(2).collect();
/// indices.sort();
/// assert_eq!(indices, [0, 1]);
/// ```
pub fn spawn_broadcast<OP>(op: OP)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    spawn_broadcast_in(op, &registry::current_registry())
}

/// What a closure run by a broadcast knows about where it runs.
pub struct BroadcastContext<'a> {
    worker: &'a WorkerThread,
    /// Keeps the context on the worker it was made for (neither `Send` nor
    /// `Sync`).
    _marker: PhantomData<&'a mut dyn Fn()>,
}

impl BroadcastContext<'_> {
    /// Calls `func` with the context of the current worker.
    pub(crate) fn with<R>(func: impl FnOnce(BroadcastContext<'_>) -> R) -> R {
        WorkerThread::with_current(|worker| {
            func(BroadcastContext {
                worker: worker.expect("a broadcast job runs on a worker thread"),
                _marker: PhantomData,
            })
        })
    }

    /// The index of the worker this runs on, in `0..self.num_threads()`.
    #[inline]
    pub fn index(&self) -> usize {
        self.worker.index()
    }

    /// The number of workers the broadcast runs on: every worker of the
    /// pool.
    #[inline]
    pub fn num_threads(&self) -> usize {
        self.worker.registry().num_threads()
    }
}

impl fmt::Debug for BroadcastContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BroadcastContext")
            .field("index", &self.index())
            .field("num_threads", &self.num_threads())
            .field("pool_id", &self.worker.registry().address())
            .finish()
    }
}

/// Runs `op` on every worker of `registry` and waits for all of them: by
/// running other jobs on a worker thread (of this pool, which then also runs
/// its own share, or of another), by blocking elsewhere. Panics are resumed
/// once every worker is done, the first in worker index order.
pub(crate) fn broadcast_in<OP, R>(op: OP, registry: &Arc<Registry>) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    let run = move |injected: bool| {
        debug_assert!(injected, "a broadcast job always runs from a queue");
        BroadcastContext::with(&op)
    };
    let num_threads = registry.num_threads();
    WorkerThread::with_current(|current_thread| {
        let latch = CountLatch::with_count(num_threads, current_thread);
        let jobs: Vec<_> = (0..num_threads)
            .map(|_| StackJob::new(&run, &latch))
            .collect();
        // SAFETY: `jobs` (and `run` and `latch`, which they point to) stay in
        // place until the latch has counted every job down, below.
        let job_refs: Vec<JobRef> = jobs.iter().map(|job| unsafe { job.as_job_ref() }).collect();
        registry.inject_broadcast(job_refs.into_iter());
        // SAFETY: `current_thread` is the current thread's worker, the owner the
        // latch was made for.
        unsafe { latch.wait(current_thread) };
        // SAFETY: every job has set the latch.
        jobs.into_iter()
            .map(|job| unsafe { job.into_result() })
            .collect()
    })
}

/// Queues `op` on every worker of `registry` without waiting. Each worker's
/// job holds the pool open until it has run; a panic goes to the pool's
/// panic handler, as for `spawn`.
pub(crate) fn spawn_broadcast_in<OP>(op: OP, registry: &Arc<Registry>)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    let op = Arc::new(op);
    let job_refs: Vec<JobRef> = (0..registry.num_threads())
        .map(|_| {
            registry.increment_terminate_count();
            let op = Arc::clone(&op);
            let job_registry = Arc::clone(registry);
            let job = HeapJob::new(move || {
                job_registry.catch_unwind(move || BroadcastContext::with(&*op));
                job_registry.terminate();
            });
            // SAFETY: each job is pushed once, so runs once, and owns what it
            // uses (`op` is 'static).
            unsafe { job.into_job_ref() }
        })
        .collect();
    registry.inject_broadcast(job_refs.into_iter());
}
