//! The wake and search policy: how many fruitless rounds a worker searches
//! before it gets sleepy, and whom a worker that found work wakes to help.
//! It is policy, not protocol: the budget sets nothing another thread reads,
//! and docs/proof.md (lemma 0) shows that every budget from one round up
//! does the same to shared memory; no step of the proof uses the helpers or
//! the successor a finder wakes (the theorem, lemma 10). The one wake-up of
//! a leaving worker that the proof does use, the hand-off, is protocol and
//! stays in `Sleep::hand_off`. Whom a post wakes is not here: that is step 4
//! (Decide) of posting in docs/proof.md, which the proof does use, and it
//! stays in `Sleep::new_jobs`. The protocol (`Sleep` in `mod.rs`)
//! asks it how many rounds this search has and whom a finder wakes
//! (`finder_wakes`, `successor_still_needed`), and tells it what the
//! search met: `Search::got_sleepy`, `Search::met_work_awake`,
//! `Search::blocking`, `Search::woke` and, at its end,
//! `Search::found_work` or `Search::end`.
//!
//! Its one setting is `search_rounds_before_sleep` (`R`, the builder's
//! `ThreadPoolBuilder::search_rounds_before_sleep`): the rounds a worker's
//! first search has. Each worker's budget (`B`, a `SearchBudget`) starts at
//! `R` and adapts to what its searches and sleeps meet, between 1 and
//! `MAX_GROWTH` x `R`.
//! When work arrives rarely, a worker's rounds find nothing and each costs a
//! scan of every queue and a `yield_now`; when it arrives often, the rounds
//! find it awake and spare a sleep and a wake-up. A round's length depends
//! on the machine (how many queues, whether `yield_now` finds another
//! thread to run), so the budget is judged by the times it measures, not by
//! the count of rounds.
//!
//! The clock is a parameter (`PolicyInstant`): the pool reads the facade's
//! clock (`crate::sync::time`, which stands still under the checkers), and
//! the tests beside this file give the policy instants of their choosing.

use crate::sync::time::Instant;
use std::time::Duration;

// The constants below are performance choices: lemma 0 of docs/proof.md
// lets the budget be any number of rounds from 1 up, and no step of the
// proof uses the wake-ups of a finder. Each one's doc says what it trades
// and which measurement chose it. A measurement compares two `compare`
// binaries, one built with the constant as it is and one with the
// alternative (`cargo bench -p drowse --bench compare --no-run`), run
// alternately with `ci/bench --bin BINARY --no-callgrind --only ROWS`;
// each figure is a ratio against rayon-core in the same process
// (docs/performance.md, "The search policy").

/// How many full searches a sleep must outlast before a worker searches
/// less (the next search has half the rounds).
///
/// It trades CPU at sparse rates against latency at high ones. A sleep only
/// a little longer than a full search says little: the wake-up itself takes
/// microseconds, and a worker that shortened its search on such sleeps
/// would sleep through jobs that a full search catches, each then waiting
/// for a wake-up. A larger margin halves the budget at fewer rates, so
/// workers keep searching for nothing between sparse jobs.
///
/// Chosen by `ci/bench --bin BINARY --no-callgrind --only
/// sweep_spawn_1khz_8t,sweep_install_1khz_8t,sweep_spawn_10khz_2t,sweep_spawn_10khz_8t,sweep_spawn_50khz_2t,sweep_spawn_50khz_8t,sweep_spawn_100khz_2t,sweep_install_50khz_2t,sweep_install_100khz_2t,mergesort_2t,mergesort_8t,life_8t,tsp_2t,quicksort_2t`,
/// binaries alternating, and full `ci/bench` runs: halving after any block
/// put the p50 at 50-100 kHz on 2 threads at 6.7-36x rayon-core's, and
/// halving after a sleep of more than one full search (no margin) still at
/// 2.8-36x; with four, those p50s stayed within a few percent of a fixed
/// budget's, while the 1 kHz, 8-thread CPU fell from 0.15-0.18x (32 rounds
/// always) to 0.03-0.06x. A job every millisecond still halves the budget.
/// Margins between one and four, or above four, were not measured.
const LONG_SLEEP_IN_FULL_SEARCHES: u32 = 4;

