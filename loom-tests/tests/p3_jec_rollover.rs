#![cfg(loom)]
//! Property 3: the fences carry property 1 through JEC rollover. With a JEC
//! of one or two bits the counter comes back to a sleepy worker's remembered
//! value within a few posts and announcements, so the JEC check alone cannot
//! tell that a job was injected; the `SeqCst` fences and the sleeper's final
//! look at the injector must. The same scenarios as property 1, on pools
//! built with `jobs_event_counter_bits(1)` and `(2)`.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{injected_jobs, injected_jobs_beside_blocked_worker, Config};

#[test]
fn injected_jobs_1w_jec1() {
    let config = Config::new(1).jobs(2).jec_bits(1);
    Check::new("3", "injected_jobs", config)
        .bound(4)
        .run(move || injected_jobs(config));
}

#[test]
fn injected_jobs_1w_jec2() {
    let config = Config::new(1).jobs(2).jec_bits(2);
    Check::new("3", "injected_jobs", config)
        .bound(4)
        .run(move || injected_jobs(config));
}

#[test]
fn injected_jobs_2w_jec1() {
    let config = Config::new(2).jobs(1).jec_bits(1);
    Check::new("3", "injected_jobs", config)
        .bound(2)
        .run(move || injected_jobs(config));
}

#[test]
fn injected_jobs_beside_blocked_worker_2w_jec1() {
    let config = Config::new(2).jobs(2).jec_bits(1);
    Check::new("3", "injected_jobs_beside_blocked_worker", config)
        .bound(2)
        .run(move || injected_jobs_beside_blocked_worker(config));
}
