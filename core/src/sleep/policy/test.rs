//! The search policy on its own, driven with instants of the test's
//! choosing: every step is a plain function call on one thread, so each
//! expected budget follows from the durations alone.

use super::{
    finder_wakes, successor_still_needed, FinderWakes, PolicyInstant, Search, SearchBudget,
};
use std::cell::Cell;
use std::time::Duration;

/// A time after the test's start.
#[derive(Clone, Copy, Debug)]
struct At(Duration);

impl PolicyInstant for At {
    fn since(self, earlier: At) -> Duration {
        self.0 - earlier.0
    }
}

fn micros(micros: u64) -> At {
    At(Duration::from_micros(micros))
}

/// One search with budget `budget` that gets sleepy at 0, blocks after a
/// last round of 2 us and sleeps for `slept_us`; returns the budget it hands
/// on to the next search.
fn search_that_sleeps(budget: SearchBudget, slept_us: u64) -> SearchBudget {
    let mut search: Search<At> = budget.start();
    assert_eq!(search.rounds(), budget.rounds());
    search.got_sleepy(micros(0));
    search.blocking(micros(2));
    search.woke(micros(2 + slept_us));
    search.end()
}

#[test]
fn a_budget_halves_down_to_one_round() {
    for (full, halved) in [(32, 16), (5, 2), (2, 1), (1, 1)] {
        assert_eq!(SearchBudget::full(full).halved().rounds(), halved);
    }
}

#[test]
fn a_long_sleep_halves_the_budget_and_a_shorter_one_makes_it_full() {
    let full = SearchBudget::full(32);
    let round = Duration::from_micros(2);
    // Four full searches: 4 x 32 rounds of 2 us.
    let long = Duration::from_micros(256);
    let budget = full.halved().halved();
    assert_eq!(budget.rounds(), 8);
    assert_eq!(
        budget.after_sleep(Duration::from_millis(1), round).rounds(),
        4
    );
    assert_eq!(
        budget
            .after_sleep(long + Duration::from_nanos(1), round)
            .rounds(),
        4
    );
    assert_eq!(budget.after_sleep(long, round), full);
    assert_eq!(budget.after_sleep(Duration::from_micros(10), round), full);
    // A clock that stands still (the checkers') reads every sleep as short.
    assert_eq!(budget.after_sleep(Duration::ZERO, Duration::ZERO), full);
}

/// A budget of 32 rounds grown once: after a sleep of 1 us that followed a
/// search of 32 rounds of 100 ns (3.2 us), 64 rounds.
fn grown_once_from(full: SearchBudget) -> SearchBudget {
    let grown = full.after_sleep(Duration::from_micros(1), Duration::from_nanos(100));
    assert_eq!(grown.rounds(), 64);
    grown
}

/// A sleep shorter than the search before it doubles the budget, up to four
/// times `R`, while the doubled search stays under 50 us (the mutant
/// `search_budget_never_grows` makes every such sleep give a full budget).
#[test]
fn a_sleep_shorter_than_its_search_doubles_the_budget() {
    let full = SearchBudget::full(32);
    let round = Duration::from_nanos(100);
    let short = Duration::from_micros(1);
    // 32 rounds of 100 ns: a search of 3.2 us, outlasting a sleep of 1 us.
    let twice = full.after_sleep(short, round);
    assert_eq!(twice.rounds(), 64);
    let four_times = twice.after_sleep(short, round);
    assert_eq!(four_times.rounds(), 128);
    assert_eq!(four_times.after_sleep(short, round).rounds(), 128);
    // A halved budget that meets a short sleep is full again, and no more.
    assert_eq!(full.halved().after_sleep(short, round), full);
    // A sleep as long as the search, or longer but not long (four full
    // searches, 12.8 us), makes a grown budget full.
    assert_eq!(
        four_times.after_sleep(Duration::from_nanos(12_800), round),
        full
    );
    assert_eq!(twice.after_sleep(Duration::from_micros(10), round), full);
    // Rounds of 1 us: a doubled search would last 64 us, over 50 us.
    assert_eq!(
        full.after_sleep(short, Duration::from_micros(1)),
        full,
        "no search grows past 50 us"
    );
    // 32 rounds of 750 ns double to 48 us: still under.
    assert_eq!(
        full.after_sleep(short, Duration::from_nanos(750)).rounds(),
        64
    );
}

