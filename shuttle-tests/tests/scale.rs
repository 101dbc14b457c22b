#![cfg(shuttle)]
//! The properties on pools of 8 and 16 workers, under the random and the
//! PCT scheduler: injected jobs (property 1), latch wake-ups (2), injected
//! jobs at a narrow JEC (3), internal jobs (4), exact and consistent sleep
//! counters (5 and 6), termination (7), nested work (8), broadcasts (with
//! the race of rayon issue #992), the FIFO paths and order, the entry
//! points and each latch kind. The rest of the suite uses 1 to 4 workers;
//! here many more workers are idle, sleepy or asleep at once, so a post or
//! a latch set meets a crowd of sleepers. The first group of checks runs
//! the scenarios as they are; in those, a large pool seldom has every
//! worker asleep when a job is posted (an idle worker usually takes it
//! first). The scenarios that wait until the workers are asleep
//! (`*_to_sleeping_workers`, `*_beside_sleepers`, `*_wakes_sleeping_*`)
//! reach that state in every execution. Each check kills at least one
//! seeded mutant (`ci/mutants.d/shuttle.tsv`).
//!
//! An execution at 16 workers costs a few times one at 4, so the iteration
//! counts are lower than the rest of the suite's. `ci/soak scale` runs the
//! same tests with as many schedules as one asks for, split over processes
//! with different seeds.

