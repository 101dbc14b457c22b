//! `RAYON_NUM_THREADS` and `RAYON_RS_NUM_CPUS`, alone in their own test
//! binary: the tests set the variables, and no other test may read the
//! environment meanwhile. The tests share the variables, so they hold a lock
//! while they run.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::sync::{Mutex, MutexGuard};

/// Held by each test while it changes the environment.
static ENVIRONMENT: Mutex<()> = Mutex::new(());

/// Takes `ENVIRONMENT`, even after a test that held it failed: each test
/// sets every variable it reads.
fn lock_environment() -> MutexGuard<'static, ()> {
    ENVIRONMENT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The machine's parallelism, the size a pool takes by default.
fn available_parallelism() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn default_pool_size() -> usize {
    let pool = ThreadPoolBuilder::new().build().unwrap();
    let size = pool.current_num_threads();
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    size
}

#[test]
fn rayon_num_threads_sets_the_default_size_when_positive() {
    let _environment = lock_environment();
    let available = available_parallelism();
    // A size that differs from the machine's, so that the two are told apart.
    let requested = available + 3;
    std::env::remove_var("RAYON_RS_NUM_CPUS");

    std::env::set_var("RAYON_NUM_THREADS", requested.to_string());
    assert_eq!(default_pool_size(), requested, "a positive value is used");
    // As rayon-core: the value is parsed exactly, so surrounding space makes
    // it no number at all.
    std::env::set_var("RAYON_NUM_THREADS", format!(" {requested}"));
    assert_eq!(default_pool_size(), available, "\" 4\" is not a number");
    std::env::set_var("RAYON_NUM_THREADS", format!("{requested}\n"));
    assert_eq!(default_pool_size(), available, "\"4\\n\" is not a number");
    std::env::set_var("RAYON_NUM_THREADS", "0");
    assert_eq!(default_pool_size(), available, "zero means the default");
    std::env::set_var("RAYON_NUM_THREADS", "many");
    assert_eq!(default_pool_size(), available, "garbage means the default");
    std::env::remove_var("RAYON_NUM_THREADS");
    assert_eq!(default_pool_size(), available);
    // An explicit size wins over the variable.
    std::env::set_var("RAYON_NUM_THREADS", requested.to_string());
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.current_num_threads(), 1);
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    std::env::remove_var("RAYON_NUM_THREADS");
}

#[test]
fn rayon_rs_num_cpus_is_the_older_name() {
    let _environment = lock_environment();
    let available = available_parallelism();
    let requested = available + 3;
    let alias = available + 5;

    std::env::remove_var("RAYON_NUM_THREADS");
    std::env::set_var("RAYON_RS_NUM_CPUS", alias.to_string());
    assert_eq!(default_pool_size(), alias, "the old name alone is used");
    std::env::set_var("RAYON_NUM_THREADS", requested.to_string());
    assert_eq!(default_pool_size(), requested, "the new name wins");
    std::env::set_var("RAYON_NUM_THREADS", " 2");
    assert_eq!(
        default_pool_size(),
        alias,
        "a new name that is no number falls back to the old one"
    );
    std::env::set_var("RAYON_NUM_THREADS", "0");
    assert_eq!(
        default_pool_size(),
        available,
        "a new name of zero means the default, whatever the old one says"
    );
    std::env::remove_var("RAYON_NUM_THREADS");
    std::env::set_var("RAYON_RS_NUM_CPUS", "0");
    assert_eq!(
        default_pool_size(),
        available,
        "an old name of zero is ignored"
    );
    std::env::remove_var("RAYON_RS_NUM_CPUS");
}

#[test]
fn too_many_threads_from_the_environment_are_reduced_to_the_maximum() {
    let _environment = lock_environment();
    let max = drowse::max_num_threads();
    std::env::remove_var("RAYON_RS_NUM_CPUS");
    std::env::set_var("RAYON_NUM_THREADS", (max + 1).to_string());
    // The spawn handler drops the workers, so no thread is started.
    let mut handed_out = 0;
    let pool = ThreadPoolBuilder::new()
        .spawn_handler(|_thread| {
            handed_out += 1;
            Ok(())
        })
        .build()
        .expect("too many threads are not an error");
    std::env::remove_var("RAYON_NUM_THREADS");
    assert_eq!(pool.current_num_threads(), max);
    assert_eq!(handed_out, max);
    pool.shutdown_and_snapshot().check().unwrap();
}
