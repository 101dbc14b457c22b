//! `scope` and `scope_fifo`: spawn jobs that may borrow from the caller's
//! stack, and wait for all of them; `in_place_scope` and
//! `in_place_scope_fifo` run the scope's body on the calling thread.

use crate::broadcast::BroadcastContext;
use crate::job::{Job, JobFifo, JobRef};
use crate::latch::{CountLatch, Latch};
use crate::registry::{self, Registry, WorkerThread};
use crate::sync::{Arc, Mutex};
use crate::unwind;
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::ptr;

/// What a job spawned in a scope looks like, for the scopes' variance.
type ScopeBody<'scope> = dyn FnOnce(&Scope<'scope>) + Send + Sync + 'scope;

/// A scope in which jobs that borrow from outside it can be spawned. See
/// [`scope()`].
pub struct Scope<'scope> {
    base: ScopeBase<'scope>,
}

/// A scope whose jobs, spawned from one thread, start in the order they were
/// spawned. See [`scope_fifo()`].
pub struct ScopeFifo<'scope> {
    base: ScopeBase<'scope>,
    /// One FIFO queue per worker of the scope's pool (see `JobFifo`).
    fifos: Vec<JobFifo>,
}

/// Either kind of scope, as the code they share sees it.
trait AsScopeBase<'scope>: Sync + 'scope {
    fn base(&self) -> &ScopeBase<'scope>;
}

impl<'scope> AsScopeBase<'scope> for Scope<'scope> {
    fn base(&self) -> &ScopeBase<'scope> {
        &self.base
    }
}

impl<'scope> AsScopeBase<'scope> for ScopeFifo<'scope> {
    fn base(&self) -> &ScopeBase<'scope> {
        &self.base
    }
}

/// What both kinds of scope share.
struct ScopeBase<'scope> {
    /// The pool that the scope's jobs are spawned into.
    registry: Arc<Registry>,
    /// The first panic of the body or of a spawned job.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Counts the body and every spawned job not yet finished. Its owner is
    /// the thread that runs the body.
    job_completed_latch: CountLatch,
    /// Makes the scopes invariant in `'scope`, as the jobs they run borrow
    /// for it.
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
///
/// # Examples
///
/// ```
/// let mut left = 0;
/// let mut right = 0;
/// drowse::scope(|scope| {
///     scope.spawn(|_| left = 1);
///     scope.spawn(|_| right = 2);
/// });
/// // Every job spawned into the scope has run when `scope` returns.
/// assert_eq!((left, right), (1, 2));
/// ```
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    registry::in_worker(|owner_thread, _| {
        let scope = Scope::new(Some(owner_thread), owner_thread.registry());
        // SAFETY: `owner_thread` is the current thread's worker.
        unsafe { scope.base.complete(Some(owner_thread), || op(&scope)) }
    })
}

/// Like [`scope()`], but jobs spawned with [`ScopeFifo::spawn_fifo`] from one
/// thread start in the order they were spawned (first in, first out), where
/// [`Scope::spawn`] starts a thread's jobs newest first.
///
/// # Panics
/// As [`scope()`].
///
/// # Examples
///
/// ```
/// use std::sync::Mutex;
/// let order = Mutex::new(Vec::new());
/// drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| {
///     drowse::scope_fifo(|scope| {
///         for job in 0..3 {
///             let order = &order;
///             scope.spawn_fifo(move |_| order.lock().unwrap().push(job));
///         }
///     });
/// });
/// // One thread runs the jobs in the order they were spawned.
/// assert_eq!(order.into_inner().unwrap(), [0, 1, 2]);
/// ```
pub fn scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    registry::in_worker(|owner_thread, _| {
        let scope = ScopeFifo::new(Some(owner_thread), owner_thread.registry());
        // SAFETY: `owner_thread` is the current thread's worker.
        unsafe { scope.base.complete(Some(owner_thread), || op(&scope)) }
    })
}

/// Like [`scope()`], but `op` runs on the calling thread, whatever it is:
/// it need not be `Send` and may use the thread's locals. Its spawned jobs go
/// to the current pool (the global pool outside any pool). While the scope
/// waits for them, a worker thread runs other jobs of its own pool; any
/// other thread blocks.
///
/// # Panics
/// As [`scope()`].
///
/// # Examples
///
/// ```
/// let caller = std::thread::current().id();
/// let mut ran_on_caller = false;
/// drowse::in_place_scope(|scope| {
///     // The scope's own closure runs on the calling thread.
///     ran_on_caller = std::thread::current().id() == caller;
///     scope.spawn(|_| ());
/// });
/// assert!(ran_on_caller);
/// ```
pub fn in_place_scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    in_place_scope_in(None, op)
}

