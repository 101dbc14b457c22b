//! Totals and sums with rayon: the code under test.

use rayon::prelude::*;

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};
#[cfg(shuttle)]
use shuttle::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(any(loom, shuttle)))]
use std::sync::atomic::{AtomicU64, Ordering};

/// A running total that the threads of rayon's pool add to. Its atomic is
/// the checker's in the checker worlds, so that the checker sees it.
#[derive(Debug, Default)]
pub struct Total(AtomicU64);

/// How a value is added to a [`Total`].
pub type Add = fn(&Total, u64);

impl Total {
    /// Adds with a read and a separate write: two threads can both read the
    /// old total, and one value is lost.
    pub fn add_racy(&self, value: u64) {
        let seen = self.0.load(Ordering::Relaxed);
        self.0.store(seen + value, Ordering::Relaxed);
    }

    /// Adds with one read-modify-write.
    pub fn add(&self, value: u64) {
        self.0.fetch_add(value, Ordering::Relaxed);
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Adds 1, 2, ..., `last` from a parallel `for_each`.
pub fn add_range(total: &Total, last: u64, add: Add) {
    (1..=last)
        .into_par_iter()
        .for_each(|value| add(total, value));
}

/// Adds 1 and 2 from the two halves of a `rayon::join`.
pub fn add_joined(total: &Total, add: Add) {
    rayon::join(|| add(total, 1), || add(total, 2));
}

/// Adds 1 and 2 from two jobs spawned into a `rayon::scope`.
pub fn add_scoped(total: &Total, add: Add) {
    rayon::scope(|scope| {
        scope.spawn(|_| add(total, 1));
        scope.spawn(|_| add(total, 2));
    });
}

/// The sum of the squares of `values`, with `par_iter`, `map` and `sum`.
pub fn sum_of_squares(values: &[u64]) -> u64 {
    values.par_iter().map(|value| value * value).sum()
}