/// The most helpers a finder wakes for queued work.
///
/// rayon-core's number, kept: what was measured is when they are woken,
/// not how many. A finder wakes helpers only when the queue it took its
/// job from still holds work (`finder_wakes`); waking them after every
/// find, as rayon-core does, spends their wake-up and a fruitless search
/// at sparse rates. `ci/bench --bin BINARY --quick --only
/// sporadic_spawn_8t,sporadic_install_8t,idle_8t_2s`, binaries
/// alternating: the pool's CPU at one job per millisecond on 8 threads of
/// 16 CPUs went from parity with rayon-core to 0.30-0.33x, its p50 at or
/// below rayon-core's.
const MAX_HELPERS: usize = 2;

/// How many times `R` rounds a budget can grow to.
///
/// `LONGEST_GROWN_SEARCH` bounds a grown search in time, as the clock
/// times its rounds; this bounds it in rounds, whatever the clock reads.
/// Where rounds are fast (or are timed as shorter than they are), 50 us
/// would allow many times `R` rounds, and a search that long costs CPU at
/// every rate where it still misses the next job. A larger bound lets such
/// workers search longer before they block; a smaller one ends growth
/// sooner. It was not measured alone: every run that chose
/// `LONGEST_GROWN_SEARCH` had it.
const MAX_GROWTH: u32 = 4;

/// The longest search a budget grows to (a search of `B` rounds, each
/// timed as the last round before a block).
///
/// It trades latency at high rates against CPU at the rates just below.
/// Without growth, a worker whose search ended a little before each next
/// job blocked and made every job wait for a futex wake-up (5-6 us on 16
/// CPUs, about 10 us on 2): at 50 kHz on 2 threads of 16 CPUs the p50 was
/// 1.60-2.10x rayon-core's in some runs. A bound about as long as the
/// dearest wake-up lets a search that can still spare one grow; a longer
/// search would be paid for at every rate where jobs come just too seldom
/// to be met. Where rounds are slow (many queues to look at, or a
/// `yield_now` that runs another thread) `R` rounds come near this already
/// and the budget grows less or not at all.
///
/// Chosen by `ci/bench --bin BINARY --no-callgrind --only
/// sweep_spawn_50khz_2t,sweep_install_50khz_2t,sweep_spawn_50khz_8t,sweep_install_50khz_8t`
/// (growth: that p50 to 0.35x on 16 CPUs), and the same with `--only` the
/// 10, 50 and 100 kHz sweep points: with no bound the budget grew at
/// 10 kHz on 2 CPUs too (`sweep_install_10khz_8t` p50 0.35x to 2.15x, CPU
/// 0.07x to 0.40x; likely eight searching workers taking the CPU from the
/// poster and from the worker that would run the job); with 50 us every
/// 10 kHz figure came back (CPU 0.04-0.13x). Other bounds were not
/// measured.
const LONGEST_GROWN_SEARCH: Duration = Duration::from_micros(50);

/// Whom a worker that has just found work wakes, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FinderWakes {
    /// Nobody.
    Nobody,
    /// This many helpers, at once: work is queued for them.
    Helpers(usize),
    /// One successor, once the finder's job has run, if nobody searches
    /// then (`successor_still_needed`).
    SuccessorAfterJob,
}

/// Whom a worker that has just found work wakes, of the `sleepers`.
///
/// When the queue it took the job from still holds work
/// (`more_work_queued`, asked only when someone sleeps): up to
/// `MAX_HELPERS`, at once, before its own job runs: the work is there for
/// them now.
///
/// Otherwise one successor, but only when the finder was the last searcher
/// (`other_searchers` is 0) and work arrives often (`work_is_frequent`: its
/// search found the job without blocking, and the finder's budget has not
/// grown, `Search::successor_would_help`):
/// with nobody left searching, the next job would wait for a wake-up, and at
/// high rates that wait is the latency's tail. When work is rare, a
/// successor would search for nothing and sleep again, so a lone job wakes
/// nobody else: its poster already woke whoever it needed
/// (`Sleep::new_jobs`). The successor is woken after the finder's job has
/// run, not before: a wake-up is a system call of microseconds, and made
/// first it would delay the very job that was found awake; and after a
/// short job the finder searches again itself, so the successor is
/// needed only while that job runs and after, which the check then
/// (`successor_still_needed`) decides.
///
/// These wake-ups add parallelism, not progress: no step of docs/proof.md
/// uses them. What progress needs when the finder's job blocks, the
/// hand-off, `Sleep::work_found` adds to them (`Sleep::hand_off`).
#[inline]
pub(crate) fn finder_wakes(
    sleepers: usize,
    other_searchers: usize,
    work_is_frequent: bool,
    more_work_queued: impl FnOnce() -> bool,
) -> FinderWakes {
    if sleepers == 0 {
        FinderWakes::Nobody
    } else if more_work_queued() {
        FinderWakes::Helpers(sleepers.min(MAX_HELPERS))
    } else if other_searchers == 0 && work_is_frequent {
        FinderWakes::SuccessorAfterJob
    } else {
        FinderWakes::Nobody
    }
}

