//! The std world, a normal build: `std`'s primitives and crossbeam-deque's
//! queues, one run of every "model" (there is no scheduler to explore), the
//! real clock and random seeds.

pub use std::sync::atomic;
pub use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Threads of this world.
pub mod thread {
    pub use std::thread::{
        available_parallelism, current, scope, spawn, yield_now, Builder, JoinHandle, Scope,
    };

    /// Starts a thread of `scope` with the given name and stack size.
    pub fn spawn_scoped<'scope, F>(
        scope: &'scope Scope<'scope, '_>,
        name: Option<String>,
        stack_size: Option<usize>,
        body: F,
    ) -> std::io::Result<()>
    where
        F: FnOnce() + Send + 'scope,
    {
        let mut builder = Builder::new();
        if let Some(name) = name {
            builder = builder.name(name);
        }
        if let Some(stack_size) = stack_size {
            builder = builder.stack_size(stack_size);
        }
        builder.spawn_scoped(scope, body).map(drop)
    }
}

/// Spin-loop hints of this world (a scheduling point under the checkers).
pub mod hint {
    pub use std::hint::spin_loop;
}

pub use std::thread_local;

/// Work queues: crossbeam-deque's.
pub mod deque {
    pub use crossbeam_deque::{Injector, Steal, Stealer, Worker};
}

pub const NAME: &str = "std";
pub const IS_CHECKER: bool = false;
/// See [`DEBUG_READS_SHARED_STATE`](super::DEBUG_READS_SHARED_STATE).
pub const DEBUG_READS_SHARED_STATE: bool = cfg!(debug_assertions);
/// rayon-core's number. No fixed number serves every rate: with
/// `ci/bench --drowse-search-rounds N`, 1 to 8 rounds cut the CPU at 1 kHz
/// on 8 threads to 0.07-0.13x rayon-core's, but 1 raised the p50 at 10 kHz
/// on 8 threads to 1.82x. The search policy (`sleep/policy.rs`) adapts each
/// worker's budget from this start.
pub const DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP: u32 = 32;

/// The monotonic clock.
pub mod time {
    pub use std::time::Instant;
}

/// A fresh random number: `std`'s randomly keyed hasher over a counter,
/// so that two calls (two pools, two workers) differ, and so do two runs
/// of the process.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// Runs `body` once: the std world has no scheduler to explore.
pub fn model<F: Fn() + Send + Sync + 'static>(body: F) {
    body()
}

/// Runs `body` once, as [`model`].
pub fn model_with_preemption_bound<F: Fn() + Send + Sync + 'static>(_bound: usize, body: F) {
    body()
}
