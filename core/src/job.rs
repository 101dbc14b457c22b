//! Jobs: type-erased pointers to work that some worker will run once.

use crate::latch::Latch;
use crate::sync::deque::{Injector, Steal};
use crate::sync::{hint, UnsafeCell};
use crate::unwind;
use std::any::Any;
use std::mem;

/// Takes a job with `steal` (from an injector or a stealer), trying again
/// while it reports a lost race; `None` when the queue is empty.
///
/// A retry means another thread's take won the race for the same slot: the
/// queue is moving, so the next try comes at once.
#[inline]
pub(crate) fn steal_until_settled(mut steal: impl FnMut() -> Steal<JobRef>) -> Option<JobRef> {
    loop {
        match steal() {
            Steal::Success(job) => return Some(job),
            Steal::Empty => return None,
            Steal::Retry => hint::spin_loop(),
        }
    }
}

/// Something a `JobRef` can point at.
pub(crate) trait Job {
    /// Runs the job.
    ///
    /// # Safety
    /// `this` must point to a live job that has not run yet; each job is run
    /// at most once.
    unsafe fn execute(this: *const ());
}

/// A pointer to a job plus the function that runs it. This is what the
/// queues hold; it is two words and `Copy`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JobRef {
    pointer: *const (),
    execute_fn: unsafe fn(*const ()),
}

// SAFETY: a `JobRef` is only created (by `JobRef::new`) for jobs whose
// contents are `Send`, and it is run by exactly one thread.
unsafe impl Send for JobRef {}
// SAFETY: the queues share `JobRef`s only to move them; no `&JobRef` is used
// to run a job from two threads.
unsafe impl Sync for JobRef {}

impl JobRef {
    /// # Safety
    /// `data` must stay alive and not move until the job has run, and it must
    /// run exactly once.
    pub(crate) unsafe fn new<T: Job>(data: *const T) -> JobRef {
        JobRef {
            pointer: data.cast(),
            execute_fn: <T as Job>::execute,
        }
    }

    /// Identifies the job, so that a worker can recognise its own job when it
    /// pops it back. The address alone would not do: every zero-sized job
    /// (a `HeapJob` of a closure that captures nothing) has the same dangling
    /// address, so the function that runs it is part of the identity.
    #[inline]
    pub(crate) fn id(&self) -> JobId {
        JobId {
            pointer: self.pointer,
            execute_fn: self.execute_fn,
        }
    }

    /// # Safety
    /// The job must not have run before.
    #[inline]
    pub(crate) unsafe fn execute(self) {
        // SAFETY: forwarded from `JobRef::new` and the caller.
        unsafe { (self.execute_fn)(self.pointer) }
    }
}

/// What tells one queued job from another: its data pointer together with
/// the function that runs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JobId {
    pointer: *const (),
    execute_fn: unsafe fn(*const ()),
}

impl PartialEq for JobId {
    fn eq(&self, other: &Self) -> bool {
        // The function addresses compared are copies of the one stored when
        // the `JobRef` was made, never addresses taken afresh, so the same
        // job always compares equal. Two different functions may share an
        // address when the compiler merges identical code; those jobs then
        // also have different data pointers, unless both are zero-sized, in
        // which case running either one runs the same code on no data.
        self.pointer == other.pointer && self.execute_fn as usize == other.execute_fn as usize
    }
}

impl Eq for JobId {}

/// The outcome of a job.
pub(crate) enum JobResult<T> {
    None,
    Ok(T),
    Panic(Box<dyn Any + Send>),
}

impl<T> JobResult<T> {
    fn call(func: impl FnOnce(bool) -> T) -> Self {
        match unwind::halt_unwinding(|| func(true)) {
            Ok(value) => JobResult::Ok(value),
            Err(payload) => JobResult::Panic(payload),
        }
    }

    /// The value, or the job's panic resumed on the calling thread.
    pub(crate) fn into_return_value(self) -> T {
        match self {
            JobResult::None => unreachable!("a job's result was taken before it ran"),
            JobResult::Ok(value) => value,
            JobResult::Panic(payload) => unwind::resume_unwinding(payload),
        }
    }
}

/// A job that lives on the stack of the thread that waits for it (`join`'s
/// second half, `install` from outside). The waiter keeps it alive until its
/// latch is set and then reads the result.
pub(crate) struct StackJob<L, F, R> {
    pub(crate) latch: L,
    func: UnsafeCell<Option<F>>,
    result: UnsafeCell<JobResult<R>>,
}

impl<L: Latch, F: FnOnce(bool) -> R + Send, R: Send> StackJob<L, F, R> {
    pub(crate) fn new(func: F, latch: L) -> Self {
        StackJob {
            latch,
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(JobResult::None),
        }
    }

