#![cfg(shuttle)]
//! Property 7: termination. The pool is shut down right after jobs are
//! spawned into it, with its workers busy, idle, sleepy or asleep: every job
//! still runs and every worker exits (a worker left asleep is a deadlock).

use drowse_models::Checker;
use drowse_models::{shutdown_while_busy, Config};
use drowse_shuttle_tests::Check;

#[test]
fn shutdown_while_busy_2w_pct() {
    let config = Config::new(2).jobs(2);
    Check::new("7", "shutdown_while_busy", config)
        .pct(3)
        .iterations(20000)
        .run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("7", "shutdown_while_busy", config)
        .random()
        .iterations(20000)
        .run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_4w_pct() {
    let config = Config::new(4).jobs(3);
    Check::new("7", "shutdown_while_busy", config)
        .pct(4)
        .iterations(15000)
        .run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_4w_random() {
    let config = Config::new(4).jobs(5);
    Check::new("7", "shutdown_while_busy", config)
        .random()
        .iterations(15000)
        .run(move || shutdown_while_busy(config));
}
