#![cfg(loom)]
//! Property 2: setting a latch wakes its owner. The owner of a `join`, a
//! `scope` or a cross-pool `install` may go to sleep waiting for its latch;
//! whoever sets the latch must wake it (a missed wake-up is a loom
//! deadlock).

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    cross_pool_latch_outlives_owner_pool, cross_pool_latch_wakes_owner, join_latch_wakes_owner,
    scope_latch_wakes_owner, Config,
};

/// `SpinLatch`: both halves wait for each other to start, so the second half
/// is stolen and the owner waits for the thief.
#[test]
fn join_latch_wakes_owner_2w() {
    let config = Config::new(2).jobs(2);
    Check::new("2", "join_latch_wakes_owner", config)
        .bound(2)
        .run(move || join_latch_wakes_owner(config));
}

/// `CountLatch`: the owner waits for whoever finishes the scope's last job.
#[test]
fn scope_latch_wakes_owner_2w() {
    let config = Config::new(2).jobs(2);
    Check::new("2", "scope_latch_wakes_owner", config)
        .bound(2)
        .run(move || scope_latch_wakes_owner(config));
}

/// Cross-pool `SpinLatch`: a worker of one pool waits (possibly asleep) for a
/// job it injected into another pool, whose worker sets the latch.
#[test]
fn cross_pool_latch_wakes_owner_1w() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_wakes_owner", config)
        .bound(3)
        .run(move || cross_pool_latch_wakes_owner(config));
}

/// The outer pool ends, and frees its registry, while the inner worker that
/// set the cross-pool latch is still on its way to wake the owner: the
/// setter must have kept that registry alive.
#[test]
fn cross_pool_latch_outlives_owner_pool_1w() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_outlives_owner_pool", config)
        .bound(2)
        .run(move || cross_pool_latch_outlives_owner_pool(config));
}
