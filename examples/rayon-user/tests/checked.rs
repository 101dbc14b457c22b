//! Run with `RUSTFLAGS="--cfg shuttle" cargo test --release`, or the same
//! with `--cfg loom`: the same tests under either checker.
#![cfg(any(loom, shuttle))]

use rayon_user::{add_joined, add_range, add_scoped, sum_of_squares, Total};

/// 1,000 random schedules. rayon's calls run on each execution's own global
/// pool (2 workers under the checkers), which ends by itself.
#[cfg(shuttle)]
fn check(body: impl Fn() + Send + Sync + 'static) {
    shuttle::check_random(body, 1000);
}

/// Every interleaving up to one preemption (unless `LOOM_MAX_PREEMPTIONS`
/// says otherwise) of the test's thread and the global pool's 2 workers.
/// Two preemptions take minutes per test: rayon's splitting adds many steps
/// to every execution.
#[cfg(loom)]
fn check(body: impl Fn() + Send + Sync + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound.get_or_insert(1);
    builder.check(body);
}

/// Runs `adding` on a fresh total and returns the total.
fn total_after(adding: impl FnOnce(&Total)) -> u64 {
    let total = Total::default();
    adding(&total);
    total.get()
}

#[test]
#[should_panic(expected = "a value was lost")]
fn the_checker_finds_the_lost_update_in_for_each() {
    check(|| {
        let total = total_after(|total| add_range(total, 2, Total::add_racy));
        assert_eq!(total, 3, "a value was lost");
    });
}

#[test]
#[should_panic(expected = "a value was lost")]
fn the_checker_finds_the_lost_update_in_join() {
    check(|| {
        assert_eq!(
            total_after(|total| add_joined(total, Total::add_racy)),
            3,
            "a value was lost"
        )
    });
}

#[test]
#[should_panic(expected = "a value was lost")]
fn the_checker_finds_the_lost_update_in_scope() {
    check(|| {
        assert_eq!(
            total_after(|total| add_scoped(total, Total::add_racy)),
            3,
            "a value was lost"
        )
    });
}

#[test]
fn every_value_counts_in_for_each() {
    check(|| assert_eq!(total_after(|total| add_range(total, 2, Total::add)), 3));
}

#[test]
fn every_value_counts_in_join_and_scope() {
    check(|| {
        let total = total_after(|total| {
            add_joined(total, Total::add);
            add_scoped(total, Total::add);
        });
        assert_eq!(total, 6);
    });
}

#[test]
fn the_sum_is_the_same_in_every_schedule() {
    check(|| {
        let values: Vec<u64> = (1..=8).collect();
        assert_eq!(sum_of_squares(&values), 204);
    });
}

/// Called outside a model, rayon over Drowse's checker build says what is
/// wrong (the same message as when this crate's checker is another minor
/// version than Drowse's). No checker object is made here: outside a
/// model, making one panics in the checker before Drowse is reached. Under
/// loom, loom's own message is printed first (Drowse catches its panic).
#[test]
#[cfg_attr(
    loom,
    should_panic(
        expected = "drowse was built with `--cfg loom` against loom 0.7, and was called outside a loom 0.7 model"
    )
)]
#[cfg_attr(
    shuttle,
    should_panic(
        expected = "drowse was built with `--cfg shuttle` against shuttle 0.9, and was called outside a shuttle 0.9 model"
    )
)]
fn outside_a_model_the_panic_says_why() {
    sum_of_squares(&[1, 2, 3]);
}
