//! Drowse: rayon's worker sleep/wake protocol, model-checked, and a
//! work-stealing thread pool built on it.
//!
//! The pool's public API has rayon-core 1.13's names and signatures
//! ([`join`], [`join_context`], [`scope()`], [`spawn()`], [`ThreadPool`],
//! [`ThreadPoolBuilder`], ...), so code written against rayon-core runs on it.
//! What Drowse adds is the evidence: the sleep protocol (`sleep`), the
//! latches and the pool are written once over one `sync` facade and
//! compiled three ways:
//!
//! - a normal build uses `std` and `crossbeam-deque`;
//! - `RUSTFLAGS="--cfg loom"` runs the same code under loom, which explores
//!   every interleaving and C11 weak-memory behaviour of small pools;
//! - `RUSTFLAGS="--cfg shuttle"` runs it under shuttle's randomized and PCT
//!   schedulers for larger pools.
//!
//! ```
//! fn fib(n: u64) -> u64 {
//!     if n < 2 {
//!         return n;
//!     }
//!     let (a, b) = drowse::join(|| fib(n - 1), || fib(n - 2));
//!     a + b
//! }
//!
//! let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! assert_eq!(pool.install(|| fib(20)), 6765);
//! ```
//!
//! # Under loom and shuttle
//!
//! Code that uses Drowse can be model-checked with the same flags: built
//! with `--cfg loom` or `--cfg shuttle`, the pool's atomics, locks and
//! threads are the checker's. Pools built in a model behave as in a normal
//! build. The global pool (used by [`join`], [`spawn()`], [`scope()`], ...
//! outside any pool) is per execution there:
//!
//! - each execution of the model starts without one; the first use builds
//!   it, or [`ThreadPoolBuilder::build_global`] does, once per execution;
//! - a pool built with default settings gets 2 workers under the checkers,
//!   not the machine's parallelism (`RAYON_NUM_THREADS` still applies): the
//!   smallest pool whose workers steal from and wake each other, within
//!   loom's limit of 5 threads, and the same search on every machine;
//! - it ends by itself once every thread of the execution that used it has
//!   exited (the model's main thread, as the model's closure returns,
//!   included): its workers run the jobs spawned into it and exit, so the
//!   execution ends with every thread finished, as the checkers require. A
//!   thread that uses it after that gets a fresh one (under loom, only
//!   while the model's closure runs: loom drops its statics when it
//!   returns).
//!
//! In a normal build the global pool is built once and lives as long as the
//! process.
//!
//! Under a checker every call into Drowse must run inside a model
//! (`loom::model`, `shuttle::check_*`). Doctests run outside any model, so
//! in a checker world test with `cargo test --tests`; the examples in this
//! documentation are std-world examples.
//!
//! `core/src/sleep/README.md` describes the sleep protocol and
//! `docs/proof.md` links each step of its correctness argument to the test
//! that checks it.
//!
//! # Features
//!
//! - `extensions` (on by default): Drowse's additions to rayon-core's API,
//!   `ThreadPoolBuilder::search_rounds_before_sleep` and
//!   `ThreadPool::shutdown_and_wait`. The compat package (`rayon-core`)
//!   depends on Drowse without it, so that `rayon::` paths serve exactly
//!   rayon-core 1.13's API; its `drowse-extensions` feature turns it on.
//! - `diagnostics` (off by default): `ThreadPool::sleep_snapshot` and
//!   `ThreadPool::shutdown_and_snapshot`, which read a pool's sleep
//!   counters as a `SleepSnapshot`.
//! - `loom`, `shuttle` (off by default): bring in that checker, which a
//!   build with `--cfg loom` or `--cfg shuttle` needs (the flag picks the
//!   world; without its feature the build stops with an error that says
//!   so). Enable each for its world only, under
//!   `[target.'cfg(loom)'.dependencies]` or `[target.'cfg(shuttle)'.dependencies]`,
//!   so that a normal build never resolves the checkers.
//! - `internals` is for Drowse's own checker suites and models; it is
//!   unstable and not part of the API.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, missing_debug_implementations)]

mod broadcast;
mod builder;
#[cfg(doctest)]
mod compile_fail;
mod job;
mod join;
mod latch;
mod lifecycle;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod model_api;
mod registry;
mod scope;
mod sleep;
mod spawn;
// The facade is the suites' and models' way into the checker worlds; users
// reach loom and shuttle directly.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod sync;
#[cfg(not(feature = "internals"))]
mod sync;
mod thread_builder;
mod thread_pool;
mod unwind;
mod yielding;

pub use crate::broadcast::{broadcast, spawn_broadcast, BroadcastContext};
#[allow(deprecated)]
pub use crate::builder::{initialize, Configuration};
pub use crate::builder::{ThreadPoolBuildError, ThreadPoolBuilder};
pub use crate::join::{join, join_context};
pub use crate::scope::{in_place_scope, in_place_scope_fifo, scope, scope_fifo, Scope, ScopeFifo};
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use crate::sleep::JecWidth;
#[cfg(feature = "diagnostics")]
pub use crate::sleep::SleepSnapshot;
pub use crate::spawn::{spawn, spawn_fifo};
pub use crate::thread_builder::ThreadBuilder;
pub use crate::thread_pool::{current_thread_index, ThreadPool};
pub use crate::yielding::{current_thread_has_pending_tasks, yield_local, yield_now, Yield};

use std::marker::PhantomData;

/// The most threads a pool can have: what the sleep counters can count
/// (65,535 on 64-bit targets, 255 on 32-bit ones). A pool asked for more
/// (by [`ThreadPoolBuilder::num_threads`] or `RAYON_NUM_THREADS`) gets this
/// many.
pub fn max_num_threads() -> usize {
    sleep::THREADS_MAX
}

/// The number of threads in the current pool: the pool of the current worker
/// thread, or the global pool (built with defaults if needed).
pub fn current_num_threads() -> usize {
    registry::current_registry().num_threads()
}

/// Tells a closure run by [`join_context`] where it runs.
#[derive(Debug)]
pub struct FnContext {
    migrated: bool,
    /// Keeps the context on the thread it was made for.
    _not_send: PhantomData<*mut ()>,
}

impl FnContext {
    fn new(migrated: bool) -> Self {
        FnContext {
            migrated,
            _not_send: PhantomData,
        }
    }

    /// True when the closure runs on a different thread from the one that
    /// called `join_context` (it was stolen, or the call came from outside
    /// the pool).
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}
