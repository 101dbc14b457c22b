//! Property 9: jobs may block. A job is user code, and it may wait (on a
//! lock, a channel, a condvar) until another job has run. A worker blocked
//! in such a job rescues nobody, so the property users rely on is stronger
//! than "some worker could still take the job later": a queued job must not
//! wait while every worker that is not blocked in a job sleeps
//! (docs/proof.md, property 9 and lemma 10, the hand-off).
//!
//! In every scenario here some jobs block on a facade condvar
//! ([`Countdown`]) until a job that another thread posts has run, and the
//! pool has exactly one worker more than the jobs that block, or more. A
//! protocol in which a worker leaves its search with work still queued and
//! nobody awake to take it strands that job: the blocked jobs never
//! return, the other workers sleep, and the checker reports the deadlock.
//!
//! The bad schedules need the posts to wake nobody, which happens when one
//! worker is awake and idle at each post (lemma 5's Decide counts it as the
//! one that takes the job). On large pools that is rare unless the crowd
//! is asleep first, so each scenario waits until all the workers it does
//! not need are blocked asleep ([`wait_until_blocked`]) before it posts.

use crate::latch_kinds::wait_until_blocked;
use crate::scenarios::{shutdown_at_rest, Config, Countdown, RunCounts};
use drowse::sync::{thread, Arc};
use drowse::ThreadPool;

/// What the jobs of one scenario share.
struct Shared {
    runs: RunCounts,
    /// Ticked once the jobs that block are queued or running.
    blockers_posted: Countdown,
    /// Ticked by each job that the blocked ones wait for.
    awaited_ran: Countdown,
    /// Ticked by every job as it returns.
    returned: Countdown,
}

impl Shared {
    /// The body of a job that the blocked ones wait for: it counts its run
    /// (as job `index`), releases them and returns.
    fn run_awaited_job(&self, index: usize) {
        self.runs.ran(index);
        self.awaited_ran.tick();
        self.returned.tick();
    }

    /// The body of a job that blocks until an awaited job has run, then
    /// counts its run (as job `index`) and returns.
    fn run_blocked_job(&self, index: usize) {
        self.awaited_ran.wait_for(1);
        self.runs.ran(index);
        self.returned.tick();
    }

    fn new(jobs: usize) -> Arc<Shared> {
        Arc::new(Shared {
            runs: RunCounts::new(jobs),
            blockers_posted: Countdown::default(),
            awaited_ran: Countdown::default(),
            returned: Countdown::default(),
        })
    }
}

/// The pool back from its `Arc` once every other holder has let go, then
/// shut down and checked at rest.
fn shutdown_shared(pool: Arc<ThreadPool>) {
    let pool =
        Arc::try_unwrap(pool).unwrap_or_else(|_| unreachable!("the posting threads have ended"));
    shutdown_at_rest(pool);
}

/// Two injected jobs from two threads, the first blocking until the second
/// has run. With `config.workers - 1` workers asleep (on more than two
/// workers the scenario waits for that before it posts), both posts can find
/// the one awake worker idle and the injector empty, and wake nobody
/// (`Sleep::new_jobs`: an idle worker is counted on for each job). That
/// worker takes the first job and blocks in it; the second job is still in
/// the injector, and only the finder's decision, made from what it reads
/// after its decrement of the inactive count, can wake a sleeper for it
/// (`Sleep::work_found`: work still queued where it took its job).
///
/// Why the prediction holds under C++20, not only under SC: each post is a
/// push, a `SeqCst` fence, then a read of the counters; the finder's
/// decrement is a `SeqCst` read-modify-write of the same counters, then a
/// `SeqCst` fence, then its look at the queues. A post whose read comes
/// before the decrement in the counters' modification order has its fence
/// before the finder's in the single total order of `SeqCst` operations
/// (C++20 [atomics.order], the fence-to-fence rule through a
/// coherence-ordered pair), so the finder's look sees that post's push; a
/// post whose read comes after the decrement sees the finder gone from the
/// idle count and wakes a sleeper itself (lemma 10).
pub fn injected_job_waits_for_another_injected_job(config: Config) {
    assert!(
        config.workers >= 2,
        "a worker blocked in the first job and one for the second: {config:?}"
    );
    let pool = Arc::new(config.pool());
    let shared = Shared::new(2);
    if config.workers > 2 {
        // On two workers every schedule of the posts is explored anyway
        // (loom), and a spinning wait only multiplies the schedules.
        wait_until_blocked(&pool, config.workers - 1);
    }
    let second_poster = {
        let (pool, shared) = (Arc::clone(&pool), Arc::clone(&shared));
        thread::spawn(move || {
            pool.spawn(move || {
                shared.run_awaited_job(1);
            })
        })
    };
    let in_job = Arc::clone(&shared);
    pool.spawn(move || {
        // Blocks the worker that runs it until the other job has run: a
        // worker blocked here takes nothing else.
        in_job.run_blocked_job(0);
    });
    second_poster.join().expect("the second poster");
    shared.returned.wait_for(2);
    shared.runs.assert_each_ran_once();
    shutdown_shared(pool);
}

