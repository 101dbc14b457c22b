//! Counting and summing with rayon: the code under test.

use rayon::prelude::*;

#[cfg(loom)]
use loom::sync::atomic::{AtomicUsize, Ordering};
#[cfg(shuttle)]
use shuttle::sync::atomic::{AtomicUsize, Ordering};
#[cfg(not(any(loom, shuttle)))]
use std::sync::atomic::{AtomicUsize, Ordering};

/// A hit counter shared by the threads of rayon's pool.
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

/// Records `items` hits from a parallel `for_each`.
pub fn count_items(hits: &Hits, items: usize, record: fn(&Hits)) {
    (0..items).into_par_iter().for_each(|_| record(hits));
}

/// Records one hit in each half of a `rayon::join`.
pub fn count_joined(hits: &Hits, record: fn(&Hits)) {
    rayon::join(|| record(hits), || record(hits));
}

/// Records one hit from each of two jobs spawned into a `rayon::scope`.
pub fn count_scoped(hits: &Hits, record: fn(&Hits)) {
    rayon::scope(|scope| {
        scope.spawn(|_| record(hits));
        scope.spawn(|_| record(hits));
    });
}

/// The sum of the squares of `values`, with `par_iter`, `map` and `sum`.
pub fn sum_of_squares(values: &[u64]) -> u64 {
    values.par_iter().map(|value| value * value).sum()
}