/// An attempt to sleep that met work keeps a grown budget (it was long
/// enough) and fills a halved one (the mutant `met_work_awake_drops_growth`
/// makes every such budget exactly `R`).
#[test]
fn meeting_work_awake_keeps_a_grown_budget() {
    let full = SearchBudget::full(32);
    let grown = grown_once_from(full);
    for (budget, after) in [(grown, grown), (full.halved(), full), (full, full)] {
        let mut search: Search<At> = budget.start();
        search.got_sleepy(micros(0));
        search.met_work_awake();
        assert_eq!(search.end(), after);
    }
}

/// A search that finds its job without blocking hands on at least a full
/// budget, keeping a grown one; one that blocked first hands on what its
/// sleep made of the budget (the mutant `found_work_awake_keeps_a_halved_budget`
/// hands a halved budget on unchanged).
#[test]
fn finding_work_awake_fills_a_halved_budget() {
    let full = SearchBudget::full(32);
    let grown = grown_once_from(full);
    let halved = full.halved().halved();
    for (budget, after) in [(halved, full), (full, full), (grown, grown)] {
        let search: Search<At> = budget.start();
        assert_eq!(search.found_work(), after, "{budget:?}");
    }
    // Blocked, then woken after 1 ms (a long sleep: over four full
    // searches of 2 us rounds): the sleep halved the budget, and finding
    // the job after it keeps that.
    let mut search: Search<At> = full.start();
    search.got_sleepy(micros(0));
    search.blocking(micros(2));
    search.woke(micros(1_002));
    assert_eq!(search.found_work().rounds(), 16);
    // A search that found no job (its latch was set) hands on its budget
    // as it is.
    assert_eq!(halved.start::<At>().end(), halved);
}

/// A finder whose budget has grown owes no successor, even when its search
/// found the job awake: its own next search meets the next job (the mutant
/// `successor_beside_a_grown_search` owes one).
#[test]
fn a_grown_budget_wants_no_successor() {
    let full = SearchBudget::full(32);
    let grown = grown_once_from(full);
    for (budget, helps) in [(full, true), (full.halved(), true), (grown, false)] {
        let search: Search<At> = budget.start();
        assert!(search.work_is_frequent());
        assert_eq!(search.successor_would_help(), helps, "{budget:?}");
    }
    // A search that blocked wants none, whatever its budget.
    let mut search: Search<At> = full.start();
    search.got_sleepy(micros(0));
    search.blocking(micros(2));
    assert!(!search.successor_would_help());
}

/// The budget adapts across searches, not within one: a worker that slept
/// long starts its next search with the halved budget (the mutant
/// `search_budget_not_carried` starts every search with a full one).
#[test]
fn a_worker_carries_its_budget_from_one_search_to_the_next() {
    let full = SearchBudget::full(32);
    // A sleep of 1 ms outlasts four full searches of 2 us rounds (256 us):
    // each such search hands on half its budget, and the next search starts
    // with what the last one handed on.
    let after_one = search_that_sleeps(full, 1_000);
    assert_eq!(after_one.rounds(), 16);
    let after_two = search_that_sleeps(after_one, 1_000);
    assert_eq!(after_two.rounds(), 8);
    // A short sleep (10 us) makes the next search a full one again.
    assert_eq!(search_that_sleeps(after_two, 10), full);

    // An attempt to sleep that met work makes the budget full, and that too
    // is carried to the next search.
    let mut search: Search<At> = after_two.start();
    assert_eq!(search.rounds(), 8);
    search.got_sleepy(micros(0));
    search.met_work_awake();
    assert_eq!(search.rounds(), 32);
    assert_eq!(search.end(), full);
}