/// The shape found in the shipped pool (3 workers, shuttle's random
/// scheduler): an injected job `A` spawns `B` onto its own worker's deque,
/// and both block until `C` has run, which another thread spawns into the
/// pool once `B` is queued. `A` first waits until all workers but its own
/// and one other (`X`) are blocked asleep, so `B`'s post and `C`'s can both
/// find `X` awake and idle and wake nobody. `X` then takes `B` (a steal
/// comes before the injector in `find_work`), which leaves `B`'s deque
/// empty, and blocks in it: `C` waits in the injector beside the sleepers
/// unless `X`, as the last searcher to leave, hands off to one of them
/// (`Sleep::work_found`'s hand-off). Needs three workers or more.
///
/// SC only: `B` is an internal job whose pusher then blocks outside the
/// pool, the shape of lemma 5 (c) (its post may read an odd JEC and write
/// nothing), so `X` need not see `B` under C++20.
pub fn blocked_jobs_wait_for_an_injected_job(config: Config) {
    assert!(
        config.workers >= 3,
        "two workers blocked in jobs and one for the awaited job: {config:?}"
    );
    let pool = Arc::new(config.pool());
    let shared = Shared::new(3);
    let third_poster = {
        let (pool, shared) = (Arc::clone(&pool), Arc::clone(&shared));
        thread::spawn(move || {
            shared.blockers_posted.wait_for(1);
            let in_job = Arc::clone(&shared);
            pool.spawn(move || {
                in_job.run_awaited_job(2);
            });
        })
    };
    let (in_job, in_pool) = (Arc::clone(&shared), Arc::clone(&pool));
    pool.spawn(move || {
        wait_until_blocked(&in_pool, config.workers - 2);
        drop(in_pool);
        let in_child = Arc::clone(&in_job);
        // Onto this worker's own deque: the spawn comes from inside the pool.
        drowse::spawn(move || {
            in_child.run_blocked_job(1);
        });
        in_job.blockers_posted.tick();
        in_job.run_blocked_job(0);
    });
    third_poster.join().expect("the third poster");
    shared.returned.wait_for(3);
    shared.runs.assert_each_ran_once();
    shutdown_shared(pool);
}

/// The same shape through `scope` and `install`: the calling thread
/// installs a job that opens a scope; the scope's body spawns a child (onto
/// its worker's deque) and both block until `config.jobs` other threads
/// have each had an `install` run. As in
/// [`blocked_jobs_wait_for_an_injected_job`], the body first waits until
/// all workers but its own and one other are blocked asleep. Each
/// installer blocks its own thread until its job has run; the scope's
/// owner waits in the pool for its child, then returns. Needs three
/// workers or more. SC only, as there (the child is an internal job whose
/// pusher blocks).
pub fn blocked_scope_waits_for_installs(config: Config) {
    assert!(
        config.workers >= 3,
        "two workers blocked in jobs and one for the installs: {config:?}"
    );
    let pool = Arc::new(config.pool());
    let shared = Shared::new(config.jobs + 2);
    let installers: Vec<_> = (0..config.jobs)
        .map(|index| {
            let (pool, shared) = (Arc::clone(&pool), Arc::clone(&shared));
            thread::spawn(move || {
                shared.blockers_posted.wait_for(1);
                pool.install(|| {
                    shared.runs.ran(2 + index);
                    shared.awaited_ran.tick();
                });
            })
        })
        .collect();
    let jobs = config.jobs;
    pool.install(|| {
        wait_until_blocked(&pool, config.workers - 2);
        drowse::scope(|scope| {
            scope.spawn(|_| {
                shared.awaited_ran.wait_for(jobs);
                shared.runs.ran(1);
            });
            shared.blockers_posted.tick();
            shared.awaited_ran.wait_for(jobs);
            shared.runs.ran(0);
        });
    });
    for installer in installers {
        installer.join().expect("an installer");
    }
    shared.runs.assert_each_ran_once();
    shutdown_shared(pool);
}

