//! rayon-core 1.13's public API, served by [Drowse](drowse).
//!
//! This crate is named `rayon-core` so that a project that uses `rayon` can
//! swap the real rayon-core for Drowse with `[patch.crates-io]` (the steps
//! are in Drowse's README, "Use it under rayon"). It adds no code of its
//! own: every item below is Drowse's, re-exported under the path that
//! rayon-core 1.13 gives it. The list is rayon-core's root module, item for
//! item, and nothing more, so that code which builds against this crate
//! also builds against the real one. `docs/api.md` maps each item, and
//! `ci/api-table` checks that none is missing.
//!
//! ```
//! fn sum(values: &[u64]) -> u64 {
//!     if values.len() <= 1024 {
//!         return values.iter().sum();
//!     }
//!     let (left, right) = values.split_at(values.len() / 2);
//!     let (a, b) = rayon_core::join(|| sum(left), || sum(right));
//!     a + b
//! }
//!
//! let values: Vec<u64> = (1..=100_000).collect();
//! let pool = rayon_core::ThreadPoolBuilder::new()
//!     .num_threads(2)
//!     .build()
//!     .unwrap();
//! assert_eq!(pool.install(|| sum(&values)), 5_000_050_000);
//! ```
//!
//! The `web_spin_lock` feature is accepted, as rayon enables it through
//! `rayon/web_spin_lock`, and has no effect: Drowse uses std's locks.

#![deny(missing_docs)]

// In the order of rayon-core 1.13's `lib.rs`.
pub use drowse::{broadcast, spawn_broadcast, BroadcastContext};
pub use drowse::{current_num_threads, current_thread_index, max_num_threads};
pub use drowse::{current_thread_has_pending_tasks, FnContext, ThreadBuilder, ThreadPool};
pub use drowse::{in_place_scope, scope, Scope};
pub use drowse::{in_place_scope_fifo, scope_fifo, ScopeFifo};
pub use drowse::{join, join_context};
pub use drowse::{spawn, spawn_fifo};
pub use drowse::{yield_local, yield_now, Yield};
pub use drowse::{ThreadPoolBuildError, ThreadPoolBuilder};

// rayon-core keeps these for code written before `ThreadPoolBuilder`.
#[allow(deprecated)]
pub use drowse::{initialize, Configuration};
