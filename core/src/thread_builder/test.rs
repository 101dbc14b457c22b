//! Spawn handlers, cross-pool shutdown and the global pool's fallback, in
//! every world: the bodies run in `crate::sync::model` (once in std, every
//! interleaving under loom, within a preemption bound where noted, random
//! schedules under shuttle), so they stay tiny. The std-only tests are in core/tests/spawn_handler.rs.

use crate::registry::{default_global_registry, StartedRegistry};
use crate::sync::thread;
use crate::{ThreadPoolBuildError, ThreadPoolBuilder};
use std::io;

#[test]
fn a_spawn_handler_starts_workers_on_threads_of_the_world() {
    // Loom: 1.2 s at this bound on 2 cores; unbounded takes minutes.
    crate::sync::model_with_preemption_bound(4, || {
        let mut handles = Vec::new();
        let pool = ThreadPoolBuilder::for_model(1)
            .spawn_handler(|worker| {
                handles.push(thread::spawn(move || worker.run()));
                Ok(())
            })
            .build()
            .unwrap();
        assert_eq!(pool.install(crate::current_thread_index), Some(0));
        // No join handles: the pool's own countdown says when `run` is over.
        pool.shutdown_and_snapshot().check_at_rest().unwrap();
        for handle in handles {
            handle.join().unwrap();
        }
    });
}

#[test]
fn shutdown_and_wait_on_another_pools_worker() {
    // Loom: 0.7 s at this bound (9 s at 3) on 2 cores.
    crate::sync::model_with_preemption_bound(2, || {
        let a = ThreadPoolBuilder::for_model(1).build().unwrap();
        let b = ThreadPoolBuilder::for_model(1).build().unwrap();
        // `a`'s worker waits for `b`'s by running `a`'s jobs (there are none)
        // and sleeping; `b`'s worker must wake it when it exits.
        let snapshot = a.install(move || b.shutdown_and_snapshot());
        snapshot.check_at_rest().unwrap();
        a.shutdown_and_snapshot().check_at_rest().unwrap();
    });
}

/// A `start` for `default_global_registry` that fails with `kind` and
/// records the builders it was given.
fn failing_start(
    kind: io::ErrorKind,
    seen: &mut Vec<(usize, bool)>,
) -> impl FnMut(ThreadPoolBuilder) -> Result<StartedRegistry, ThreadPoolBuildError> + '_ {
    move |builder| {
        seen.push((builder.num_threads, builder.use_current_thread));
        builder
            .spawn_handler(move |_| Err(io::Error::from(kind)))
            .num_threads(2)
            .build()
            .map(|_pool| -> StartedRegistry { unreachable!("the spawn handler fails") })
    }
}

#[test]
fn the_global_pool_falls_back_to_the_current_thread_only_without_thread_support() {
    crate::sync::model(|| {
        // Unsupported: the one-thread pool of the current thread is tried.
        let mut seen = Vec::new();
        let error = default_global_registry(failing_start(io::ErrorKind::Unsupported, &mut seen))
            .map(drop)
            .expect_err("the fallback fails too here");
        assert_eq!(seen, [(0, false), (1, true)]);
        assert!(
            error.is_unsupported(),
            "the first error is returned: {error}"
        );

        // Any other error: no fallback, the error is returned.
        let mut seen = Vec::new();
        let error = default_global_registry(failing_start(io::ErrorKind::OutOfMemory, &mut seen))
            .map(drop)
            .expect_err("no fallback");
        assert_eq!(seen, [(0, false)]);
        assert!(!error.is_unsupported());
    });
}
