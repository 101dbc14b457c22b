//! Property 10: private join halves. `join` keeps its second half where
//! only its own thread sees it while no other worker could take it, and
//! publishes it (as a job on its deque) when one could
//! (`WorkerThread::push_join_half`; docs/proof.md, "Private join halves").
//! What users rely on, and what each scenario here checks:
//!
//! - a half that another worker could take is published: by the join
//!   itself when some worker is searching, asleep or not yet started, or
//!   else by its owner's next join ([`join_half_published_at_next_join`],
//!   [`join_half_taken_on_a_fresh_pool`]);
//! - a worker with halves pending keeps one on its deque, so that a worker
//!   that runs out of work finds it even if the owner never joins again
//!   ([`oldest_half_offered_while_all_busy`]), and a join runs in line,
//!   recording nothing, only while that deque holds a job
//!   ([`in_line_join_offers_a_half_after_a_steal`]);
//! - every private half is published before its owner waits, so that a
//!   wait never sits on work only it could see
//!   ([`join_halves_published_before_a_wait`]);
//! - each half runs exactly once, private or published, and nothing is
//!   left when the pool shuts down ([`nested_join_halves_run_once`]).

use crate::scenarios::{shutdown_at_rest, Config, Countdown, RunCounts};
use drowse::sync::atomic::{AtomicBool, Ordering};
use drowse::sync::{thread, Arc};

/// A job inside the pool runs `join(a, b)`, where `a` loops until `b` has
/// run, calling `join` on two empty closures and yielding each time round,
/// and `b` raises a flag. `b` must be published (by the outer join, whose
/// owner's deque is empty, or else by one of `a`'s joins, whose first
/// publication is the oldest private half, `b`) and taken by another
/// worker, or `a` never ends. Needs at least two workers.
///
/// Why it must happen under C++20: the outer join publishes `b` (its
/// owner's deque is empty; the owner's own load). Each of `a`'s joins then
/// finds that deque non-empty while `b` is on it and asks
/// `Sleep::may_have_takers` (a `SeqCst` load of the counters); the other
/// workers' inactive counts are stores that become visible to those loads
/// (C++20's progress rule for atomic stores), after which each join
/// publishes its own empty half, each a post that wakes a counted
/// sleeper. So a worker that overlooked
/// `b`'s post while falling asleep (the accepted overlook, lemma 5 (c)) is
/// woken by a later post; a woken or searching worker steals the oldest
/// job of the owner's deque, which is `b` (the owner takes its empty
/// halves back from the other end). `b` then runs on that worker, once.
pub fn join_half_published_at_next_join(config: Config) {
    assert!(config.workers >= 2, "a worker to take b: {config:?}");
    let pool = config.pool();
    let runs = RunCounts::new(1);
    let b_ran = AtomicBool::new(false);
    let ((), b_migrated) = pool.install(|| {
        drowse::join_context(
            |_| {
                while !b_ran.load(Ordering::Acquire) {
                    let ((), ()) = drowse::join(|| (), || ());
                    thread::yield_now();
                }
            },
            |context| {
                runs.ran(0);
                b_ran.store(true, Ordering::Release);
                context.migrated()
            },
        )
    });
    // `a` ran on the owner until `b` had run, so `b` ran elsewhere.
    assert!(b_migrated, "b ran on the thread that waited for it");
    runs.assert_each_ran_once();
    shutdown_at_rest(pool);
}

