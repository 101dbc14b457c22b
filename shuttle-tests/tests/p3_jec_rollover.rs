#![cfg(shuttle)]
//! Property 3: injected jobs are never stranded when the jobs event counter
//! rolls over. With a JEC of 1 to 3 bits a sleepy worker can find the JEC
//! back at the value it remembered although jobs were posted meanwhile; the
//! sleeper's final look at the injector (after joining the sleeping count)
//! must then catch the job.
//!
//! Shuttle is sequentially consistent (`fence` is a no-op), so it cannot see
//! a missing fence: these tests check the rollover logic under SC only. The
//! fences themselves are loom's to check (`no_inject_fence` and
//! `no_sleep_fence` survive every shuttle test).

use drowse_models::Checker;
use drowse_models::Config;
use drowse_shuttle_tests::{scenarios, Check};

fn check(workers: usize, jobs: usize, bits: u32, pct: bool) {
    let config = Config::new(workers).jobs(jobs).jec_bits(bits);
    let check = Check::new("3", "injected_jobs", config).iterations(12000);
    let check = if pct { check.pct(3) } else { check.random() };
    check.run(move || scenarios::injected_jobs(config));
}

#[test]
fn injected_jobs_jec1_2w_3j_pct() {
    check(2, 3, 1, true);
}

#[test]
fn injected_jobs_jec1_3w_3j_random() {
    check(3, 3, 1, false);
}

#[test]
fn injected_jobs_jec2_4w_3j_pct() {
    check(4, 3, 2, true);
}

#[test]
fn injected_jobs_jec2_2w_4j_random() {
    check(2, 4, 2, false);
}

#[test]
fn injected_jobs_jec3_4w_4j_pct() {
    check(4, 4, 3, true);
}

#[test]
fn injected_jobs_jec3_3w_4j_random() {
    check(3, 4, 3, false);
}
