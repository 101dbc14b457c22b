//! Behaviour of the public API that the other tests left unpinned, found by
//! running cargo-mutants over `core/src` (see `docs/cargo-mutants.md`, which
//! names the mutant each test kills).
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::error::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(30);

/// A stack no operating system can reserve (1 PiB, more than a 64-bit
/// address space holds): starting a worker with it fails, which is how these
/// tests reach the builder's I/O error.
#[cfg(target_pointer_width = "64")]
const IMPOSSIBLE_STACK: usize = 1 << 50;

#[test]
#[cfg(target_pointer_width = "64")]
#[cfg_attr(
    miri,
    ignore = "Miri grants any stack size, so no thread fails to start"
)]
fn a_thread_that_cannot_start_is_an_io_error_with_its_source() {
    let error = ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(IMPOSSIBLE_STACK)
        .build()
        .expect_err("no thread gets a 1 PiB stack");
    let source = error
        .source()
        .expect("an I/O error is the source of the build error");
    assert!(
        source.downcast_ref::<std::io::Error>().is_some(),
        "the source is the io::Error from the OS: {source:?}"
    );
    // As rayon-core: the message is the I/O error's own.
    assert_eq!(error.to_string(), source.to_string());
}

#[test]
#[cfg(target_pointer_width = "64")]
#[cfg_attr(
    miri,
    ignore = "Miri grants any stack size, so no thread fails to start"
)]
fn exactly_max_num_threads_passes_the_size_check() {
    // `max_num_threads()` itself is a valid size (larger ones are reduced to
    // it, see builder.rs); the impossible stack then stops the build at the
    // first thread, so no threads are started.
    let error = ThreadPoolBuilder::new()
        .num_threads(drowse::max_num_threads())
        .stack_size(IMPOSSIBLE_STACK)
        .build()
        .expect_err("no thread gets a 1 PiB stack");
    assert!(
        error.source().is_some(),
        "the build got past the size check and failed starting a thread: {error}"
    );
}

#[test]
fn join_context_outside_any_pool_is_migrated() {
    // From outside a pool the call moves into the global pool, so both
    // closures run on a thread other than the caller's.
    let (a, b) = drowse::join_context(|ctx| ctx.migrated(), |ctx| ctx.migrated());
    assert!(a, "oper_a runs on a global worker, not on the caller");
    // oper_b ran either inline after oper_a (on the same worker, so it is
    // migrated from the caller's point of view) or on a thief.
    assert!(b, "oper_b never runs on the calling thread");
}

