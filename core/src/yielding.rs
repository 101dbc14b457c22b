//! Cooperative yielding to the pool, and a look at the current worker's
//! deque.

use crate::registry::WorkerThread;

/// What [`yield_now`] or [`yield_local`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// A pending job was found and run.
    Executed,
    /// There was no pending job to run.
    Idle,
}

/// Runs one pending job of the current thread's pool, if there is one:
/// from this worker's own deque or broadcast queue first, then stolen from
/// another worker, then from the pool's injector. The job may itself run
/// others (nested work, or work it steals while it waits).
///
/// Unlike [`std::thread::yield_now`], this never yields to the operating
/// system; a polling loop that finds nothing may want to do that as well.
///
/// Returns `Some(Yield::Executed)` when a job ran, `Some(Yield::Idle)` when
/// none was found, and `None` when the current thread is not a worker of any
/// pool.
///
/// # Examples
///
/// ```
/// // Outside any pool there is nothing to run instead.
/// assert!(drowse::yield_now().is_none());
///
/// let pool = drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let outcome = pool.install(drowse::yield_now);
/// // On a worker, `Some`: whether it ran another job or found none.
/// assert!(matches!(outcome, Some(drowse::Yield::Executed | drowse::Yield::Idle)));
/// ```
pub fn yield_now() -> Option<Yield> {
    WorkerThread::with_current(|worker_thread| Some(worker_thread?.yield_now()))
}

/// Like [`yield_now`], but only looks at the current worker's own deque and
/// broadcast queue: it never steals.
///
/// Returns `Some(Yield::Executed)` when a job ran, `Some(Yield::Idle)` when
/// none was found, and `None` when the current thread is not a worker of any
/// pool.
///
/// # Examples
///
/// ```
/// assert!(drowse::yield_local().is_none());
///
/// let pool = drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let outcome = pool.install(|| {
///     drowse::spawn(|| ());
///     // The worker's own queue holds the spawned job: it runs now.
///     drowse::yield_local()
/// });
/// assert_eq!(outcome, Some(drowse::Yield::Executed));
/// ```
pub fn yield_local() -> Option<Yield> {
    WorkerThread::with_current(|worker_thread| Some(worker_thread?.yield_local()))
}

/// Whether the current worker holds jobs of its own not yet taken (on its
/// deque, or second halves of its joins that it has not offered yet), or
/// `None` when the current thread is not a worker of any pool.
///
/// Other workers may steal from the deque at any moment, so the answer can
/// be out of date as soon as it is returned: a hint (say, for deciding
/// whether to split work further), not a synchronisation.
pub fn current_thread_has_pending_tasks() -> Option<bool> {
    WorkerThread::with_current(|worker_thread| Some(worker_thread?.has_pending_tasks()))
}
