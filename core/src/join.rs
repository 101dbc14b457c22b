//! `join`: run two closures, potentially in parallel.

use crate::job::StackJob;
use crate::latch::SpinLatch;
use crate::registry::{self, WorkerThread};
use crate::unwind;
use crate::FnContext;
use std::any::Any;

/// Runs `oper_a` and `oper_b`, potentially in parallel, and returns both
/// results.
///
/// The calling thread runs `oper_a` and offers `oper_b` to other workers; if
/// nobody has taken `oper_b` by the time `oper_a` returns, the caller runs it
/// too. Outside any pool, the call moves into the global pool first.
///
/// # Panics
/// If either closure panics, `join` waits for the other one to finish and
/// then resumes the panic (`oper_a`'s if both panic).
///
/// # Examples
///
/// ```
/// let values = [1, 2, 3, 4, 5, 6];
/// let (left, right) = values.split_at(3);
/// let (a, b) = drowse::join(|| left.iter().sum::<i32>(), || right.iter().sum::<i32>());
/// assert_eq!((a, b), (6, 15));
/// ```
pub fn join<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    join_context(|_| oper_a(), |_| oper_b())
}

/// `join`, where each closure is told whether it runs on a different thread
/// from the one that called `join_context` (see [`FnContext::migrated`]).
///
/// # Examples
///
/// ```
/// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (a_migrated, b) = pool.install(|| {
///     drowse::join_context(|context| context.migrated(), |_| "second")
/// });
/// // The first closure runs on the thread that called `join_context`.
/// assert!(!a_migrated);
/// assert_eq!(b, "second");
/// ```
pub fn join_context<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    registry::in_worker(|worker_thread, injected| {
        if worker_thread.join_in_line() {
            join_in_line(injected, oper_a, oper_b)
        } else {
            join_recorded(worker_thread, injected, oper_a, oper_b)
        }
    })
}

/// A join that records nothing (`WorkerThread::join_in_line` says when):
/// `oper_a` then `oper_b` on this thread, as sequential code would run them,
/// each told what a private second half is told. If `oper_a` panics,
/// `oper_b` still runs first, as it would have had it been recorded.
#[inline(always)]
fn join_in_line<A, B, RA, RB>(injected: bool, oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA,
    B: FnOnce(FnContext) -> RB,
{
    let result_a = match unwind::halt_unwinding(|| oper_a(FnContext::new(injected))) {
        Ok(value) => value,
        Err(payload) => run_then_resume(|| oper_b(FnContext::new(injected)), payload),
    };
    (result_a, oper_b(FnContext::new(injected)))
}

/// A join that records its second half (`WorkerThread::push_join_half`).
/// Not inlined into `join_context`: the in-line path, the common one in a
/// deep recursion, then saves and restores only the registers it uses.
#[inline(never)]
fn join_recorded<A, B, RA, RB>(
    worker_thread: &WorkerThread,
    injected: bool,
    oper_a: A,
    oper_b: B,
) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let job_b = StackJob::new(
        |migrated| oper_b(FnContext::new(migrated)),
        SpinLatch::new(worker_thread),
    );
    // SAFETY: `job_b` stays on this stack until it has run, either inline
    // below or elsewhere with its latch observed set below.
    let job_b_ref = unsafe { job_b.as_job_ref() };
    let job_b_id = job_b_ref.id();
    let slot = worker_thread.push_join_half(job_b_ref);

    let result_a = match unwind::halt_unwinding(|| oper_a(FnContext::new(injected))) {
        Ok(value) => value,
        Err(payload) => {
            if worker_thread.take_private_join_half(slot) {
                run_then_resume(|| job_b.run_inline(injected), payload)
            }
            wait_then_resume(worker_thread, &job_b.latch, payload)
        }
    };

    if worker_thread.take_private_join_half(slot) {
        // Nobody asked for `job_b`: nobody else ever saw it.
        let result_b = job_b.run_inline(injected);
        return (result_a, result_b);
    }
    // Published: take `job_b` back if nobody stole it, running whatever
    // newer jobs `oper_a` left above it.
    while !job_b.latch.probe() {
        match worker_thread.take_local_job() {
            Some(job) if job.id() == job_b_id => {
                let result_b = job_b.run_inline(injected);
                return (result_a, result_b);
            }
            // SAFETY: popped from our deque, so not run before.
            Some(job) => unsafe { worker_thread.execute(job) },
            None => {
                // Stolen: wait for the thief, working meanwhile.
                // SAFETY: `worker_thread` is the current thread's worker.
                unsafe { worker_thread.wait_until(&job_b.latch) };
                crate::sync::debug_assert_shared!(job_b.latch.probe());
                break;
            }
        }
    }
    // SAFETY: the latch is set.
    (result_a, unsafe { job_b.into_result() })
}

/// `oper_a` panicked and its second half was never published: run that
/// half here, as a published one would have run, and resume `oper_a`'s panic
/// (the second half's own panic, if any, is dropped: the first closure's
/// wins).
#[cold]
fn run_then_resume<R>(oper_b: impl FnOnce() -> R, payload: Box<dyn Any + Send>) -> ! {
    // The value or panic of `oper_b` is dropped here, in either case.
    let _ = unwind::halt_unwinding(oper_b);
    unwind::resume_unwinding(payload)
}

/// `oper_a` panicked: `job_b` still points into this stack frame, so wait
/// until it is done before unwinding through it.
#[cold]
fn wait_then_resume(
    worker_thread: &WorkerThread,
    job_b_latch: &SpinLatch<'_>,
    payload: Box<dyn Any + Send>,
) -> ! {
    // SAFETY: `worker_thread` is the current thread's worker.
    unsafe { worker_thread.wait_until(job_b_latch) };
    unwind::resume_unwinding(payload)
}
