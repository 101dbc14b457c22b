//! The global pool: built on first use or by `build_global`, and the entry
//! points that fall back to it outside any pool.

use super::{Registry, RegistryKind, StartedRegistry, WorkerThread};
use crate::builder::ErrorKind;
use crate::sync::{Arc, ExecutionOnceLock};
use crate::thread_builder::ThreadSpawn;
use crate::unwind;
use crate::{ThreadPoolBuildError, ThreadPoolBuilder};

/// The global pool, built on first use or by `build_global`. Holds why the
/// build failed when it did: the global pool is built at most once.
///
/// In the std world it is never torn down; its threads live until the
/// process exits. Under loom and shuttle each execution of a model has its
/// own (built on first use or by `build_global` in that execution), which
/// ends, as a dropped `ThreadPool` does, once every thread of the execution
/// that used it has exited (see `ExecutionOnceLock`).
static GLOBAL_REGISTRY: ExecutionOnceLock<Result<Arc<Registry>, String>> =
    ExecutionOnceLock::new(end_global_registry);

/// Ends an execution's global pool under the checkers: its workers exit once
/// the jobs spawned into it have run.
fn end_global_registry(global: &Result<Arc<Registry>, String>) {
    if let Ok(registry) = global {
        registry.terminate();
    }
}

/// Builds the global pool from `builder`, unless its build was attempted
/// before, and waits until its workers have started.
pub(crate) fn init_global_registry<S: ThreadSpawn>(
    builder: ThreadPoolBuilder<S>,
) -> Result<(), ThreadPoolBuildError> {
    // Answered here without touching the cell: under the checkers, getting
    // the cell's value makes this thread hold the pool, and a worker of the
    // global pool (calling `build_global` from a job) must not hold its own
    // pool, or the pool could never end.
    if GLOBAL_REGISTRY.is_initialized() {
        return Err(ThreadPoolBuildError::new(
            ErrorKind::GlobalPoolAlreadyInitialized,
        ));
    }
    let mut outcome = Err(ThreadPoolBuildError::new(
        ErrorKind::GlobalPoolAlreadyInitialized,
    ));
    let mut panic = None;
    let mut started_waiter = None;
    let slot = GLOBAL_REGISTRY.get_or_init(|| {
        match unwind::halt_unwinding(|| Registry::start(builder, RegistryKind::Global)) {
            Ok(Ok(started)) => {
                // The global pool's threads are detached: nobody joins them.
                outcome = Ok(());
                started_waiter = started.started;
                Ok(started.registry)
            }
            Ok(Err(error)) => {
                let reason = format!("building it failed: {error}");
                outcome = Err(error);
                Err(reason)
            }
            Err(payload) => {
                panic = Some(payload);
                Err("building it panicked".to_owned())
            }
        }
    });
    if let Some(payload) = panic {
        unwind::resume_unwinding(payload);
    }
    outcome?;
    debug_assert!(slot.is_ok(), "built just now");
    // The one wait for the global registry's starts, by the thread whose
    // closure built it (`outcome` is `Ok`).
    started_waiter
        .expect("the global registry counts starts")
        .wait();
    Ok(())
}

/// The global pool, built with default settings if needed.
///
/// # Panics
/// When the global pool could not be built (now or by an earlier
/// `build_global`). Only where the target cannot start threads at all does
/// the default build fall back to a pool of one worker: the calling thread.
pub(crate) fn global_registry() -> &'static Arc<Registry> {
    let slot = GLOBAL_REGISTRY.get_or_init(|| {
        default_global_registry(|builder| Registry::start(builder, RegistryKind::Global))
            .map(|started| started.registry)
            .map_err(|error| format!("building it failed: {error}"))
    });
    match slot {
        Ok(registry) => registry,
        Err(reason) => panic!("The global thread pool has not been initialized: {reason}"),
    }
}

/// Builds the default global pool with `start`. Where threads are not
/// supported at all, falls back to a one-worker pool made of the calling
/// thread (unless it is a worker already); any other error is returned.
pub(crate) fn default_global_registry<F>(
    mut start: F,
) -> Result<StartedRegistry, ThreadPoolBuildError>
where
    F: FnMut(ThreadPoolBuilder) -> Result<StartedRegistry, ThreadPoolBuildError>,
{
    match start(ThreadPoolBuilder::new()) {
        Err(error) if error.is_unsupported() && !WorkerThread::is_current_thread_a_worker() => {
            let fallback = ThreadPoolBuilder::new().num_threads(1).use_current_thread();
            start(fallback).map_err(|_| error)
        }
        result => result,
    }
}

/// The pool of the current worker, or the global pool.
pub(crate) fn current_registry() -> Arc<Registry> {
    WorkerThread::with_current(|worker_thread| match worker_thread {
        Some(worker_thread) => Arc::clone(&worker_thread.registry),
        None => Arc::clone(global_registry()),
    })
}

/// Runs `op` on a worker: this one, or one of the global pool.
///
/// Never inlined: a recursion through `join` (`f` calls `join(|| f(..), ..)`)
/// is a cycle of calls that the compiler must break somewhere. Out of line,
/// this function is where it breaks: `join`'s closure is inlined into it,
/// and the caller's function (a tree sum's step, small once this call is a
/// plain call) into `join`'s closure and its inline run of the second job.
/// Inlined, the cycle broke at the caller's function instead, whose every
/// call then paid its own prologue and thread-local read (docs/performance.md,
/// "What the hot paths rely on").
#[inline(never)]
pub(crate) fn in_worker<OP, R>(op: OP) -> R
where
    OP: FnOnce(&WorkerThread, bool) -> R + Send,
    R: Send,
{
    WorkerThread::with_current(|worker_thread| match worker_thread {
        Some(worker_thread) => op(worker_thread, false),
        None => in_global_worker(op),
    })
}

/// `in_worker` from outside every pool: cold and out of line, so that
/// `in_worker`'s own code is the worker's path (a thread-local load and a
/// call to `op`) with no registers saved for this one.
#[cold]
#[inline(never)]
fn in_global_worker<OP, R>(op: OP) -> R
where
    OP: FnOnce(&WorkerThread, bool) -> R + Send,
    R: Send,
{
    global_registry().in_worker(op)
}
