#![cfg(shuttle)]
//! Lemma 0 of docs/proof.md: the number of fruitless search rounds before a
//! worker gets sleepy does not matter to the protocol, so every other check
//! runs with one round. These run a few of those scenarios with the shipped
//! default of 32 rounds, as a cross-check of the lemma: a failure here that
//! the one-round checks do not show would contradict it.
//!
//! Each round is a search of every queue and a yield, so an execution is
//! about 30 times longer than with one round; hence fewer iterations.

use drowse_models::Checker;
use drowse_models::{internal_job_is_found, join_latch_wakes_sleeping_owner, Config};
use drowse_shuttle_tests::{scenarios, Check};

/// rayon-core's number, and Drowse's default.
const SHIPPED_ROUNDS: u32 = 32;

#[test]
fn injected_jobs_2w_2j_shipped_rounds_random() {
    let config = Config::new(2)
        .jobs(2)
        .search_rounds_before_sleep(SHIPPED_ROUNDS);
    Check::new("1", "injected_jobs", config)
        .random()
        .iterations(3000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn injected_jobs_2w_2j_shipped_rounds_pct() {
    let config = Config::new(2)
        .jobs(2)
        .search_rounds_before_sleep(SHIPPED_ROUNDS);
    Check::new("1", "injected_jobs", config)
        .pct(3)
        .iterations(3000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn internal_job_is_found_2w_shipped_rounds_random() {
    let config = Config::new(2).search_rounds_before_sleep(SHIPPED_ROUNDS);
    Check::new("4", "internal_job_is_found", config)
        .random()
        .iterations(3000)
        .run(move || internal_job_is_found(config));
}

#[test]
fn join_latch_wakes_sleeping_owner_2w_shipped_rounds_random() {
    let config = Config::new(2).search_rounds_before_sleep(SHIPPED_ROUNDS);
    Check::new("2", "join_latch_wakes_sleeping_owner", config)
        .random()
        .iterations(3000)
        .run(move || join_latch_wakes_sleeping_owner(config));
}
