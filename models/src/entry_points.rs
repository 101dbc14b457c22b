//! The entry points beside `install`, `spawn` and `broadcast` through which
//! work reaches a pool: `yield_now`/`yield_local`,
//! `in_place_scope` from a thread outside the pool, and a pool built with
//! `use_current_thread`.
//!
//! Each scenario asserts what rayon-core 1.13's documentation promises for
//! the entry point, no more: `yield_now` looks for one pending job of the
//! pool (anywhere: its own queues, other workers' deques, the injector) and
//! runs it; `yield_local` looks only at the calling worker's own queues and
//! never steals; both say `Executed` when they ran something, `Idle` when
//! nothing was there, `None` off the pool. `in_place_scope` runs its body on
//! the calling thread, its spawned jobs on the pool, and returns once all of
//! them have finished. `use_current_thread` makes the building thread
//! worker 0, which runs the pool's jobs only when it waits inside the pool;
//! the other workers must pick up everything meanwhile.
//!
//! The seeded mutants of these paths are `yield_now_skips_local_deque`,
//! `yield_local_steals`, `outside_scope_spawn_no_wake`,
//! `outside_scope_skips_wait`, `current_thread_counted_as_handed_out` and
//! `current_thread_not_worker_zero` (`ci/mutants.d/`).

use crate::latch_kinds::wait_until_blocked;
use crate::scenarios::{shutdown_at_rest, wait_until_all_asleep, Config, Countdown, RunCounts};
use drowse::sync::atomic::{AtomicUsize, Ordering};
use drowse::sync::{thread, Arc};
use drowse::{current_thread_index, yield_local, yield_now, ThreadPool, ThreadPoolBuilder, Yield};

/// Where a job ran: the index of the worker that ran it, once it has.
#[derive(Default)]
struct RanOn(AtomicUsize);

impl RanOn {
    /// Records the current thread's worker index (the job runs now).
    fn record(&self) {
        let index = current_thread_index().expect("pool jobs run on workers");
        self.0.store(index + 1, Ordering::Relaxed);
    }

    /// The worker that ran the job, or `None` if it has not run.
    fn get(&self) -> Option<usize> {
        self.0.load(Ordering::Relaxed).checked_sub(1)
    }
}

/// Ticks its countdown when dropped.
struct TickOnDrop<'a>(&'a Countdown);

impl Drop for TickOnDrop<'_> {
    fn drop(&mut self) {
        self.0.tick();
    }
}

