#![cfg(shuttle)]
//! Property 1: injected jobs are never stranded. A job pushed into the
//! injector from outside the pool is run, whatever the workers were doing
//! (searching, sleepy, falling asleep, asleep). A stranded job shows as a
//! deadlock. Shuttle is sequentially consistent, so these tests check the
//! protocol's logic (JEC, sleeping count, locking), not its two fences (loom
//! does that). Under SC the sleeper's final look at the injector is redundant
//! as well: every announcement is followed by a search, so a push that the
//! JEC does not signal (the JEC was odd already, or rolled over) is seen by
//! the search of whoever announced after it; the `no_final_injector_check`
//! mutant therefore survives shuttle, like the two fence mutants.
//!
//! `injected_jobs` here is this crate's version of the scenario (see
//! `drowse_shuttle_tests::scenarios::injected_jobs`): the models version's
//! bound on abandoned sleeps holds for one worker only.

use drowse_models::Checker;
use drowse_models::{concurrent_injectors, install_from_outside, Config};
use drowse_shuttle_tests::{scenarios, Check};

#[test]
fn install_from_outside_1w_pct() {
    let config = Config::new(1);
    Check::new("1", "install_from_outside", config)
        .pct(2)
        .iterations(20000)
        .run(move || install_from_outside(config));
}

#[test]
fn install_from_outside_1w_random() {
    let config = Config::new(1);
    Check::new("1", "install_from_outside", config)
        .random()
        .iterations(20000)
        .run(move || install_from_outside(config));
}

#[test]
fn install_from_outside_2w_pct() {
    let config = Config::new(2);
    Check::new("1", "install_from_outside", config)
        .pct(3)
        .iterations(20000)
        .run(move || install_from_outside(config));
}

#[test]
fn install_from_outside_2w_random() {
    let config = Config::new(2);
    Check::new("1", "install_from_outside", config)
        .random()
        .iterations(20000)
        .run(move || install_from_outside(config));
}

#[test]
fn injected_jobs_1w_2j_pct() {
    let config = Config::new(1).jobs(2);
    Check::new("1", "injected_jobs", config)
        .pct(3)
        .iterations(20000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn injected_jobs_1w_2j_random() {
    let config = Config::new(1).jobs(2);
    Check::new("1", "injected_jobs", config)
        .random()
        .iterations(20000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn injected_jobs_2w_2j_random() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "injected_jobs", config)
        .random()
        .iterations(20000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn injected_jobs_4w_3j_pct() {
    let config = Config::new(4).jobs(3);
    Check::new("1", "injected_jobs", config)
        .pct(3)
        .iterations(15000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn injected_jobs_4w_3j_random() {
    let config = Config::new(4).jobs(3);
    Check::new("1", "injected_jobs", config)
        .random()
        .iterations(15000)
        .run(move || scenarios::injected_jobs(config));
}

#[test]
fn concurrent_injectors_2w_2i_random() {
    let config = Config::new(2);
    Check::new("1", "concurrent_injectors", config)
        .with("injectors", 2)
        .random()
        .iterations(15000)
        .run(move || concurrent_injectors(config, 2));
}

#[test]
fn concurrent_injectors_4w_2i_pct() {
    let config = Config::new(4);
    Check::new("1", "concurrent_injectors", config)
        .with("injectors", 2)
        .pct(3)
        .iterations(15000)
        .run(move || concurrent_injectors(config, 2));
}

#[test]
fn concurrent_injectors_4w_3i_random() {
    let config = Config::new(4);
    Check::new("1", "concurrent_injectors", config)
        .with("injectors", 3)
        .random()
        .iterations(15000)
        .run(move || concurrent_injectors(config, 3));
}