/// `finder_wakes` for a finder whose source queue still holds work
/// (`more`), with `other_searchers` other searchers awake and work arriving
/// often or not; also whether it asked about the queue.
fn wakes(
    sleepers: usize,
    other_searchers: usize,
    frequent: bool,
    more: bool,
) -> (FinderWakes, bool) {
    let asked = Cell::new(false);
    let wakes = finder_wakes(sleepers, other_searchers, frequent, || {
        asked.set(true);
        more
    });
    (wakes, asked.get())
}

/// Queued work gets up to two helpers at once, whatever the rate and the
/// other searchers; nobody sleeping means nobody to wake, and the finder
/// does not look at the queue (a contended cache line) for nothing.
#[test]
fn queued_work_gets_up_to_two_helpers() {
    use FinderWakes::{Helpers, Nobody};
    for frequent in [false, true] {
        for others in [0, 1, 3] {
            assert_eq!(wakes(1, others, frequent, true), (Helpers(1), true));
            assert_eq!(wakes(2, others, frequent, true), (Helpers(2), true));
            assert_eq!(wakes(7, others, frequent, true), (Helpers(2), true));
            assert_eq!(wakes(0, others, frequent, true), (Nobody, false));
        }
    }
}

/// With its source left empty, the last searcher owes one successor, woken
/// after its job, when work arrives often (the mutant
/// `successor_never_woken` owes none), and nobody when work is rare (the
/// mutant `successor_woken_when_work_is_rare` owes one) or when another
/// searcher is still awake.
#[test]
fn the_last_searcher_owes_a_successor_only_when_work_is_frequent() {
    use FinderWakes::{Nobody, SuccessorAfterJob};
    assert_eq!(wakes(1, 0, true, false), (SuccessorAfterJob, true));
    assert_eq!(wakes(5, 0, true, false), (SuccessorAfterJob, true));
    assert_eq!(wakes(5, 0, false, false), (Nobody, true));
    assert_eq!(wakes(5, 1, true, false), (Nobody, true));
    assert_eq!(wakes(0, 0, true, false), (Nobody, false));
}

/// After its job, the successor is still woken only if someone sleeps and
/// nobody searches: a searcher woken meanwhile meets the next job as well
/// (the mutant `successor_woken_beside_a_searcher` wakes one anyway).
#[test]
fn a_successor_is_woken_only_while_nobody_searches() {
    assert!(successor_still_needed(1, 0));
    assert!(successor_still_needed(6, 0));
    assert!(!successor_still_needed(6, 1));
    assert!(!successor_still_needed(0, 0));
    assert!(!successor_still_needed(0, 2));
}

/// Work is frequent, for the successor rule, while the search has not
/// blocked: a search that finds its job awake says jobs come at least as
/// often as a search lasts, whatever the budget; one that blocked first says
/// they do not, even when the sleep was short enough to keep the budget full.
#[test]
fn work_is_frequent_until_the_search_blocks() {
    let full = SearchBudget::full(32);
    let halved = search_that_sleeps(full, 1_000);
    for budget in [full, halved] {
        let mut search: Search<At> = budget.start();
        assert!(search.work_is_frequent());
        search.got_sleepy(micros(0));
        // An attempt to sleep that met work did not block.
        search.met_work_awake();
        assert!(search.work_is_frequent());
        search.got_sleepy(micros(5));
        search.blocking(micros(7));
        assert!(!search.work_is_frequent());
        // A short sleep keeps the budget full, but the search did block.
        search.woke(micros(17));
        assert_eq!(search.rounds(), 32);
        assert!(!search.work_is_frequent());
        // The next search starts afresh.
        assert!(search.end().start::<At>().work_is_frequent());
    }
}
