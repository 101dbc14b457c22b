#![cfg(shuttle)]
//! The core properties on pools of 8 and 16 workers, under the random and
//! the PCT scheduler: injected jobs (property 1), latch wake-ups (2), exact
//! and consistent sleep counters (5 and 6) and termination (7). The rest of
//! the suite uses 1 to 4 workers; here many more workers are idle, sleepy or
//! asleep at once, so a post or a latch set meets a crowd of sleepers.
//!
//! An execution at 16 workers costs a few times one at 4, so the iteration
//! counts are lower than the rest of the suite's: the whole file adds about
//! a minute to the suite on 2 cores. `ci/soak scale` runs the same tests
//! with as many schedules as one asks for, split over processes with
//! different seeds.

use drowse_models::{
    concurrent_injectors, concurrent_injectors_keep_counts_exact, injected_jobs,
    install_from_outside, join_latch_wakes_owner, scope_latch_wakes_owner, shutdown_while_busy,
    snapshots_while_running, Config,
};
use drowse_shuttle_tests::Check;

/// PCT depth for every PCT test of this file.
const DEPTH: usize = 3;

/// Default iterations at 8 and at 16 workers.
fn iterations(workers: usize) -> usize {
    if workers >= 16 {
        5000
    } else {
        10000
    }
}

fn random(property: &'static str, test: &'static str, config: Config) -> Check {
    Check::new(property, test, config)
        .random()
        .iterations(iterations(config.workers))
}

fn pct(property: &'static str, test: &'static str, config: Config) -> Check {
    Check::new(property, test, config)
        .pct(DEPTH)
        .iterations(iterations(config.workers))
}

// Property 1: an outside thread installs a job into an idle pool.

#[test]
fn install_from_outside_8w_random() {
    let config = Config::new(8);
    random("1", "install_from_outside", config).run(move || install_from_outside(config));
}

#[test]
fn install_from_outside_16w_pct() {
    let config = Config::new(16);
    pct("1", "install_from_outside", config).run(move || install_from_outside(config));
}

// Property 1: jobs injected back to back.

#[test]
fn injected_jobs_8w_4j_pct() {
    let config = Config::new(8).jobs(4);
    pct("1", "injected_jobs", config).run(move || injected_jobs(config));
}

#[test]
fn injected_jobs_16w_4j_random() {
    let config = Config::new(16).jobs(4);
    random("1", "injected_jobs", config).run(move || injected_jobs(config));
}

// Property 1: three outside threads inject at once.

#[test]
fn concurrent_injectors_8w_3i_random() {
    let config = Config::new(8);
    random("1", "concurrent_injectors", config)
        .with("injectors", 3)
        .run(move || concurrent_injectors(config, 3));
}

#[test]
fn concurrent_injectors_16w_3i_pct() {
    let config = Config::new(16);
    pct("1", "concurrent_injectors", config)
        .with("injectors", 3)
        .run(move || concurrent_injectors(config, 3));
}

// Property 2: join's latch (the second half stolen) and scope's latch.

#[test]
fn join_latch_wakes_owner_8w_pct() {
    let config = Config::new(8).jobs(2);
    pct("2", "join_latch_wakes_owner", config).run(move || join_latch_wakes_owner(config));
}

#[test]
fn join_latch_wakes_owner_16w_random() {
    let config = Config::new(16).jobs(2);
    random("2", "join_latch_wakes_owner", config).run(move || join_latch_wakes_owner(config));
}

#[test]
fn scope_latch_wakes_owner_8w_8j_random() {
    let config = Config::new(8).jobs(8);
    random("2", "scope_latch_wakes_owner", config).run(move || scope_latch_wakes_owner(config));
}

#[test]
fn scope_latch_wakes_owner_16w_8j_pct() {
    let config = Config::new(16).jobs(8);
    pct("2", "scope_latch_wakes_owner", config).run(move || scope_latch_wakes_owner(config));
}

// Property 5: sleep snapshots while three outside threads inject.

#[test]
fn counts_exact_8w_3i_pct() {
    let config = Config::new(8).jobs(4);
    pct("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 3)
        .run(move || concurrent_injectors_keep_counts_exact(config, 3));
}

#[test]
fn counts_exact_16w_3i_random() {
    let config = Config::new(16).jobs(4);
    random("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 3)
        .run(move || concurrent_injectors_keep_counts_exact(config, 3));
}

// Property 6: snapshots from inside jobs and from an outside observer.

#[test]
fn snapshots_while_running_8w_random() {
    let config = Config::new(8).jobs(4);
    random("6", "snapshots_while_running", config).run(move || snapshots_while_running(config));
}

#[test]
fn snapshots_while_running_16w_pct() {
    let config = Config::new(16).jobs(4);
    pct("6", "snapshots_while_running", config).run(move || snapshots_while_running(config));
}

// Property 7: shutdown right after spawning, whatever the workers do.

#[test]
fn shutdown_while_busy_8w_pct() {
    let config = Config::new(8).jobs(4);
    pct("7", "shutdown_while_busy", config).run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_8w_random() {
    let config = Config::new(8).jobs(8);
    random("7", "shutdown_while_busy", config).run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_16w_pct() {
    let config = Config::new(16).jobs(4);
    pct("7", "shutdown_while_busy", config).run(move || shutdown_while_busy(config));
}

#[test]
fn shutdown_while_busy_16w_random() {
    let config = Config::new(16).jobs(8);
    random("7", "shutdown_while_busy", config).run(move || shutdown_while_busy(config));
}
