//! `scope`: spawn jobs that may borrow from the caller's stack, and wait for
//! all of them.

use crate::job::HeapJob;
use crate::latch::{CountLatch, Latch};
use crate::registry::{self, Registry, WorkerThread};
use crate::sync::{Arc, Mutex};
use crate::unwind;
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;

/// What a job spawned in a scope looks like, for `Scope`'s variance.
type ScopeBody<'scope> = dyn FnOnce(&Scope<'scope>) + Send + Sync + 'scope;

/// A scope in which jobs that borrow from outside it can be spawned. See
/// [`scope()`].
pub struct Scope<'scope> {
    registry: Arc<Registry>,
    /// The first panic of the body or of a spawned job.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Counts the body and every spawned job not yet finished.
    job_completed_latch: CountLatch,
    /// Makes `Scope` invariant in `'scope`, as the jobs it runs borrow for it.
    marker: PhantomData<Box<ScopeBody<'scope>>>,
}

/// Creates a scope, runs `op` in it, and returns once `op` and every job
/// spawned in the scope (transitively) have finished.
///
/// Jobs spawned with [`Scope::spawn`] may borrow anything that outlives the
/// scope. Outside any pool, the call moves into the global pool first.
///
/// # Panics
/// If `op` or a spawned job panics, the scope still waits for all the other
/// jobs, then resumes the first panic on the caller.
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    registry::in_worker(|owner_thread, _| {
        let scope = Scope::new(owner_thread);
        // SAFETY: `owner_thread` is the current thread's worker.
        unsafe { scope.complete(owner_thread, || op(&scope)) }
    })
}

impl<'scope> Scope<'scope> {
    fn new(owner_thread: &WorkerThread) -> Self {
        Scope {
            registry: Arc::clone(owner_thread.registry()),
            panic: Mutex::new(None),
            job_completed_latch: CountLatch::new(owner_thread),
            marker: PhantomData,
        }
    }

    /// Spawns `body` into the scope's pool. It may borrow anything that
    /// outlives the scope; the scope does not end before it has run.
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        let scope_ref = ScopeRef(self);
        self.job_completed_latch.increment();
        let job = HeapJob::new(move || {
            // SAFETY: the scope waits for this job before it returns, so the
            // pointer is live while the job runs.
            let scope = unsafe { scope_ref.get() };
            scope.run_job(|| body(scope));
        });
        // SAFETY: the job runs exactly once, from a queue, and the scope
        // (which everything `body` borrows outlives) waits for it.
        let job_ref = unsafe { job.into_job_ref() };
        self.registry.inject_or_push(job_ref);
    }

    /// Runs the body, waits for the spawned jobs, resumes the first panic.
    ///
    /// # Safety
    /// `owner_thread` must be the current thread's worker.
    unsafe fn complete<R>(&self, owner_thread: &WorkerThread, body: impl FnOnce() -> R) -> R {
        let result = self.run_job(body);
        // SAFETY: forwarded.
        unsafe { self.job_completed_latch.wait(owner_thread) };
        if let Some(payload) = self.panic.lock().unwrap().take() {
            unwind::resume_unwinding(payload);
        }
        result.expect("without a panic, the body returned a value")
    }

    /// Runs a job of the scope (or the body), records a panic, and counts
    /// the job as done.
    fn run_job<R>(&self, job: impl FnOnce() -> R) -> Option<R> {
        let result = match unwind::halt_unwinding(job) {
            Ok(value) => Some(value),
            Err(payload) => {
                self.panic.lock().unwrap().get_or_insert(payload);
                None
            }
        };
        // SAFETY: the latch lives in `self`; after this set we do not touch
        // `self` again (the owner may return and free it).
        unsafe { Latch::set(&self.job_completed_latch) };
        result
    }
}

impl fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope")
            .field("num_threads", &self.registry.num_threads())
            .finish_non_exhaustive()
    }
}

/// A pointer to a scope that spawned jobs carry to other threads.
struct ScopeRef<'scope>(*const Scope<'scope>);

// SAFETY: `Scope` is `Sync` (a registry handle, a mutex, atomics), so sharing
// it by pointer is sound while it is alive, which `Scope::spawn` ensures.
unsafe impl Send for ScopeRef<'_> {}

impl<'scope> ScopeRef<'scope> {
    /// # Safety
    /// The scope must still be alive.
    unsafe fn get<'a>(self) -> &'a Scope<'scope> {
        // SAFETY: forwarded.
        unsafe { &*self.0 }
    }
}
