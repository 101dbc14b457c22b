#![cfg(shuttle)]
//! Property 5: the waker decrements the sleeping count, under the sleeper's
//! lock. While outside threads inject jobs, the main thread takes sleep
//! snapshots (every sleep lock held): the sleeping count must equal the
//! number of blocked workers. `counts_exact_while_injecting`
//! keeps taking snapshots for as long as an injector waits. (The cheapest
//! catch of a sleeper that decrements the count itself is property 6's
//! `snapshots_while_running`, whose snapshots are taken by jobs while the
//! worker that found them wakes others.)

// `jobs` is the number of snapshots the main thread takes while the
// injectors run.

use drowse_models::Checker;
use drowse_models::{concurrent_injectors_keep_counts_exact, Config};
use drowse_shuttle_tests::{scenarios, Check};

#[test]
fn concurrent_injectors_keep_counts_exact_2w_2i_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 2)
        .pct(3)
        .iterations(15000)
        .run(move || concurrent_injectors_keep_counts_exact(config, 2));
}

#[test]
fn concurrent_injectors_keep_counts_exact_2w_2i_random() {
    let config = Config::new(2).jobs(10);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 2)
        .random()
        .iterations(15000)
        .run(move || concurrent_injectors_keep_counts_exact(config, 2));
}

#[test]
fn concurrent_injectors_keep_counts_exact_4w_3i_random() {
    let config = Config::new(4).jobs(3);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 3)
        .random()
        .iterations(10000)
        .run(move || concurrent_injectors_keep_counts_exact(config, 3));
}

#[test]
fn concurrent_injectors_keep_counts_exact_4w_2i_pct() {
    let config = Config::new(4).jobs(4);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 2)
        .pct(4)
        .iterations(10000)
        .run(move || concurrent_injectors_keep_counts_exact(config, 2));
}

#[test]
fn counts_exact_while_injecting_1w_1i_random() {
    let config = Config::new(1);
    Check::new("5", "counts_exact_while_injecting", config)
        .with("injectors", 1)
        .random()
        .iterations(20000)
        .run(move || scenarios::counts_exact_while_injecting(config, 1));
}

#[test]
fn counts_exact_while_injecting_4w_3i_random() {
    let config = Config::new(4);
    Check::new("5", "counts_exact_while_injecting", config)
        .with("injectors", 3)
        .random()
        .iterations(10000)
        .run(move || scenarios::counts_exact_while_injecting(config, 3));
}
