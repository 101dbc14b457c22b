//! `RAYON_NUM_THREADS`, alone in its own test binary: it sets the variable,
//! and no other test may read the environment meanwhile. Found by running
//! cargo-mutants over `core/src` (see `docs/cargo-mutants.md`).
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;

fn default_pool_size() -> usize {
    let pool = ThreadPoolBuilder::new().build().unwrap();
    let size = pool.current_num_threads();
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    size
}

#[test]
fn rayon_num_threads_sets_the_default_size_when_positive() {
    let available = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    // A size that differs from the machine's, so that the two are told apart.
    let requested = available + 3;

    std::env::set_var("RAYON_NUM_THREADS", requested.to_string());
    assert_eq!(default_pool_size(), requested, "a positive value is used");
    std::env::set_var("RAYON_NUM_THREADS", format!(" {requested}\n"));
    assert_eq!(
        default_pool_size(),
        requested,
        "surrounding space is ignored"
    );
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
