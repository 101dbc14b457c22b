//! The facade: the one module that knows which world Drowse is compiled for.
//!
//! Every atomic, lock, thread and queue that the protocol and the pool use is
//! imported from here, never from `std`, `loom`, `shuttle` or
//! `crossbeam-deque` directly. Three worlds exist:
//!
//! | world   | selected by                  | primitives                          |
//! |---------|------------------------------|-------------------------------------|
//! | std     | a normal build               | `std` + `crossbeam-deque`           |
//! | loom    | `RUSTFLAGS="--cfg loom"`     | `loom` + [`deque`] model queues     |
//! | shuttle | `RUSTFLAGS="--cfg shuttle"`  | `shuttle` + [`deque`] model queues  |
//!
//! `crossbeam-deque` uses `core` atomics directly, so under loom its
//! operations would be invisible and under shuttle each would be one
//! uninterruptible step. The checker worlds therefore use model queues whose
//! every operation goes through the facade's atomics and whose emptiness is
//! published through an atomic with acquire/release orderings only (no
//! stronger than crossbeam's), so that a missing fence in the protocol is not
//! hidden by a lock.
//!
//! Nothing outside this module may mention `cfg(loom)` or `cfg(shuttle)`.

// Some items only the suites and models use (the `internals` feature makes
// this module public for them).
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

#[cfg(all(loom, shuttle))]
compile_error!("`--cfg loom` and `--cfg shuttle` select different worlds; pass only one of them");

#[cfg(not(any(loom, shuttle)))]
mod world {
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
    /// rayon-core's number.
    pub const DEFAULT_SEARCH_ROUNDS: u32 = 32;

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
}

#[cfg(loom)]
mod world {
    pub use loom::sync::atomic;
    pub use loom::sync::{Arc, Condvar, Mutex, MutexGuard};

    /// Threads of this world.
    pub mod thread {
        pub use loom::thread::{current, spawn, yield_now, Builder, JoinHandle};
        pub use std::thread::Scope;

        /// The parallelism a pool built with default settings gets under
        /// the checkers (see [`CHECKER_PARALLELISM`](super::super::CHECKER_PARALLELISM)).
        pub fn available_parallelism() -> std::io::Result<std::num::NonZeroUsize> {
            Ok(super::super::CHECKER_PARALLELISM)
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

    pub use loom::thread_local;

    pub use super::model_queue as deque;

    pub const NAME: &str = "loom";
    pub const IS_CHECKER: bool = true;
    /// See [`DEFAULT_SEARCH_ROUNDS`](super::DEFAULT_SEARCH_ROUNDS).
    pub const DEFAULT_SEARCH_ROUNDS: u32 = 1;

    /// Always zero: a checker must replay the same choices, so randomness
    /// that the pool uses for tuning (victim order) is derived from worker
    /// indices alone.
    pub fn random_seed() -> u64 {
        0
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
}

#[cfg(shuttle)]
mod world {
    pub use shuttle::sync::atomic;
    pub use shuttle::sync::{Arc, Condvar, Mutex, MutexGuard};

    /// Threads of this world.
    pub mod thread {
        pub use shuttle::thread::{current, scope, spawn, yield_now, Builder, JoinHandle, Scope};

        /// The parallelism a pool built with default settings gets under
        /// the checkers (see [`CHECKER_PARALLELISM`](super::super::CHECKER_PARALLELISM)).
        pub fn available_parallelism() -> std::io::Result<std::num::NonZeroUsize> {
            Ok(super::super::CHECKER_PARALLELISM)
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

    pub use shuttle::thread_local;

    pub use super::model_queue as deque;

    pub const NAME: &str = "shuttle";
    pub const IS_CHECKER: bool = true;
    /// See [`DEFAULT_SEARCH_ROUNDS`](super::DEFAULT_SEARCH_ROUNDS).
    pub const DEFAULT_SEARCH_ROUNDS: u32 = 1;

    /// Always zero: a checker must replay the same choices, so randomness
    /// that the pool uses for tuning (victim order) is derived from worker
    /// indices alone.
    pub fn random_seed() -> u64 {
        0
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
}

#[cfg(any(loom, shuttle))]
pub mod model_queue;

mod cell;

pub use cell::UnsafeCell;
pub(crate) use world::thread_local;
pub use world::{
    atomic, deque, hint, model, model_with_preemption_bound, thread, Arc, Condvar, Mutex,
    MutexGuard,
};

mod per_execution;

/// A one-time cell for statics: `std::sync::OnceLock` in the std world; one
/// value per execution under the checkers, ended when the last thread of the
/// execution that used it exits. Only the global pool uses it.
pub use per_execution::ExecutionOnceLock;

/// The machine's parallelism as a model sees it: a pool built with default
/// settings (the global pool, say) under loom or shuttle gets 2 workers,
/// whatever the machine running the checker has (`RAYON_NUM_THREADS` still
/// overrides it). Two is the smallest pool in which workers steal from each
/// other and wake each other, which is what the protocol is about; loom runs
/// at most 5 threads, so two workers leave the model's main thread room for
/// two more; and each extra worker multiplies the executions to explore. A
/// count taken from the machine would also make a model's search depend on
/// where it runs.
#[cfg(any(loom, shuttle))]
const CHECKER_PARALLELISM: std::num::NonZeroUsize = match std::num::NonZeroUsize::new(2) {
    Some(two) => two,
    None => unreachable!(),
};

/// The world this build runs in: `"std"`, `"loom"` or `"shuttle"`.
pub const WORLD: &str = world::NAME;

/// True under loom and shuttle. Only debug checks and examples may depend on
/// it: the protocol and pool are the same code in every world. What differs
/// between the worlds is this facade's primitives and three values it
/// supplies, which the pool uses the same way in every world:
/// `DEFAULT_SEARCH_ROUNDS` (32 in the std world, 1 under the checkers, which
/// lemma 0 of docs/proof.md shows loses nothing), the parallelism a pool
/// built with default settings gets (the machine's in the std world, 2 under
/// the checkers), and the seed of the victim-picking random numbers (random
/// in the std world, 0 under the checkers).
pub const IS_CHECKER: bool = world::IS_CHECKER;

/// The fruitless search rounds before a worker gets sleepy of a pool built
/// without `ThreadPoolBuilder::search_rounds_before_sleep`: 32 in the std
/// world (rayon-core's number), 1 under loom and shuttle. The protocol takes
/// the number as a parameter and is the same code for every value; lemma 0
/// of docs/proof.md shows that every execution with more rounds has a
/// counterpart with one round that does the same to shared memory, so one
/// round loses no state to the checkers, while each extra round multiplies
/// what they explore (a default global pool with 32 rounds is beyond loom's
/// branch limit). Drowse's own checks set the number explicitly, and
/// `shuttle-tests/tests/p0_search_rounds.rs` also runs them at 32.
pub(crate) const DEFAULT_SEARCH_ROUNDS: u32 = world::DEFAULT_SEARCH_ROUNDS;

/// A seed for the pool's victim-picking random numbers: random in the std
/// world (a new value per call), and a constant under the checkers, whose
/// schedules must replay exactly.
pub(crate) fn random_seed() -> u64 {
    world::random_seed()
}

#[cfg(test)]
mod test {
    #[test]
    fn random_seeds_differ_in_std_and_are_fixed_under_the_checkers() {
        let (first, second) = (super::random_seed(), super::random_seed());
        if super::IS_CHECKER {
            assert_eq!((first, second), (0, 0));
        } else {
            assert_ne!(first, second);
        }
    }
}
