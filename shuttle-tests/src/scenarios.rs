//! Scenarios written for this suite, in the style of `drowse-models` (one
//! execution of the real pool each, over the public API and the
//! `drowse::sync` facade, so they run in every world). They belong in
//! `drowse-models` and should move there.

use drowse::sync::{thread, Arc};
use drowse::ThreadPool;
use drowse_models::{assert_consistent, shutdown_at_rest, Config, Countdown, RunCounts};

/// Properties 1 and 3 on pools of any size: `drowse_models::injected_jobs`
/// with the bound on abandoned sleeps that holds for `config.workers`
/// workers.
///
/// The models version asserts `sleeps_abandoned <= jobs`, which holds for
/// one worker only: one post (the JEC made odd) makes *every* worker that got
/// sleepy before it abandon its sleep, and each of those abandonments is
/// legitimate. Shuttle finds 4 abandonments for 3 posts on 4 workers within a
/// few thousand random schedules. What does hold: between two abandonments a
/// worker announces again, and only a later post can change the JEC after
/// that announcement, so each worker abandons at most once per post:
/// `sleeps_abandoned <= workers * jobs`.
pub fn injected_jobs(config: Config) {
    let pool = config.pool();
    let runs = Arc::new(RunCounts::new(config.jobs));
    let finished = Arc::new(Countdown::default());
    for index in 0..config.jobs {
        let runs = Arc::clone(&runs);
        let finished = Arc::clone(&finished);
        pool.spawn(move || {
            runs.ran(index);
            finished.tick();
        });
    }
    finished.wait_for(config.jobs);
    runs.assert_each_ran_once();
    let snapshot = shutdown_at_rest(pool);
    let bound = config.workers * config.jobs;
    assert!(
        snapshot.sleeps_abandoned <= bound,
        "{} sleeps abandoned for {} posts on {} workers (at most {bound})",
        snapshot.sleeps_abandoned,
        config.jobs,
        config.workers
    );
}

/// Property 6: sleep snapshots taken while the pool works, from inside and
/// from outside. An outside observer thread takes two snapshots while the
/// main thread runs a scope of `config.jobs` jobs, each of which takes a
/// snapshot of its own pool from the worker that runs it. Every snapshot
/// must satisfy `blocked == sleeping <= inactive <= threads`; one taken from
/// inside a job must also count fewer inactive threads than workers (the
/// worker running the job is active), and the counters must be at rest
/// after shutdown.
pub fn snapshots_while_running(config: Config) {
    let pool = Arc::new(config.pool());
    let observer = {
        let pool = Arc::clone(&pool);
        thread::spawn(move || {
            for _ in 0..2 {
                assert_consistent(&pool.sleep_snapshot());
            }
        })
    };
    let runs = RunCounts::new(config.jobs);
    pool.scope(|scope| {
        for index in 0..config.jobs {
            let (runs, pool) = (&runs, &*pool);
            scope.spawn(move |_| {
                runs.ran(index);
                let snapshot = pool.sleep_snapshot();
                assert_consistent(&snapshot);
                assert!(
                    snapshot.inactive_threads < snapshot.num_threads,
                    "a worker running a job is counted inactive: {snapshot:?}"
                );
            });
        }
    });
    observer.join().unwrap();
    assert_consistent(&pool.sleep_snapshot());
    runs.assert_each_ran_once();
    let pool = Arc::try_unwrap(pool).unwrap_or_else(|_| unreachable!("the observer has exited"));
    shutdown_at_rest(pool);
}

/// Waits (yielding) until every worker of `pool` is counted asleep, checking
/// each snapshot on the way. Every worker of an idle pool gets there.
pub fn wait_until_all_asleep(pool: &ThreadPool) {
    loop {
        let snapshot = pool.sleep_snapshot();
        assert_consistent(&snapshot);
        if snapshot.sleeping_threads == snapshot.num_threads {
            return;
        }
        thread::yield_now();
    }
}

/// Liveness, sharpened: `drowse_models::no_self_inflicted_wakeups` lets one
/// sleep be abandoned for its one post, and a legitimate abandonment (the
/// post lands between a worker's announcement and its attempt to sleep) is
/// rare under shuttle, so a worker that abandons once more on its own
/// announcement is seldom caught. Here the outside thread waits until every
/// worker is asleep before it posts, and again afterwards: the post finds
/// nobody sleepy, so no sleep may be abandoned at all. A worker that
/// mistakes its own bump of the JEC for new work abandons one (after running
/// the job, its announcement makes the odd JEC even) in every execution.
pub fn no_self_inflicted_wakeups_from_sleep(config: Config) {
    let pool = config.pool();
    wait_until_all_asleep(&pool);
    pool.install(|| ());
    wait_until_all_asleep(&pool);
    let snapshot = shutdown_at_rest(pool);
    assert_eq!(
        snapshot.sleeps_abandoned, 0,
        "a sleep was abandoned although every post found every worker asleep: {snapshot:?}"
    );
}

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
