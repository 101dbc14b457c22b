#![cfg(shuttle)]
//! Property 8: nothing is lost or run twice, and panics reach the caller.
//! A panic in one half of a `join` reaches the caller after the other half
//! has run, and the pool works afterwards; nested `join`/`scope` work runs
//! each leaf exactly once.

use drowse_models::Checker;
use drowse_models::{join_panic_reaches_caller, nested_join_scope, Config};
use drowse_shuttle_tests::{silence_expected_panic, Check};

/// The scenario's own panic, caught inside it: without this shuttle's panic
/// hook would print a "failing schedule" for every execution.
const SEEDED_PANIC: &str = "seeded panic in join's first half";

#[test]
fn join_panic_reaches_caller_2w_pct() {
    silence_expected_panic(SEEDED_PANIC);
    let config = Config::new(2);
    Check::new("8", "join_panic_reaches_caller", config)
        .pct(3)
        .iterations(15000)
        .run(move || join_panic_reaches_caller(config));
}

#[test]
fn join_panic_reaches_caller_2w_random() {
    silence_expected_panic(SEEDED_PANIC);
    let config = Config::new(2);
    Check::new("8", "join_panic_reaches_caller", config)
        .random()
        .iterations(15000)
        .run(move || join_panic_reaches_caller(config));
}

#[test]
fn join_panic_reaches_caller_4w_random() {
    silence_expected_panic(SEEDED_PANIC);
    let config = Config::new(4);
    Check::new("8", "join_panic_reaches_caller", config)
        .random()
        .iterations(15000)
        .run(move || join_panic_reaches_caller(config));
}

#[test]
fn nested_join_scope_2w_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("8", "nested_join_scope", config)
        .pct(3)
        .iterations(15000)
        .run(move || nested_join_scope(config));
}

#[test]
fn nested_join_scope_3w_random() {
    let config = Config::new(3).jobs(4);
    Check::new("8", "nested_join_scope", config)
        .random()
        .iterations(15000)
        .run(move || nested_join_scope(config));
}
