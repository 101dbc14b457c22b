//! A failed `build_global`: the workers it started are ended and waited
//! for, and, as in rayon-core, the global pool stays unbuilt: a later
//! `build_global` is an error and using the global pool panics. Its own
//! test binary (the global pool is one per process), one test, so that the
//! order is fixed.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread;

#[test]
fn a_failed_global_build_leaves_no_worker_and_no_global_pool() {
    let started = Arc::new(Mutex::new(Vec::new()));
    let exited = Arc::new(Mutex::new(Vec::new()));
    let error = ThreadPoolBuilder::new()
        .num_threads(4)
        .start_handler({
            let started = Arc::clone(&started);
            move |index| started.lock().unwrap().push(index)
        })
        .exit_handler({
            let exited = Arc::clone(&exited);
            move |index| exited.lock().unwrap().push(index)
        })
        .spawn_handler(|thread| {
            if thread.index() == 2 {
                return Err(io::Error::other("no third thread"));
            }
            thread::spawn(move || thread.run());
            Ok(())
        })
        .build_global()
        .expect_err("the spawn handler fails");
    assert_eq!(error.to_string(), "no third thread");
    let mut exited = exited.lock().unwrap().clone();
    exited.sort_unstable();
    assert_eq!(
        exited,
        [0, 1],
        "the started workers were ended and waited for"
    );
    assert_eq!(started.lock().unwrap().len(), 2);

    let again = ThreadPoolBuilder::new().num_threads(1).build_global();
    assert_eq!(
        again.expect_err("the one attempt is spent").to_string(),
        "The global thread pool has already been initialized."
    );

    // Local pools are not affected.
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.install(|| drowse::join(|| 1, || 2)), (1, 2));

    // The global pool is not silently replaced by a default one.
    let payload = panic::catch_unwind(AssertUnwindSafe(drowse::current_num_threads))
        .expect_err("there is no global pool");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("The global thread pool has not been initialized")
            && message.contains("no third thread"),
        "the panic says why: {message:?}"
    );
}