/// rayon-core's own shape: on a fresh pool, a job runs `join(a, b)` where
/// `a` blocks (outside the pool: a condvar) until `b` has run. Nothing but
/// `b` can release `a`, so `b` must be published at the join: the owner's
/// deque is empty then, so it is (`push_join_half`). Needs at least two
/// workers.
///
/// This holds under SC only: `b` is an internal job whose pusher then
/// blocks, and under C11 its post may write nothing and be overlooked by a
/// worker falling asleep (lemma 5 (c), as in rayon-core): shuttle's.
pub fn join_half_taken_on_a_fresh_pool(config: Config) {
    assert!(config.workers >= 2, "a worker to take b: {config:?}");
    let pool = config.pool();
    let runs = RunCounts::new(2);
    let b_ran = Countdown::default();
    let (a_migrated, b_migrated) = pool.install(|| {
        drowse::join_context(
            |context| {
                b_ran.wait_for(1);
                runs.ran(0);
                context.migrated()
            },
            |context| {
                runs.ran(1);
                b_ran.tick();
                context.migrated()
            },
        )
    });
    // `a` is blocked until `b` has run, so `b` ran on another worker.
    assert_eq!((a_migrated, b_migrated), (false, true));
    runs.assert_each_ran_once();
    shutdown_at_rest(pool);
}

/// A job runs `join(a, b)` and `a` runs `join(a2, b2)`; `a2` opens a
/// scope whose one spawned job blocks until `b2` has run. `b` is published
/// at once (the owner's deque is empty), `b2` is kept private (it is not),
/// and the scope's owner then waits for the spawned job with `b2` below it
/// on the same stack. The owner must publish `b2` before it waits
/// (`WorkerThread::wait_until`): then it takes its own newest job first,
/// `b2`, and runs it before it could take the spawned job and block in it
/// (or a thief takes one of them). Any pool size, one worker included.
///
/// Why it must happen under C++20: the publication and the owner's take
/// are operations of one thread on its own deque, in program order; a
/// thief takes a job at most once (the deque's guarantee), and whoever
/// runs `b2` releases the blocked job through a condvar. No wake-up is
/// needed for progress: the owner is awake and runs `b2` itself unless it
/// was taken.
pub fn join_halves_published_before_a_wait(config: Config) {
    let pool = config.pool();
    let runs = RunCounts::new(3);
    let b2_ran = Countdown::default();
    pool.install(|| {
        drowse::join(
            || {
                drowse::join(
                    || {
                        drowse::scope(|scope| {
                            scope.spawn(|_| {
                                b2_ran.wait_for(1);
                                runs.ran(0);
                            });
                        });
                    },
                    || {
                        runs.ran(1);
                        b2_ran.tick();
                    },
                )
            },
            || runs.ran(2),
        )
    });
    runs.assert_each_ran_once();
    shutdown_at_rest(pool);
}

/// `installers` outside threads each install a job that runs a join tree
/// of depth `depth` (every node a `join`, every leaf counted), so that halves are
/// kept private while both owners are busy and published when a worker is
/// idle, in every mix the schedule makes. Every leaf runs exactly once,
/// each tree returns its leaf count, and the pool shuts down at rest: no
/// half is lost, run twice, or left behind. Any pool size.
///
/// Why it must happen under C++20: a private half is run by its owner when
/// its join ends; a published one is taken at most once (the deque) and
/// its join waits for its latch (lemma 4, C++20). Nothing here waits on
/// another thread's internal job from outside the pool.
pub fn nested_join_halves_run_once(config: Config, installers: usize, depth: u32) {
    let pool = Arc::new(config.pool());
    let leaves = 1usize << depth;
    let runs = Arc::new(RunCounts::new(installers * leaves));
    let installers: Vec<_> = (0..installers)
        .map(|tree| {
            let pool = Arc::clone(&pool);
            let runs = Arc::clone(&runs);
            thread::spawn(move || {
                let counted = pool.install(|| join_tree(&runs, tree * leaves, depth));
                assert_eq!(counted, leaves, "tree {tree} lost leaves");
            })
        })
        .collect();
    for installer in installers {
        installer.join().expect("an installer");
    }
    runs.assert_each_ran_once();
    let pool = Arc::try_unwrap(pool).unwrap_or_else(|_| unreachable!("the installers ended"));
    shutdown_at_rest(pool);
}

