#![cfg(shuttle)]
//! Property 6: the sleep counters are consistent. Every snapshot (taken with
//! every sleep lock held) satisfies `blocked == sleeping <= inactive <=
//! threads`, a worker running a job is not counted inactive, and after
//! shutdown nobody is counted inactive or sleeping and nobody is blocked.
//! (Every scenario of every property checks that resting state; these tests
//! add snapshots taken from inside jobs and from an outside observer while
//! the pool works.)

use drowse_models::Checker;
use drowse_models::Config;
use drowse_shuttle_tests::{scenarios, Check};

#[test]
fn snapshots_while_running_2w_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("6", "snapshots_while_running", config)
        .pct(3)
        .iterations(15000)
        .run(move || scenarios::snapshots_while_running(config));
}

#[test]
fn snapshots_while_running_2w_random() {
    let config = Config::new(2).jobs(3);
    Check::new("6", "snapshots_while_running", config)
        .random()
        .iterations(15000)
        .run(move || scenarios::snapshots_while_running(config));
}

#[test]
fn snapshots_while_running_4w_random() {
    let config = Config::new(4).jobs(4);
    Check::new("6", "snapshots_while_running", config)
        .random()
        .iterations(15000)
        .run(move || scenarios::snapshots_while_running(config));
}
