#![cfg(shuttle)]
//! Property 4: an internal job (pushed onto a worker's own deque) is found.
//! The pushing worker blocks on a condvar until another worker has run the
//! job, so a worker that goes to sleep without seeing it strands it.
//!
//! With the full JEC this must pass on 2 to 4 workers (docs/proof.md, lemma
//! 5 (ii)). With a 1-bit JEC and 3 workers the design accepts that a sleeper
//! may overlook an internal job (lemma 5 (iii)); `internal_job_rollover_search`
//! (ignored: run with `--ignored`) searches for that schedule with PCT. Under
//! shuttle's sequential consistency we expect it not to exist: the last bump
//! that brings the JEC back to the sleeper's value is an announcement made
//! after the post, and the announcing worker searches once more before it
//! may sleep, so it sees the job.

use drowse_models::{internal_job_is_found, internal_job_overlooked_after_own_push_pop, Config};
use drowse_shuttle_tests::Check;

#[test]
fn internal_job_is_found_2w_pct() {
    let config = Config::new(2);
    Check::new("4", "internal_job_is_found", config)
        .pct(3)
        .iterations(20000)
        .run(move || internal_job_is_found(config));
}

#[test]
fn internal_job_is_found_2w_random() {
    let config = Config::new(2);
    Check::new("4", "internal_job_is_found", config)
        .random()
        .iterations(20000)
        .run(move || internal_job_is_found(config));
}

#[test]
fn internal_job_is_found_3w_random() {
    let config = Config::new(3);
    Check::new("4", "internal_job_is_found", config)
        .random()
        .iterations(15000)
        .run(move || internal_job_is_found(config));
}

#[test]
fn internal_job_is_found_4w_pct() {
    let config = Config::new(4);
    Check::new("4", "internal_job_is_found", config)
        .pct(4)
        .iterations(10000)
        .run(move || internal_job_is_found(config));
}

#[test]
fn internal_job_is_found_4w_random() {
    let config = Config::new(4);
    Check::new("4", "internal_job_is_found", config)
        .random()
        .iterations(10000)
        .run(move || internal_job_is_found(config));
}

/// The scenario in which loom, under C11, finds the overlook the design
/// accepts (`loom-tests/tests/p4_internal_jobs.rs`, lemma 5 (iii)). Under
/// SC the same scenario must pass: lemma 5 (ii) says no internal job is
/// stranded, and this checks it on the schedule shape that C11 breaks.
#[test]
fn internal_job_overlooked_after_own_push_pop_2w_pct() {
    let config = Config::new(2);
    Check::new("4", "internal_job_overlooked_after_own_push_pop", config)
        .pct(3)
        .iterations(20000)
        .run(move || internal_job_overlooked_after_own_push_pop(config));
}

#[test]
fn internal_job_overlooked_after_own_push_pop_2w_random() {
    let config = Config::new(2);
    Check::new("4", "internal_job_overlooked_after_own_push_pop", config)
        .random()
        .iterations(20000)
        .run(move || internal_job_overlooked_after_own_push_pop(config));
}

/// The rollover search: a 1- or 2-bit JEC, 2 to 4 workers, PCT of depths 2
/// to 5 and the random scheduler, 20,000 executions each by default.
/// Ignored: the miss it looks for is accepted by the design, so finding it
/// would be an expected failure, not a bug; and under SC we expect it not to
/// exist (see the module docs). Found nothing in 200,000 executions per
/// configuration (`DROWSE_SHUTTLE_ITERATIONS=200000`).
#[test]
#[ignore = "search for the accepted rollover miss; run with --ignored"]
fn internal_job_rollover_search() {
    for bits in [1, 2] {
        for workers in 2..=4 {
            let config = Config::new(workers).jec_bits(bits);
            for depth in 2..=5 {
                Check::new("4", "internal_job_is_found", config)
                    .pct(depth)
                    .iterations(20_000)
                    .run(move || internal_job_is_found(config));
            }
            Check::new("4", "internal_job_is_found", config)
                .random()
                .iterations(20_000)
                .run(move || internal_job_is_found(config));
        }
    }
}
