//! Loom checks of Drowse (see `tests/`).
//!
//! Each test runs one scenario of `drowse-models` (one execution of the real
//! pool, written against the `drowse::sync` facade) under every interleaving
//! loom explores within a preemption bound, with loom's C11 memory model:
//! loom is the checker that sees a missing `SeqCst` fence. The runner and the
//! tests exist only in the loom world (`RUSTFLAGS="--cfg loom"`); in the std
//! and shuttle worlds every test file compiles to nothing.
//!
//! A missed wake-up shows as a loom deadlock, and a loom deadlock aborts the
//! whole test binary (the unwinding panics again while other model threads
//! are alive), so every property has its own test binary, and every run that
//! is expected to fail (the seeded mutants, the counterexample the design
//! accepts) runs in its own process.
//!
//! Every check prints one line,
//!
//! ```text
//! property=1 test=install_from_outside checker=loom config=workers=2,jobs=1,jec=full bound=3 executions=1029917 result=pass seconds=65.1
//! ```
//!
//! which `ci/verify` collects. On a failure the panic hook prints the same
//! line with `result=fail executions_to_failure=<n>` right after loom's own
//! report (the panic message; for a deadlock, the blocked threads), before
//! the process unwinds or aborts.
//!
//! Environment:
//! - `LOOM_MAX_PREEMPTIONS=<n>` replaces every test's preemption bound;
//! - `LOOM_LOCATION=1` makes loom's reports name source locations (slow);
//! - the other `LOOM_*` variables of `loom::model::Builder` apply as usual.

#[cfg(loom)]
mod runner;

#[cfg(loom)]
pub use runner::*;

/// The trace validator's glue, shared with the shuttle suite (one source:
/// `shuttle-tests/src/trace.rs`).
#[cfg(loom)]
#[path = "../../shuttle-tests/src/trace.rs"]
pub mod trace;
