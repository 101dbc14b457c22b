#![cfg(shuttle)]
//! The entry points beside `install`, `spawn` and `broadcast`, under
//! shuttle's random and PCT schedulers:
//! `yield_now`/`yield_local` on a worker with and without pending jobs,
//! `in_place_scope` from a thread outside the pool, and a pool built with
//! `use_current_thread` (worker 0 is the building thread; work still runs
//! while it is outside the pool's loop; shutdown ends at rest). A stranded
//! job shows as a deadlock (see `drowse_models::entry_points`).
//!
//! Mutants (`ci/mutants.d/`): `yield_now_skips_local_deque`,
//! `yield_local_steals`, `outside_scope_spawn_no_wake`,
//! `outside_scope_skips_wait`, `current_thread_counted_as_handed_out`,
//! `current_thread_not_worker_zero`.

use drowse_models::Checker;
use drowse_models::{
    current_thread_is_worker_zero, in_place_scope_from_outside,
    in_place_scope_wakes_sleeping_workers, yield_runs_pending_jobs, Config,
};
use drowse_shuttle_tests::Check;

#[test]
fn yield_runs_pending_jobs_2w_random() {
    let config = Config::new(2);
    Check::new("1", "yield_runs_pending_jobs", config)
        .random()
        .iterations(20000)
        .run(move || yield_runs_pending_jobs(config));
}

#[test]
fn yield_runs_pending_jobs_3w_pct() {
    let config = Config::new(3);
    Check::new("1", "yield_runs_pending_jobs", config)
        .pct(3)
        .iterations(20000)
        .run(move || yield_runs_pending_jobs(config));
}

#[test]
fn in_place_scope_from_outside_2w_random() {
    let config = Config::new(2).jobs(3);
    Check::new("1", "in_place_scope_from_outside", config)
        .random()
        .iterations(20000)
        .run(move || in_place_scope_from_outside(config));
}

#[test]
fn in_place_scope_from_outside_2w_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("1", "in_place_scope_from_outside", config)
        .pct(3)
        .iterations(20000)
        .run(move || in_place_scope_from_outside(config));
}

#[test]
fn in_place_scope_wakes_sleeping_workers_3w_random() {
    let config = Config::new(3).jobs(2);
    Check::new("1", "in_place_scope_wakes_sleeping_workers", config)
        .random()
        .iterations(10000)
        .run(move || in_place_scope_wakes_sleeping_workers(config));
}

#[test]
fn current_thread_is_worker_zero_2w_random() {
    let config = Config::new(2);
    Check::new("1", "current_thread_is_worker_zero", config)
        .random()
        .iterations(20000)
        .run(move || current_thread_is_worker_zero(config));
}

#[test]
fn current_thread_is_worker_zero_3w_pct() {
    let config = Config::new(3);
    Check::new("1", "current_thread_is_worker_zero", config)
        .pct(3)
        .iterations(10000)
        .run(move || current_thread_is_worker_zero(config));
}
