//! The global pool. Its own test binary, so that nothing else builds the
//! global pool first; a single test, so that the order of calls is fixed.
#![cfg(not(any(loom, shuttle)))]

use drowse::ThreadPoolBuilder;

#[test]
fn the_global_pool_is_built_once() {
    // The first call succeeds unless something built the global pool before
    // us (the test harness does not, but do not depend on it).
    let first = ThreadPoolBuilder::new().num_threads(2).build_global();
    let second = ThreadPoolBuilder::new().num_threads(3).build_global();
    let error = second.expect_err("a second global pool is an error");
    // rayon-core's text and no source.
    assert_eq!(
        error.to_string(),
        "The global thread pool has already been initialized."
    );
    assert!(std::error::Error::source(&error).is_none());
    #[allow(deprecated)]
    let third = drowse::initialize(drowse::Configuration::new().num_threads(4));
    assert_eq!(
        third.expect_err("initialize is build_global").to_string(),
        "The global thread pool has already been initialized."
    );
    if first.is_ok() {
        assert_eq!(drowse::current_num_threads(), 2);
    }

    // Outside any pool, join, scope and spawn use the global pool.
    assert_eq!(drowse::current_thread_index(), None);
    let (a, b) = drowse::join(drowse::current_thread_index, drowse::current_thread_index);
    assert!(a.is_some() && b.is_some());
    let mut value = 0;
    drowse::scope(|s| s.spawn(|_| value = 7));
    assert_eq!(value, 7);
    let (sender, receiver) = std::sync::mpsc::channel();
    drowse::spawn(move || sender.send(drowse::current_num_threads()).unwrap());
    let num_threads = receiver
        .recv_timeout(std::time::Duration::from_secs(30))
        .unwrap();
    assert_eq!(num_threads, drowse::current_num_threads());
}