#[test]
fn a_job_pushed_beside_a_sleeping_worker_wakes_it_and_is_stolen() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (a, b) = pool.install(|| {
        // The other worker is asleep when oper_b is pushed: pushing it must
        // wake that worker, or oper_a (which waits for oper_b) waits alone.
        let deadline = Instant::now() + PATIENCE;
        while pool.sleep_snapshot().sleeping_threads != 1 {
            assert!(Instant::now() < deadline, "the other worker never slept");
            thread::sleep(Duration::from_millis(1));
        }
        let b_ran = AtomicBool::new(false);
        drowse::join_context(
            |ctx| {
                // Do not return before oper_b has run: then the other worker
                // must have stolen it.
                let deadline = Instant::now() + Duration::from_secs(10);
                while !b_ran.load(Ordering::Acquire) && Instant::now() < deadline {
                    thread::yield_now();
                }
                (ctx.migrated(), b_ran.load(Ordering::Acquire))
            },
            |ctx| {
                b_ran.store(true, Ordering::Release);
                ctx.migrated()
            },
        )
    });
    assert_eq!(a, (false, true), "oper_a ran on the caller, after oper_b");
    assert!(b, "oper_b was stolen, so it ran on another thread");
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn jobs_that_oper_a_leaves_on_the_deque_still_run() {
    // One worker, so nobody steals: when oper_a returns, the job it spawned
    // sits on top of oper_b in the worker's deque, and join must run it
    // rather than mistake it for oper_b.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (sender, receiver) = mpsc::channel();
    let (a, b) = pool.install(move || {
        drowse::join(
            move || {
                drowse::spawn(move || sender.send("spawned").unwrap());
                1
            },
            || 2,
        )
    });
    assert_eq!((a, b), (1, 2));
    assert_eq!(receiver.recv_timeout(PATIENCE), Ok("spawned"));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn a_worker_runs_its_own_scope_spawns_newest_first() {
    // As in rayon-core: a job spawned from a worker goes onto that worker's
    // own deque, which it pops newest first. With one worker the order is
    // fully determined.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let order = Mutex::new(Vec::new());
    pool.scope(|scope| {
        for job in 0..4 {
            let order = &order;
            scope.spawn(move |_| order.lock().unwrap().push(job));
        }
    });
    assert_eq!(*order.lock().unwrap(), [3, 2, 1, 0]);
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

#[test]
fn install_from_a_worker_of_the_same_pool_runs_in_place() {
    // As in rayon-core: `install` called on a worker of the same pool runs
    // the closure right there, before anything queued. With one worker the
    // order is fully determined: the nested install first, then the rest of
    // the outer closure, then the job the outer closure spawned.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let order = std::sync::Arc::new(Mutex::new(Vec::new()));
    let spawned_order = std::sync::Arc::clone(&order);
    let indices = pool.install(|| {
        drowse::spawn(move || spawned_order.lock().unwrap().push("spawned"));
        let outer = drowse::current_thread_index();
        let inner = pool.install(|| {
            order.lock().unwrap().push("nested");
            drowse::current_thread_index()
        });
        order.lock().unwrap().push("after");
        (outer, inner)
    });
    assert_eq!(indices, (Some(0), Some(0)));
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
    assert_eq!(*order.lock().unwrap(), ["nested", "after", "spawned"]);
}

#[test]
fn spawn_into_another_pool_runs_there() {
    // `ThreadPool::spawn` called on a worker of pool `a` runs the job on a
    // thread of pool `b`, not on the calling worker.
    let named = |prefix: &'static str| {
        ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(move |index| format!("{prefix}-{index}"))
            .build()
            .unwrap()
    };
    let (a, b) = (named("a"), named("b"));
    let (sender, receiver) = mpsc::channel();
    a.install(|| {
        b.spawn(move || {
            let name = thread::current().name().map(str::to_owned);
            sender.send(name).unwrap();
        });
    });
    assert_eq!(receiver.recv_timeout(PATIENCE), Ok(Some("b-0".to_owned())));
    a.shutdown_and_snapshot().check_at_rest().unwrap();
    b.shutdown_and_snapshot().check_at_rest().unwrap();
}

/// Polls the pool's sleep state until every worker is asleep, or panics after
/// `PATIENCE`.
fn wait_until_all_asleep(pool: &drowse::ThreadPool) -> drowse::SleepSnapshot {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let snapshot = pool.sleep_snapshot();
        snapshot.check().unwrap();
        if snapshot.sleeping_threads == snapshot.num_threads {
            return snapshot;
        }
        assert!(
            Instant::now() < deadline,
            "idle workers are still awake after {PATIENCE:?}: {snapshot:?}"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn idle_workers_fall_asleep_and_do_so_again_after_work() {
    // The point of the sleep protocol: a pool with nothing to do does not
    // keep its threads spinning.
    let pool = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let snapshot = wait_until_all_asleep(&pool);
    assert_eq!(
        (snapshot.inactive_threads, snapshot.blocked_threads),
        (3, 3),
        "every sleeping worker is idle and blocked"
    );
    // Bursts of work with pauses between them, so that workers get sleepy,
    // sleep, are woken and give up sleep attempts along the way; each time
    // they must all end up asleep again.
    // Under Miri, which runs a program thousands of times slower, fewer and
    // smaller bursts (ci/miri).
    let (bursts, base) = if cfg!(miri) { (4, 8) } else { (20, 18) };
    for burst in 0..bursts {
        assert_eq!(
            pool.install(|| fib(base + burst % 3)),
            fib_sequential(base + burst % 3)
        );
        thread::sleep(Duration::from_micros(200 * burst));
    }
    wait_until_all_asleep(&pool);
    pool.shutdown_and_snapshot().check_at_rest().unwrap();
}

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = drowse::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn fib_sequential(n: u64) -> u64 {
    (0..n).fold((0, 1), |(a, b), _| (b, a + b)).0
}

#[test]
fn scope_debug_names_the_pool_size() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let text = pool.scope(|scope| format!("{scope:?}"));
    assert!(
        text.starts_with("Scope") && text.contains("num_threads: 2"),
        "{text}"
    );
}
