#![cfg(shuttle)]
//! Property 4 under sequential consistency: an internal job (pushed onto a
//! worker's own deque) is never stranded, at any JEC width (lemma 5 (ii) of
//! docs/proof.md). These tests are the check of that statement: it holds
//! under SC only, and shuttle is SC. Loom (C11) checks the part of lemma 5
//! that holds under C11 instead (`loom-tests/tests/p4_internal_jobs.rs`);
//! it would pass `internal_job_is_found` too, but only through its progress
//! rule, so that scenario is not a loom test. In these scenarios the pushing worker blocks on a condvar
//! until another worker has run its child job, so a worker that goes to
//! sleep without seeing the child strands it.
//!
//! The tests must pass on 2 to 4 workers at full width, and on the scenario
//! in which loom, under C11, finds the overlook the design accepts (lemma 5
//! (iii)). With a narrow JEC a single sleepy worker may overlook the child
//! on a rollover (lemma 5 (d)), but the worker whose announcement completed
//! the rollover searches after the post and takes the child, so under SC
//! the child still runs. `internal_job_rollover_search` (ignored: run with
//! `--ignored`) checks that at one and two bits: a failure there would
//! contradict lemma 5 (ii), a bug rather than the accepted overlook.

use drowse_models::Checker;
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
/// Ignored because of its length. Under SC no execution strands the child
/// (see the module docs), so this can only fail if lemma 5 (ii) is wrong.
/// Found nothing in 200,000 executions per configuration
/// (`DROWSE_SHUTTLE_ITERATIONS=200000`).
#[test]
#[ignore = "long: lemma 5 (ii) at a 1- and 2-bit JEC; run with --ignored"]
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
