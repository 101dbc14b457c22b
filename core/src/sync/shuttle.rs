//! The shuttle world, `--cfg shuttle`: shuttle's primitives, the model
//! queues, and `model` as shuttle's random scheduler. What it shares with
//! the loom world is in `checker.rs`.

pub use shuttle::sync::atomic;
pub use shuttle::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Threads of this world.
pub mod thread {
    pub use shuttle::thread::{current, scope, spawn, yield_now, Builder, JoinHandle, Scope};

    /// The parallelism a pool built with default settings gets under
    /// the checkers (see [`CHECKER_PARALLELISM`](super::super::checker::CHECKER_PARALLELISM)).
    pub fn available_parallelism() -> std::io::Result<std::num::NonZeroUsize> {
        Ok(super::super::checker::CHECKER_PARALLELISM)
    }

    /// Starts a thread of `scope`. Shuttle's scoped threads take no name
    /// or stack size; its threads are not OS threads anyway.
    pub fn spawn_scoped<'scope, F>(
        scope: &'scope Scope<'scope, '_>,
        _name: Option<String>,
        _stack_size: Option<usize>,
        body: F,
    ) -> std::io::Result<()>
    where
        F: FnOnce() + Send + 'scope,
    {
        scope.spawn(body);
        Ok(())
    }
}

/// Spin-loop hints of this world (a scheduling point under the checkers).
pub mod hint {
    pub use shuttle::hint::spin_loop;
}

pub use shuttle::thread::LocalKey;
pub use shuttle::thread_local;

pub use super::model_queue as deque;

pub const NAME: &str = "shuttle";
pub const CHECKER_VERSION: &str = super::SHUTTLE_SERIES;
/// Where a model's code must run, named in the outside-a-model panic.
pub const MODEL_ENTRY: &str =
    "a `shuttle::check_*` function (`check_random`, `check_pct`, `check_dfs`, ...) or `shuttle::replay`";
/// See [`DEBUG_READS_SHARED_STATE`](super::DEBUG_READS_SHARED_STATE):
/// shuttle is sequentially consistent, so a read cannot hide a
/// weak-memory execution there.
pub const DEBUG_READS_SHARED_STATE: bool = cfg!(debug_assertions);

/// `key.with(f)`, or the facade's panic when the call runs outside a
/// shuttle execution (`try_get_current_task` is shuttle's public,
/// non-panicking way to ask).
pub fn local_with<T: 'static, R>(key: &'static LocalKey<T>, f: impl FnOnce(&T) -> R) -> R {
    if shuttle::current::try_get_current_task().is_none() {
        super::checker::outside_model();
    }
    key.with(f)
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

/// Runs `body` under shuttle's random scheduler, `DROWSE_SHUTTLE_ITERATIONS`
/// times (default 1000).
pub fn model<F: Fn() + Send + Sync + 'static>(body: F) {
    let iterations = std::env::var("DROWSE_SHUTTLE_ITERATIONS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(1000);
    shuttle::check_random(body, iterations)
}

/// As [`model`]: random schedules have no preemption bound.
pub fn model_with_preemption_bound<F: Fn() + Send + Sync + 'static>(_bound: usize, body: F) {
    model(body)
}