/// Counts leaves `first..first + 2^depth` of a join tree, each once.
fn join_tree(runs: &RunCounts, first: usize, depth: u32) -> usize {
    if depth == 0 {
        runs.ran(first);
        return 1;
    }
    let half = 1usize << (depth - 1);
    let (left, right) = drowse::join(
        || join_tree(runs, first, depth - 1),
        || join_tree(runs, first + half, depth - 1),
    );
    left + right
}

/// Every worker is busy when the owner joins, and stays so, yet the owner's
/// oldest pending half is offered: a worker with join halves pending keeps
/// one on its deque (`push_join_half` publishes when its deque is empty).
/// The other worker runs a job `j` that blocks until the owner has joined
/// twice; the owner runs `join(a, b)`, where `a` runs `join(a2, b2)` and
/// `a2` lets `j` return and then blocks (outside the pool) until `b` has
/// run. The other worker, done with `j`, must find `b`: the owner never
/// joins again. (`b2` is private and empty: the owner runs it after `b`.)
/// Needs exactly two workers, so that no third one is idle at the joins.
///
/// Why it must happen under C++20: the owner pushes `b` before `a2` ticks
/// the countdown that `j` waits for (a mutex), so the push happens-before
/// the other worker's search after `j`, which reads the owner's deque and
/// sees `b` (the deque's guarantee for a push that happened before the
/// steal). No wake-up is needed: that worker is busy at the push.
pub fn oldest_half_offered_while_all_busy(config: Config) {
    let shared = Arc::new(OfferShared {
        frame: BusyFrame::new(3),
        joined: Countdown::default(),
        b_ran: Countdown::default(),
    });
    let busy = |shared: &OfferShared| {
        shared.joined.wait_for(1);
        shared.frame.runs.ran(2);
    };
    beside_a_busy_worker(
        config,
        shared,
        |shared| &shared.frame,
        busy,
        |shared| {
            drowse::join(
                || {
                    drowse::join(
                        || {
                            shared.joined.tick();
                            shared.b_ran.wait_for(1);
                            shared.frame.runs.ran(0);
                        },
                        || (),
                    )
                },
                || {
                    shared.frame.runs.ran(1);
                    shared.b_ran.tick();
                },
            );
        },
    );
}

/// What `oldest_half_offered_while_all_busy`'s threads share.
struct OfferShared {
    frame: BusyFrame,
    joined: Countdown,
    b_ran: Countdown,
}

/// What every scenario run by `beside_a_busy_worker` shares: the run
/// counts, and the countdown that the busy worker's job ticks when it has
/// started.
struct BusyFrame {
    runs: RunCounts,
    j_started: Countdown,
}

impl BusyFrame {
    fn new(runs: usize) -> BusyFrame {
        BusyFrame {
            runs: RunCounts::new(runs),
            j_started: Countdown::default(),
        }
    }
}

/// The frame of the scenarios in which every worker but the owner is busy
/// at the owner's joins, on a pool of exactly two workers (so that no third
/// one is idle): an outside thread installs a job `j` that ticks the
/// frame's `j_started` and then runs `busy`; once `j` has started, this
/// thread installs `owner`, which the other worker, busy in `j`, cannot
/// take. When both installs have returned, every run counted in the
/// frame's `runs` must have happened once, and the pool shuts down at rest.
fn beside_a_busy_worker<S: Send + Sync + 'static>(
    config: Config,
    shared: Arc<S>,
    frame: fn(&S) -> &BusyFrame,
    busy: fn(&S),
    owner: impl FnOnce(&S) + Send,
) {
    assert_eq!(
        config.workers, 2,
        "one owner and one busy worker: {config:?}"
    );
    let pool = Arc::new(config.pool());
    let busy_installer = {
        let pool = Arc::clone(&pool);
        let shared = Arc::clone(&shared);
        thread::spawn(move || {
            pool.install(|| {
                frame(&shared).j_started.tick();
                busy(&shared);
            })
        })
    };
    frame(&shared).j_started.wait_for(1);
    pool.install(|| owner(&shared));
    busy_installer.join().expect("the busy installer");
    frame(&shared).runs.assert_each_ran_once();
    let pool = Arc::try_unwrap(pool).unwrap_or_else(|_| unreachable!("the installer ended"));
    shutdown_at_rest(pool);
}

