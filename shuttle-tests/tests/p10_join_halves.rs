#![cfg(shuttle)]
//! Property 10: private join halves (models/src/join_halves.rs), from the
//! smallest pool each scenario needs to 8 and 16 workers. A half that
//! another worker could take is published (by the join when some worker
//! is searching, asleep or starting; by a later join of its owner at the
//! latest), every private half before its owner waits, and each half runs
//! once. `join_half_taken_on_a_fresh_pool` is rayon-core's own shape (the
//! first half blocks until the second has run, on a fresh pool) and holds
//! under SC.

use drowse_models::Checker;
use drowse_models::{
    in_line_join_offers_a_half_after_a_steal, join_half_published_at_next_join,
    join_half_taken_on_a_fresh_pool, join_halves_published_before_a_wait,
    nested_join_halves_run_once, oldest_half_offered_while_all_busy, Config,
};

#[test]
fn oldest_half_offered_while_all_busy_2w_random() {
    let config = Config::new(2);
    Check::new("10", "oldest_half_offered_while_all_busy", config)
        .random()
        .iterations(5000)
        .run(move || oldest_half_offered_while_all_busy(config));
}

#[test]
fn oldest_half_offered_while_all_busy_2w_pct() {
    let config = Config::new(2);
    Check::new("10", "oldest_half_offered_while_all_busy", config)
        .pct(3)
        .iterations(5000)
        .run(move || oldest_half_offered_while_all_busy(config));
}
#[test]
fn in_line_join_offers_a_half_after_a_steal_2w_random() {
    let config = Config::new(2);
    Check::new("10", "in_line_join_offers_a_half_after_a_steal", config)
        .random()
        .iterations(5000)
        .run(move || in_line_join_offers_a_half_after_a_steal(config));
}

#[test]
fn in_line_join_offers_a_half_after_a_steal_2w_pct() {
    let config = Config::new(2);
    Check::new("10", "in_line_join_offers_a_half_after_a_steal", config)
        .pct(3)
        .iterations(5000)
        .run(move || in_line_join_offers_a_half_after_a_steal(config));
}
use drowse_shuttle_tests::Check;

#[test]
fn join_half_published_at_next_join_2w_random() {
    let config = Config::new(2);
    Check::new("10", "join_half_published_at_next_join", config)
        .random()
        .iterations(5000)
        .run(move || join_half_published_at_next_join(config));
}

#[test]
fn join_half_published_at_next_join_8w_random() {
    let config = Config::new(8);
    Check::new("10", "join_half_published_at_next_join", config)
        .random()
        .iterations(1000)
        .run(move || join_half_published_at_next_join(config));
}

#[test]
fn join_half_taken_on_a_fresh_pool_2w_random() {
    let config = Config::new(2);
    Check::new("10", "join_half_taken_on_a_fresh_pool", config)
        .random()
        .iterations(10000)
        .run(move || join_half_taken_on_a_fresh_pool(config));
}

#[test]
fn join_half_taken_on_a_fresh_pool_2w_pct() {
    let config = Config::new(2);
    Check::new("10", "join_half_taken_on_a_fresh_pool", config)
        .pct(3)
        .iterations(10000)
        .run(move || join_half_taken_on_a_fresh_pool(config));
}

#[test]
fn join_half_taken_on_a_fresh_pool_16w_random() {
    let config = Config::new(16);
    Check::new("10", "join_half_taken_on_a_fresh_pool", config)
        .random()
        .iterations(500)
        .run(move || join_half_taken_on_a_fresh_pool(config));
}

#[test]
fn join_halves_published_before_a_wait_1w_random() {
    let config = Config::new(1);
    Check::new("10", "join_halves_published_before_a_wait", config)
        .random()
        .iterations(2000)
        .run(move || join_halves_published_before_a_wait(config));
}

#[test]
fn join_halves_published_before_a_wait_4w_random() {
    let config = Config::new(4);
    Check::new("10", "join_halves_published_before_a_wait", config)
        .random()
        .iterations(5000)
        .run(move || join_halves_published_before_a_wait(config));
}

#[test]
fn nested_join_halves_run_once_3w_random() {
    let config = Config::new(3);
    Check::new("10", "nested_join_halves_run_once", config)
        .random()
        .with("installers", 2)
        .with("depth", 3)
        .iterations(3000)
        .run(move || nested_join_halves_run_once(config, 2, 3));
}

#[test]
fn nested_join_halves_run_once_8w_pct() {
    let config = Config::new(8);
    Check::new("10", "nested_join_halves_run_once", config)
        .pct(3)
        .with("installers", 2)
        .with("depth", 4)
        .iterations(1000)
        .run(move || nested_join_halves_run_once(config, 2, 4));
}
