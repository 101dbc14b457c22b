#![cfg(loom)]
//! Property 7: termination. The pool is ended right after jobs are spawned
//! into it, so its workers may be busy, idle, sleepy or asleep when their
//! terminate latches are set. Every job still runs exactly once, every
//! worker thread exits (a worker left asleep is a loom deadlock on `join`),
//! and the counters are at rest afterwards. The `shutdown_without_handles`
//! tests end a pool started by a spawn handler, whose shutdown waits on the
//! stopped countdown instead of joining threads (models/src/countdown.rs).

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    shutdown_on_the_building_thread_without_handles, shutdown_while_busy, shutdown_without_handles,
    Config,
};

#[test]
fn shutdown_while_busy_1w() {
    let config = Config::new(1).jobs(2);
    Check::new("7", "shutdown_while_busy", config)
        .bound(3)
        .run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_2w() {
    let config = Config::new(2).jobs(2);
    Check::new("7", "shutdown_while_busy", config)
        .bound(2)
        .run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_without_handles_1w() {
    let config = Config::new(1);
    Check::new("7", "shutdown_without_handles", config)
        .bound(3)
        .run(move || shutdown_without_handles(config));
}

#[test]
fn shutdown_without_handles_2w() {
    let config = Config::new(2);
    Check::new("7", "shutdown_without_handles", config)
        .bound(2)
        .run(move || shutdown_without_handles(config));
}

#[test]
fn shutdown_on_the_building_thread_without_handles_2w() {
    let config = Config::new(2);
    Check::new(
        "7",
        "shutdown_on_the_building_thread_without_handles",
        config,
    )
    .bound(2)
    .run(move || shutdown_on_the_building_thread_without_handles(config));
}
