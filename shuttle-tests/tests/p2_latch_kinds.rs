#![cfg(shuttle)]
//! Property 2, one latch kind at a time (`drowse_models::latch_kinds`): the
//! setter of the latch under test waits until its owner is asleep on it, so
//! every execution needs the wake-up, and a lost one deadlocks while the
//! calling thread still waits inside the scenario's `join`, `scope` or
//! `install`, before any terminate latch is set. Each test kills the mutant
//! of `ci/mutants.d/` that breaks its latch kind alone.

use drowse_models::Checker;
use drowse_models::{
    cross_pool_latch_wakes_sleeping_owner, join_latch_wakes_sleeping_owner,
    lock_latch_wakes_outside_thread, scope_latch_wakes_sleeping_owner, Config,
};
use drowse_shuttle_tests::Check;

#[test]
fn join_latch_wakes_sleeping_owner_2w_random() {
    let config = Config::new(2);
    Check::new("2", "join_latch_wakes_sleeping_owner", config)
        .random()
        .iterations(20000)
        .run(move || join_latch_wakes_sleeping_owner(config));
}

#[test]
fn join_latch_wakes_sleeping_owner_4w_pct() {
    let config = Config::new(4);
    Check::new("2", "join_latch_wakes_sleeping_owner", config)
        .pct(3)
        .iterations(10000)
        .run(move || join_latch_wakes_sleeping_owner(config));
}

#[test]
fn scope_latch_wakes_sleeping_owner_2w_random() {
    let config = Config::new(2);
    Check::new("2", "scope_latch_wakes_sleeping_owner", config)
        .random()
        .iterations(20000)
        .run(move || scope_latch_wakes_sleeping_owner(config));
}

#[test]
fn scope_latch_wakes_sleeping_owner_4w_pct() {
    let config = Config::new(4);
    Check::new("2", "scope_latch_wakes_sleeping_owner", config)
        .pct(3)
        .iterations(10000)
        .run(move || scope_latch_wakes_sleeping_owner(config));
}

#[test]
fn cross_pool_latch_wakes_sleeping_owner_1w_random() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_wakes_sleeping_owner", config)
        .random()
        .iterations(20000)
        .run(move || cross_pool_latch_wakes_sleeping_owner(config));
}

#[test]
fn cross_pool_latch_wakes_sleeping_owner_2w_pct() {
    let config = Config::new(2);
    Check::new("2", "cross_pool_latch_wakes_sleeping_owner", config)
        .pct(3)
        .iterations(10000)
        .run(move || cross_pool_latch_wakes_sleeping_owner(config));
}

#[test]
fn lock_latch_wakes_outside_thread_1w_random() {
    let config = Config::new(1).jobs(2);
    Check::new("2", "lock_latch_wakes_outside_thread", config)
        .random()
        .iterations(20000)
        .run(move || lock_latch_wakes_outside_thread(config));
}

#[test]
fn lock_latch_wakes_outside_thread_2w_pct() {
    let config = Config::new(2).jobs(2);
    Check::new("2", "lock_latch_wakes_outside_thread", config)
        .pct(3)
        .iterations(10000)
        .run(move || lock_latch_wakes_outside_thread(config));
}
