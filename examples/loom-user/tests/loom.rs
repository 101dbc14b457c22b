//! Run with `RUSTFLAGS="--cfg loom" cargo test --release --tests`.
#![cfg(loom)]

use loom_user::Hits;

/// Two workers, the test's own thread outside the pool, and every
/// interleaving of them up to two preemptions.
fn check(body: impl Fn() + Send + Sync + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(2);
    builder.check(body);
}

/// Both halves of the join record a hit on the pool's two workers.
fn two_hits(record: fn(&Hits)) -> usize {
    let pool = drowse::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let hits = Hits::new();
    pool.install(|| drowse::join(|| record(&hits), || record(&hits)));
    // Every worker has exited before the model's execution ends.
    pool.shutdown_and_wait();
    hits.total()
}

#[test]
#[should_panic(expected = "a hit was lost")]
fn loom_finds_the_lost_update() {
    check(|| assert_eq!(two_hits(Hits::record_racy), 2, "a hit was lost"));
}

#[test]
fn every_hit_counts_with_fetch_add() {
    check(|| assert_eq!(two_hits(Hits::record), 2));
}

/// The same race on the global pool: `drowse::join` called outside any pool
/// runs on this execution's own global pool (2 workers under loom), which
/// ends by itself when the model's closure returns.
#[test]
#[should_panic(expected = "a hit was lost")]
fn loom_finds_the_lost_update_on_the_global_pool() {
    check(|| {
        let hits = Hits::new();
        drowse::join(|| hits.record_racy(), || hits.record_racy());
        assert_eq!(hits.total(), 2, "a hit was lost");
    });
}

#[test]
fn every_hit_counts_on_the_global_pool() {
    check(|| {
        let hits = Hits::new();
        drowse::join(|| hits.record(), || hits.record());
        assert_eq!(hits.total(), 2);
    });
}
