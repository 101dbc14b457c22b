//! A minimal loom test of code on Drowse: loom explores the interleavings of a
//! two-worker pool running one `join`, up to two preemptions.
#![cfg(loom)]

use loom::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn both_halves_of_a_join_count() {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(2);
    builder.check(|| {
        let pool = drowse::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let hits = AtomicUsize::new(0);
        let hit = || {
            hits.fetch_add(1, Ordering::Relaxed);
        };
        pool.install(|| drowse::join(hit, hit));
        // Loom wants every thread finished when the model's closure returns.
        pool.shutdown_and_wait();
        // `install` returned, so both halves ran and their increments
        // happen-before this load: it reads 2 under C++20 as under loom.
        assert_eq!(hits.load(Ordering::Relaxed), 2);
    });
}