/// A searcher that leaves without a job. An injected job `A` runs
/// `other.install(..)` into a second pool of one worker, so `A`'s worker
/// `X` waits for that call in its own pool, searching or asleep; the other
/// pool's job returns only once a second thread has spawned `C` into the
/// first pool. `C`'s post can find `X` awake and idle (or wake `X` itself:
/// a post wakes the first sleeper it finds) and wake nobody else; `X` then
/// sees its latch set and leaves its search without taking `C`, and `A`
/// blocks until `C` has run. Unless `X`, as the last searcher to leave,
/// hands off to a sleeper (`Sleep::stop_looking`'s hand-off), `C` waits in
/// the injector beside sleepers. Needs two workers or more in the first
/// pool. On more than two workers `A` first waits until all the others are
/// blocked asleep.
///
/// Under C++20 as [`injected_job_waits_for_another_injected_job`]: `C` is
/// injected, and `X`'s leave is the same read-modify-write and fence.
pub fn searcher_leaves_with_an_injected_job_queued(config: Config) {
    assert!(
        config.workers >= 2,
        "a worker blocked in the job and one for the awaited job: {config:?}"
    );
    let pool = Arc::new(config.pool());
    let other = Arc::new(Config::new(1).pool());
    let shared = Shared::new(3);
    // Ticked once the other pool runs `A`'s call.
    let other_started = Arc::new(Countdown::default());
    let (in_job, in_pool, in_other) = (Arc::clone(&shared), Arc::clone(&pool), Arc::clone(&other));
    let in_other_started = Arc::clone(&other_started);
    pool.spawn(move || {
        if config.workers > 2 {
            // As in `injected_job_waits_for_another_injected_job`.
            wait_until_blocked(&in_pool, config.workers - 1);
        }
        drop(in_pool);
        let in_other_job = Arc::clone(&in_job);
        in_other.install(move || {
            in_other_started.tick();
            // Returns (and sets `X`'s latch) only after `C` is queued.
            in_other_job.blockers_posted.wait_for(1);
            in_other_job.runs.ran(1);
        });
        drop(in_other);
        in_job.run_blocked_job(0);
    });
    let poster = {
        let (pool, shared) = (Arc::clone(&pool), Arc::clone(&shared));
        thread::spawn(move || {
            // `C` is posted once `X` waits on the other pool, or after.
            other_started.wait_for(1);
            let in_job = Arc::clone(&shared);
            pool.spawn(move || {
                in_job.run_awaited_job(2);
            });
            shared.blockers_posted.tick();
            drop(pool);
            other
        })
    };
    let other = poster.join().expect("the poster");
    shared.returned.wait_for(2);
    shared.runs.assert_each_ran_once();
    shutdown_shared(pool);
    let other =
        Arc::try_unwrap(other).unwrap_or_else(|_| unreachable!("the job has dropped its handle"));
    shutdown_at_rest(other);
}

/// Work left on a deque. An injected job `A` waits until all workers but
/// its own and one other (`X`) are blocked asleep; a second thread then
/// spawns `D` into the pool, and `A` spawns `B` onto its own deque once `D`
/// is queued. Both `A` and `D` block until `B` has run. `D`'s post and
/// `B`'s can both find `X` awake and idle and wake nobody; if `X`'s steal
/// round missed `B` and it then takes `D` from the injector, `B` waits on a
/// deque whose owner is blocked, beside sleepers, unless `X`, the last
/// searcher to leave, looks at the deques too before `D` blocks it
/// (`Registry::has_stealable_job`). Needs three workers or more. SC only:
/// `B` is an internal job whose pusher blocks (lemma 5 (c)).
pub fn blocked_job_waits_for_an_internal_job(config: Config) {
    assert!(
        config.workers >= 3,
        "two workers blocked in jobs and one for the internal job: {config:?}"
    );
    let pool = Arc::new(config.pool());
    let shared = Shared::new(3);
    // Ticked by `A` once the crowd sleeps; ticked again by the poster once
    // `D` is queued.
    let crowd_asleep = Arc::new(Countdown::default());
    let poster = {
        let (pool, shared, crowd_asleep) = (
            Arc::clone(&pool),
            Arc::clone(&shared),
            Arc::clone(&crowd_asleep),
        );
        thread::spawn(move || {
            crowd_asleep.wait_for(1);
            let in_job = Arc::clone(&shared);
            pool.spawn(move || {
                in_job.run_blocked_job(2);
            });
            crowd_asleep.tick();
        })
    };
    let (in_job, in_pool) = (Arc::clone(&shared), Arc::clone(&pool));
    pool.spawn(move || {
        wait_until_blocked(&in_pool, config.workers - 2);
        drop(in_pool);
        crowd_asleep.tick();
        crowd_asleep.wait_for(2);
        let in_child = Arc::clone(&in_job);
        drowse::spawn(move || {
            in_child.run_awaited_job(1);
        });
        in_job.run_blocked_job(0);
    });
    poster.join().expect("the poster");
    shared.returned.wait_for(3);
    shared.runs.assert_each_ran_once();
    shutdown_shared(pool);
}
