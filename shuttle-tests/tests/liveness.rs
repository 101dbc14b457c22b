#![cfg(shuttle)]
//! Liveness: a sleepy worker abandons a sleep because of the JEC only when a
//! job was posted after it got sleepy, never because of its own
//! announcement. One worker, one injected job: at most one abandoned sleep.
//! (With more workers one post may legitimately make each of them abandon
//! once, so the scenario's bound of one holds for a single worker only.)

use drowse_models::Checker;
use drowse_models::{no_self_inflicted_wakeups, Config};
use drowse_shuttle_tests::{scenarios, Check};

#[test]
fn no_self_inflicted_wakeups_1w_pct() {
    let config = Config::new(1);
    Check::new("liveness", "no_self_inflicted_wakeups", config)
        .pct(3)
        .iterations(20000)
        .run(move || no_self_inflicted_wakeups(config));
}

#[test]
fn no_self_inflicted_wakeups_1w_random() {
    let config = Config::new(1);
    Check::new("liveness", "no_self_inflicted_wakeups", config)
        .random()
        .iterations(20000)
        .run(move || no_self_inflicted_wakeups(config));
}

#[test]
fn no_self_inflicted_wakeups_from_sleep_1w_pct() {
    let config = Config::new(1);
    Check::new("liveness", "no_self_inflicted_wakeups_from_sleep", config)
        .pct(3)
        .iterations(16000)
        .run(move || scenarios::no_self_inflicted_wakeups_from_sleep(config));
}

#[test]
fn no_self_inflicted_wakeups_from_sleep_3w_random() {
    let config = Config::new(3);
    Check::new("liveness", "no_self_inflicted_wakeups_from_sleep", config)
        .random()
        .iterations(16000)
        .run(move || scenarios::no_self_inflicted_wakeups_from_sleep(config));
}
