//! `ThreadPoolBuilder`: errors, thread counts, names and handlers.
#![cfg(not(any(loom, shuttle)))]

use drowse::{JecWidth, ThreadPoolBuilder};
use std::collections::BTreeSet;
use std::error::Error;
use std::sync::{Arc, Mutex};

#[test]
fn too_many_threads_are_reduced_to_the_maximum() {
    // As rayon-core: not an error, a pool of `max_num_threads()` workers. The
    // spawn handler only counts the workers it is given and drops them (so
    // no thread is started); a dropped `ThreadBuilder` counts as a worker
    // that has stopped, so shutting the pool down does not wait for them.
    let max = drowse::max_num_threads();
    let mut handed_out = 0;
    let mut last_index = None;
    let pool = ThreadPoolBuilder::new()
        .num_threads(max + 1)
        .spawn_handler(|thread| {
            handed_out += 1;
            last_index = Some(thread.index());
            Ok(())
        })
        .build()
        .expect("too many threads are not an error");
    assert_eq!(pool.current_num_threads(), max);
    assert_eq!(handed_out, max);
    assert_eq!(last_index, Some(max - 1));
    pool.shutdown_and_snapshot().check().unwrap();
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
fn zero_threads_means_the_default() {
    // The environment is not changed by this test binary; whatever the
    // variables say (read as rayon-core reads them: no trimming), zero and no
    // call at all give the same default.
    let parse = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|text| text.parse::<usize>().ok())
    };
    let available = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let expected = match parse("RAYON_NUM_THREADS") {
        Some(0) => available,
        Some(n) => n,
        None => parse("RAYON_RS_NUM_CPUS")
            .filter(|&n| n > 0)
            .unwrap_or(available),
    };
    let expected = expected.min(drowse::max_num_threads());
    let pool = ThreadPoolBuilder::new().num_threads(0).build().unwrap();
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
    assert!(text.contains("get_thread_name: None"), "{text}");
    let text = format!(
        "{:?}",
        ThreadPoolBuilder::new()
            .thread_name(|i| format!("t{i}"))
            .use_current_thread()
            .spawn_handler(|thread| {
                thread.run();
                Ok(())
            })
    );
    assert!(
        text.contains("get_thread_name: Some(<closure>)")
            && text.contains("use_current_thread: true"),
        "{text}"
    );
}

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
