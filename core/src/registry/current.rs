//! The thread-locals that say which worker runs on the current thread, and
//! `AdoptedWorker`, the owner of a `use_current_thread` worker.

use super::WorkerThread;
use crate::sync::thread_local;
use std::cell::Cell;
use std::marker::PhantomData;
use std::ptr;

thread_local! {
    /// The worker running on this thread, or null. A `const` initialiser:
    /// in the std world each read is then one thread-local load, with no
    /// first-use check (`join` reads it on every call, and the check alone
    /// kept the recursion of a `join` tree from being inlined).
    pub(super) static WORKER_THREAD_STATE: Cell<*const WorkerThread> =
        const { Cell::new(ptr::null()) };
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
pub(super) struct AdoptedWorker(Cell<*mut WorkerThread>);

impl AdoptedWorker {
    /// Makes `worker_thread` this thread's worker until the thread exits.
    pub(super) fn adopt(worker_thread: WorkerThread) {
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

/// Makes a worker the current thread's worker for as long as the guard
/// lives, and clears `WORKER_THREAD_STATE` when it is dropped, on an unwind
/// too. It borrows the worker, so the worker outlives it: no reference to a
/// dropped worker can be taken from `WORKER_THREAD_STATE`.
pub(super) struct CurrentWorker<'w> {
    _worker_thread: PhantomData<&'w WorkerThread>,
}

impl<'w> CurrentWorker<'w> {
    /// The thread must have no current worker.
    pub(super) fn set(worker_thread: &'w WorkerThread) -> Self {
        WorkerThread::set_current(worker_thread);
        CurrentWorker {
            _worker_thread: PhantomData,
        }
    }
}

impl Drop for CurrentWorker<'_> {
    fn drop(&mut self) {
        WORKER_THREAD_STATE.with(|current| current.set(ptr::null()));
    }
}