/// Like [`scope_fifo()`], but `op` runs on the calling thread, as for
/// [`in_place_scope()`].
///
/// # Panics
/// As [`scope()`].
pub fn in_place_scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    in_place_scope_fifo_in(None, op)
}

/// `in_place_scope` spawning into `registry` (the current pool when `None`).
pub(crate) fn in_place_scope_in<'scope, OP, R>(registry: Option<&Arc<Registry>>, op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    WorkerThread::with_current(|owner_thread| {
        let scope = Scope::new(owner_thread, in_place_registry(registry, owner_thread));
        // SAFETY: `owner_thread` is the current thread's worker, or `None` on
        // a thread outside every pool.
        unsafe { scope.base.complete(owner_thread, || op(&scope)) }
    })
}

/// `in_place_scope_fifo` spawning into `registry` (the current pool when
/// `None`).
pub(crate) fn in_place_scope_fifo_in<'scope, OP, R>(registry: Option<&Arc<Registry>>, op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    WorkerThread::with_current(|owner_thread| {
        let scope = ScopeFifo::new(owner_thread, in_place_registry(registry, owner_thread));
        // SAFETY: as in `in_place_scope_in`.
        unsafe { scope.base.complete(owner_thread, || op(&scope)) }
    })
}

/// The pool an in-place scope spawns into: `registry` if given, else the
/// pool of `owner_thread` (the current thread's worker), else the global
/// pool.
fn in_place_registry<'a>(
    registry: Option<&'a Arc<Registry>>,
    owner_thread: Option<&'a WorkerThread>,
) -> &'a Arc<Registry> {
    match (registry, owner_thread) {
        (Some(registry), _) => registry,
        (None, Some(owner_thread)) => owner_thread.registry(),
        (None, None) => registry::global_registry(),
    }
}

impl<'scope> Scope<'scope> {
    fn new(owner_thread: Option<&WorkerThread>, registry: &Arc<Registry>) -> Self {
        Scope {
            base: ScopeBase::new(owner_thread, registry),
        }
    }

    /// Spawns `body` into the scope's pool. It may borrow anything that
    /// outlives the scope; the scope does not end before it has run.
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        let scope_ptr = ScopePtr(self);
        let job = move || {
            // SAFETY: the scope waits for this job, so it is alive while the
            // job runs.
            body(unsafe { scope_ptr.get() })
        };
        // SAFETY: pushed once, below. The closure holds the scope by raw
        // pointer and derives `&Scope` only while it runs, which is before
        // the job counts itself done (see `ScopeJob`).
        let job_ref = unsafe { self.base.job_ref(job) };
        self.base.registry.inject_or_push(job_ref);
    }

    /// Spawns `body` on every worker of the scope's pool (see
    /// [`broadcast()`](crate::broadcast())): it runs once per worker, told
    /// which by its [`BroadcastContext`]. It may borrow anything that
    /// outlives the scope; the scope does not end before every worker has
    /// run it.
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&Scope<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        ScopeBase::spawn_broadcast(self, body);
    }
}

impl<'scope> ScopeFifo<'scope> {
    fn new(owner_thread: Option<&WorkerThread>, registry: &Arc<Registry>) -> Self {
        let base = ScopeBase::new(owner_thread, registry);
        let fifos = (0..base.registry.num_threads())
            .map(|_| JobFifo::new())
            .collect();
        ScopeFifo { base, fifos }
    }

