#![cfg(loom)]
//! Property 1 for broadcasts: a job broadcast from outside the pool runs
//! exactly once on every worker, whatever the workers were doing. A stranded
//! broadcast job shows as a loom deadlock (the broadcaster blocks on its
//! latch forever).
//!
//! `broadcast_racing_sleep_1w` is the race of rayon issue #992: a broadcast
//! moves no sleep counter, so a worker that got sleepy before the push
//! commits to sleeping, and only its final look at its own broadcast queue
//! (ordered against the broadcaster's wake-up by its sleep lock) keeps it
//! awake. The `final_look_skips_broadcasts` mutant
//! (`ci/mutants.d/final_look_skips_broadcasts.patch`) removes that look and
//! fails here (a deadlock within bound 1). The two-worker checks run at
//! bound 1: at bound 2 each takes about 1.5 million executions (6 minutes
//! on this machine) and passes.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{broadcast_racing_sleep, broadcast_to_sleeping_workers, Config};

#[test]
fn broadcast_to_sleeping_workers_2w() {
    let config = Config::new(2);
    Check::new("1", "broadcast_to_sleeping_workers", config)
        .bound(1)
        .run(move || broadcast_to_sleeping_workers(config));
}

#[test]
fn broadcast_racing_sleep_1w() {
    let config = Config::new(1);
    Check::new("1", "broadcast_racing_sleep", config)
        .bound(2)
        .run(move || broadcast_racing_sleep(config));
}

#[test]
fn broadcast_racing_sleep_2w() {
    let config = Config::new(2);
    Check::new("1", "broadcast_racing_sleep", config)
        .bound(1)
        .run(move || broadcast_racing_sleep(config));
}
