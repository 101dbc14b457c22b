//! Scenarios for `spawn_fifo`: the FIFO path into the pool from outside,
//! from inside a worker, and the order in which one thread's FIFO jobs
//! start (lemma 8 of `docs/proof.md`).
//!
//! From outside any pool `spawn_fifo` injects, like `spawn`; from a worker
//! it pushes the job into that worker's FIFO queue and a reference to the
//! queue onto the worker's deque. Whoever runs such a reference, the owner
//! popping its newest deque entry or a thief stealing the oldest, runs the
//! OLDEST job of that FIFO queue.
//!
//! The order property is what rayon-core 1.13 documents, no more: the
//! `spawn_fifo` calls of one thread are "prioritized in FIFO order" on that
//! thread, and other threads steal in FIFO order as usual; the order of
//! jobs from different threads, or of FIFO jobs against `spawn` jobs, is not
//! specified, and neither is the order in which jobs started on different
//! threads are observed to start. So the checkable statement is per running
//! thread: among the jobs that one thread spawned with `spawn_fifo`, those
//! that any one thread runs start on it in the order they were spawned.

use crate::scenarios::{
    assert_abandoned_at_most_once_per_post, assert_consistent, shutdown_at_rest,
    wait_until_all_asleep, Config, Countdown, RunCounts,
};
use drowse::sync::{thread, Arc, Mutex};
use drowse::ThreadPool;

/// Yields of the outside thread before each `spawn_fifo`, so that loom (which
/// runs a thread that yielded only once every runnable thread has yielded)
/// can place the push anywhere along a worker's way to sleep: checker builds
/// search three times (two rounds, sleepy, then the attempt to sleep).
const YIELDS_BEFORE_SPAWN: usize = 3;

/// Property 1 for FIFO jobs from outside: the outside thread spawns
/// `config.jobs` jobs with `ThreadPool::spawn_fifo`, yielding before each,
/// into a pool whose workers may be searching, sleepy or asleep, then waits
/// until all of them have run. From outside a pool `spawn_fifo` goes through
/// the injector, so what keeps a job from being stranded is the injection's
/// post (its fence, its JEC bump and the wake-up it sends) against the
/// sleeper's final look at the injector: a `spawn_fifo` that pushed without
/// posting strands its job once every worker is asleep, and the outside
/// thread waits forever (a deadlock).
pub fn spawn_fifo_from_outside(config: Config) {
    let pool = config.pool();
    spawn_fifo_from_outside_and_wait(&pool, config, YIELDS_BEFORE_SPAWN);
    let snapshot = shutdown_at_rest(pool);
    assert_abandoned_at_most_once_per_post(&snapshot, config.jobs);
}

/// Property 1 for FIFO jobs from outside, the wake path: as
/// [`spawn_fifo_from_outside`], but the outside thread first waits until
/// every worker is asleep, so each execution needs the first post's
/// wake-up. (Shuttle's random schedules rarely let both workers fall asleep
/// before the outside thread's push, so this is the shape that makes a
/// `spawn_fifo` that does not post fail in every execution.)
pub fn spawn_fifo_to_sleeping_workers(config: Config) {
    let pool = config.pool();
    wait_until_all_asleep(&pool);
    spawn_fifo_from_outside_and_wait(&pool, config, 0);
    let snapshot = shutdown_at_rest(pool);
    assert_abandoned_at_most_once_per_post(&snapshot, config.jobs);
}

/// `config.jobs` jobs spawned with `ThreadPool::spawn_fifo` from the calling
/// (outside) thread, `yields` yields before each; returns once each has run
/// exactly once.
fn spawn_fifo_from_outside_and_wait(pool: &ThreadPool, config: Config, yields: usize) {
    let runs = Arc::new(RunCounts::new(config.jobs));
    let finished = Arc::new(Countdown::default());
    for index in 0..config.jobs {
        for _ in 0..yields {
            thread::yield_now();
        }
        let (runs, finished) = (Arc::clone(&runs), Arc::clone(&finished));
        pool.spawn_fifo(move || {
            runs.ran(index);
            finished.tick();
        });
    }
    finished.wait_for(config.jobs);
    runs.assert_each_ran_once();
}