    /// Spawns `body` into the scope's pool. Jobs spawned from one worker
    /// thread start in the order they were spawned; from outside the pool
    /// they go through its injector, which is FIFO too. It may borrow
    /// anything that outlives the scope; the scope does not end before it
    /// has run.
    pub fn spawn_fifo<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&ScopeFifo<'scope>) + Send + 'scope,
    {
        let scope_ptr = ScopePtr(self);
        let job = move || {
            // SAFETY: the scope waits for this job, so it is alive while the
            // job runs.
            body(unsafe { scope_ptr.get() })
        };
        // SAFETY: pushed once, below (through the FIFO queue); as in
        // `Scope::spawn`.
        let job_ref = unsafe { self.base.job_ref(job) };
        let registry = &self.base.registry;
        registry.with_current_thread(|worker_thread| match worker_thread {
            Some(worker_thread) => {
                let fifo = &self.fifos[worker_thread.index()];
                // SAFETY: the queue lives in the scope, which outlives every
                // job spawned in it; each `JobRef` to the queue carries one
                // job of its own, so when the last job is done every such
                // `JobRef` has run. It is pushed once, so it runs once.
                worker_thread.push(unsafe { fifo.push(job_ref) });
            }
            None => registry.inject(job_ref),
        })
    }

    /// Spawns `body` on every worker of the scope's pool, as
    /// [`Scope::spawn_broadcast`] does.
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&ScopeFifo<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        ScopeBase::spawn_broadcast(self, body);
    }
}

impl<'scope> ScopeBase<'scope> {
    fn new(owner_thread: Option<&WorkerThread>, registry: &Arc<Registry>) -> Self {
        ScopeBase {
            registry: Arc::clone(registry),
            panic: Mutex::new(None),
            job_completed_latch: CountLatch::new(owner_thread),
            marker: PhantomData,
        }
    }

    /// Counts a spawned job and makes the `JobRef` that runs `func` once
    /// and then counts the job done (see [`ScopeJob`]).
    ///
    /// # Safety
    /// The caller pushes the `JobRef` once. `func` may use the scope only
    /// while it runs: it must hold the scope by raw pointer (`ScopePtr`),
    /// never by reference, since the scope can be freed as soon as the job
    /// counts itself done.
    unsafe fn job_ref<F>(&self, func: F) -> JobRef
    where
        F: FnOnce() + Send + 'scope,
    {
        self.job_completed_latch.increment();
        let job = Box::new(ScopeJob { scope: self, func });
        // SAFETY: the box is leaked here and reclaimed in `ScopeJob::execute`,
        // which runs once (the caller's contract); the scope, which
        // everything `F` borrows outlives, waits for it.
        unsafe { JobRef::new(Box::into_raw(job)) }
    }

    /// `spawn_broadcast` of both kinds of scope: one job per worker, each
    /// calling `body` (shared, reference-counted) with `scope` and its
    /// worker's context. Each job's reference to `body` is released when
    /// its closure returns, before the job counts itself done: so `body`
    /// (which may borrow for `'scope`) is dropped while the scope is still
    /// alive.
    fn spawn_broadcast<S, BODY>(scope: &S, body: BODY)
    where
        S: AsScopeBase<'scope>,
        BODY: Fn(&S, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let base = scope.base();
        let scope_ptr = ScopePtr(scope);
        let body = Arc::new(body);
        let job_refs: Vec<JobRef> = (0..base.registry.num_threads())
            .map(|_| {
                let body = Arc::clone(&body);
                let job = move || {
                    // SAFETY: the scope waits for this job, so it is alive
                    // while the job runs.
                    let scope = unsafe { scope_ptr.get() };
                    BroadcastContext::with(|context| body(scope, context));
                };
                // SAFETY: pushed once below. The closure holds the scope by
                // raw pointer: when it captured `&S` and counted the scope
                // down itself, the owner could free the scope while that
                // reference was still protected in the closure's frame
                // (docs/checking.md, "What Miri found, and the audit").
                unsafe { base.job_ref(job) }
            })
            .collect();
        drop(body);
        base.registry.inject_broadcast(job_refs.into_iter());
    }

    /// Runs the body, waits for the spawned jobs, resumes the first panic.
    ///
    /// # Safety
    /// `owner_thread` must be the current thread's worker (`None` on a
    /// thread outside every pool), the owner the scope was made for.
    unsafe fn complete<R>(
        &self,
        owner_thread: Option<&WorkerThread>,
        body: impl FnOnce() -> R,
    ) -> R {
        // SAFETY: `self` is live, and the body is counted (the count starts
        // at one).
        let result = unsafe { ScopeBase::run_job(self, body) };
        // SAFETY: we are the scope's owner, so counting the body done cannot
        // free the scope under us.
        unsafe { ScopeBase::count_job_done(self) };
        // SAFETY: forwarded.
        unsafe { self.job_completed_latch.wait(owner_thread) };
        if let Some(payload) = self.panic.lock().unwrap().take() {
            unwind::resume_unwinding(payload);
        }
        result.expect("without a panic, the body returned a value")
    }

