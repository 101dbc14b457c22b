#![cfg(loom)]
//! Property 7 for a pool without thread handles: `shutdown_and_wait` waits
//! on the stopped countdown, and each worker's exit handler is visible to
//! the caller afterwards (models/src/countdown.rs).

use drowse_loom_tests::Check;
use drowse_models::{shutdown_without_handles, Config};

#[test]
fn shutdown_without_handles_1w() {
    let config = Config::new(1);
    Check::new("7", "shutdown_without_handles", config)
        .bound(3)
        .run(move || shutdown_without_handles(config));
}

#[test]
fn shutdown_without_handles_2w() {
    let config = Config::new(2);
    Check::new("7", "shutdown_without_handles", config)
        .bound(2)
        .run(move || shutdown_without_handles(config));
}
