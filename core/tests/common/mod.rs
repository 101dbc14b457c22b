//! Helpers shared by the std-world test files of `core/tests` (each file
//! is its own test crate and uses some of them).
#![allow(dead_code)]

use drowse::{SleepSnapshot, ThreadPool, ThreadPoolBuilder};
use std::thread;
use std::time::{Duration, Instant};

/// How long a test waits for something that takes microseconds (a job to
/// run, a worker to fall asleep) before it fails.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// `normal` in a normal build, `miri` under Miri, which runs a program
/// thousands of times slower (ci/miri runs the tests over several seeds
/// instead).
pub fn scaled(normal: usize, miri: usize) -> usize {
    if cfg!(miri) {
        miri
    } else {
        normal
    }
}

/// A pool of `num_threads` workers.
pub fn pool(num_threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(num_threads)
        .build()
        .unwrap()
}

/// A pool of one worker, named `<prefix>-0`.
pub fn named_pool(prefix: &'static str) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(move |index| format!("{prefix}-{index}"))
        .build()
        .unwrap()
}

/// Polls `pool`'s sleep counters (each snapshot checked) until `sleeping`
/// workers are asleep, and returns that snapshot; panics after [`PATIENCE`]
/// (idle workers fall asleep after a few microseconds of finding nothing).
pub fn wait_until_asleep(pool: &ThreadPool, sleeping: usize) -> SleepSnapshot {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let snapshot = pool.sleep_snapshot();
        snapshot.check().unwrap();
        if snapshot.sleeping_threads == sleeping {
            return snapshot;
        }
        assert!(
            Instant::now() < deadline,
            "{sleeping} workers are not asleep after {PATIENCE:?}: {snapshot:?}"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

/// [`wait_until_asleep`] for every worker of `pool`.
pub fn wait_until_all_asleep(pool: &ThreadPool) -> SleepSnapshot {
    wait_until_asleep(pool, pool.current_num_threads())
}

/// Fibonacci by `drowse::join`, on the current pool.
pub fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = drowse::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// Fibonacci on one thread, the value [`fib`] must return.
pub fn fib_sequential(n: u64) -> u64 {
    (0..n).fold((0, 1), |(a, b), _| (b, a + b)).0
}
