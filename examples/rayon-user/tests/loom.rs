//! Run with `RUSTFLAGS="--cfg loom" cargo test --release`.
#![cfg(loom)]

use rayon_user::{count_items, count_joined, count_scoped, sum_of_squares, Hits};

/// Every interleaving up to one preemption (unless `LOOM_MAX_PREEMPTIONS`
/// says otherwise) of the test's thread and the global pool's 2 workers
/// (each execution has a pool of its own, which ends by itself when the
/// closure returns). Two preemptions take minutes per test here: rayon's
/// splitting adds many steps to every execution.
fn check(body: impl Fn() + Send + Sync + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound.get_or_insert(1);
    builder.check(body);
}

#[test]
#[should_panic(expected = "a hit was lost")]
fn loom_finds_the_lost_update_in_for_each() {
    check(|| {
        let hits = Hits::new();
        count_items(&hits, 2, Hits::record_racy);
        assert_eq!(hits.total(), 2, "a hit was lost");
    });
}

#[test]
fn every_hit_counts_in_for_each() {
    check(|| {
        let hits = Hits::new();
        count_items(&hits, 2, Hits::record);
        assert_eq!(hits.total(), 2);
    });
}

#[test]
#[should_panic(expected = "a hit was lost")]
fn loom_finds_the_lost_update_in_join() {
    check(|| {
        let hits = Hits::new();
        count_joined(&hits, Hits::record_racy);
        assert_eq!(hits.total(), 2, "a hit was lost");
    });
}

#[test]
fn every_hit_counts_in_join_and_scope() {
    check(|| {
        let hits = Hits::new();
        count_joined(&hits, Hits::record);
        count_scoped(&hits, Hits::record);
        assert_eq!(hits.total(), 4);
    });
}

#[test]
fn the_sum_is_the_same_in_every_interleaving() {
    check(|| {
        let values: Vec<u64> = (1..=8).collect();
        assert_eq!(sum_of_squares(&values), 204);
    });
}

/// Called outside `loom::model`, rayon over Drowse's checker build says
/// what is wrong (the same message as when this crate's loom is another
/// version than Drowse's). Loom's own message is printed first: loom has no
/// public way to ask whether a model runs, so Drowse catches its panic.
/// (No loom object is made here: outside a model, making one panics in
/// loom before any Drowse call.)
#[test]
#[should_panic(
    expected = "drowse was built with `--cfg loom` against loom 0.7, and was called outside a loom 0.7 model"
)]
fn outside_a_model_the_panic_says_why() {
    sum_of_squares(&[1, 2, 3]);
}
