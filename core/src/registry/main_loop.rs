//! The body of every worker thread that was handed out.

use super::current::WORKER_THREAD_STATE;
use super::WorkerThread;
use crate::thread_builder::ThreadBuilder;
use std::ptr;

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
    let worker_thread = &WorkerThread::new(worker, index, registry);
    WorkerThread::set_current(worker_thread);
    let registry = &*worker_thread.registry;

    if let Some(handler) = &registry.start_handler {
        registry.catch_unwind(|| handler(index));
    }

    // SAFETY: `worker_thread` is this thread's worker.
    unsafe { worker_thread.wait_until(&registry.thread_infos[index].terminate) };
    debug_assert!(
        worker_thread.take_local_job().is_none(),
        "a worker exits with jobs on its deque"
    );

    if let Some(handler) = &registry.exit_handler {
        registry.catch_unwind(|| handler(index));
    }
    WORKER_THREAD_STATE.with(|current| current.set(ptr::null()));
    // Last: whoever waits for the pool to stop may go on now.
    drop(lifetime);
}
