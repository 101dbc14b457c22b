//! Run with `RUSTFLAGS="--cfg shuttle" cargo test --release`.
#![cfg(shuttle)]

use rayon_user::{count_items, count_joined, count_scoped, sum_of_squares, Hits};

/// 1,000 random schedules. rayon's calls run on each execution's own global
/// pool (2 workers under the checkers), which ends by itself.
fn check(body: impl Fn() + Send + Sync + 'static) {
    shuttle::check_random(body, 1000);
}

#[test]
#[should_panic(expected = "a hit was lost")]
fn shuttle_finds_the_lost_update_in_for_each() {
    check(|| {
        let hits = Hits::new();
        count_items(&hits, 4, Hits::record_racy);
        assert_eq!(hits.total(), 4, "a hit was lost");
    });
}

#[test]
fn every_hit_counts_in_for_each() {
    check(|| {
        let hits = Hits::new();
        count_items(&hits, 4, Hits::record);
        assert_eq!(hits.total(), 4);
    });
}

#[test]
#[should_panic(expected = "a hit was lost")]
fn shuttle_finds_the_lost_update_in_join() {
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
#[should_panic(expected = "a hit was lost")]
fn shuttle_finds_the_lost_update_in_scope() {
    check(|| {
        let hits = Hits::new();
        count_scoped(&hits, Hits::record_racy);
        assert_eq!(hits.total(), 2, "a hit was lost");
    });
}

#[test]
fn the_sum_is_the_same_in_every_schedule() {
    check(|| {
        let values: Vec<u64> = (1..=100).collect();
        assert_eq!(sum_of_squares(&values), 338_350);
    });
}

/// Called outside `shuttle::check_*`, rayon over Drowse's checker build
/// says what is wrong (the same message as when this crate's shuttle is
/// another version than Drowse's).
#[test]
#[should_panic(
    expected = "drowse was built with `--cfg shuttle` against shuttle 0.9, and was called outside a shuttle 0.9 model"
)]
fn outside_a_model_the_panic_says_why() {
    sum_of_squares(&[1, 2, 3]);
}