    /// # Safety
    /// The job must stay where it is until it has run or been run inline.
    pub(crate) unsafe fn as_job_ref(&self) -> JobRef {
        // SAFETY: forwarded from the caller.
        unsafe { JobRef::new(self) }
    }

    /// Runs the closure on this thread, because nobody stole the job.
    /// Always inlined: `join` calls it in a recursion (the closure joins
    /// again), which the compiler does not inline on its own, and a call
    /// that moves the job costs about twenty instructions a join.
    #[inline(always)]
    pub(crate) fn run_inline(self, stolen: bool) -> R {
        // Consuming the cell moves the closure out without writing `None`
        // back into a job that is about to go away (one store per join).
        let func = self.func.into_inner();
        func.expect("a job ran twice")(stolen)
    }

    /// The result, after the latch was set.
    ///
    /// # Safety
    /// The latch must have been observed set.
    pub(crate) unsafe fn into_result(self) -> R {
        self.result.into_inner().into_return_value()
    }
}

impl<L: Latch, F: FnOnce(bool) -> R + Send, R: Send> Job for StackJob<L, F, R> {
    unsafe fn execute(this: *const ()) {
        // SAFETY: `this` came from `as_job_ref` on a live `StackJob` of this
        // type, which its owner keeps alive until the latch is set.
        let this = unsafe { &*this.cast::<Self>() };
        let abort = unwind::AbortIfPanic;
        // SAFETY: only the one thread running the job touches `func`.
        let func = this.func.with_mut(|func| unsafe { (*func).take() });
        let func = func.expect("a job ran twice");
        let result = JobResult::call(func);
        // SAFETY: the owner reads `result` only after seeing the latch set.
        this.result.with_mut(|slot| unsafe { *slot = result });
        // SAFETY: `this.latch` is live; we do not touch `this` after setting.
        unsafe { Latch::set(&this.latch) };
        crate::sync::yield_after_set_under_miri();
        mem::forget(abort);
    }
}

/// A job on the heap, for `spawn`: nobody waits for it, so it owns itself.
pub(crate) struct HeapJob<F> {
    func: F,
}

impl<F: FnOnce() + Send> HeapJob<F> {
    pub(crate) fn new(func: F) -> Box<Self> {
        Box::new(HeapJob { func })
    }

    /// Hands the job to the queues; it frees itself when it runs.
    ///
    /// # Safety
    /// The returned `JobRef` must run exactly once, and anything `func`
    /// borrows must outlive that run.
    pub(crate) unsafe fn into_job_ref(self: Box<Self>) -> JobRef {
        // SAFETY: the box is leaked here and reclaimed in `execute`.
        unsafe { JobRef::new(Box::into_raw(self)) }
    }
}

impl<F: FnOnce() + Send> Job for HeapJob<F> {
    unsafe fn execute(this: *const ()) {
        // SAFETY: `this` came from `Box::into_raw` in `into_job_ref` and runs
        // once, so we own the box again.
        let this = unsafe { Box::from_raw(this.cast::<Self>().cast_mut()) };
        (this.func)();
    }
}

/// A worker's (or a FIFO scope's) queue of FIFO jobs. `spawn_fifo` pushes
/// the job here and a `JobRef` to the queue itself onto the worker's deque:
/// whoever runs that `JobRef`, popped LIFO by the owner or stolen FIFO by a
/// thief, runs the OLDEST job of the queue, so the jobs of one thread start
/// in the order they were spawned.
pub(crate) struct JobFifo {
    jobs: Injector<JobRef>,
}

impl JobFifo {
    pub(crate) fn new() -> JobFifo {
        JobFifo {
            jobs: Injector::new(),
        }
    }

    /// Queues `job` and returns the `JobRef` to push in its place.
    ///
    /// # Safety
    /// `self` must stay alive and in place until the returned `JobRef` has
    /// run, and that `JobRef` must run exactly once.
    pub(crate) unsafe fn push(&self, job: JobRef) -> JobRef {
        self.jobs.push(job);
        // SAFETY: forwarded from the caller.
        unsafe { JobRef::new(self) }
    }
}

impl Job for JobFifo {
    unsafe fn execute(this: *const ()) {
        // SAFETY: `this` came from `JobFifo::push` on a queue the caller
        // keeps alive until this `JobRef` has run.
        let this = unsafe { &*this.cast::<Self>() };
        // Every `JobRef` to the queue was pushed together with one job, and
        // each runs once, so there is a job for this run.
        let job = steal_until_settled(|| this.jobs.steal())
            .expect("a FIFO queue ran more often than jobs were pushed");
        // SAFETY: popped from the queue, so it has not run before.
        unsafe { job.execute() }
    }
}