/// A join runs in line (`WorkerThread::join_in_line`) only while its owner's
/// deque holds a job: once a thief has taken that job, the owner's next
/// join records its second half and publishes its oldest private one, even
/// though every worker is busy and stays so. The other worker runs a job
/// `j` that blocks until the owner has filled its window; the owner runs a
/// chain of `JOIN_WINDOW + 1` nested joins: the outermost second half `b0`
/// is published (the deque is empty), the next `JOIN_WINDOW` are kept
/// private (nobody could take them). The innermost first half then lets
/// `j` return and waits (outside the pool) until the other worker has
/// taken `b0`, which blocks it until the owner's next join has begun. That
/// join finds a full window, an empty deque and no worker inactive: it must
/// publish the oldest private half, `b1`, because its first half then
/// blocks until `b1` has run and never joins again. Needs exactly two
/// workers, so that no third one is idle at the joins.
///
/// Why it must happen under C++20: the owner publishes `b1` before it ticks
/// the countdown that `b0` waits for (a mutex), so the push happens-before
/// the other worker's search after `b0`, which reads the owner's deque and
/// sees `b1` (the deque's guarantee for a push that happened before the
/// steal). The steal of `b0` is the same argument one step earlier: `b0`
/// was pushed before `j` was let go. No wake-up is needed: the other worker
/// is busy at both pushes.
pub fn in_line_join_offers_a_half_after_a_steal(config: Config) {
    // Run counts: `j`, then `b0` up to `b{JOIN_WINDOW}`, then the last
    // join's two halves.
    let window = drowse::model_api::JOIN_WINDOW;
    assert!(
        window >= 1,
        "b1 is private only with a window of one or more"
    );
    let shared = Arc::new(InLineShared {
        frame: BusyFrame::new(window + 4),
        window_full: Countdown::default(),
        b0_started: Countdown::default(),
        last_join_begun: Countdown::default(),
        b1_ran: Countdown::default(),
    });
    let busy = |shared: &InLineShared| {
        shared.window_full.wait_for(1);
        shared.frame.runs.ran(0);
    };
    beside_a_busy_worker(
        config,
        shared,
        |shared| &shared.frame,
        busy,
        |shared| fill_window_then_join(shared, 0, window),
    );
}

/// What `in_line_join_offers_a_half_after_a_steal`'s threads share.
struct InLineShared {
    frame: BusyFrame,
    window_full: Countdown,
    b0_started: Countdown,
    last_join_begun: Countdown,
    b1_ran: Countdown,
}

/// Join `level` of the chain: its second half is `b{level}`; below the
/// last level (`window`), the first half lets `j` go, waits for the steal
/// of `b0`, and makes the join that must publish `b1`.
fn fill_window_then_join(shared: &InLineShared, level: usize, window: usize) {
    drowse::join(
        || {
            if level < window {
                fill_window_then_join(shared, level + 1, window);
            } else {
                shared.window_full.tick();
                shared.b0_started.wait_for(1);
                drowse::join(
                    || {
                        shared.last_join_begun.tick();
                        shared.b1_ran.wait_for(1);
                        shared.frame.runs.ran(window + 2);
                    },
                    || shared.frame.runs.ran(window + 3),
                );
            }
        },
        || {
            shared.frame.runs.ran(level + 1);
            match level {
                0 => {
                    shared.b0_started.tick();
                    shared.last_join_begun.wait_for(1);
                }
                1 => shared.b1_ran.tick(),
                _ => {}
            }
        },
    );
}
