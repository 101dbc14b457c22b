//! `spawn`: fire-and-forget jobs.

use crate::job::HeapJob;
use crate::registry::{self, Registry};
use crate::sync::Arc;

/// Runs `func` on the current pool (the global pool outside any pool),
/// without waiting for it.
///
/// A panic in `func` goes to the pool's panic handler; without one, the
/// process aborts, since nobody could observe the panic otherwise. A pool is
/// kept alive (its threads keep running) until every job spawned into it has
/// run, even after its `ThreadPool` handle is dropped.
pub fn spawn<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    spawn_in(func, &registry::current_registry());
}

pub(crate) fn spawn_in<F>(func: F, registry: &Arc<Registry>)
where
    F: FnOnce() + Send + 'static,
{
    // The job holds the pool open until it has run.
    registry.increment_terminate_count();
    let job_registry = Arc::clone(registry);
    let job = HeapJob::new(move || {
        job_registry.catch_unwind(func);
        job_registry.terminate();
    });
    // SAFETY: the job runs exactly once, from a queue, and owns everything it
    // uses (`func` is 'static).
    let job_ref = unsafe { job.into_job_ref() };
    registry.inject_or_push(job_ref);
}
