//! What Drowse's two checker suites share: scenarios written once.
//!
//! Each scenario is one execution of the real `drowse` pool, written against
//! the [`drowse::sync`] facade, so the same function runs as a plain test in
//! the std world, under every interleaving in `loom-tests/` and under random
//! and PCT schedules in `shuttle-tests/`. A scenario panics when the property
//! it checks is violated; a missed wake-up shows as a deadlock, which both
//! checkers report (loom aborts the process, shuttle panics).
//!
//! The properties, numbered as in `docs/proof.md`:
//!
//! 1. injected jobs are never stranded: [`injected_jobs`], [`install_from_outside`],
//!    [`injected_jobs_beside_blocked_worker`]; nor are broadcast jobs:
//!    [`broadcast_to_sleeping_workers`], [`broadcast_racing_sleep`];
//! 2. latch sets wake their owner: [`join_latch_wakes_owner`],
//!    [`scope_latch_wakes_owner`], [`cross_pool_latch_wakes_owner`], and the
//!    setter of a cross-pool latch keeps the owner's pool alive while it
//!    wakes it: [`cross_pool_latch_outlives_owner_pool`]; one latch kind at
//!    a time, with the owner certainly asleep on it while the pool runs, or
//!    on its way to sleep: [`latch_kinds`];
//! 3. the fences carry property 1 through JEC rollover: [`injected_jobs`]
//!    and [`injected_jobs_beside_blocked_worker`] with a narrow JEC;
//! 4. internal jobs: [`internal_job_is_found`] and, with a sleeping crowd
//!    beside one racing worker, [`internal_job_is_found_beside_sleepers`]
//!    (under SC),
//!    [`internal_job_after_sleepy_announcement_is_found`] (under C11, when
//!    the child's post must bump the JEC), and the overlook the design accepts:
//!    [`internal_job_overlooked_after_own_push_pop`];
//! 5. the waker decrements: [`concurrent_injectors_keep_counts_exact`];
//! 6. counter consistency: every scenario checks the sleep snapshot it can
//!    take, and the resting state after shutdown; [`snapshots_while_running`]
//!    takes snapshots from inside jobs and from an outside observer;
//! 7. termination: every scenario ends with `shutdown_and_snapshot`, and
//!    [`shutdown_while_busy`] ends the pool in every state; under the
//!    checkers the global pool of each execution ends with its last user
//!    ([`global_pool`]);
//! 8. nothing lost or run twice, panics reach the caller: per-job run counts
//!    in every scenario, [`join_panic_reaches_caller`];
//! 9. jobs may block: a queued job never waits while every worker not
//!    blocked in a job sleeps: [`injected_job_waits_for_another_injected_job`],
//!    [`searcher_leaves_with_an_injected_job_queued`] (under C++20), and
//!    [`blocked_jobs_wait_for_an_injected_job`],
//!    [`blocked_scope_waits_for_installs`],
//!    [`blocked_job_waits_for_an_internal_job`] (under SC: their blocked
//!    jobs include an internal one);
//! 10. private join halves: a half another worker could take is published
//!     ([`join_half_published_at_next_join`], and under SC
//!     [`join_half_taken_on_a_fresh_pool`]), every private half before its
//!     owner waits ([`join_halves_published_before_a_wait`]), a join runs
//!     in line only while its owner offers a job
//!     ([`in_line_join_offers_a_half_after_a_steal`]), and each half runs
//!     once ([`nested_join_halves_run_once`]);
//!
//! and one liveness statement: [`no_self_inflicted_wakeups`],
//! [`no_self_inflicted_wakeups_from_sleep`].
//!
//! Whether each scenario's prediction holds under C++20 or only under
//! sequential consistency, one line per loom check: `models/ORACLES.md`;
//! [`guarantees::memory_model`] says the same per scenario, and the std-world
//! tests run a scenario on real threads only through [`on_std_threads!`],
//! which refuses the SC-only ones at compile time.

pub mod blocking;
pub mod checker;
pub mod countdown;
pub mod entry_points;
pub mod fifo;
pub mod global_pool;
pub mod guarantees;
pub mod join_halves;
pub mod latch_kinds;
pub mod protocols;
pub mod scenarios;

pub use blocking::*;
pub use checker::{CheckName, Checker};
pub use countdown::*;
pub use entry_points::*;
pub use fifo::*;
pub use global_pool::*;
pub use join_halves::*;
pub use latch_kinds::*;
pub use scenarios::*;
