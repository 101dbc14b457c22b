//! A hit counter that two halves of a `drowse::join` update at once.

#[cfg(loom)]
use loom::sync::atomic::{AtomicUsize, Ordering};
#[cfg(not(loom))]
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Debug, Default)]
pub struct Hits {
    count: AtomicUsize,
}

impl Hits {
    pub fn new() -> Hits {
        Hits::default()
    }

    /// Counts a hit with a read and a separate write: two threads can both
    /// read the old value, and one hit is lost.
    pub fn record_racy(&self) {
        let seen = self.count.load(Ordering::Relaxed);
        self.count.store(seen + 1, Ordering::Relaxed);
    }

    /// Counts a hit with one read-modify-write.
    pub fn record(&self) {
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    pub fn total(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }
}
