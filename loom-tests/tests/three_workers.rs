#![cfg(loom)]
//! Properties 1 and 2 on pools of three workers, at preemption bound 1.
//! Three workers and the main thread are four of loom's five threads.
//!
//! Run by the suite (each well under a minute; 2-core machine, 2026-11-23):
//! `install_from_outside_3w` (58,069 executions, 6.6 s), `injected_jobs_3w`
//! (117,986, 14.2 s) and `join_latch_wakes_owner_3w_unforced` (59,263,
//! 7.2 s).
//!
//! Ignored, too large: the shapes that block a worker inside a job
//! (`injected_jobs_beside_blocked_worker_3w`, the shape that shows the
//! fences) or make both halves of a join wait for each other
//! (`join_latch_wakes_owner_3w`, `join_latch_wakes_sleeping_owner_3w`). At
//! bound 0 they are trivial (6, 24 and 5 executions, passing); at bound 1
//! none finished: 1,619,999 and 1,439,999 executions in 300 s for the first
//! and third on a quiet core, 399,999 in 120 s for the second under load,
//! with no failure when cut off. Run them with `--ignored`, one per
//! process, with a time cap (`LOOM_MAX_DURATION`).

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    concurrent_injectors_keep_counts_exact, injected_jobs, injected_jobs_beside_blocked_worker,
    install_from_outside, join_latch_wakes_owner, join_latch_wakes_sleeping_owner, Config,
};

/// Property 1's first check: an outside thread installs one job into an
/// idle pool of three.
#[test]
fn install_from_outside_3w() {
    let config = Config::new(3);
    Check::new("1", "install_from_outside", config)
        .bound(1)
        .run(move || install_from_outside(config));
}

/// Property 1: two jobs injected back to back into an idle pool of three.
#[test]
fn injected_jobs_3w() {
    let config = Config::new(3).jobs(2);
    Check::new("1", "injected_jobs", config)
        .bound(1)
        .run(move || injected_jobs(config));
}

/// Property 2: a join on a pool of three, its second half stolen or not
/// (the halves do not wait for each other).
#[test]
fn join_latch_wakes_owner_3w_unforced() {
    let config = Config::new(3).jobs(1);
    Check::new("2", "join_latch_wakes_owner", config)
        .bound(1)
        .run(move || join_latch_wakes_owner(config));
}

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

// Properties 1, 2 and 5 on three workers at preemption bound 2. Ignored:
// none finished within 25 minutes of wall time on the shared 2-core
// machine (2026-11-25, load average about 15, the three side by side): cut
// off by `LOOM_MAX_DURATION=1500` after 1,839,999, 1,719,999 and 1,479,999
// executions respectively, about 85 s user and 93 s system CPU time each,
// no failure. So they are neither in `ci/run` nor in `ci/verify`; run one
// with `--ignored --exact NAME`, alone, with a time cap.

/// Property 1 at bound 2: an outside thread installs one job into an idle
/// pool of three.
#[test]
#[ignore = "bound 2 at three workers did not finish in 25 minutes; see above"]
fn install_from_outside_3w_bound2() {
    let config = Config::new(3);
    Check::new("1", "install_from_outside", config)
        .bound(2)
        .run(move || install_from_outside(config));
}

/// Property 2 at bound 2: a join on a pool of three, its second half stolen
/// or not.
#[test]
#[ignore = "bound 2 at three workers did not finish in 25 minutes; see above"]
fn join_latch_wakes_owner_3w_unforced_bound2() {
    let config = Config::new(3).jobs(1);
    Check::new("2", "join_latch_wakes_owner", config)
        .bound(2)
        .run(move || join_latch_wakes_owner(config));
}

/// Property 5 at bound 2: one outside thread injects a job into a pool of
/// three (waking a worker) while the main thread takes a sleep snapshot;
/// the sleeping count must equal the number of blocked workers. Three
/// workers, the injector and the main thread are loom's five threads.
#[test]
#[ignore = "bound 2 at three workers did not finish in 25 minutes; see above"]
fn counts_exact_3w_1_injector_bound2() {
    let config = Config::new(3).jobs(1);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 1)
        .bound(2)
        .run(move || concurrent_injectors_keep_counts_exact(config, 1));
}
