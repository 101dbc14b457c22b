//! The checks a `SleepSnapshot` runs on itself: each invariant it enforces
//! is broken once, so that a check that always passed would fail here.

use super::SleepSnapshot;

const AT_REST: SleepSnapshot = SleepSnapshot {
    sleeping_threads: 0,
    inactive_threads: 0,
    jobs_event_counter: 0,
    blocked_threads: 0,
    num_threads: 4,
    sleeps_abandoned: 0,
};

#[test]
fn a_resting_pool_passes_both_checks() {
    assert_eq!(AT_REST.check(), Ok(()));
    assert_eq!(AT_REST.check_at_rest(), Ok(()));
}

#[test]
fn sleepers_that_are_all_blocked_are_consistent_but_not_at_rest() {
    let asleep = SleepSnapshot {
        sleeping_threads: 2,
        blocked_threads: 2,
        inactive_threads: 3,
        ..AT_REST
    };
    assert_eq!(asleep.check(), Ok(()));
    let problem = asleep.check_at_rest().unwrap_err();
    assert!(problem.contains("not at rest"), "{problem}");
}

#[test]
fn each_broken_invariant_is_reported() {
    let sleeping_not_blocked = SleepSnapshot {
        sleeping_threads: 1,
        inactive_threads: 1,
        ..AT_REST
    };
    let more_sleeping_than_inactive = SleepSnapshot {
        sleeping_threads: 2,
        blocked_threads: 2,
        inactive_threads: 1,
        ..AT_REST
    };
    let more_inactive_than_workers = SleepSnapshot {
        inactive_threads: 5,
        ..AT_REST
    };
    for (broken, expected) in [
        (sleeping_not_blocked, "blocked"),
        (more_sleeping_than_inactive, "more sleeping than inactive"),
        (
            more_inactive_than_workers,
            "more inactive threads than workers",
        ),
    ] {
        let problem = broken.check().unwrap_err();
        assert!(problem.contains(expected), "{problem}");
        // The resting check includes the always-true ones.
        assert!(broken.check_at_rest().is_err());
    }
}

#[test]
fn busy_workers_are_at_rest_for_the_sleep_counters() {
    // Workers running jobs are neither inactive nor sleeping.
    let busy = SleepSnapshot {
        jobs_event_counter: 7,
        sleeps_abandoned: 3,
        ..AT_REST
    };
    assert_eq!(busy.check_at_rest(), Ok(()));
}
