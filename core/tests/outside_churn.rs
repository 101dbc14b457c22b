//! Threads outside every pool blocking on their latches under churn: many
//! short-lived outside threads install into, scope on and broadcast to pools
//! that are built and dropped meanwhile. Each outside wait reuses its
//! thread's `LockLatch` (or, for a scope or a broadcast, one of its own),
//! and the setter may still be inside the latch's unlock when the waiter
//! returns, its thread exits and its thread-locals go (docs/proof.md,
//! "Latches"). Under a plain build this checks that every wait returns
//! with the job's own result; under a sanitizer or Miri, that no freed
//! latch is touched.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

// Under Miri, which runs a program thousands of times slower, fewer of each
// (ci/miri runs the test over several seeds instead).
const ROUNDS: usize = if cfg!(miri) { 2 } else { 8 };
const OUTSIDE_THREADS: usize = if cfg!(miri) { 4 } else { 16 };
const CALLS_PER_THREAD: usize = if cfg!(miri) { 4 } else { 40 };

#[test]
fn outside_threads_install_scope_and_broadcast_while_pools_churn() {
    // The churn runs on a thread of its own so that a lost wake-up (a
    // waiter blocked for good) fails the test instead of hanging it. The
    // limit is no performance goal: the whole run takes well under a second
    // on one core, and only a thread that is never woken waits this long.
    let (done, finished) = mpsc::channel();
    let churn = thread::spawn(move || {
        churn();
        done.send(()).unwrap();
    });
    match finished.recv_timeout(Duration::from_secs(120)) {
        Ok(()) => churn.join().unwrap(),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // The churn thread panicked: report its panic.
            churn.join().unwrap();
            unreachable!("the churn thread ended without reporting");
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("an outside thread was never woken: a latch set was lost")
        }
    }
}

fn churn() {
    for round in 0..ROUNDS {
        let pool = Arc::new(
            ThreadPoolBuilder::new()
                .num_threads(1 + round % 3)
                .build()
                .unwrap(),
        );
        let callers: Vec<_> = (0..OUTSIDE_THREADS)
            .map(|caller| {
                let pool = Arc::clone(&pool);
                thread::spawn(move || {
                    for call in 0..CALLS_PER_THREAD {
                        let token = caller * CALLS_PER_THREAD + call;
                        match call % 4 {
                            // Each call's result is its own: a wait that
                            // returned on another call's set (a latch left
                            // set by the reset) would read a job that has
                            // not run, which `into_result` reports.
                            0 | 1 => assert_eq!(pool.install(move || token * 2), token * 2),
                            2 => {
                                let ran = AtomicUsize::new(0);
                                pool.scope(|scope| {
                                    for _ in 0..3 {
                                        scope.spawn(|_| {
                                            ran.fetch_add(1, Ordering::Relaxed);
                                        });
                                    }
                                });
                                // Every spawned job ran before `scope`
                                // returned: its latch counted them.
                                assert_eq!(ran.load(Ordering::Relaxed), 3);
                            }
                            _ => {
                                let indices = pool.broadcast(|context| context.index());
                                let expected: Vec<usize> =
                                    (0..pool.current_num_threads()).collect();
                                assert_eq!(indices, expected, "one call on each worker, in order");
                            }
                        }
                    }
                    // The thread exits here, dropping its thread-local latch
                    // while the last setter may still be unlocking it.
                })
            })
            .collect();
        // Half the rounds drop the pool while the callers still run (their
        // handles keep it alive), the other half wait for its workers.
        if round % 2 == 0 {
            drop(pool);
            for caller in callers {
                caller.join().unwrap();
            }
        } else {
            for caller in callers {
                caller.join().unwrap();
            }
            Arc::try_unwrap(pool)
                .expect("every caller has exited")
                .shutdown_and_wait();
        }
    }
}
