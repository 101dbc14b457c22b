#![cfg(loom)]
//! Property 2, one latch kind at a time (`drowse_models::latch_kinds`): the
//! setter of the latch under test waits until its owner is asleep on it, so
//! every execution needs the wake-up, and a lost one deadlocks while the
//! calling thread still waits inside the scenario's `join`, `scope` or
//! `install`, before any terminate latch is set. Each test kills the mutant
//! of `ci/mutants.d/` that breaks its latch kind alone.
//!
//! `join_latch_set_while_owner_falls_asleep_2w` is the other way round: the
//! set may meet the owner anywhere on its way to sleep, and the pool is
//! shut down only once every worker is blocked, so the two `CoreLatch`
//! mutants that break the setter's race with a falling-asleep owner
//! (`latch_set_without_lock`, `latch_without_sleepy`) are caught on the join
//! latch rather than on a terminate latch.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    cross_pool_latch_wakes_sleeping_owner, join_latch_set_while_owner_falls_asleep,
    join_latch_wakes_sleeping_owner, lock_latch_wakes_outside_thread,
    scope_latch_wakes_sleeping_owner, Config,
};

/// Join's `SpinLatch` (mutant `spin_latch_set_never_wakes`).
#[test]
fn join_latch_wakes_sleeping_owner_2w() {
    let config = Config::new(2);
    Check::new("2", "join_latch_wakes_sleeping_owner", config)
        .bound(2)
        .run(move || join_latch_wakes_sleeping_owner(config));
}

/// Scope's `CountLatch` (mutant `count_latch_set_never_wakes`).
#[test]
fn scope_latch_wakes_sleeping_owner_2w() {
    let config = Config::new(2);
    Check::new("2", "scope_latch_wakes_sleeping_owner", config)
        .bound(2)
        .run(move || scope_latch_wakes_sleeping_owner(config));
}

/// The cross-pool `SpinLatch` (mutant `cross_latch_set_never_wakes`).
#[test]
fn cross_pool_latch_wakes_sleeping_owner_1w() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_wakes_sleeping_owner", config)
        .bound(2)
        .run(move || cross_pool_latch_wakes_sleeping_owner(config));
}

/// `LockLatch`, the outside caller's (mutant `lock_latch_set_no_notify`).
#[test]
fn lock_latch_wakes_outside_thread_1w() {
    let config = Config::new(1).jobs(1);
    Check::new("2", "lock_latch_wakes_outside_thread", config)
        .bound(4)
        .run(move || lock_latch_wakes_outside_thread(config));
}

/// Join's `SpinLatch` set at any point of its owner's way to sleep, with a
/// shutdown that sets no terminate latch before every worker is blocked
/// (mutants `latch_set_without_lock`, `latch_without_sleepy`, which break
/// the setter's race with an owner between SLEEPING and blocking).
#[test]
fn join_latch_set_while_owner_falls_asleep_2w() {
    let config = Config::new(2);
    Check::new("2", "join_latch_set_while_owner_falls_asleep", config)
        .bound(1)
        .run(move || join_latch_set_while_owner_falls_asleep(config));
}
