#![cfg(shuttle)]
//! Property 1 for FIFO jobs, and FIFO order (lemma 8 of `docs/proof.md`),
//! under random and PCT schedules: a job spawned with `spawn_fifo` from
//! outside the pool or from a worker (while the other workers sleep) is
//! never stranded, and the FIFO jobs of one thread start in spawn order on
//! each thread that runs them. A stranded job shows as a deadlock, an order
//! violation as a panic. The mutants `spawn_fifo_outside_skips_post`,
//! `push_fifo_skips_post`, `spawn_fifo_pushes_job_itself` and
//! `scope_fifo_pushes_job_itself` (`ci/mutants.d/`) fail here.

use drowse_models::Checker;
use drowse_models::{
    scope_fifo_order, spawn_fifo_from_outside, spawn_fifo_from_worker_beside_sleepers,
    spawn_fifo_order, spawn_fifo_to_sleeping_workers, Config,
};
use drowse_shuttle_tests::Check;

#[test]
fn spawn_fifo_from_outside_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "spawn_fifo_from_outside", config)
        .random()
        .iterations(20000)
        .run(move || spawn_fifo_from_outside(config));
}

#[test]
fn spawn_fifo_from_outside_2w_pct() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "spawn_fifo_from_outside", config)
        .pct(3)
        .iterations(20000)
        .run(move || spawn_fifo_from_outside(config));
}

#[test]
fn spawn_fifo_to_sleeping_workers_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "spawn_fifo_to_sleeping_workers", config)
        .random()
        .iterations(10000)
        .run(move || spawn_fifo_to_sleeping_workers(config));
}

#[test]
fn spawn_fifo_from_worker_beside_sleepers_2w_random() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "spawn_fifo_from_worker_beside_sleepers", config)
        .random()
        .iterations(10000)
        .run(move || spawn_fifo_from_worker_beside_sleepers(config));
}

#[test]
fn spawn_fifo_from_worker_beside_sleepers_3w_pct() {
    let config = Config::new(3).jobs(2);
    Check::new("1", "spawn_fifo_from_worker_beside_sleepers", config)
        .pct(3)
        .iterations(5000)
        .run(move || spawn_fifo_from_worker_beside_sleepers(config));
}

#[test]
fn spawn_fifo_order_2w_random() {
    let config = Config::new(2).jobs(3);
    Check::new("fifo", "spawn_fifo_order", config)
        .random()
        .iterations(20000)
        .run(move || spawn_fifo_order(config));
}

#[test]
fn spawn_fifo_order_2w_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("fifo", "spawn_fifo_order", config)
        .pct(3)
        .iterations(20000)
        .run(move || spawn_fifo_order(config));
}

#[test]
fn scope_fifo_order_2w_random() {
    let config = Config::new(2).jobs(3);
    Check::new("fifo", "scope_fifo_order", config)
        .random()
        .iterations(20000)
        .run(move || scope_fifo_order(config));
}

#[test]
fn scope_fifo_order_2w_pct() {
    let config = Config::new(2).jobs(3);
    Check::new("fifo", "scope_fifo_order", config)
        .pct(3)
        .iterations(20000)
        .run(move || scope_fifo_order(config));
}
