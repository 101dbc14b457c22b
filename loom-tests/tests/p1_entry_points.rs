#![cfg(loom)]
//! The entry points beside `install`, `spawn` and `broadcast`, under
//! loom: `yield_now`/`yield_local` on a worker with and
//! without pending jobs, and `in_place_scope` from a thread outside the
//! pool, with the workers on their way to sleep or already asleep. A job
//! stranded by a missed wake-up shows as a loom deadlock; a yield that runs
//! the wrong job, or a scope that returns before its jobs ran, as a failed
//! assertion (see `drowse_models::entry_points`). A pool built with
//! `use_current_thread` (worker 0 is the building thread, which ends while
//! the pool lives on; its worker is dropped with the thread) is checked
//! here too, and under shuttle.
//!
//! Mutants (`ci/mutants.d/`): `yield_now_skips_local_deque` and
//! `yield_local_steals` fail `yield_runs_pending_jobs_2w`;
//! `outside_scope_spawn_no_wake` fails `in_place_scope_wakes_sleeping_workers_2w`
//! and `outside_scope_skips_wait` fails `in_place_scope_from_outside_2w`;
//! `current_thread_counted_as_handed_out` and `current_thread_not_worker_zero`
//! fail `current_thread_is_worker_zero_2w`.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    current_thread_is_worker_zero, in_place_scope_from_outside,
    in_place_scope_wakes_sleeping_workers, yield_runs_pending_jobs, Config,
};

#[test]
fn yield_runs_pending_jobs_2w() {
    let config = Config::new(2);
    Check::new("1", "yield_runs_pending_jobs", config)
        .bound(2)
        .run(move || yield_runs_pending_jobs(config));
}

#[test]
fn in_place_scope_from_outside_2w() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "in_place_scope_from_outside", config)
        .bound(1)
        .run(move || in_place_scope_from_outside(config));
}

#[test]
fn in_place_scope_wakes_sleeping_workers_2w() {
    let config = Config::new(2);
    Check::new("1", "in_place_scope_wakes_sleeping_workers", config)
        .bound(1)
        .run(move || in_place_scope_wakes_sleeping_workers(config));
}

#[test]
fn current_thread_is_worker_zero_2w() {
    let config = Config::new(2);
    // Bound 3: 16,387 executions, 3 s; bound 4 is ten times that.
    Check::new("1", "current_thread_is_worker_zero", config)
        .bound(3)
        .run(move || current_thread_is_worker_zero(config));
}