use drowse_models::Checker;
use drowse_models::{
    broadcast_racing_sleep, broadcast_to_sleeping_workers, concurrent_injectors,
    concurrent_injectors_keep_counts_exact, cross_pool_latch_wakes_sleeping_owner,
    current_thread_is_worker_zero, in_place_scope_wakes_sleeping_workers, injected_jobs,
    injected_jobs_beside_blocked_worker, install_from_outside,
    internal_job_is_found_beside_sleepers, join_latch_wakes_owner, join_latch_wakes_sleeping_owner,
    lock_latch_wakes_outside_thread, nested_join_scope, scope_fifo_order, scope_latch_wakes_owner,
    scope_latch_wakes_sleeping_owner, shutdown_while_busy, snapshots_while_running,
    spawn_fifo_from_worker_beside_sleepers, spawn_fifo_order, spawn_fifo_to_sleeping_workers,
    yield_runs_pending_jobs, Config,
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

// The checks below run the scenarios that the rest of the suite runs on 1
// to 4 workers (`drowse_models`) on 8 and 16. Most of them end in the first
// execution under the mutant that kills them (`ci/mutants.d/shuttle.tsv`),
// so they run fewer iterations than the checks above; `ci/soak scale`
// multiplies every count alike.

/// Iterations of the checks below: a tenth of the counts above.
fn fewer(workers: usize) -> usize {
    iterations(workers) / 10
}

fn random_fewer(property: &'static str, test: &'static str, config: Config) -> Check {
    random(property, test, config).iterations(fewer(config.workers))
}

fn pct_fewer(property: &'static str, test: &'static str, config: Config) -> Check {
    pct(property, test, config).iterations(fewer(config.workers))
}

// Property 3: injected jobs with a narrow JEC, which rolls over within a
// few posts.

#[test]
fn injected_jobs_jec1_8w_4j_random() {
    let config = Config::new(8).jobs(4).jec_bits(1);
    random_fewer("3", "injected_jobs", config).run(move || injected_jobs(config));
}

#[test]
fn injected_jobs_beside_blocked_worker_jec2_16w_3j_pct() {
    let config = Config::new(16).jobs(3).jec_bits(2);
    pct_fewer("3", "injected_jobs_beside_blocked_worker", config)
        .run(move || injected_jobs_beside_blocked_worker(config));
}

// Property 4: an internal job, pushed by a worker that then blocks until
// another worker has run it.

#[test]
fn internal_job_is_found_beside_sleepers_8w_random() {
    let config = Config::new(8);
    random_fewer("4", "internal_job_is_found_beside_sleepers", config)
        .run(move || internal_job_is_found_beside_sleepers(config));
}

#[test]
fn internal_job_is_found_beside_sleepers_16w_pct() {
    let config = Config::new(16);
    pct_fewer("4", "internal_job_is_found_beside_sleepers", config)
        .run(move || internal_job_is_found_beside_sleepers(config));
}

// Property 1 for broadcasts: to a pool asleep, and racing the workers on
// their way to sleep (the shape of rayon issue #992).

#[test]
fn broadcast_to_sleeping_workers_16w_random() {
    let config = Config::new(16).jobs(1);
    random_fewer("1", "broadcast_to_sleeping_workers", config)
        .run(move || broadcast_to_sleeping_workers(config));
}

#[test]
fn broadcast_racing_sleep_8w_random() {
    let config = Config::new(8).jobs(2);
    random_fewer("1", "broadcast_racing_sleep", config).run(move || broadcast_racing_sleep(config));
}

// Lemma 8: FIFO jobs from outside into a pool asleep, from a worker beside
// sleepers, and their order.

#[test]
fn spawn_fifo_to_sleeping_workers_16w_random() {
    let config = Config::new(16).jobs(2);
    random_fewer("1", "spawn_fifo_to_sleeping_workers", config)
        .run(move || spawn_fifo_to_sleeping_workers(config));
}

#[test]
fn spawn_fifo_from_worker_beside_sleepers_8w_random() {
    let config = Config::new(8).jobs(2);
    random_fewer("1", "spawn_fifo_from_worker_beside_sleepers", config)
        .run(move || spawn_fifo_from_worker_beside_sleepers(config));
}

#[test]
fn spawn_fifo_order_8w_pct() {
    let config = Config::new(8).jobs(4);
    pct_fewer("fifo", "spawn_fifo_order", config).run(move || spawn_fifo_order(config));
}

#[test]
fn scope_fifo_order_16w_pct() {
    let config = Config::new(16).jobs(4);
    pct_fewer("fifo", "scope_fifo_order", config).run(move || scope_fifo_order(config));
}

// Property 8: nested work runs each leaf once.

#[test]
fn nested_join_scope_8w_random() {
    let config = Config::new(8).jobs(4);
    random_fewer("8", "nested_join_scope", config).run(move || nested_join_scope(config));
}

// Lemma 9: the entry points beside install, spawn and broadcast.

#[test]
fn yield_runs_pending_jobs_8w_random() {
    let config = Config::new(8);
    random_fewer("1", "yield_runs_pending_jobs", config)
        .run(move || yield_runs_pending_jobs(config));
}

#[test]
fn in_place_scope_wakes_sleeping_workers_8w_random() {
    let config = Config::new(8).jobs(2);
    random_fewer("1", "in_place_scope_wakes_sleeping_workers", config)
        .run(move || in_place_scope_wakes_sleeping_workers(config));
}

#[test]
fn current_thread_is_worker_zero_16w_random() {
    let config = Config::new(16);
    random_fewer("1", "current_thread_is_worker_zero", config)
        .run(move || current_thread_is_worker_zero(config));
}

// Property 2, one latch kind at a time, each owner asleep on its latch
// while the pool runs (`drowse_models::latch_kinds`).

#[test]
fn join_latch_wakes_sleeping_owner_8w_random() {
    let config = Config::new(8);
    random_fewer("2", "join_latch_wakes_sleeping_owner", config)
        .run(move || join_latch_wakes_sleeping_owner(config));
}

#[test]
fn scope_latch_wakes_sleeping_owner_16w_random() {
    let config = Config::new(16);
    random_fewer("2", "scope_latch_wakes_sleeping_owner", config)
        .run(move || scope_latch_wakes_sleeping_owner(config));
}

#[test]
fn cross_pool_latch_wakes_sleeping_owner_8w_random() {
    let config = Config::new(8);
    random_fewer("2", "cross_pool_latch_wakes_sleeping_owner", config)
        .run(move || cross_pool_latch_wakes_sleeping_owner(config));
}

#[test]
fn lock_latch_wakes_outside_thread_8w_random() {
    let config = Config::new(8).jobs(2);
    random_fewer("2", "lock_latch_wakes_outside_thread", config)
        .run(move || lock_latch_wakes_outside_thread(config));
}
