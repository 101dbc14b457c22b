#![cfg(loom)]
//! Property 10 under C11: private join halves (models/src/join_halves.rs).
//! A half that another worker could take is published, by a later join of
//! its owner at the latest; every private half is published before its
//! owner waits; each half runs once, private or published. Each scenario's
//! prediction holds under C++20 (argued beside it). The rayon-core shape in
//! which the first half blocks outside the pool until the second has run is
//! SC-only (an internal job whose pusher blocks, lemma 5 (c)) and is
//! shuttle's (`shuttle-tests/tests/p10_join_halves.rs`).

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    in_line_join_offers_a_half_after_a_steal, join_half_published_at_next_join,
    join_halves_published_before_a_wait, nested_join_halves_run_once,
    oldest_half_offered_while_all_busy, Config,
};

#[test]
fn oldest_half_offered_while_all_busy_2w() {
    let config = Config::new(2);
    // Bound 0: 24 executions. Bound 1 explores every preemption of the
    // two installs and the blocked first half, 110 s alone, a sixth of the
    // loom suite; `join_ignores_its_empty_deque` deadlocks in the first
    // execution at either bound, and shuttle samples the preemptions.
    Check::new("10", "oldest_half_offered_while_all_busy", config)
        .bound(0)
        .run(move || oldest_half_offered_while_all_busy(config));
}

#[test]
fn in_line_join_offers_a_half_after_a_steal_2w() {
    let config = Config::new(2);
    // Bound 0, as for `oldest_half_offered_while_all_busy_2w`, whose
    // shape this one extends by the window's joins and a steal:
    // `in_line_ignores_its_empty_deque` deadlocks in the first execution,
    // and shuttle samples the preemptions.
    Check::new("10", "in_line_join_offers_a_half_after_a_steal", config)
        .bound(0)
        .run(move || in_line_join_offers_a_half_after_a_steal(config));
}

#[test]
fn join_half_published_at_next_join_2w() {
    let config = Config::new(2);
    Check::new("10", "join_half_published_at_next_join", config)
        .bound(1)
        .run(move || join_half_published_at_next_join(config));
}

#[test]
fn join_halves_published_before_a_wait_1w() {
    let config = Config::new(1);
    Check::new("10", "join_halves_published_before_a_wait", config)
        .bound(2)
        .run(move || join_halves_published_before_a_wait(config));
}

#[test]
fn join_halves_published_before_a_wait_2w() {
    let config = Config::new(2);
    Check::new("10", "join_halves_published_before_a_wait", config)
        .bound(1)
        .run(move || join_halves_published_before_a_wait(config));
}

#[test]
fn nested_join_halves_run_once_2w() {
    let config = Config::new(2);
    Check::new("10", "nested_join_halves_run_once", config)
        .bound(1)
        .with("installers", 1)
        .with("depth", 2)
        .run(move || nested_join_halves_run_once(config, 1, 2));
}
