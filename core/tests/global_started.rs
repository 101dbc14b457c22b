//! `build_global` returns only once its workers have started. Its own test
//! binary: the global pool is one per process.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

#[test]
fn build_global_returns_after_the_workers_have_started() {
    const THREADS: usize = 3;
    // Each thread dawdles before it runs its worker, so a `build_global`
    // that did not wait would return long before `entering` reaches THREADS.
    let entering = Arc::new(AtomicUsize::new(0));
    let spawner_entering = Arc::clone(&entering);
    ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .spawn_handler(move |thread| {
            let entering = Arc::clone(&spawner_entering);
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(100 * (thread.index() as u64 + 1)));
                entering.fetch_add(1, Ordering::SeqCst);
                thread.run();
            });
            Ok(())
        })
        .build_global()
        .expect("the first build of the global pool");
    assert_eq!(entering.load(Ordering::SeqCst), THREADS);
    assert_eq!(drowse::current_num_threads(), THREADS);
    assert_eq!(drowse::join(|| 1, || 2), (1, 2));
}
