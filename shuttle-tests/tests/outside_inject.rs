#![cfg(shuttle)]
//! The core issue's check at shuttle scale: an outside thread injects a job
//! into a pool of 4 workers and blocks until it has run, once as a plain job
//! (`install_from_outside`) and once as nested work (`join` inside `scope`
//! inside `join`, `nested_join_scope`), under PCT and random schedules,
//! thousands of executions each. Property 1: the injected job is never
//! stranded (a stranded job is a deadlock, which shuttle reports); every
//! scenario also checks run counts and the resting state after shutdown.

use drowse_models::Checker;
use drowse_models::{install_from_outside, nested_join_scope, Config};
use drowse_shuttle_tests::Check;

const WORKERS: usize = 4;

#[test]
fn install_from_outside_4w_pct() {
    let config = Config::new(WORKERS);
    Check::new("1", "install_from_outside", config)
        .pct(3)
        .iterations(20000)
        .run(move || install_from_outside(config));
}

#[test]
fn install_from_outside_4w_random() {
    let config = Config::new(WORKERS);
    Check::new("1", "install_from_outside", config)
        .random()
        .iterations(20000)
        .run(move || install_from_outside(config));
}

#[test]
fn nested_join_scope_4w_pct() {
    let config = Config::new(WORKERS).jobs(2);
    Check::new("1", "nested_join_scope", config)
        .pct(3)
        .iterations(16000)
        .run(move || nested_join_scope(config));
}

#[test]
fn nested_join_scope_4w_random() {
    let config = Config::new(WORKERS).jobs(2);
    Check::new("1", "nested_join_scope", config)
        .random()
        .iterations(16000)
        .run(move || nested_join_scope(config));
}
