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

// The checkers are optional dependencies, so that a normal build (and a
// user's lock file) never resolves them; a checker world needs its feature.
#[cfg(any(
    all(loom, not(feature = "loom")),
    all(shuttle, not(feature = "shuttle"))
))]
macro_rules! checker_feature_missing {
    ($checker:literal) => {
        compile_error!(concat!(
            "drowse is built with `--cfg ",
            $checker,
            "` but without its `",
            $checker,
            "` feature, which brings in ",
            $checker,
            ". Enable it where you depend on Drowse, ",
            "for that world only: `[target.'cfg(",
            $checker,
            ")'.dependencies] drowse = ",
            "{ path = \"...\", features = [\"",
            $checker,
            "\"] }`, or, through the compat ",
            "package, `rayon-core = { version = \"1.13\", features = [\"",
            $checker,
            "\"] }` ",
            "(docs/checking.md, \"Model-checking rayon code\")"
        ));
    };
}
#[cfg(all(loom, not(feature = "loom")))]
checker_feature_missing!("loom");
#[cfg(all(shuttle, not(feature = "shuttle")))]
checker_feature_missing!("shuttle");

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
    /// See [`DEBUG_READS_SHARED_STATE`](super::DEBUG_READS_SHARED_STATE).
    pub const DEBUG_READS_SHARED_STATE: bool = cfg!(debug_assertions);
    /// rayon-core's number.
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

    pub use loom::thread::LocalKey;
    pub use loom::thread_local;

    pub use super::model_queue as deque;

    pub const NAME: &str = "loom";
    pub const CHECKER_VERSION: &str = super::LOOM_SERIES;
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
            Err(_) => super::outside_model(),
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

    pub use shuttle::thread::LocalKey;
    pub use shuttle::thread_local;

    pub use super::model_queue as deque;

    pub const NAME: &str = "shuttle";
    pub const CHECKER_VERSION: &str = super::SHUTTLE_SERIES;
    /// See [`DEBUG_READS_SHARED_STATE`](super::DEBUG_READS_SHARED_STATE):
    /// shuttle is sequentially consistent, so a read cannot hide a
    /// weak-memory execution there.
    pub const DEBUG_READS_SHARED_STATE: bool = cfg!(debug_assertions);

    /// `key.with(f)`, or the facade's panic when the call runs outside a
    /// shuttle execution (`try_get_current_task` is shuttle's public,
    /// non-panicking way to ask).
    pub fn local_with<T: 'static, R>(key: &'static LocalKey<T>, f: impl FnOnce(&T) -> R) -> R {
        if shuttle::current::try_get_current_task().is_none() {
            super::outside_model();
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
}

#[cfg(any(loom, shuttle))]
pub mod model_queue;

#[cfg(any(loom, shuttle))]
mod frozen_clock;

mod cell;

pub use cell::UnsafeCell;
#[cfg(not(any(loom, shuttle)))]
pub(crate) use world::thread_local;

/// The checker worlds' `thread_local!`: a [`ModelLocalKey`], whose value
/// lives in the thread's one checker thread-local (see `model_local`): a
/// use outside a model (or from a model of another version of the checker)
/// gives [`outside_model`]'s message instead of the checker's own, and a
/// thread's values are dropped in an order the schedule alone decides. The
/// thread-locals of the pool are what any call into Drowse touches first
/// (`WorkerThread::current`).
#[cfg(any(loom, shuttle))]
macro_rules! model_thread_local {
    // std's `const { .. }` initialiser (which only spares std's first-use
    // check): a model's thread-local is created on first use either way.
    ($($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = const $init:block;)+) => {
        $crate::sync::thread_local! {$($(#[$attr])* $vis static $name: $t = $init;)+}
    };
    ($($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = $init:expr;)+) => {$(
        $(#[$attr])* $vis static $name: $crate::sync::ModelLocalKey<$t> =
            $crate::sync::ModelLocalKey::new({
                fn init() -> $t {
                    $init
                }
                init
            });
    )+};
}
#[cfg(any(loom, shuttle))]
pub(crate) use model_thread_local as thread_local;

#[cfg(any(loom, shuttle))]
mod model_local;
#[cfg(any(loom, shuttle))]
pub use model_local::ModelLocalKey;

/// The panic of a checker build used outside a model of the checker it was
/// built against: the checker's own message (shuttle's "ExecutionState is
/// not set", loom's "cannot access Loom execution state") names neither
/// Drowse nor versions.
#[cfg(any(loom, shuttle))]
#[cold]
#[track_caller]
fn outside_model() -> ! {
    let (world, version, entry) = (WORLD, world::CHECKER_VERSION, MODEL_ENTRY);
    panic!(
        "drowse was built with `--cfg {world}` against {world} {version}, and was called \
         outside a {world} {version} model. Under `--cfg {world}`, every use of Drowse (and of \
         rayon over Drowse's rayon-core) must run inside {entry} of {world} {version}. If the \
         call is inside one, your crate depends on another version of {world}: cargo treats \
         each minor version as another crate, and Drowse cannot see its models; depend on \
         {world} = \"{version}\" (`cargo tree -i {world}` must show one {world} {version}.x). \
         See docs/checking.md, \"Model-checking rayon code\"."
    )
}

/// Where a model's code must run, named in [`outside_model`]'s message.
#[cfg(loom)]
const MODEL_ENTRY: &str = "`loom::model` (or `loom::model::Builder::check`)";
#[cfg(shuttle)]
const MODEL_ENTRY: &str =
    "a `shuttle::check_*` function (`check_random`, `check_pct`, `check_dfs`, ...) or `shuttle::replay`";
pub use world::{
    atomic, deque, hint, model, model_with_preemption_bound, thread, Arc, Condvar, Mutex,
    MutexGuard,
};

/// The clock that the search policy reads (`sleep/policy.rs`, to tell a
/// short sleep from a long one): `std::time::Instant` in the std world, and
/// under the checkers an `Instant` that never moves, since a checker must
/// replay the same choices. Lemma 0 of docs/proof.md shows that no budget,
/// and so no reading of the clock, changes what the protocol does to shared
/// memory.
pub(crate) use world::time;

mod per_execution;

pub mod record;

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

/// The loom series (minor version) that the `loom` feature brings in, as
/// core/Cargo.toml requires it. Cargo treats each minor version as another
/// crate: a model of another loom cannot be seen by Drowse's loom, so the
/// panic of a call outside a model names this series.
pub const LOOM_SERIES: &str = "0.7";

/// The shuttle series that the `shuttle` feature brings in (as
/// [`LOOM_SERIES`], for shuttle).
pub const SHUTTLE_SERIES: &str = "0.9";

/// The world this build runs in: `"std"`, `"loom"` or `"shuttle"`.
pub const WORLD: &str = world::NAME;

/// True under loom and shuttle. Only debug checks and examples may depend on
/// it: the protocol and pool are the same code in every world. What differs
/// between the worlds is this facade's primitives, its clock (`time`,
/// which stands still under the checkers) and three values it supplies,
/// which the pool uses the same way in every world:
/// `DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP` (32 in the std world, 1 under the
/// checkers, which lemma 0 of docs/proof.md shows loses nothing), the
/// parallelism a pool built with default settings gets (the machine's in
/// the std world, 2 under the checkers), and the seed of the victim-picking
/// random numbers (random in the std world, 0 under the checkers).
pub const IS_CHECKER: bool = world::IS_CHECKER;

/// Whether `debug_assert_shared!` evaluates its condition: with debug
/// assertions on, in the std world and under shuttle; never under loom.
///
/// Such a condition reads state that other threads write (an atomic, a
/// latch, a queue), and a release build does not read it at all. Under
/// loom the read would not be neutral: an `Acquire` load or a lock makes
/// the reading thread synchronise with the last writer, and even a
/// `Relaxed` load marks the store it returns as seen by the thread, which
/// bounds every later load of that location (coherence, and loom's
/// progress rule, docs/proof.md "Memory models"). A missing release or
/// acquire elsewhere could then pass loom in the checker profile
/// (`debug-assertions = true`) and still be a bug in release builds;
/// docs/orderings.md ("The countdown") records one that did. Under
/// shuttle every execution is sequentially consistent, so a read hides no
/// weak-memory execution and the checks stay on.
pub const DEBUG_READS_SHARED_STATE: bool = world::DEBUG_READS_SHARED_STATE;

/// `debug_assert!` for a condition that reads shared state (see
/// [`DEBUG_READS_SHARED_STATE`]): the condition is evaluated only where
/// that constant is true, so no loom execution contains a read that a
/// release build lacks. A `debug_assert!` whose condition uses only values
/// the code has already read stays a plain `debug_assert!`.
macro_rules! debug_assert_shared {
    ($($arg:tt)+) => {
        if $crate::sync::DEBUG_READS_SHARED_STATE {
            assert!($($arg)+);
        }
    };
}
pub(crate) use debug_assert_shared;

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
pub(crate) const DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP: u32 =
    world::DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP;

/// A seed for the pool's victim-picking random numbers: random in the std
/// world (a new value per call), and a constant under the checkers, whose
/// schedules must replay exactly.
pub(crate) fn random_seed() -> u64 {
    world::random_seed()
}

/// Under Miri only, a scheduling point right after a store that lets a
/// latch's owner go (a latch's decisive store, a count-down, the unlock of a
/// `LockLatch`), and again when the job that set it is done: other threads
/// run while the setter's frames are still on its stack, as when the OS
/// deschedules the setter there. Miri's scheduler preempts a thread within
/// the few basic blocks between a set and the return of its frames too
/// rarely to find what can go wrong there: the owner, seeing the set,
/// returns and frees memory that a frame of the setter still reads or holds
/// a protected reference to (issue 35; docs/checking.md, "Miri"). Nothing
/// in other builds.
#[inline(always)]
pub(crate) fn yield_after_set_under_miri() {
    // A few times: the owner may itself yield (while it searches, or on its
    // way out of a sleep) before it has returned, and each yield here gives
    // it another turn.
    #[cfg(miri)]
    for _ in 0..4 {
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod test {
    /// The series named in the outside-a-model panic are the ones
    /// core/Cargo.toml asks for.
    #[test]
    fn checker_series_match_the_manifest() {
        let manifest = include_str!("../../Cargo.toml");
        for (checker, series) in [
            ("loom", super::LOOM_SERIES),
            ("shuttle", super::SHUTTLE_SERIES),
        ] {
            let table = format!("[dependencies.{checker}]\nversion = \"{series}.");
            assert!(
                manifest.contains(&table),
                "core/Cargo.toml has no `{table}...`: update {checker}'s series in core/src/sync"
            );
        }
    }

    /// Under a checker, a call into Drowse outside a model panics with the
    /// facade's message, which names the flag, the checker's version and
    /// where the call must run (a plain panic: no model runs, so loom does
    /// not abort). The std world has no model to be outside of.
    #[test]
    #[cfg_attr(
        not(any(loom, shuttle)),
        ignore = "only the checker worlds have models"
    )]
    fn outside_a_model_the_panic_names_the_checker_and_its_version() {
        let payload = std::panic::catch_unwind(|| crate::join(|| 1, || 2))
            .expect_err("a checker build used outside a model panics");
        let message = payload
            .downcast_ref::<String>()
            .expect("the facade's panic carries a formatted message");
        let world = super::WORLD;
        let (series, entry) = if world == "loom" {
            (super::LOOM_SERIES, "`loom::model`")
        } else {
            (super::SHUTTLE_SERIES, "`shuttle::check_*`")
        };
        for part in [
            format!("built with `--cfg {world}` against {world} {series}"),
            format!("outside a {world} {series} model"),
            entry.to_owned(),
        ] {
            assert!(message.contains(&part), "{message:?} does not say {part:?}");
        }
    }

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
