//! The loom world, `--cfg loom`: loom's primitives, the model queues, and
//! `model` as loom's exhaustive exploration. What it shares with the
//! shuttle world is in `checker.rs`.

pub use loom::sync::atomic;
pub use loom::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Threads of this world.
pub mod thread {
    pub use loom::thread::{current, spawn, yield_now, Builder, JoinHandle};
    pub use std::thread::Scope;

    /// The parallelism a pool built with default settings gets under
    /// the checkers (see [`CHECKER_PARALLELISM`](super::super::checker::CHECKER_PARALLELISM)).
    pub fn available_parallelism() -> std::io::Result<std::num::NonZeroUsize> {
        Ok(super::super::checker::CHECKER_PARALLELISM)
    }

    /// Loom has no scoped threads: `build_scoped` cannot run under loom.
    pub fn scope<'env, F, T>(_body: F) -> T
    where
        F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
    {
        panic!("loom has no scoped threads: build_scoped is not available under loom; use spawn_handler with loom::thread::spawn")
    }

    /// Never called: [`scope`] panics first.
    pub fn spawn_scoped<'scope, F>(
        _scope: &'scope Scope<'scope, '_>,
        _name: Option<String>,
        _stack_size: Option<usize>,
        _body: F,
    ) -> std::io::Result<()>
    where
        F: FnOnce() + Send + 'scope,
    {
        unreachable!("loom has no scoped threads")
    }
}

/// Spin-loop hints of this world (a scheduling point under the checkers).
pub mod hint {
    pub use loom::hint::spin_loop;
}

pub use loom::thread::LocalKey;
pub use loom::thread_local;

pub use super::model_queue as deque;

pub const NAME: &str = "loom";
pub const CHECKER_VERSION: &str = super::LOOM_SERIES;
/// Where a model's code must run, named in the outside-a-model panic.
pub const MODEL_ENTRY: &str = "`loom::model` (or `loom::model::Builder::check`)";
/// Off: see [`DEBUG_READS_SHARED_STATE`](super::DEBUG_READS_SHARED_STATE).
pub const DEBUG_READS_SHARED_STATE: bool = false;

/// `key.with(f)`, or the facade's panic when the call runs outside a
/// loom model. Loom has no public way to ask whether a model is running:
/// outside one, its thread-locals panic, and that panic is caught here
/// (only the pointer is fetched under `catch_unwind`; `f` runs outside).
pub fn local_with<T: 'static, R>(key: &'static LocalKey<T>, f: impl FnOnce(&T) -> R) -> R {
    let fetched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        key.try_with(|value| value as *const T)
    }));
    match fetched {
        Ok(Ok(value)) => {
            // SAFETY: the value sits in loom's storage for this thread
            // until the thread's locals are dropped, which happens after
            // the thread's function returns, never during `f` on this
            // thread; loom's own `LocalKey::with` hands out the same
            // reference.
            f(unsafe { &*value })
        }
        Ok(Err(_)) => {
            panic!("cannot access a (mock) TLS value during or after it is destroyed")
        }
        Err(_) => super::checker::outside_model(),
    }
}
pub const IS_CHECKER: bool = true;
/// See [`DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP`](super::DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP).
pub const DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP: u32 = 1;

/// Always zero: a checker must replay the same choices, so randomness
/// that the pool uses for tuning (victim order) is derived from worker
/// indices alone.
pub fn random_seed() -> u64 {
    0
}

/// A clock that stands still, for the same reason.
pub mod time {
    pub use super::super::frozen_clock::Instant;
}

/// Explores every interleaving of `body` within the bounds loom reads from
/// its `LOOM_*` environment variables.
pub fn model<F: Fn() + Send + Sync + 'static>(body: F) {
    loom::model(body)
}

/// As [`model`], exploring only executions with at most `bound`
/// preemptions unless `LOOM_MAX_PREEMPTIONS` says otherwise.
pub fn model_with_preemption_bound<F: Fn() + Send + Sync + 'static>(bound: usize, body: F) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(bound);
    }
    builder.check(body)
}
