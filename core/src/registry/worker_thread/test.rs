//! The worker's side of the adaptive search budget: a worker carries the
//! budget one search hands back into its next search (`search_budget`),
//! so that a pool where work is rare keeps searching less. Nothing else
//! could show a worker that started every search with a full budget: the
//! protocol does the same to shared memory whatever the budget (lemma 0 of
//! docs/proof.md), so only CPU time would differ.

use super::WorkerThread;
use crate::ThreadPoolBuilder;
use std::time::Duration;

/// How long the pool is left idle before each job: far longer than four
/// full searches of `ROUNDS` rounds (a round is one scan of the queues and
/// a `yield_now`, microseconds), so every sleep counts as long and halves
/// the budget (`SearchBudget::after_sleep`) unless the worker's last round
/// took over 1/32 of it, 15 ms, which only heavy preemption could make it.
const IDLE: Duration = Duration::from_millis(500);

const ROUNDS: u32 = 8;

/// The rounds of the budget of the worker running the calling job, as the
/// search that found the job handed it back.
fn current_budget() -> u32 {
    WorkerThread::with_current(|worker| {
        worker
            .expect("the job runs on a worker")
            .search_budget
            .get()
            .rounds()
    })
}

#[test]
fn a_worker_carries_its_halved_budget_into_its_next_search() {
    if crate::sync::IS_CHECKER {
        // The checkers' clock stands still, so every sleep reads as short
        // and the budget never halves there: nothing to carry.
        return;
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(1)
        .search_rounds_before_sleep(ROUNDS)
        .build()
        .unwrap();
    let mut seen = Vec::new();
    for _ in 0..3 {
        // The one worker searches, finds nothing and blocks for `IDLE`; the
        // install's post wakes it, the long sleep halves the budget its
        // search started with, and the search hands that back when it takes
        // the job. Carried, the budgets halve from one search to the next:
        // 8 -> 4 -> 2 -> 1. A worker that dropped its budget between
        // searches would start each one full and see 4 every time.
        std::thread::sleep(IDLE);
        seen.push(pool.install(current_budget));
    }
    assert_eq!(
        seen,
        [ROUNDS / 2, ROUNDS / 4, ROUNDS / 8],
        "each search starts from the budget the last one handed back"
    );
}