/// `yield_now` and `yield_local` on a worker, with pending jobs and
/// without, and off the pool.
///
/// The outside thread first checks that both return `None` off the pool,
/// then installs a job, which runs on some worker X. X spawns one "holder"
/// job per other worker and blocks (on the facade's condvar, not in the
/// pool) until each has been taken by another worker; the holders then stay
/// busy until X releases them, so from then on nobody but X can take a job.
/// The last holder to start (when all others are held) pushes a job onto
/// its own deque first. Then, on X:
///
/// 1. `yield_local` is `Idle`: X's own deque and broadcast queue are empty,
///    and it must not steal the holder's job;
/// 2. `yield_now` is `Executed`, having run that job on X (stolen);
/// 3. X spawns a job onto its own deque; `pool.yield_now()` is
///    `Some(Executed)`, having run it on X (from the local deque);
/// 4. X spawns another; `yield_local` is `Executed`, having run it on X;
/// 5. with nothing pending anywhere, `yield_now` and `yield_local` are
///    `Idle`.
///
/// Then X releases the holders, and every job must have run exactly once.
/// Needs at least two workers.
pub fn yield_runs_pending_jobs(config: Config) {
    assert!(config.workers >= 2, "the holders need workers: {config:?}");
    let pool = config.pool();
    assert_eq!(yield_now(), None, "yield_now off the pool");
    assert_eq!(yield_local(), None, "yield_local off the pool");
    assert_eq!(pool.yield_now(), None, "pool.yield_now off the pool");

    let holders = config.workers - 1;
    // Jobs: 0 = the holder's stealable job, 1 = spawned for yield_now,
    // 2 = spawned for yield_local; then one run count per holder.
    let runs = RunCounts::new(3 + holders);
    let ran_on: [RanOn; 3] = Default::default();
    let holders_started = Countdown::default();
    let holder_order = AtomicUsize::new(0);
    let release = Countdown::default();
    pool.install(|| {
        let me = current_thread_index().expect("installed jobs run on workers");
        let (runs, ran_on) = (&runs, &ran_on);
        let (holders_started, holder_order, release) = (&holders_started, &holder_order, &release);
        drowse::scope(|scope| {
            for holder in 0..holders {
                scope.spawn(move |scope| {
                    runs.ran(3 + holder);
                    if holder_order.fetch_add(1, Ordering::Relaxed) == holders - 1 {
                        // The last holder to start: every other worker is
                        // held now. Onto this holder's own deque: only X can
                        // steal it while the holder waits.
                        scope.spawn(move |_| {
                            runs.ran(0);
                            ran_on[0].record();
                        });
                    }
                    holders_started.tick();
                    release.wait_for(1);
                });
            }
            // Releases the holders when the body ends, also when one of
            // its assertions fails (the scope would otherwise wait for them
            // forever, and the failure would show as a hang).
            let _release_holders = TickOnDrop(release);
            // Block outside the pool until every holder has been taken.
            holders_started.wait_for(holders);

            assert_eq!(
                yield_local(),
                Some(Yield::Idle),
                "yield_local with only another worker's job pending must not steal it"
            );
            assert_eq!(
                ran_on[0].get(),
                None,
                "the holder's job ran during yield_local"
            );

            assert_eq!(
                yield_now(),
                Some(Yield::Executed),
                "yield_now with another worker's job pending"
            );
            assert_eq!(
                ran_on[0].get(),
                Some(me),
                "yield_now ran the stealable job here"
            );

            scope.spawn(move |_| {
                runs.ran(1);
                ran_on[1].record();
            });
            assert_eq!(
                pool.yield_now(),
                Some(Yield::Executed),
                "yield_now with a job on the worker's own deque"
            );
            assert_eq!(
                ran_on[1].get(),
                Some(me),
                "yield_now ran the local job here"
            );

            scope.spawn(move |_| {
                runs.ran(2);
                ran_on[2].record();
            });
            assert_eq!(
                yield_local(),
                Some(Yield::Executed),
                "yield_local with a job on the worker's own deque"
            );
            assert_eq!(
                ran_on[2].get(),
                Some(me),
                "yield_local ran the local job here"
            );

            assert_eq!(
                yield_now(),
                Some(Yield::Idle),
                "yield_now with nothing pending"
            );
            assert_eq!(
                yield_local(),
                Some(Yield::Idle),
                "yield_local with nothing pending"
            );
        });
    });
    runs.assert_each_ran_once();
    shutdown_at_rest(pool);
}

/// `in_place_scope` called by a thread outside the pool, racing the workers
/// on their way to sleep: see `in_place_scope_from_outside_body`.
pub fn in_place_scope_from_outside(config: Config) {
    let pool = config.pool();
    in_place_scope_from_outside_body(&pool, config);
    shutdown_at_rest(pool);
}

/// The same, once every worker is blocked asleep: each spawn must wake one.
pub fn in_place_scope_wakes_sleeping_workers(config: Config) {
    let pool = config.pool();
    wait_until_all_asleep(&pool);
    in_place_scope_from_outside_body(&pool, config);
    shutdown_at_rest(pool);
}

/// The calling thread, outside `pool`, runs `pool.in_place_scope`: the
/// body must run on the calling thread (which is no worker), it spawns
/// `config.jobs` jobs, each of which must run on a worker of the pool, and
/// the call must return only after every one of them has run (their run
/// counts are checked right after it returns, with nothing else waiting for
/// them).
fn in_place_scope_from_outside_body(pool: &ThreadPool, config: Config) {
    let runs = RunCounts::new(config.jobs);
    let caller = thread::current().id();
    let body_ran_on = pool.in_place_scope(|scope| {
        for index in 0..config.jobs {
            let runs = &runs;
            scope.spawn(move |_| {
                assert!(
                    pool.current_thread_index().is_some(),
                    "a job spawned in an in-place scope runs on the scope's pool"
                );
                runs.ran(index);
            });
        }
        assert_eq!(current_thread_index(), None, "the body runs off the pool");
        thread::current().id()
    });
    assert_eq!(body_ran_on, caller, "the body runs on the calling thread");
    runs.assert_each_ran_once();
}

