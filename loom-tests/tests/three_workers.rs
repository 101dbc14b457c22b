#![cfg(loom)]
//! Properties 1 and 2 on pools of three workers: the injected-jobs shape
//! that shows the fences (one worker blocked inside a job, two free ones
//! that may sleep beside it) and join's latch (the stolen half's owner asleep
//! while a third worker is idle or asleep too). Three workers and the main
//! thread are four of loom's five threads; the preemption bound is lower
//! than the two-worker tests' so that each check ends in well under a
//! minute on 2 cores.

use drowse_loom_tests::Check;
use drowse_models::{
    injected_jobs_beside_blocked_worker, join_latch_wakes_owner, join_latch_wakes_sleeping_owner,
    Config,
};

#[test]
fn injected_jobs_beside_blocked_worker_3w() {
    let config = Config::new(3).jobs(2);
    Check::new("1", "injected_jobs_beside_blocked_worker", config)
        .bound(1)
        .run(move || injected_jobs_beside_blocked_worker(config));
}

#[test]
fn join_latch_wakes_owner_3w() {
    let config = Config::new(3).jobs(2);
    Check::new("2", "join_latch_wakes_owner", config)
        .bound(1)
        .run(move || join_latch_wakes_owner(config));
}

#[test]
fn join_latch_wakes_sleeping_owner_3w() {
    let config = Config::new(3);
    Check::new("2", "join_latch_wakes_sleeping_owner", config)
        .bound(1)
        .run(move || join_latch_wakes_sleeping_owner(config));
}
