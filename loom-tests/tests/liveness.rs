#![cfg(loom)]
//! Liveness: no self-inflicted wake-ups. A sleepy worker abandons a sleep
//! because of the JEC only when a job was posted after it got sleepy; it
//! never mistakes its own announcement for new work.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{no_self_inflicted_wakeups, no_self_inflicted_wakeups_from_sleep, Config};

/// One worker, one job injected with `install`: at most one abandoned sleep.
#[test]
fn no_self_inflicted_wakeups_1w() {
    let config = Config::new(1);
    Check::new("liveness", "no_self_inflicted_wakeups", config)
        .bound(4)
        .run(move || no_self_inflicted_wakeups(config));
}

/// The job is injected only once the worker is asleep, and the pool ends
/// only once it is asleep again: no sleep may be abandoned at all.
#[test]
fn no_self_inflicted_wakeups_from_sleep_1w() {
    let config = Config::new(1);
    Check::new("liveness", "no_self_inflicted_wakeups_from_sleep", config)
        .bound(3)
        .run(move || no_self_inflicted_wakeups_from_sleep(config));
}