/// Whether a finder owed a successor (`FinderWakes::SuccessorAfterJob`)
/// still wakes one, now that its job has run: when someone sleeps and
/// nobody searches (`searchers`, the awake inactive workers; the finder,
/// busy until it starts looking again, is not one). A searcher that a post
/// or another finder woke meanwhile meets the next job as well as the
/// successor would, and waking one more would cost a wake-up and a
/// fruitless search.
#[inline]
pub(crate) fn successor_still_needed(sleepers: usize, searchers: usize) -> bool {
    sleepers > 0 && searchers == 0
}

/// A point in time as the search policy reads it.
pub(crate) trait PolicyInstant: Copy {
    /// The time from `earlier` to `self`.
    fn since(self, earlier: Self) -> Duration;
}

impl PolicyInstant for Instant {
    fn since(self, earlier: Instant) -> Duration {
        self.duration_since(earlier)
    }
}

/// One worker's search budget `B`: at least 1 and at most `MAX_GROWTH`
/// times the pool's `search_rounds_before_sleep`. The worker carries it
/// from one search to the next (`WorkerThread::search_budget`):
/// `SearchBudget::start` begins a search with it and `Search::end` hands
/// back the budget for the next one. No other thread sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchBudget {
    rounds: u32,
    search_rounds_before_sleep: u32,
}

impl SearchBudget {
    /// The budget a worker starts with.
    pub(crate) fn full(search_rounds_before_sleep: u32) -> SearchBudget {
        debug_assert!(search_rounds_before_sleep > 0, "checked by the builder");
        SearchBudget {
            rounds: search_rounds_before_sleep,
            search_rounds_before_sleep,
        }
    }

    /// Fruitless rounds before getting sleepy (the tests' view: the pool
    /// reads them through `Search::rounds`).
    #[cfg(test)]
    pub(crate) fn rounds(self) -> u32 {
        self.rounds
    }

    /// Whether the budget has grown past `R` rounds: its searches are long
    /// enough to meet the next job themselves.
    fn has_grown(self) -> bool {
        self.rounds > self.search_rounds_before_sleep
    }

    /// Whether the budget is within its bounds for a pool of
    /// `search_rounds_before_sleep`.
    pub(crate) fn is_within_bounds(self, search_rounds_before_sleep: u32) -> bool {
        self.search_rounds_before_sleep == search_rounds_before_sleep
            && (1..=search_rounds_before_sleep.saturating_mul(MAX_GROWTH)).contains(&self.rounds)
    }

    /// Begins a search with this budget.
    pub(super) fn start<I: PolicyInstant>(self) -> Search<I> {
        Search {
            budget: self,
            sleepy_since: None,
            blocked_at: None,
            blocked: false,
        }
    }

    /// Twice as many rounds, but at least the full budget and at most
    /// `MAX_GROWTH` times it.
    fn grown(self) -> SearchBudget {
        SearchBudget {
            rounds: self
                .rounds
                .saturating_mul(2)
                .min(self.search_rounds_before_sleep.saturating_mul(MAX_GROWTH)),
            ..self
        }
        .at_least_full()
    }

    /// As many rounds, but at least the full budget.
    fn at_least_full(self) -> SearchBudget {
        SearchBudget {
            rounds: self.rounds.max(self.search_rounds_before_sleep),
            ..self
        }
    }

    /// Half as many rounds, but at least one.
    pub(super) fn halved(self) -> SearchBudget {
        SearchBudget {
            rounds: (self.rounds / 2).max(1),
            ..self
        }
    }

    /// The worker blocked for `slept`, after a last search round (the one
    /// between its announcement and its block) that took `last_round`. A
    /// sleep that outlasted `LONG_SLEEP_IN_FULL_SEARCHES` full searches of
    /// such rounds means work is rare: searching longer could not have found
    /// it awake, so the next search has half as many rounds.
    ///
    /// A sleep shorter than the search before it (`B` rounds of
    /// `last_round`) means the job came within one more search: a search
    /// twice as long would have met it awake, sparing a sleep and a wake-up,
    /// so the next search has twice the rounds (at least `R`, at most
    /// `MAX_GROWTH` x `R`), as long as it stays under
    /// `LONGEST_GROWN_SEARCH`. After any other sleep the next search is a
    /// full one (`R` rounds) again: with work this frequent, a full search
    /// often finds it awake.
    ///
    /// A clock that stands still (the checkers') times every sleep and
    /// round as zero: the budget is full, never halved nor grown.
    pub(super) fn after_sleep(self, slept: Duration, last_round: Duration) -> SearchBudget {
        let long_sleep = last_round
            .saturating_mul(self.search_rounds_before_sleep)
            .saturating_mul(LONG_SLEEP_IN_FULL_SEARCHES);
        let search = last_round.saturating_mul(self.rounds);
        if slept > long_sleep {
            self.halved()
        } else if slept < search && search.saturating_mul(2) <= LONGEST_GROWN_SEARCH {
            self.grown()
        } else {
            SearchBudget::full(self.search_rounds_before_sleep)
        }
    }
}

