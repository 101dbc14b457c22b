#![cfg(loom)]
//! Property 1, the first check: an outside thread injects a job
//! (`install`) into a pool of two workers and blocks until it has run. Every
//! interleaving at preemption bound 3 (about a million executions) must end
//! without deadlock, with the job run exactly once and the counters at rest
//! after shutdown. Its own binary: it is the suite's longest check, and a
//! deadlock would abort every test beside it.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{install_from_outside, Config};

#[test]
fn install_from_outside_2w() {
    let config = Config::new(2);
    Check::new("1", "install_from_outside", config)
        .bound(3)
        .run(move || install_from_outside(config));
}
