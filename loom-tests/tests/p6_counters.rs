#![cfg(loom)]
//! Property 6: the sleep counters are consistent. Every snapshot (taken with
//! every sleep lock held) satisfies `blocked == sleeping <= inactive <=
//! threads`, a worker running a job is not counted inactive, and after
//! shutdown nobody is counted inactive or sleeping and nobody is blocked.
//! Every scenario of every property checks that resting state (and the
//! counters' own `debug_assert!`s, on in the release profile, check every
//! step); this test adds snapshots taken from inside jobs and by an outside
//! observer while the pool works.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{snapshots_while_running, Config};

#[test]
fn snapshots_while_running_1w() {
    let config = Config::new(1).jobs(2);
    Check::new("6", "snapshots_while_running", config)
        .bound(3)
        .run(move || snapshots_while_running(config));
}
