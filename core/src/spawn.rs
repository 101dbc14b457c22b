//! `spawn` and `spawn_fifo`: fire-and-forget jobs.

use crate::job::{HeapJob, JobRef};
use crate::registry::{self, Registry};
use crate::sync::Arc;

/// Runs `func` on the current pool (the global pool outside any pool),
/// without waiting for it.
///
/// A panic in `func` goes to the pool's panic handler; without one, the
/// process aborts, since nobody could observe the panic otherwise. A pool is
/// kept alive (its threads keep running) until every job spawned into it has
/// run, even after its `ThreadPool` handle is dropped.
///
/// # Examples
///
/// ```
/// let (sender, receiver) = std::sync::mpsc::channel();
/// drowse::spawn(move || sender.send(6 * 7).unwrap());
/// // `spawn` returns at once; the job runs on the global pool.
/// assert_eq!(receiver.recv().unwrap(), 42);
/// ```
pub fn spawn<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    spawn_in(func, &registry::current_registry());
}

/// Like [`spawn()`], but the jobs that one worker thread spawns with
/// `spawn_fifo` start in the order they were spawned (first in, first out),
/// where those spawned with `spawn` start newest first. From outside any
/// pool both go through the pool's injector, which is FIFO.
///
/// Panics and pool lifetime are as for [`spawn()`].
///
/// # Examples
///
/// ```
/// let (sender, receiver) = std::sync::mpsc::channel();
/// drowse::spawn_fifo(move || sender.send("done").unwrap());
/// assert_eq!(receiver.recv().unwrap(), "done");
/// ```
pub fn spawn_fifo<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    spawn_fifo_in(func, &registry::current_registry());
}

pub(crate) fn spawn_in<F>(func: F, registry: &Arc<Registry>)
where
    F: FnOnce() + Send + 'static,
{
    let job_ref = spawn_job(func, registry);
    registry.inject_or_push(job_ref);
}

pub(crate) fn spawn_fifo_in<F>(func: F, registry: &Arc<Registry>)
where
    F: FnOnce() + Send + 'static,
{
    let job_ref = spawn_job(func, registry);
    registry.with_current_thread(|worker_thread| match worker_thread {
        Some(worker_thread) => worker_thread.push_fifo(job_ref),
        None => registry.inject(job_ref),
    })
}

/// A job that runs `func` and holds the pool open until it has.
fn spawn_job<F>(func: F, registry: &Arc<Registry>) -> JobRef
where
    F: FnOnce() + Send + 'static,
{
    registry.increment_terminate_count();
    let job_registry = Arc::clone(registry);
    let job = HeapJob::new(move || {
        job_registry.catch_unwind(func);
        job_registry.terminate();
    });
    // SAFETY: the caller pushes the job once, so it runs exactly once, and it
    // owns everything it uses (`func` is 'static).
    unsafe { job.into_job_ref() }
}
