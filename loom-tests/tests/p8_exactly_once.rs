#![cfg(loom)]
//! Property 8: nothing is lost or run twice, and panics reach the caller.
//! Every scenario counts the runs of each of its jobs and asserts exactly
//! one; this test adds a `join` whose first half panics: the panic reaches
//! the caller of `install` only after the second half has run, and the pool
//! runs more work afterwards. (The runner's panic hook keeps loom from
//! printing the seeded panic in every execution.)

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{join_panic_reaches_caller, Config};

#[test]
fn join_panic_reaches_caller_1w() {
    let config = Config::new(1);
    Check::new("8", "join_panic_reaches_caller", config)
        .bound(3)
        .run(move || join_panic_reaches_caller(config));
}

/// Two workers, so the second half may be stolen and the panicking owner
/// waits (possibly asleep) for the thief before resuming the panic. Bound 1:
/// bound 2 is 697,342 executions (55-65 s), too long for the suite.
#[test]
fn join_panic_reaches_caller_2w() {
    let config = Config::new(2);
    Check::new("8", "join_panic_reaches_caller", config)
        .bound(1)
        .run(move || join_panic_reaches_caller(config));
}
