//! Scenarios for the global pool under the checkers, used the way a
//! downstream test uses it: `drowse::join`, `drowse::spawn` and
//! `drowse::scope` called from the model's main thread, outside any pool,
//! with no pool built by hand and nothing shut down by hand.
//!
//! Under loom and shuttle each execution of a model has a global pool of its
//! own, built on first use (2 workers by default under the checkers) or by
//! `build_global` in that execution, and ended when every thread of the
//! execution that used it has exited (here: the main thread, as the model's
//! closure returns; see `ExecutionOnceLock` in `core/src/sync/`). Its end is
//! the termination part of the theorem of `docs/proof.md` (property 7): the
//! last user's exit ends the pool as dropping the last handle of a
//! `ThreadPool` does, every worker's terminate latch is set, and each worker
//! exits once it is out of work. Both checkers fail an execution that ends
//! with a worker still blocked (as a deadlock), so a pool whose workers were
//! left asleep fails every scenario here; loom also fails an execution that
//! leaves a loom object alive, and a pool kept from one execution to the
//! next makes the next execution's `build_global` fail.
//!
//! No fences or counters are checked here (the property tests do that on
//! pools built by hand). The seeded mutant of this path is
//! `global_pool_never_ends` (`ci/mutants.d/`): the last user's exit does
//! not end the pool, and its workers sleep on past the end of the
//! execution; every scenario here fails under it, in the first execution.
//!
//! The global pool exists once per process in the std world, so these
//! scenarios are for the checker worlds: each checker execution starts with
//! no global pool.

use drowse::sync::{Arc, Condvar, Mutex};
use drowse::ThreadPoolBuilder;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Both halves of a `join` made outside any pool run on workers of the
/// global pool, which `build_global` gives 2 workers in this execution.
pub fn join_from_outside_on_a_built_global_pool() {
    ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global()
        .expect("each execution builds its own global pool");
    assert_eq!(drowse::current_num_threads(), 2);
    let (a, b) = drowse::join(
        || drowse::current_thread_index().map(|index| index + 10),
        || drowse::current_thread_index().map(|index| index + 20),
    );
    let (a, b) = (a.expect("runs on a worker"), b.expect("runs on a worker"));
    assert!((10..12).contains(&a) && (20..22).contains(&b), "{a} {b}");
    assert_eq!(drowse::current_thread_index(), None);
}

/// With no `build_global`, the first `join` builds the default global pool:
/// 2 workers under the checkers (the machine's parallelism does not count).
pub fn join_from_outside_on_the_default_global_pool() {
    let (a, b) = drowse::join(|| 1 + 1, drowse::current_num_threads);
    assert_eq!((a, b), (2, 2));
}

/// A job spawned into the global pool from outside runs on one of its
/// workers, and the main thread waits for it on a lock of its own.
pub fn spawn_from_outside_and_wait() {
    let done = Arc::new((Mutex::new(None), Condvar::new()));
    let signal = Arc::clone(&done);
    drowse::spawn(move || {
        let (ran_on, wake) = &*signal;
        *ran_on.lock().unwrap() = drowse::current_thread_index();
        wake.notify_one();
    });
    let (ran_on, wake) = &*done;
    let mut ran_on = ran_on.lock().unwrap();
    while ran_on.is_none() {
        ran_on = wake.wait(ran_on).unwrap();
    }
    assert!(ran_on.is_some_and(|index| index < 2));
}

/// A job spawned into the global pool from outside, and not waited for:
/// it adds one to `runs` (a std atomic, counted across executions) when it
/// runs. The pool ends only once its spawned jobs have run, so after a
/// check `runs` must equal the number of executions.
pub fn spawn_from_outside_and_return(runs: &'static AtomicUsize) {
    drowse::spawn(|| {
        runs.fetch_add(1, Ordering::Relaxed);
    });
}

/// `scope` from outside runs on the global pool and waits for its jobs.
pub fn scope_from_outside() {
    let seen = Mutex::new(Vec::new());
    drowse::scope(|scope| {
        scope.spawn(|_| seen.lock().unwrap().push(1));
        seen.lock().unwrap().push(2);
    });
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    assert_eq!(seen, [1, 2]);
}

/// The workers of the global pools of a check that started and exited,
/// counted across its executions (std atomics: the facade's live for one
/// execution only).
#[derive(Debug)]
pub struct WorkerTally {
    starts: AtomicUsize,
    exits: AtomicUsize,
}

impl WorkerTally {
    /// Nothing started or exited yet.
    pub const fn new() -> WorkerTally {
        WorkerTally {
            starts: AtomicUsize::new(0),
            exits: AtomicUsize::new(0),
        }
    }

    /// Panics unless the check had more than one execution, and each of
    /// them started `workers` workers and saw every one of them exit.
    pub fn assert_every_worker_started_and_exited(&self, workers: usize, executions: usize) {
        assert!(executions > 1, "{executions}");
        assert_eq!(self.starts.load(Ordering::Relaxed), workers * executions);
        assert_eq!(self.exits.load(Ordering::Relaxed), workers * executions);
    }
}

impl Default for WorkerTally {
    fn default() -> Self {
        WorkerTally::new()
    }
}

/// Each execution gets a fresh global pool: `build_global` succeeds in every
/// one (it fails once a pool exists), and starts 2 workers, counted in
/// `tally` with the exits of its workers (every one must exit before the
/// execution ends: [`WorkerTally::assert_every_worker_started_and_exited`]
/// after the check, with 2 workers). A second `build_global` in the same
/// execution fails, as in the std world.
pub fn each_execution_gets_a_fresh_global_pool(tally: &'static WorkerTally) {
    ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| {
            tally.starts.fetch_add(1, Ordering::Relaxed);
        })
        .exit_handler(|_| {
            tally.exits.fetch_add(1, Ordering::Relaxed);
        })
        .build_global()
        .expect("a fresh global pool in every execution");
    let again = ThreadPoolBuilder::new().num_threads(1).build_global();
    assert!(again.is_err(), "built twice in one execution");
    assert_eq!(drowse::join(|| 1, || 2), (1, 2));
}
