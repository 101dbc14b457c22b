#![cfg(shuttle)]
//! Property 9: jobs may block. A queued job never waits while every worker
//! that is not blocked in a job sleeps (docs/proof.md, lemma 10: the last
//! searcher to leave hands off). Each scenario blocks jobs on a facade
//! condvar until a job posted by another thread has run, so a worker that
//! leaves its search with that job queued and nobody awake strands it: the
//! checker reports a deadlock. The sizes go from the smallest pool each
//! scenario needs to 8 and 16 workers, where each scenario first lets the
//! crowd fall asleep (`models/src/blocking.rs`).

use drowse_models::Checker;
use drowse_models::{
    blocked_job_waits_for_an_internal_job, blocked_jobs_wait_for_an_injected_job,
    blocked_scope_waits_for_installs, injected_job_waits_for_another_injected_job,
    searcher_leaves_with_an_injected_job_queued, Config,
};
use drowse_shuttle_tests::Check;

#[test]
fn injected_job_waits_for_another_injected_job_2w_random() {
    let config = Config::new(2);
    Check::new("9", "injected_job_waits_for_another_injected_job", config)
        .random()
        .iterations(20000)
        .run(move || injected_job_waits_for_another_injected_job(config));
}

#[test]
fn injected_job_waits_for_another_injected_job_8w_random() {
    let config = Config::new(8);
    Check::new("9", "injected_job_waits_for_another_injected_job", config)
        .random()
        .iterations(5000)
        .run(move || injected_job_waits_for_another_injected_job(config));
}

#[test]
fn blocked_jobs_wait_for_an_injected_job_3w_random() {
    let config = Config::new(3);
    Check::new("9", "blocked_jobs_wait_for_an_injected_job", config)
        .random()
        .iterations(20000)
        .run(move || blocked_jobs_wait_for_an_injected_job(config));
}

#[test]
fn blocked_jobs_wait_for_an_injected_job_3w_pct() {
    let config = Config::new(3);
    Check::new("9", "blocked_jobs_wait_for_an_injected_job", config)
        .pct(3)
        .iterations(20000)
        .run(move || blocked_jobs_wait_for_an_injected_job(config));
}

#[test]
fn blocked_jobs_wait_for_an_injected_job_16w_random() {
    let config = Config::new(16);
    Check::new("9", "blocked_jobs_wait_for_an_injected_job", config)
        .random()
        .iterations(2000)
        .run(move || blocked_jobs_wait_for_an_injected_job(config));
}

#[test]
fn blocked_scope_waits_for_installs_3w_random() {
    let config = Config::new(3).jobs(2);
    Check::new("9", "blocked_scope_waits_for_installs", config)
        .random()
        .iterations(20000)
        .run(move || blocked_scope_waits_for_installs(config));
}

#[test]
fn blocked_scope_waits_for_installs_8w_random() {
    let config = Config::new(8).jobs(2);
    Check::new("9", "blocked_scope_waits_for_installs", config)
        .random()
        .iterations(5000)
        .run(move || blocked_scope_waits_for_installs(config));
}

#[test]
fn searcher_leaves_with_an_injected_job_queued_2w_random() {
    let config = Config::new(2);
    Check::new("9", "searcher_leaves_with_an_injected_job_queued", config)
        .random()
        .iterations(20000)
        .run(move || searcher_leaves_with_an_injected_job_queued(config));
}

#[test]
fn searcher_leaves_with_an_injected_job_queued_4w_random() {
    let config = Config::new(4);
    Check::new("9", "searcher_leaves_with_an_injected_job_queued", config)
        .random()
        .iterations(10000)
        .run(move || searcher_leaves_with_an_injected_job_queued(config));
}

#[test]
fn injected_job_waits_for_another_injected_job_16w_random() {
    let config = Config::new(16);
    Check::new("9", "injected_job_waits_for_another_injected_job", config)
        .random()
        .iterations(2000)
        .run(move || injected_job_waits_for_another_injected_job(config));
}

#[test]
fn blocked_scope_waits_for_installs_16w_random() {
    let config = Config::new(16).jobs(3);
    Check::new("9", "blocked_scope_waits_for_installs", config)
        .random()
        .iterations(2000)
        .run(move || blocked_scope_waits_for_installs(config));
}

#[test]
fn searcher_leaves_with_an_injected_job_queued_8w_pct() {
    let config = Config::new(8);
    Check::new("9", "searcher_leaves_with_an_injected_job_queued", config)
        .pct(3)
        .iterations(5000)
        .run(move || searcher_leaves_with_an_injected_job_queued(config));
}

#[test]
fn blocked_job_waits_for_an_internal_job_3w_random() {
    let config = Config::new(3);
    Check::new("9", "blocked_job_waits_for_an_internal_job", config)
        .random()
        .iterations(20000)
        .run(move || blocked_job_waits_for_an_internal_job(config));
}

#[test]
fn blocked_job_waits_for_an_internal_job_3w_pct() {
    let config = Config::new(3);
    Check::new("9", "blocked_job_waits_for_an_internal_job", config)
        .pct(3)
        .iterations(20000)
        .run(move || blocked_job_waits_for_an_internal_job(config));
}

#[test]
fn blocked_job_waits_for_an_internal_job_8w_random() {
    let config = Config::new(8);
    Check::new("9", "blocked_job_waits_for_an_internal_job", config)
        .random()
        .iterations(5000)
        .run(move || blocked_job_waits_for_an_internal_job(config));
}
