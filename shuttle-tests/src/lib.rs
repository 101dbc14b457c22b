//! Shuttle checks of Drowse (see `tests/`).
//!
//! The tests run the shared scenarios of `drowse-models` (one execution of the
//! real pool each) under shuttle's PCT and random schedulers, thousands of
//! times, on larger pools than loom can explore. The runner and the tests exist
//! only in the shuttle world (`RUSTFLAGS="--cfg shuttle"`); in the std and
//! loom worlds the test files compile to nothing. [`scenarios`] holds the few
//! scenarios written here (over the public API and the `drowse::sync`
//! facade, like those of `drowse-models`, where they belong).
//!
//! Shuttle is sequentially consistent: `fence` is a no-op and every load
//! reads the latest store, so these tests cannot see a missing fence (the
//! `no_inject_fence` and `no_sleep_fence` mutants survive them by design;
//! loom checks the fences). What shuttle finds is logic races: lost wake-ups
//! (reported as deadlocks), wrong counts, jobs lost or run twice.
//!
//! Every check prints one line,
//!
//! ```text
//! property=1 test=install_from_outside checker=shuttle scheduler=pct,depth=3 config=workers=4,jobs=1,jec=full iterations=2000 executions=2000 result=pass seed=... seconds=...
//! ```
//!
//! which `ci/verify` collects. On a failure it prints the same line with
//! `result=fail executions_to_failure=<n>` (after shuttle's own report: the
//! panic, the failing schedule for `shuttle::replay`) and re-raises the panic.
//!
//! Environment:
//! - `DROWSE_SHUTTLE_ITERATIONS=<n>` replaces every test's iteration count;
//! - `DROWSE_SHUTTLE_SCALE=<f>` multiplies the default counts (e.g. `10`);
//! - `DROWSE_SHUTTLE_SEED=<u64>` sets the scheduler seed, and
//!   `DROWSE_SHUTTLE_SEED=random` draws a fresh one for each test; unset,
//!   every test uses the fixed `DEFAULT_SEED`, so that CI runs are the same
//!   each time. The result line prints the seed either way; shuttle's own
//!   `SHUTTLE_RANDOM_SEED` overrides it.

pub mod scenarios;

#[cfg(shuttle)]
mod runner;

#[cfg(shuttle)]
pub use runner::*;

#[cfg(shuttle)]
pub mod trace;
