#![cfg(shuttle)]
//! Property 1 for broadcasts: a job broadcast from outside the pool runs
//! exactly once on every worker, whatever the workers were doing (asleep,
//! or on their way to sleep: the race of rayon issue #992, which the
//! `final_look_skips_broadcasts` mutant reopens). A stranded broadcast job
//! shows as a deadlock.

use drowse_models::Checker;
use drowse_models::{broadcast_racing_sleep, broadcast_to_sleeping_workers, Config};
use drowse_shuttle_tests::Check;

#[test]
fn broadcast_to_sleeping_workers_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "broadcast_to_sleeping_workers", config)
        .random()
        .iterations(20000)
        .run(move || broadcast_to_sleeping_workers(config));
}

#[test]
fn broadcast_racing_sleep_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "broadcast_racing_sleep", config)
        .random()
        .iterations(20000)
        .run(move || broadcast_racing_sleep(config));
}

#[test]
fn broadcast_racing_sleep_2w_pct() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "broadcast_racing_sleep", config)
        .pct(3)
        .iterations(20000)
        .run(move || broadcast_racing_sleep(config));
}

#[test]
fn broadcast_racing_sleep_4w_random() {
    let config = Config::new(4).jobs(2);
    Check::new("1", "broadcast_racing_sleep", config)
        .random()
        .iterations(5000)
        .run(move || broadcast_racing_sleep(config));
}
