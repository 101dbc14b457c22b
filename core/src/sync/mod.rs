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
//! Each world is one file, `std.rs`, `loom.rs` or `shuttle.rs`, that
//! supplies the same names (`atomic`, `thread`, `deque`, `model`, `time`,
//! the world's constants, ...); this file picks one as `world`, re-exports
//! its names and holds what all three share. `checker.rs` holds what the
//! two checker worlds share, and `model_queue.rs` (the [`deque`] model
//! queues), `model_local.rs` (thread-locals) and `frozen_clock.rs` (a clock
//! that stands still) are theirs alone. `cell.rs` and `per_execution.rs`
//! serve every world.
//!
//! Doctests are std-world examples: rustdoc links them against the library
//! of whichever world cargo built, and under a checker they would run
//! outside a model. In a checker world, test with `cargo test --tests`.
//!
//! Nothing outside this module may mention `cfg(loom)` or `cfg(shuttle)`.

// Some items only the suites and models use (the `internals` feature makes
// this module public for them).
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

#[cfg(all(loom, shuttle))]
compile_error!("`--cfg loom` and `--cfg shuttle` select different worlds; pass only one of them");

#[cfg(not(any(loom, shuttle)))]
#[path = "std.rs"]
mod world;
#[cfg(loom)]
#[path = "loom.rs"]
mod world;
#[cfg(shuttle)]
#[path = "shuttle.rs"]
mod world;

#[cfg(any(loom, shuttle))]
mod checker;

#[cfg(any(loom, shuttle))]
pub mod model_queue;

#[cfg(any(loom, shuttle))]
mod frozen_clock;

mod cell;

pub use cell::UnsafeCell;
#[cfg(not(any(loom, shuttle)))]
pub(crate) use world::thread_local;

#[cfg(any(loom, shuttle))]
pub(crate) use checker::thread_local;

#[cfg(any(loom, shuttle))]
mod model_local;
#[cfg(any(loom, shuttle))]
pub use model_local::ModelLocalKey;

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

/// True under loom and shuttle. Only debug checks, Drowse's own tests,
/// models and benchmarks may depend on it (doc examples are std-world
/// examples: see the module's doc): the protocol and pool are the same code
/// in every world. What differs
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
/// a protected reference to (docs/checking.md, "Miri"). Nothing
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
mod test;
