//! `ThreadPool`'s broadcast, FIFO, in-place scope and yield methods.

use super::ThreadPool;
use crate::broadcast::{self, BroadcastContext};
use crate::scope::{self, Scope, ScopeFifo};
use crate::spawn;
use crate::yielding::Yield;

impl ThreadPool {
    /// Runs `op` once on every worker thread of this pool and returns their
    /// results, in worker index order. `op` may borrow from the caller's
    /// stack; calls to `join`, `scope` and `spawn` inside it use this pool.
    ///
    /// A worker runs its share when it has no jobs of its own left, before
    /// it steals from others: so the broadcast reaches every worker soon,
    /// without cutting into the work a worker is in the middle of. Sleeping
    /// workers are woken for it.
    ///
    /// The caller waits for every worker: from outside any pool it blocks,
    /// and from a worker (of this pool, which runs its own share meanwhile,
    /// or of another) it runs other jobs while it waits.
    ///
    /// # Panics
    /// If `op` panics on one or more workers, one of the panics is resumed
    /// on the caller once every worker is done.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// let squares = pool.broadcast(|context| context.index() * context.index());
    /// assert_eq!(squares, [0, 1, 4]);
    /// ```
    pub fn broadcast<OP, R>(&self, op: OP) -> Vec<R>
    where
        OP: Fn(BroadcastContext<'_>) -> R + Sync,
        R: Send,
    {
        broadcast::broadcast_in(op, &self.registry)
    }

    /// Runs `op` once on every worker thread of this pool, without waiting.
    /// `op` cannot borrow from the caller's stack (it may run after the
    /// caller has returned). The pool stays alive until every worker has run
    /// it; a panic in `op` goes to the pool's panic handler, as for
    /// [`spawn`](Self::spawn).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (sender, receiver) = std::sync::mpsc::channel();
    /// pool.spawn_broadcast(move |context| sender.send(context.index()).unwrap());
    /// let mut indices: Vec<usize> = receiver.iter().take(2).collect();
    /// indices.sort();
    /// assert_eq!(indices, [0, 1]);
    /// ```
    pub fn spawn_broadcast<OP>(&self, op: OP)
    where
        OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
    {
        broadcast::spawn_broadcast_in(op, &self.registry)
    }

    /// [`spawn_fifo`](crate::spawn_fifo()) into this pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// let (sender, receiver) = std::sync::mpsc::channel();
    /// for job in 0..3 {
    ///     let sender = sender.clone();
    ///     pool.spawn_fifo(move || sender.send(job).unwrap());
    /// }
    /// drop(sender);
    /// // One worker, first in first out.
    /// assert_eq!(receiver.iter().collect::<Vec<_>>(), [0, 1, 2]);
    /// ```
    pub fn spawn_fifo<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn::spawn_fifo_in(op, &self.registry)
    }

    /// [`scope_fifo`](crate::scope_fifo()) in this pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut done = [false; 2];
    /// let (first, second) = done.split_at_mut(1);
    /// pool.scope_fifo(|scope| {
    ///     scope.spawn_fifo(|_| first[0] = true);
    ///     scope.spawn_fifo(|_| second[0] = true);
    /// });
    /// assert_eq!(done, [true, true]);
    /// ```
    pub fn scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
        R: Send,
    {
        self.install(|| scope::scope_fifo(op))
    }

    /// [`in_place_scope`](crate::in_place_scope()) whose jobs are spawned
    /// into this pool: `op` runs on the calling thread.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut value = 0;
    /// pool.in_place_scope(|scope| {
    ///     scope.spawn(|_| value = 7);
    /// });
    /// assert_eq!(value, 7);
    /// ```
    pub fn in_place_scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R,
    {
        scope::in_place_scope_in(Some(&self.registry), op)
    }

    /// [`in_place_scope_fifo`](crate::in_place_scope_fifo()) whose jobs are
    /// spawned into this pool: `op` runs on the calling thread.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut value = 0;
    /// pool.in_place_scope_fifo(|scope| {
    ///     scope.spawn_fifo(|_| value = 7);
    /// });
    /// assert_eq!(value, 7);
    /// ```
    pub fn in_place_scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R,
    {
        scope::in_place_scope_fifo_in(Some(&self.registry), op)
    }

    /// [`yield_now`](crate::yield_now()), when the current thread is a
    /// worker of this pool; `None` otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// // Not on one of this pool's threads.
    /// assert_eq!(pool.yield_now(), None);
    /// assert!(pool.install(|| pool.yield_now()).is_some());
    /// ```
    pub fn yield_now(&self) -> Option<Yield> {
        self.registry
            .with_current_thread(|worker_thread| Some(worker_thread?.yield_now()))
    }

    /// [`yield_local`](crate::yield_local()), when the current thread is a
    /// worker of this pool; `None` otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.yield_local(), None);
    /// let outcome = pool.install(|| {
    ///     pool.spawn(|| ());
    ///     pool.yield_local()
    /// });
    /// assert_eq!(outcome, Some(drowse::Yield::Executed));
    /// ```
    pub fn yield_local(&self) -> Option<Yield> {
        self.registry
            .with_current_thread(|worker_thread| Some(worker_thread?.yield_local()))
    }

    /// Whether the current worker's own deque holds jobs not yet taken, when
    /// the current thread is a worker of this pool; `None` otherwise. See
    /// [`current_thread_has_pending_tasks`](crate::current_thread_has_pending_tasks()).
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.current_thread_has_pending_tasks(), None);
    /// let pending = pool.install(|| {
    ///     pool.spawn(|| ());
    ///     // The spawned job waits in this worker's queue.
    ///     pool.current_thread_has_pending_tasks()
    /// });
    /// assert_eq!(pending, Some(true));
    /// ```
    pub fn current_thread_has_pending_tasks(&self) -> Option<bool> {
        self.registry
            .with_current_thread(|worker_thread| Some(worker_thread?.has_pending_tasks()))
    }
}