/// A pool of `config.workers` workers whose worker 0 is the calling thread.
pub fn pool_on_current_thread(config: Config) -> ThreadPool {
    let mut builder = ThreadPoolBuilder::new()
        .num_threads(config.workers)
        .use_current_thread();
    if let Some(bits) = config.jec_bits {
        builder = builder.jobs_event_counter_bits(bits);
    }
    builder.build().expect("scenario pools are valid")
}

/// `use_current_thread`: a builder thread (not the scenario's main thread,
/// since it stays a worker for the rest of its life) builds the pool and
/// must be worker 0. It spawns a job, which lands on its own deque, then
/// blocks outside the pool until the job has run: another worker must have
/// taken it, and woken for it if asleep. An `install` on worker 0 runs in
/// place. The builder thread then ends, and its worker 0 is dropped with it
/// (under loom a worker left allocated fails the execution as a leaked
/// `Arc`); the outside thread, once every other worker is blocked asleep,
/// injects a job: it must run, on a worker other than 0. Shutting down from
/// the outside thread must not wait for worker 0 (it has no main loop to
/// leave) and must end at rest. Needs at least two workers. Checked by loom
/// and shuttle.
pub fn current_thread_is_worker_zero(config: Config) {
    assert!(config.workers >= 2, "worker 0 needs a helper: {config:?}");
    let runs = Arc::new(RunCounts::new(2));
    let ran_on: Arc<[RanOn; 2]> = Arc::default();
    let builder_thread = {
        let (runs, ran_on) = (Arc::clone(&runs), Arc::clone(&ran_on));
        thread::spawn(move || {
            let pool = pool_on_current_thread(config);
            assert_eq!(
                current_thread_index(),
                Some(0),
                "the building thread is worker 0"
            );
            assert_eq!(pool.current_thread_index(), Some(0));
            let spawned_ran = Arc::new(Countdown::default());
            {
                let (runs, ran_on) = (Arc::clone(&runs), Arc::clone(&ran_on));
                let spawned_ran = Arc::clone(&spawned_ran);
                pool.spawn(move || {
                    runs.ran(0);
                    ran_on[0].record();
                    spawned_ran.tick();
                });
            }
            // Worker 0 blocks outside the pool's loop: another worker must
            // take the job from its deque.
            spawned_ran.wait_for(1);
            assert_ne!(ran_on[0].get(), Some(0), "worker 0 was blocked");
            assert_eq!(
                pool.install(current_thread_index),
                Some(0),
                "install on worker 0 runs in place"
            );
            pool
        })
    };
    let pool = builder_thread.join().expect("the builder thread");
    // Every worker but worker 0 asleep: the injection must wake one.
    wait_until_blocked(&pool, config.workers - 1);
    let injected_ran_on = pool.install(|| {
        runs.ran(1);
        ran_on[1].record();
        current_thread_index()
    });
    assert!(
        matches!(injected_ran_on, Some(index) if index != 0),
        "injected work runs on a worker other than 0: {injected_ran_on:?}"
    );
    runs.assert_each_ran_once();
    shutdown_at_rest(pool);
}

#[cfg(test)]
mod test {
    //! Every entry-point scenario whose prediction holds under C++20
    //! (`on_std_threads!`) a few times, in the std world, with real threads.
    use super::*;

    #[test]
    fn every_entry_point_scenario_passes_on_std_threads() {
        if drowse::sync::IS_CHECKER {
            return;
        }
        for _ in 0..20 {
            // Left out, since their predictions hold only under sequential
            // consistency (a worker blocks outside the pool until another runs
            // a job it pushed; models/ORACLES.md): yield_runs_pending_jobs.
            crate::on_std_threads!(in_place_scope_from_outside(Config::new(2).jobs(3)));
            crate::on_std_threads!(in_place_scope_wakes_sleeping_workers(
                Config::new(2).jobs(2)
            ));
            crate::on_std_threads!(current_thread_is_worker_zero(Config::new(2)));
            crate::on_std_threads!(current_thread_is_worker_zero(Config::new(3)));
        }
    }
}