/// The search policy's view of one search: its budget, and the times it
/// needs to tell a long sleep from a short one.
#[derive(Debug)]
pub(crate) struct Search<I: PolicyInstant = Instant> {
    budget: SearchBudget,
    /// When the worker last got sleepy in this search (the start of its last
    /// round before an attempt to sleep).
    sleepy_since: Option<I>,
    /// When the worker blocked, while it is blocked.
    blocked_at: Option<I>,
    /// Whether the worker has blocked in this search.
    blocked: bool,
}

impl<I: PolicyInstant> Search<I> {
    /// Fruitless rounds before getting sleepy in this search.
    pub(super) fn rounds(&self) -> u32 {
        self.budget.rounds
    }

    /// Whether work arrives often, as this search met it: the search found
    /// its job without blocking, so jobs have come at least as often as a
    /// search lasts, and a successor searching now is likely to meet the
    /// next one. A search that blocked first says the gaps are longer than a
    /// search: a successor would search for nothing.
    pub(super) fn work_is_frequent(&self) -> bool {
        !self.blocked
    }

    /// Whether a successor would help this search's finder, if it was the
    /// last searcher (`finder_wakes`): work is frequent
    /// (`Search::work_is_frequent`) and the finder's budget has not grown.
    /// A grown budget says the finder's own next search, once its job has
    /// run, lasts long enough to meet the next job; a successor would
    /// search beside it for the same job, doubling the CPU spent searching
    /// (docs/performance.md, "The search policy").
    pub(super) fn successor_would_help(&self) -> bool {
        self.work_is_frequent() && !self.budget.has_grown()
    }

    /// The worker announced that it is sleepy at `now`.
    pub(super) fn got_sleepy(&mut self, now: I) {
        self.sleepy_since = Some(now);
    }

    /// An attempt to sleep met work (the JEC had moved, or the final look
    /// found a job): work arrives often enough to meet a sleepy worker, so
    /// the budget is at least full again (a grown one stays: it was long
    /// enough).
    pub(super) fn met_work_awake(&mut self) {
        self.budget = self.budget.at_least_full();
    }

    /// The worker blocks at `now`.
    pub(super) fn blocking(&mut self, now: I) {
        debug_assert!(self.sleepy_since.is_some(), "only a sleepy worker sleeps");
        self.blocked_at = Some(now);
        self.blocked = true;
    }

    /// The worker, blocked since `Search::blocking`, was woken and runs again
    /// at `now`: the budget adapts to how long it slept.
    pub(super) fn woke(&mut self, now: I) {
        let Some(blocked_at) = self.blocked_at.take() else {
            debug_assert!(false, "woke without blocking");
            return;
        };
        let last_round = self.sleepy_since.map_or(Duration::ZERO, |sleepy_since| {
            blocked_at.since(sleepy_since)
        });
        self.budget = self.budget.after_sleep(now.since(blocked_at), last_round);
    }

    /// Ends a search that found a job: the budget for the worker's next
    /// one. A search that found its job without blocking met work awake,
    /// as a sleep attempt that meets work does (`Search::met_work_awake`),
    /// so the next search is at least full: a budget halved by an earlier
    /// long sleep would otherwise stay halved through every search that
    /// finds work, and at the first pause in that work the worker would
    /// block after half a search, where a full one would have met the next
    /// job (a program's next parallel call after a short serial step). A
    /// search that blocked first keeps what its sleep made of the budget.
    pub(super) fn found_work(self) -> SearchBudget {
        if self.work_is_frequent() {
            self.budget.at_least_full()
        } else {
            self.budget
        }
    }

    /// Ends a search that found no job (what the worker waited for was
    /// done): the budget for the worker's next one, as it is.
    pub(super) fn end(self) -> SearchBudget {
        self.budget
    }
}

#[cfg(test)]
mod test;
