//! `ThreadBuilder`, what a spawn handler gets for each worker thread, and the
//! two ways of starting worker threads that `ThreadPoolBuilder`'s type
//! parameter chooses between.
//!
//! `ThreadSpawn`, `DefaultSpawn` and `CustomSpawn` are public (they appear
//! in `ThreadPoolBuilder`'s public signatures) but not exported: nobody
//! outside the crate can name them, so nobody can implement the trait.

use crate::job::JobRef;
use crate::lifecycle::WorkerLifetime;
use crate::registry::{self, Registry, WorkerThread};
use crate::sync::deque::Worker;
use crate::sync::{thread, Arc};
use std::fmt;
use std::io;

/// One worker thread of a pool being built, as a spawn handler
/// ([`ThreadPoolBuilder::spawn_handler`](crate::ThreadPoolBuilder::spawn_handler))
/// receives it: the handler starts a thread and calls [`run`](Self::run)
/// on it.
///
/// A `ThreadBuilder` that is dropped without running leaves its worker out
/// of the pool: the other workers do its share, and nothing waits for it.
pub struct ThreadBuilder {
    pub(crate) name: Option<String>,
    pub(crate) stack_size: Option<usize>,
    pub(crate) worker: Worker<JobRef>,
    pub(crate) registry: Arc<Registry>,
    pub(crate) index: usize,
    pub(crate) lifetime: WorkerLifetime,
}

impl ThreadBuilder {
    /// The index of this worker in its pool, in `0..num_threads`.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The name that [`ThreadPoolBuilder::thread_name`](crate::ThreadPoolBuilder::thread_name)
    /// gave this thread, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The stack size set with
    /// [`ThreadPoolBuilder::stack_size`](crate::ThreadPoolBuilder::stack_size),
    /// if any.
    pub fn stack_size(&self) -> Option<usize> {
        self.stack_size
    }

    /// Runs the worker on the current thread: it takes part in the pool
    /// until the pool ends, then returns (after the exit handler).
    ///
    /// # Panics
    /// If the current thread is already a worker of a pool (a thread can be
    /// the worker of one pool at a time). The pool then goes on without this
    /// worker.
    pub fn run(self) {
        assert!(
            !WorkerThread::is_current_thread_a_worker(),
            "ThreadBuilder::run was called on a thread that is already a worker of a pool"
        );
        // SAFETY: checked just above that this thread runs no worker yet, and
        // `self` carries the worker's own queue and index.
        unsafe { registry::main_loop(self) }
    }
}

impl fmt::Debug for ThreadBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadBuilder")
            .field("pool", &self.registry.address())
            .field("index", &self.index)
            .field("name", &self.name)
            .field("stack_size", &self.stack_size)
            .finish()
    }
}

/// How a pool starts its worker threads. Implemented only by this crate's
/// [`DefaultSpawn`] and [`CustomSpawn`].
pub trait ThreadSpawn {
    /// Starts a thread that calls `thread.run()`; returns its handle when
    /// there is one to join.
    #[doc(hidden)]
    fn spawn_worker(&mut self, thread: ThreadBuilder)
        -> io::Result<Option<thread::JoinHandle<()>>>;
}

/// Starts each worker on a new thread of the current world, with the
/// builder's name and stack size.
#[derive(Debug, Default)]
pub struct DefaultSpawn;

impl ThreadSpawn for DefaultSpawn {
    fn spawn_worker(
        &mut self,
        thread: ThreadBuilder,
    ) -> io::Result<Option<thread::JoinHandle<()>>> {
        let mut builder = thread::Builder::new();
        if let Some(name) = thread.name() {
            builder = builder.name(name.to_owned());
        }
        if let Some(stack_size) = thread.stack_size() {
            builder = builder.stack_size(stack_size);
        }
        let handle = builder.spawn(move || thread.run())?;
        Ok(Some(handle))
    }
}

/// Starts each worker with the closure given to
/// [`ThreadPoolBuilder::spawn_handler`](crate::ThreadPoolBuilder::spawn_handler).
#[derive(Debug)]
pub struct CustomSpawn<F>(F);

impl<F> CustomSpawn<F>
where
    F: FnMut(ThreadBuilder) -> io::Result<()>,
{
    pub(crate) fn new(spawn: F) -> Self {
        CustomSpawn(spawn)
    }
}

impl<F> ThreadSpawn for CustomSpawn<F>
where
    F: FnMut(ThreadBuilder) -> io::Result<()>,
{
    fn spawn_worker(
        &mut self,
        thread: ThreadBuilder,
    ) -> io::Result<Option<thread::JoinHandle<()>>> {
        (self.0)(thread)?;
        Ok(None)
    }
}

#[cfg(test)]
mod test;
