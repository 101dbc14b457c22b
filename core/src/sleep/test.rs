//! How the protocol drives the search budget, and the checks a
//! `SleepSnapshot` runs on itself: each invariant it enforces is broken once, so that a check that
//! always passed would fail here.

use super::{HotWords, IdleState, JecWidth, SearchBudget, Sleep, SleepSnapshot};
use crate::latch::CoreLatch;
use crate::sync::{thread, Arc};
use std::time::Duration;

/// The budget of `full` halved `times` times.
fn halved(full: SearchBudget, times: u32) -> SearchBudget {
    (0..times).fold(full, |budget, _| budget.halved())
}

/// Calls `no_work_found` until the worker has made its final look (which
/// answers `injected`), and returns how many calls that took.
fn calls_until_final_look(
    sleep: &Sleep,
    idle_state: &mut IdleState,
    latch: &CoreLatch,
    injected: bool,
) -> u32 {
    let mut calls = 0;
    let mut looked = false;
    while !looked {
        calls += 1;
        sleep.no_work_found(idle_state, latch, || {
            looked = true;
            injected
        });
        assert!(calls <= 64, "the search never got to its final look");
    }
    calls
}

#[test]
fn a_worker_searches_its_budget_and_a_full_one_after_its_final_look_finds_work() {
    crate::sync::model(|| {
        let sleep = Sleep::new(1, JecWidth::FULL, 8);
        let latch = CoreLatch::new();
        let full = sleep.full_search_budget();
        let mut idle_state = sleep.start_looking(0, halved(full, 2));
        assert_eq!(idle_state.search.rounds(), 2);
        // Two rounds, the announcement, one more round, then the attempt
        // whose final look finds an injected job.
        assert_eq!(
            calls_until_final_look(&sleep, &mut idle_state, &latch, true),
            4
        );
        assert_eq!(sleep.work_found(idle_state, || false, || false).0, full);

        let mut idle_state = sleep.start_looking(0, full);
        assert_eq!(
            calls_until_final_look(&sleep, &mut idle_state, &latch, true),
            10
        );
        assert_eq!(sleep.work_found(idle_state, || false, || false).0, full);
    });
}

#[test]
fn work_posted_while_a_worker_is_sleepy_makes_its_budget_full() {
    crate::sync::model(|| {
        let sleep = Sleep::new(1, JecWidth::FULL, 8);
        let latch = CoreLatch::new();
        let full = sleep.full_search_budget();
        let mut idle_state = sleep.start_looking(0, halved(full, 3));
        assert_eq!(idle_state.search.rounds(), 1);
        // One round, then the announcement.
        sleep.no_work_found(&mut idle_state, &latch, || unreachable!());
        sleep.no_work_found(&mut idle_state, &latch, || unreachable!());
        assert!(idle_state.is_sleepy());
        sleep.new_internal_jobs(1, true);
        // The attempt sees the JEC moved and gives up before its final look,
        // with a full budget, but announces again after one more round.
        sleep.no_work_found(&mut idle_state, &latch, || unreachable!());
        assert!(!idle_state.is_sleepy());
        assert_eq!(idle_state.search.rounds(), 8);
        assert_eq!(
            calls_until_final_look(&sleep, &mut idle_state, &latch, true),
            2
        );
        assert_eq!(sleep.work_found(idle_state, || false, || false).0, full);
    });
}

#[test]
fn a_worker_that_slept_long_halves_its_budget() {
    crate::sync::model(|| {
        let sleep = Arc::new(Sleep::new(1, JecWidth::FULL, 4));
        let latch = Arc::new(CoreLatch::new());
        let worker = {
            let (sleep, latch) = (Arc::clone(&sleep), Arc::clone(&latch));
            thread::spawn(move || {
                let mut idle_state = sleep.start_looking(0, halved(sleep.full_search_budget(), 1));
                while !latch.probe() {
                    sleep.no_work_found(&mut idle_state, &latch, || false);
                }
                sleep.work_found(idle_state, || false, || false)
            })
        };
        // Once the worker counts as sleeping nothing can stop it blocking:
        // nothing is posted, and its final look finds nothing.
        while sleep.hot.counters.load().sleeping_threads() == 0 {
            thread::yield_now();
        }
        // Far longer than four searches of 4 rounds: the sleep counts as
        // long unless the worker's last round (announcement to block) took
        // over 1/16 of it, 31 ms, which only a heavily loaded machine's
        // preemption could make it (50 ms failed a third of the runs beside
        // two busy loops on 2 cores). The checkers' clock stands still, so
        // there every sleep is short, however long.
        if !crate::sync::IS_CHECKER {
            std::thread::sleep(Duration::from_millis(500));
        }
        // SAFETY: `latch` is live until the end of this closure.
        assert!(unsafe { CoreLatch::set(&*latch) }, "the latch was SLEEPING");
        sleep.notify_worker_latch_is_set(0);
        let expected = if crate::sync::IS_CHECKER { 4 } else { 1 };
        assert_eq!(worker.join().unwrap().0.rounds(), expected);
    });
}

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

/// The cache line size the layout test assumes: the smallest that
/// `crossbeam_utils::CachePadded` pads for on the common 64-bit CPUs.
const LINE: usize = 64;

#[test]
fn the_hot_words_share_a_cache_line_of_their_own() {
    use std::mem::{align_of, offset_of, size_of};
    // The layout is the compiler's, so it is checked rather than assumed.
    // `type_size` takes `hot` only to name the type of `Sleep::hot` (padded
    // or not, so that a mutant that unpads it still compiles and fails an
    // assertion); it never calls it.
    fn type_size<F>(_field: fn(&Sleep) -> &F) -> usize {
        size_of::<F>()
    }
    let hot: fn(&Sleep) -> &_ = |sleep| &sleep.hot;
    // Nothing else shares their line: `hot` starts a line and fills it. A
    // read-mostly field beside the two words would miss on every job's
    // writes to them.
    assert!(
        align_of::<Sleep>() >= LINE && offset_of!(Sleep, hot) % LINE == 0,
        "the sleep counters and the terminate count do not start a cache line"
    );
    assert!(
        type_size(hot) >= LINE,
        "the sleep counters and the terminate count share their cache line with other fields"
    );
    // Both words are on that one line: each job writes both from the
    // thread that posts it and the thread that runs it, and on two lines
    // it would move two lines between those threads instead of one.
    assert!(
        size_of::<HotWords>() <= LINE,
        "the sleep counters and the terminate count are not on one cache line"
    );
}
