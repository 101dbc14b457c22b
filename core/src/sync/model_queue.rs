//! Model work queues for the checker worlds, with `crossbeam-deque`'s
//! interface (`Worker` in its LIFO and FIFO flavours, `Stealer`, `Injector`,
//! `Steal`).
//!
//! The items live behind a checker mutex, but whether a queue is empty is
//! decided by one atomic load of `published_len` with `Acquire`, before any
//! lock is taken. The length is stored with `Release` after each change. Those
//! orderings are no stronger than crossbeam's (its `Injector::is_empty` loads
//! two indices; loom treats its `SeqCst` loads as acquire), so a consumer that
//! finds the queue empty has synchronized with nobody: a missing fence in the
//! sleep protocol stays visible to loom. A queue whose emptiness check took
//! the mutex would order the check after the push and hide that bug.

// The items mirror crossbeam-deque's API, which documents them.
#![allow(missing_docs)]

use super::atomic::{AtomicUsize, Ordering};
use super::{Arc, Mutex};
use std::collections::VecDeque;
use std::fmt;

/// The result of a steal, as in `crossbeam_deque::Steal`. The model never
/// asks for a retry, but the variant exists so that code written against
/// crossbeam compiles unchanged.
#[derive(Debug, PartialEq, Eq)]
pub enum Steal<T> {
    Empty,
    Success(T),
    Retry,
}

struct Queue<T> {
    items: Mutex<VecDeque<T>>,
    published_len: AtomicUsize,
}

impl<T> Queue<T> {
    fn new() -> Self {
        Queue {
            items: Mutex::new(VecDeque::new()),
            published_len: AtomicUsize::new(0),
        }
    }

    fn push(&self, item: T) {
        let mut items = self.items.lock().unwrap();
        items.push_back(item);
        self.published_len.store(items.len(), Ordering::Release);
        // The push took effect with that store; record it before the
        // unlock, a scheduling point (see `record`).
        super::record::queue_len(self.id(), items.len());
    }

    /// Tells this queue's records apart from another's.
    fn id(&self) -> usize {
        self as *const Self as usize
    }

    fn is_empty(&self) -> bool {
        self.published_len.load(Ordering::Acquire) == 0
    }

    fn take(&self, from_back: bool) -> Option<T> {
        if self.is_empty() {
            return None;
        }
        let mut items = self.items.lock().unwrap();
        let item = if from_back {
            items.pop_back()
        } else {
            items.pop_front()
        };
        if item.is_some() {
            self.published_len.store(items.len(), Ordering::Release);
            super::record::queue_len(self.id(), items.len());
        }
        item
    }

    fn len(&self) -> usize {
        self.published_len.load(Ordering::Acquire)
    }
}

fn steal_result<T>(item: Option<T>) -> Steal<T> {
    match item {
        Some(item) => Steal::Success(item),
        None => Steal::Empty,
    }
}

/// The owner's end of a work queue: LIFO or FIFO for the owner, as chosen
/// at construction; thieves always take the oldest item.
pub struct Worker<T> {
    queue: Arc<Queue<T>>,
    /// Whether the owner pops the newest item (LIFO) or the oldest (FIFO).
    owner_pops_newest: bool,
}

impl<T> Worker<T> {
    pub fn new_lifo() -> Self {
        Worker {
            queue: Arc::new(Queue::new()),
            owner_pops_newest: true,
        }
    }

    pub fn new_fifo() -> Self {
        Worker {
            queue: Arc::new(Queue::new()),
            owner_pops_newest: false,
        }
    }

    pub fn push(&self, item: T) {
        self.queue.push(item)
    }

    pub fn pop(&self) -> Option<T> {
        self.queue.take(self.owner_pops_newest)
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn stealer(&self) -> Stealer<T> {
        Stealer {
            queue: Arc::clone(&self.queue),
        }
    }
}

impl<T> fmt::Debug for Worker<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad("Worker { .. }")
    }
}

/// A thief's end of a worker's queue: takes the oldest item.
pub struct Stealer<T> {
    queue: Arc<Queue<T>>,
}

impl<T> Stealer<T> {
    pub fn steal(&self) -> Steal<T> {
        steal_result(self.queue.take(false))
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

impl<T> Clone for Stealer<T> {
    fn clone(&self) -> Self {
        Stealer {
            queue: Arc::clone(&self.queue),
        }
    }
}

impl<T> fmt::Debug for Stealer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad("Stealer { .. }")
    }
}

/// The FIFO queue that outside threads push into.
pub struct Injector<T> {
    queue: Queue<T>,
}

impl<T> Injector<T> {
    pub fn new() -> Self {
        Injector {
            queue: Queue::new(),
        }
    }

    pub fn push(&self, item: T) {
        self.queue.push(item)
    }

    pub fn steal(&self) -> Steal<T> {
        steal_result(self.queue.take(false))
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// The id this queue's `record::queue_len` records carry.
    pub(crate) fn id(&self) -> usize {
        self.queue.id()
    }
}

impl<T> Default for Injector<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> fmt::Debug for Injector<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad("Injector { .. }")
    }
}
