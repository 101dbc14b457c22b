#![cfg(loom)]
//! Properties 1 and 2 on pools of three workers: the injected-jobs shape
//! that shows the fences (one worker blocked inside a job, two free ones
//! that may sleep beside it) and join's latch (the stolen half's owner asleep
//! while a third worker is idle or asleep too). Three workers and the main
//! thread are four of loom's five threads.
//!
//! Ignored: too large for the suite. At bound 0 they are trivial (6, 24 and
//! 5 executions, passing), and at bound 1 none finished within 120 s on the
//! shared 2-core machine (more than 360,000 executions each, all passing
//! when cut off; 2026-11-23). Run them with `--ignored`, one per process,
//! with a time cap (`LOOM_MAX_DURATION`), or in the soak.

use drowse_loom_tests::Check;
use drowse_models::{
    injected_jobs_beside_blocked_worker, join_latch_wakes_owner, join_latch_wakes_sleeping_owner,
    Config,
};

#[test]
#[ignore = "bound 1 at three workers does not finish in minutes; see the file's docs"]
fn injected_jobs_beside_blocked_worker_3w() {
    let config = Config::new(3).jobs(2);
    Check::new("1", "injected_jobs_beside_blocked_worker", config)
        .bound(1)
        .run(move || injected_jobs_beside_blocked_worker(config));
}

#[test]
#[ignore = "bound 1 at three workers does not finish in minutes; see the file's docs"]
fn join_latch_wakes_owner_3w() {
    let config = Config::new(3).jobs(2);
    Check::new("2", "join_latch_wakes_owner", config)
        .bound(1)
        .run(move || join_latch_wakes_owner(config));
}

#[test]
#[ignore = "bound 1 at three workers does not finish in minutes; see the file's docs"]
fn join_latch_wakes_sleeping_owner_3w() {
    let config = Config::new(3);
    Check::new("2", "join_latch_wakes_sleeping_owner", config)
        .bound(1)
        .run(move || join_latch_wakes_sleeping_owner(config));
}
