//! `ThreadPoolBuilder`: errors, thread counts, names and handlers.
#![cfg(not(any(loom, shuttle)))]

use drowse::{JecWidth, ThreadPoolBuilder};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

#[test]
fn too_many_threads_is_an_error_not_a_panic() {
    let requested = drowse::max_num_threads() + 1;
    let error = ThreadPoolBuilder::new()
        .num_threads(requested)
        .build()
        .expect_err("more threads than the counters can count");
    let message = error.to_string();
    assert!(
        message.contains(&requested.to_string())
            && message.contains(&drowse::max_num_threads().to_string()),
        "the message names the request and the limit: {message}"
    );
    assert!(std::error::Error::source(&error).is_none());
}

#[test]
fn max_num_threads_matches_the_counter_width() {
    let expected = if usize::BITS >= 64 { 65_535 } else { 255 };
    assert_eq!(drowse::max_num_threads(), expected);
}

#[test]
fn invalid_jobs_event_counter_widths_are_errors() {
    for bits in [0, JecWidth::MAX_BITS + 1, u32::MAX] {
        let error = ThreadPoolBuilder::new()
            .num_threads(1)
            .jobs_event_counter_bits(bits)
            .build()
            .expect_err("an invalid width");
        let message = error.to_string();
        assert!(
            message.contains(&bits.to_string())
                && message.contains(&format!("1 to {}", JecWidth::MAX_BITS)),
            "the message names the request and the range: {message}"
        );
    }
}

#[test]
fn valid_jobs_event_counter_widths_build() {
    for bits in [1, 2, 3, JecWidth::MAX_BITS] {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .jobs_event_counter_bits(bits)
            .build()
            .unwrap();
        assert_eq!(pool.install(|| drowse::join(|| 1, || 2)), (1, 2));
        pool.shutdown_and_snapshot().check().unwrap();
    }
}

#[test]
fn zero_threads_means_the_available_parallelism() {
    let pool = ThreadPoolBuilder::new().num_threads(0).build().unwrap();
    let from_env = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|text| text.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    let expected = from_env.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    assert_eq!(pool.current_num_threads(), expected);
    let default_pool = ThreadPoolBuilder::new().build().unwrap();
    assert_eq!(default_pool.current_num_threads(), expected);
}

#[test]
fn names_and_handlers_run_for_every_thread() {
    const THREADS: usize = 3;
    let started = Arc::new(Mutex::new(Vec::new()));
    let exited = Arc::new(Mutex::new(Vec::new()));
    let pool = ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .thread_name(|index| format!("drowse-test-{index}"))
        .stack_size(256 * 1024)
        .start_handler({
            let started = Arc::clone(&started);
            move |index| {
                let name = std::thread::current().name().map(str::to_owned);
                started.lock().unwrap().push((index, name));
            }
        })
        .exit_handler({
            let exited = Arc::clone(&exited);
            move |index| exited.lock().unwrap().push(index)
        })
        .build()
        .unwrap();
    let (name_inside, index_inside) = pool.install(|| {
        let name = std::thread::current().name().map(str::to_owned);
        (name, drowse::current_thread_index().unwrap())
    });
    assert_eq!(name_inside, Some(format!("drowse-test-{index_inside}")));
    let snapshot = pool.shutdown_and_snapshot();
    snapshot.check().unwrap();

    let mut started = started.lock().unwrap().clone();
    started.sort();
    let expected: Vec<_> = (0..THREADS)
        .map(|index| (index, Some(format!("drowse-test-{index}"))))
        .collect();
    assert_eq!(
        started, expected,
        "one start per thread, each with its name"
    );
    let exited: BTreeSet<usize> = exited.lock().unwrap().iter().copied().collect();
    assert_eq!(exited, (0..THREADS).collect(), "one exit per thread");
    assert_eq!(exited.len(), THREADS);
}

#[test]
fn a_panicking_start_handler_goes_to_the_panic_handler() {
    let panics = Arc::new(Mutex::new(0));
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| panic!("start handler panics"))
        .panic_handler({
            let panics = Arc::clone(&panics);
            move |_| *panics.lock().unwrap() += 1
        })
        .build()
        .unwrap();
    assert_eq!(pool.install(|| 5), 5);
    pool.shutdown_and_wait();
    assert_eq!(*panics.lock().unwrap(), 2);
}

#[test]
fn builder_debug_lists_its_settings() {
    let text = format!("{:?}", ThreadPoolBuilder::new().num_threads(3));
    assert!(text.contains("num_threads: 3"), "{text}");
}