/// Property 1 for FIFO jobs from inside: an installed job waits until every
/// other worker is asleep, spawns `config.jobs` jobs with `drowse::spawn_fifo`
/// (into its own FIFO queue, with a reference on its own deque), and then
/// blocks its worker on a facade condvar (not in the pool) until all of them
/// have run. Only the sleeping workers can run them, so the push must wake
/// one: a FIFO push that does not post new internal work leaves every
/// worker blocked (a deadlock). The pool then shuts down at rest. Needs at
/// least two workers.
///
/// With one job the guarantee holds under C11 (lemma 8 (ii)). With more,
/// a later post may find the JEC odd and write nothing while the woken
/// worker is idle: the overlook of internal jobs that the design accepts
/// under C11 (lemma 5 (c)), which strands a job only because this worker
/// blocks outside the pool. So C11 checks (loom, real threads) run it with
/// one job, SC checks (shuttle) also with more.
pub fn spawn_fifo_from_worker_beside_sleepers(config: Config) {
    assert!(
        config.workers >= 2,
        "a spawning worker and a sleeping one: {config:?}"
    );
    let pool = config.pool();
    let runs = Arc::new(RunCounts::new(config.jobs));
    let finished = Arc::new(Countdown::default());
    pool.install(|| {
        wait_until_others_asleep(&pool);
        for index in 0..config.jobs {
            let (runs, finished) = (Arc::clone(&runs), Arc::clone(&finished));
            drowse::spawn_fifo(move || {
                runs.ran(index);
                finished.tick();
            });
        }
        // Blocks this worker outside the pool: it cannot run its own jobs.
        finished.wait_for(config.jobs);
    });
    runs.assert_each_ran_once();
    shutdown_at_rest(pool);
}

/// Waits (yielding) until every worker of `pool` but the calling one is
/// counted asleep, checking each snapshot on the way.
fn wait_until_others_asleep(pool: &ThreadPool) {
    loop {
        let snapshot = pool.sleep_snapshot();
        assert_consistent(&snapshot);
        if snapshot.sleeping_threads + 1 == snapshot.num_threads {
            return;
        }
        thread::yield_now();
    }
}

/// The FIFO order property (lemma 8 of `docs/proof.md`): an installed job
/// spawns `config.jobs` jobs with `drowse::spawn_fifo` and returns; the
/// outside thread waits until all of them have run. Each job records which
/// thread started it. The worker that spawned them runs them itself from
/// its deque (each reference it pops runs the oldest job of its FIFO queue),
/// and other workers may steal some; on each thread the recorded jobs must
/// appear in spawn order, and each job must run once. With `spawn`'s LIFO
/// order the spawning worker would start the newest first.
pub fn spawn_fifo_order(config: Config) {
    let pool = config.pool();
    let starts: Arc<Mutex<Vec<Start>>> = Arc::new(Mutex::new(Vec::new()));
    let finished = Arc::new(Countdown::default());
    let spawner = pool.install(|| {
        for index in 0..config.jobs {
            let (starts, finished) = (Arc::clone(&starts), Arc::clone(&finished));
            drowse::spawn_fifo(move || {
                let thread = drowse::current_thread_index().expect("jobs run on workers");
                starts.lock().unwrap().push(Start { thread, index });
                finished.tick();
            });
        }
        drowse::current_thread_index().expect("install runs on a worker")
    });
    finished.wait_for(config.jobs);
    let starts = starts.lock().unwrap().clone();
    assert_fifo_per_thread(&starts, config.jobs, spawner);
    shutdown_at_rest(pool);
}

