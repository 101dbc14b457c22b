//! The scenarios this suite runs: those of `drowse-models` (written once for
//! both checkers), plus one written for this suite that should move there.

use drowse::sync::{thread, Arc};
use drowse_models::{assert_consistent, shutdown_at_rest, Config, RunCounts};
pub use drowse_models::{
    injected_jobs, no_self_inflicted_wakeups_from_sleep, snapshots_while_running,
    wait_until_all_asleep,
};

/// Property 5, with a denser observer: as
/// `drowse_models::concurrent_injectors_keep_counts_exact`, but the main
/// thread takes snapshots (yielding between them) for as long as any
/// injector is still waiting for its job, not a fixed number of times. The
/// state it must catch, a woken worker still counted asleep, lasts only the
/// few steps between its waker releasing its lock and the count going down,
/// so the more snapshots fall while workers are being woken, the sooner a
/// wrong count is seen.
pub fn counts_exact_while_injecting(config: Config, injectors: usize) {
    use drowse::sync::atomic::{AtomicUsize, Ordering};
    let pool = Arc::new(config.pool());
    let runs = Arc::new(RunCounts::new(injectors));
    let done = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..injectors)
        .map(|index| {
            let (pool, runs, done) = (Arc::clone(&pool), Arc::clone(&runs), Arc::clone(&done));
            thread::spawn(move || {
                pool.install(move || runs.ran(index));
                done.fetch_add(1, Ordering::SeqCst);
            })
        })
        .collect();
    while done.load(Ordering::SeqCst) < injectors {
        assert_consistent(&pool.sleep_snapshot());
        thread::yield_now();
    }
    for handle in threads {
        handle.join().unwrap();
    }
    assert_consistent(&pool.sleep_snapshot());
    runs.assert_each_ran_once();
    let pool = Arc::try_unwrap(pool).unwrap_or_else(|_| unreachable!("every injector has exited"));
    shutdown_at_rest(pool);
}
