//! Property 7 without thread handles: a pool whose workers were started by
//! a spawn handler. `ThreadPool::shutdown_and_wait` then has no handles to
//! join and waits on the pool's stopped countdown (`WorkerCountdown` in
//! `core/src/lifecycle.rs`), which is the only thing that orders what the
//! workers did last (their exit handlers) before the caller goes on. The
//! orderings of that countdown are argued in docs/orderings.md; this
//! scenario is where loom can see them.

use crate::scenarios::{Config, RunCounts};
use drowse::sync::{thread, Arc};
use drowse::ThreadPoolBuilder;

/// Builds a pool of `config.workers` workers through a spawn handler that
/// keeps no handles, with an exit handler that counts each worker's exit,
/// ends it with `shutdown_and_wait`, and checks that every exit handler's
/// count is visible to the caller afterwards.
pub fn shutdown_without_handles(config: Config) {
    let exits = Arc::new(RunCounts::new(config.workers));
    let on_exit = Arc::clone(&exits);
    let pool = ThreadPoolBuilder::new()
        .num_threads(config.workers)
        .search_rounds_before_sleep(config.search_rounds)
        .exit_handler(move |index| on_exit.ran(index))
        .spawn_handler(|worker| {
            // The handle is dropped: only the countdown says when it ends.
            drop(thread::spawn(move || worker.run()));
            Ok(())
        })
        .build()
        .expect("scenario pools are valid");
    pool.shutdown_and_wait();
    exits.assert_each_ran_once();
}