/// The FIFO order property for a FIFO scope (lemma 8 (iii) of
/// `docs/proof.md`): as [`spawn_fifo_order`], but the jobs are spawned with
/// `ScopeFifo::spawn_fifo` in a `scope_fifo` whose body runs on a worker,
/// into the scope's own FIFO queue for that worker. The worker runs them
/// itself while it waits for the scope to end (other workers may steal
/// some); on each thread they must start in spawn order.
pub fn scope_fifo_order(config: Config) {
    let pool = config.pool();
    let starts: Mutex<Vec<Start>> = Mutex::new(Vec::new());
    let spawner = pool.scope_fifo(|scope| {
        for index in 0..config.jobs {
            let starts = &starts;
            scope.spawn_fifo(move |_| {
                let thread = drowse::current_thread_index().expect("jobs run on workers");
                starts.lock().unwrap().push(Start { thread, index });
            });
        }
        drowse::current_thread_index().expect("the scope's body runs on a worker")
    });
    let starts = starts.lock().unwrap().clone();
    assert_fifo_per_thread(&starts, config.jobs, spawner);
    shutdown_at_rest(pool);
}

/// One job of [`spawn_fifo_order`] or [`scope_fifo_order`] started: which thread ran it, and its
/// place in spawn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Start {
    thread: usize,
    index: usize,
}

/// Panics unless each of the `jobs` jobs started exactly once and, on every
/// thread, the jobs it started are in spawn order.
fn assert_fifo_per_thread(starts: &[Start], jobs: usize, spawner: usize) {
    let runs = RunCounts::new(jobs);
    for start in starts {
        runs.ran(start.index);
    }
    runs.assert_each_ran_once();
    let threads = starts.iter().map(|start| start.thread).max().unwrap_or(0) + 1;
    for thread in 0..threads {
        let on_thread: Vec<usize> = starts
            .iter()
            .filter(|start| start.thread == thread)
            .map(|start| start.index)
            .collect();
        let who = if thread == spawner {
            "the spawning worker"
        } else {
            "a thief"
        };
        assert!(
            on_thread.windows(2).all(|pair| pair[0] < pair[1]),
            "{who} (worker {thread}) started the FIFO jobs of worker {spawner} out of \
             spawn order: {on_thread:?} (all starts: {starts:?})"
        );
    }
}

#[cfg(test)]
mod test {
    //! Every FIFO scenario at the sizes whose predictions hold under C++20
    //! (`on_std_threads!`), in the std world, with real threads.
    use super::*;

    #[test]
    fn every_fifo_scenario_passes_on_std_threads() {
        if drowse::sync::IS_CHECKER {
            // Checker objects exist only inside a checker's model.
            return;
        }
        for _ in 0..20 {
            crate::on_std_threads!(spawn_fifo_from_outside(Config::new(2).jobs(3)));
            crate::on_std_threads!(spawn_fifo_to_sleeping_workers(Config::new(2).jobs(2)));
            crate::on_std_threads!(spawn_fifo_from_worker_beside_sleepers(Config::new(2)));
            crate::on_std_threads!(spawn_fifo_from_worker_beside_sleepers(Config::new(3)));
            crate::on_std_threads!(spawn_fifo_order(Config::new(1).jobs(4)));
            crate::on_std_threads!(spawn_fifo_order(Config::new(2).jobs(4)));
            crate::on_std_threads!(scope_fifo_order(Config::new(1).jobs(4)));
            crate::on_std_threads!(scope_fifo_order(Config::new(2).jobs(4)));
        }
    }

    #[test]
    #[should_panic(expected = "out of spawn order")]
    fn a_thread_starting_fifo_jobs_newest_first_fails_the_order_check() {
        let starts = [
            Start {
                thread: 0,
                index: 1,
            },
            Start {
                thread: 0,
                index: 0,
            },
        ];
        // The check counts runs with the facade's atomics, which exist only
        // inside a model under loom and shuttle (once in std).
        drowse::sync::model(move || assert_fifo_per_thread(&starts, 2, 0));
    }
}
