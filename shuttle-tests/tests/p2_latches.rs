#![cfg(shuttle)]
//! Property 2: a latch set wakes its owner. The owner of a join (its stolen
//! half), of a scope (its spawned jobs) or of a cross-pool `install` may go
//! to sleep waiting; whoever sets the latch must wake it. A missed wake-up is
//! a deadlock.

use drowse_models::Checker;
use drowse_models::{
    cross_pool_latch_outlives_owner_pool, cross_pool_latch_wakes_owner, join_latch_wakes_owner,
    scope_latch_wakes_owner, Config,
};
use drowse_shuttle_tests::Check;

// `jobs >= 2` in `join_latch_wakes_owner`: each half waits for the other to
// start, which forces the steal.

#[test]
fn join_latch_wakes_owner_2w_pct() {
    let config = Config::new(2).jobs(2);
    Check::new("2", "join_latch_wakes_owner", config)
        .pct(3)
        .iterations(20000)
        .run(move || join_latch_wakes_owner(config));
}

#[test]
fn join_latch_wakes_owner_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("2", "join_latch_wakes_owner", config)
        .random()
        .iterations(20000)
        .run(move || join_latch_wakes_owner(config));
}

#[test]
fn join_latch_wakes_owner_4w_random() {
    let config = Config::new(4).jobs(2);
    Check::new("2", "join_latch_wakes_owner", config)
        .random()
        .iterations(10000)
        .run(move || join_latch_wakes_owner(config));
}

#[test]
fn scope_latch_wakes_owner_2w_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("2", "scope_latch_wakes_owner", config)
        .pct(3)
        .iterations(20000)
        .run(move || scope_latch_wakes_owner(config));
}

#[test]
fn scope_latch_wakes_owner_2w_random() {
    let config = Config::new(2).jobs(3);
    Check::new("2", "scope_latch_wakes_owner", config)
        .random()
        .iterations(20000)
        .run(move || scope_latch_wakes_owner(config));
}

#[test]
fn scope_latch_wakes_owner_4w_random() {
    let config = Config::new(4).jobs(4);
    Check::new("2", "scope_latch_wakes_owner", config)
        .random()
        .iterations(10000)
        .run(move || scope_latch_wakes_owner(config));
}

#[test]
fn cross_pool_latch_wakes_owner_1w_pct() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_wakes_owner", config)
        .pct(3)
        .iterations(20000)
        .run(move || cross_pool_latch_wakes_owner(config));
}

#[test]
fn cross_pool_latch_wakes_owner_1w_random() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_wakes_owner", config)
        .random()
        .iterations(20000)
        .run(move || cross_pool_latch_wakes_owner(config));
}

#[test]
fn cross_pool_latch_wakes_owner_2w_random() {
    let config = Config::new(2);
    Check::new("2", "cross_pool_latch_wakes_owner", config)
        .random()
        .iterations(10000)
        .run(move || cross_pool_latch_wakes_owner(config));
}

/// The outer pool ends, and frees its registry, while the inner worker that
/// set the cross-pool latch is still on its way to wake the owner: the
/// setter must have kept that registry alive. PCT, because the window needs
/// the inner worker to stall for the whole shutdown of the outer pool.
#[test]
fn cross_pool_latch_outlives_owner_pool_1w_pct() {
    let config = Config::new(1);
    Check::new("2", "cross_pool_latch_outlives_owner_pool", config)
        .pct(3)
        .iterations(20000)
        .run(move || cross_pool_latch_outlives_owner_pool(config));
}