    /// Runs a job of the scope (or the body) and records its panic; the
    /// caller counts the job done afterwards, with `count_job_done`, once
    /// this call has returned.
    ///
    /// Two calls, not one: the frame that runs `job` holds `job` (and with
    /// it every reference the closure captured: the scope, what the job
    /// borrows for `'scope`) as an argument, and an argument's references
    /// stay protected until that frame returns. Once the latch is counted
    /// down the scope's owner may return and free all of that, so the
    /// count-down must come after this frame is gone, from a frame that
    /// holds the scope by raw pointer only.
    ///
    /// # Safety
    /// `this` must point to a live scope that counted this job.
    unsafe fn run_job<R>(this: *const Self, job: impl FnOnce() -> R) -> Option<R> {
        match unwind::halt_unwinding(job) {
            Ok(value) => Some(value),
            Err(payload) => {
                // SAFETY: the latch is not counted down yet, so `*this` is
                // live.
                let panic = unsafe { &(*this).panic };
                panic.lock().unwrap().get_or_insert(payload);
                None
            }
        }
    }

    /// Counts a job of the scope (or the body) done.
    ///
    /// Takes a raw pointer, not `&self`: once the latch is counted down the
    /// scope's owner may return and free the scope, and a reference argument
    /// would claim that it stays live until this function returns.
    ///
    /// # Safety
    /// `this` must point to a live scope that counted this job, and no frame
    /// still running may hold a reference to the scope or to anything the
    /// job borrows as an argument (see `run_job`); nothing may use `*this`
    /// after this call.
    unsafe fn count_job_done(this: *const Self) {
        // SAFETY: `*this` is live until the latch is counted down, and
        // `Latch::set` touches nothing of it after that.
        unsafe { Latch::set(ptr::addr_of!((*this).job_completed_latch)) };
        crate::sync::yield_after_set_under_miri();
    }
}

/// A job spawned in a scope, on the heap: the closure to run, and the scope
/// to count down once it has run.
///
/// Not a `HeapJob` whose closure counts the scope down at its end: the frame
/// of a closure's call holds its captures (the scope's pointer, and what the
/// spawned body borrows for `'scope`) as a protected argument until it
/// returns, which would be after the count-down, when the scope's owner may
/// already have freed them. Here the closure's call returns first, and the
/// count-down comes from `execute`, whose only argument is a raw pointer.
struct ScopeJob<'scope, F> {
    scope: *const ScopeBase<'scope>,
    func: F,
}

impl<F: FnOnce() + Send> Job for ScopeJob<'_, F> {
    unsafe fn execute(this: *const ()) {
        // SAFETY: `this` came from `Box::into_raw` in `ScopeBase::job_ref` and
        // runs once, so we own the box again; it is freed here, before the
        // job runs.
        let ScopeJob { scope, func } = *unsafe { Box::from_raw(this.cast::<Self>().cast_mut()) };
        // SAFETY: the scope counted this job and waits for it.
        let _: Option<()> = unsafe { ScopeBase::run_job(scope, func) };
        // SAFETY: `run_job` has returned, so `func` and its captures are gone
        // and no running frame holds a reference into the scope; this frame
        // holds only the raw `scope`, unused after this call.
        unsafe { ScopeBase::count_job_done(scope) };
    }
}

impl fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope")
            .field("num_threads", &self.base.registry.num_threads())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for ScopeFifo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopeFifo")
            .field("num_threads", &self.base.registry.num_threads())
            .field("num_fifos", &self.fifos.len())
            .finish_non_exhaustive()
    }
}

/// A pointer to a scope that spawned jobs carry to other threads.
struct ScopePtr<T>(*const T);

// SAFETY: the scopes are `Sync` (a registry handle, a mutex, atomics, FIFO
// queues), so sharing one by pointer is sound while it is alive, which the
// scope ensures by waiting for every job that holds a `ScopePtr`.
unsafe impl<T: Sync> Send for ScopePtr<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for ScopePtr<T> {}

impl<T> Clone for ScopePtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ScopePtr<T> {}

impl<T> ScopePtr<T> {
    /// # Safety
    /// The scope must still be alive.
    unsafe fn get<'a>(self) -> &'a T {
        // SAFETY: forwarded.
        unsafe { &*self.0 }
    }
}
