//! Property 7 without thread handles: a pool whose workers were started by
//! a spawn handler. `ThreadPool::shutdown_and_wait` then has no handles to
//! join and waits on the pool's stopped countdown (`WorkerCountdown` in
//! `core/src/lifecycle.rs`), which is the only thing that orders what the
//! workers did last (their exit handlers) before the caller goes on. The
//! orderings of that countdown are argued in docs/orderings.md; these
//! scenarios are where loom can see them. Only loom runs them: shuttle is
//! sequentially consistent, so it cannot see an ordering, and its
//! `shutdown_while_busy` checks cover termination at larger pools (run on
//! these scenarios, `once_latch_set_never_wakes` survived 5,000 schedules
//! each: the workers are seldom asleep when the pool ends).

use crate::scenarios::{Config, RunCounts};
use drowse::sync::{thread, Arc};
use drowse::{ThreadPool, ThreadPoolBuilder};

/// A pool of `config.workers` workers (worker 0 on the calling thread when
/// `on_current_thread`) started through a spawn handler that keeps no
/// handles, so only the stopped countdown says when they have ended, with
/// an exit handler that counts the exit of every worker from
/// `first_counted` on in `exits[index - first_counted]`.
fn pool_without_handles(
    config: Config,
    on_current_thread: bool,
    first_counted: usize,
    exits: &Arc<RunCounts>,
) -> ThreadPool {
    let on_exit = Arc::clone(exits);
    let mut builder = ThreadPoolBuilder::new()
        .num_threads(config.workers)
        .search_rounds_before_sleep(config.search_rounds_before_sleep)
        .exit_handler(move |index| {
            if index >= first_counted {
                on_exit.ran(index - first_counted);
            }
        });
    if on_current_thread {
        builder = builder.use_current_thread();
    }
    builder
        .spawn_handler(|worker| {
            drop(thread::spawn(move || worker.run()));
            Ok(())
        })
        .build()
        .expect("scenario pools are valid")
}

/// Builds a pool of `config.workers` workers through a spawn handler that
/// keeps no handles, with an exit handler that counts each worker's exit,
/// ends it with `shutdown_and_wait`, and checks that every exit handler's
/// count is visible to the caller afterwards.
pub fn shutdown_without_handles(config: Config) {
    let exits = Arc::new(RunCounts::new(config.workers));
    let pool = pool_without_handles(config, false, 0, &exits);
    pool.shutdown_and_wait();
    exits.assert_each_ran_once();
}

/// The same on the thread that built the pool with `use_current_thread`:
/// that thread is worker 0 for good, so `shutdown_and_wait` there waits for
/// the other workers only, and worker 0 keeps its reference to the pool
/// until the thread exits. So the caller's reference is not the pool's last
/// one, and dropping it orders nothing: only the stopped countdown orders
/// the other workers' exit handlers before the call returns. (In
/// `shutdown_without_handles` the caller drops the last reference after the
/// wait, and that drop's acquire alone would make the exits visible.) A
/// builder thread, not the scenario's main thread, builds the pool, since it
/// stays a worker for the rest of its life. Needs at least two workers.
pub fn shutdown_on_the_building_thread_without_handles(config: Config) {
    assert!(
        config.workers >= 2,
        "worker 0 needs another worker: {config:?}"
    );
    let builder_thread = thread::spawn(move || {
        // Exits of workers 1.. (worker 0's exit handler runs when this
        // thread exits, after the check).
        let exits = Arc::new(RunCounts::new(config.workers - 1));
        let pool = pool_without_handles(config, true, 1, &exits);
        pool.shutdown_and_wait();
        exits.assert_each_ran_once();
    });
    builder_thread.join().expect("the builder thread");
}
