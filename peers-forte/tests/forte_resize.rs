//! forte's pools can be grown and emptied again and again without hanging:
//! the benchmark builds a "fresh" forte pool for every measurement that
//! way. (1.0.0-alpha.4's could not shrink: `ThreadPool::resize` joined the
//! heartbeat thread while it held the pool's state lock, which that thread
//! took again before it read its halt flag.)

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

static POOL: forte::ThreadPool = forte::ThreadPool::new();

fn fib(worker: &forte::Worker, n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = worker.join(|w| fib(w, n - 1), |w| fib(w, n - 2));
    a + b
}

#[test]
fn a_pool_grows_and_empties_repeatedly() {
    const CYCLES: usize = 300;
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        for cycle in 0..CYCLES {
            let workers = 1 + cycle % 3;
            assert_eq!(POOL.resize_to(workers), workers, "cycle {cycle}");
            let value = POOL.with_worker(|worker| fib(worker, 18));
            assert_eq!(value, 2584, "cycle {cycle}: fib(18)");
            // Shrink in two steps now and then, and empty the pool.
            if cycle % 2 == 0 {
                assert_eq!(POOL.shrink(1), workers - 1, "cycle {cycle}");
            }
            assert_eq!(POOL.depopulate(), 0, "cycle {cycle}");
            assert_eq!(POOL.num_members(), 0, "cycle {cycle}: members left");
            done.send(cycle).expect("the test waits");
        }
    });
    for cycle in 0..CYCLES {
        match finished.recv_timeout(Duration::from_secs(30)) {
            Ok(reported) => assert_eq!(reported, cycle),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("cycle {cycle} of growing and emptying forte's pool hung for 30 s")
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("cycle {cycle} of growing and emptying forte's pool panicked")
            }
        }
    }
}
