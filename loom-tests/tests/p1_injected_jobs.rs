#![cfg(loom)]
//! Property 1: injected jobs are never stranded. A job pushed into the
//! injector from outside the pool is run, exactly once, whatever the workers
//! were doing; a stranded job shows as a loom deadlock.
//!
//! `injected_jobs_beside_blocked_worker` is the check that sees the two
//! `SeqCst` fences and the sleeper's final look at the injector: one worker
//! blocks inside job 0 while the outside thread injects job 1, so the other
//! worker's final look can read the injector's length as it was before job 1
//! (loom's C11 model allows it, since nothing orders that read after the
//! push but the fences). Removing either fence or the final look strands job
//! 1 within bound 2 (see `ci/mutants.d/loom.tsv`). In the simpler shapes
//! (`injected_jobs` with one worker) loom cannot show a missing fence: every
//! "empty" length of the injector that the lone worker could read stale is
//! the initial one, which it read in its first search, or one its own take
//! wrote, and a sleepy worker yields after its announcement before it
//! searches once more, so loom's progress rule (`docs/proof.md`, "Memory
//! models") never returns such a store to that search.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    concurrent_injectors, injected_jobs, injected_jobs_beside_blocked_worker, install_from_outside,
    Config,
};

#[test]
fn install_from_outside_1w() {
    let config = Config::new(1);
    Check::new("1", "install_from_outside", config)
        .bound(4)
        .run(move || install_from_outside(config));
}

#[test]
fn injected_jobs_1w() {
    let config = Config::new(1).jobs(2);
    Check::new("1", "injected_jobs", config)
        .bound(4)
        .run(move || injected_jobs(config));
}

#[test]
fn injected_jobs_beside_blocked_worker_2w() {
    let config = Config::new(2).jobs(2);
    Check::new("1", "injected_jobs_beside_blocked_worker", config)
        .bound(2)
        .run(move || injected_jobs_beside_blocked_worker(config));
}

#[test]
fn concurrent_injectors_1w() {
    let config = Config::new(1);
    Check::new("1", "concurrent_injectors", config)
        .with("injectors", 2)
        .bound(2)
        .run(move || concurrent_injectors(config, 2));
}
