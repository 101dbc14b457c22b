#![cfg(loom)]
//! Property 4: an internal job (pushed onto a worker's own deque, with no
//! fence) is found while the JEC does not roll over. The pushing worker
//! blocks on a condvar until another worker has run the job, so a worker
//! that goes to sleep without seeing it strands it. Only the JEC protects
//! internal jobs: the post makes it odd, and a sleepy worker that missed the
//! job sees the change in the compare-and-swap that would count it asleep.
//!
//! With a narrow JEC the design accepts a miss; see
//! `p4_internal_rollover.rs` for the expected-failure search.

use drowse_loom_tests::Check;
use drowse_models::{internal_job_is_found, Config};

#[test]
fn internal_job_is_found_2w() {
    let config = Config::new(2);
    Check::new("4", "internal_job_is_found", config)
        .bound(2)
        .run(move || internal_job_is_found(config));
}
