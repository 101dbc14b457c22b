//! The body of every worker thread that was handed out.

use super::current::CurrentWorker;
use super::WorkerThread;
use crate::sync::record::{self, Step};
use crate::thread_builder::ThreadBuilder;
use crate::unwind;
use std::mem;

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
    let worker_thread = WorkerThread::new(worker, index, registry);
    run(&worker_thread);
    // The worker's deque and its reference to the registry go before the
    // countdown below: once it reaches zero, the thread in
    // `ThreadPool::shutdown_and_wait` may drop the last reference to the
    // pool (and with it the pool's handlers), and it must find this worker
    // holding none.
    drop(worker_thread);
    // Last: whoever waits for the pool to stop may go on now.
    drop(lifetime);
}

/// Runs the worker until its pool ends, as the current thread's worker.
fn run(worker_thread: &WorkerThread) {
    let _current = CurrentWorker::set(worker_thread);
    // Nothing below unwinds (the handlers' panics are caught, and
    // `wait_until` aborts on one), and a panic that did would end the
    // worker without counting it stopped, so `shutdown_and_wait` would hang:
    // abort instead. (Dropped before `_current`, so it aborts first.)
    let abort = unwind::AbortIfPanic;
    let registry = &*worker_thread.registry;
    let index = worker_thread.index();

    if let Some(handler) = &registry.start_handler {
        registry.catch_unwind(|| handler(index));
    }

    // SAFETY: `worker_thread` is this thread's worker.
    unsafe { worker_thread.wait_until(&registry.thread_infos[index].terminate) };
    record::step(Step::Exit, Some(index));
    crate::sync::debug_assert_shared!(
        worker_thread.take_local_job().is_none(),
        "a worker exits with jobs on its deque"
    );

    if let Some(handler) = &registry.exit_handler {
        registry.catch_unwind(|| handler(index));
    }
    mem::forget(abort);
}
