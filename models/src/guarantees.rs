//! Which memory model each scenario's guarantee needs, and the only way
//! the std-world tests may run a scenario on real threads.
//!
//! A scenario is an oracle: it panics or deadlocks when the property it
//! checks is violated. Some of them predict an execution that C++20's
//! memory model (and so real hardware) does not promise, only sequential
//! consistency does: typically a worker pushes a job onto its own deque
//! and then blocks outside the pool until another worker has run it, and
//! the push's post may find the jobs event counter odd and write nothing,
//! so no idle worker need ever see the push (docs/proof.md, lemma 5 (c)).
//! Such a scenario may hang on real threads (on x86 a store followed by a
//! load of another location is the store-buffering shape), and a loom pass
//! of it rests on loom's own rules, not on C++20. Each scenario's
//! classification is argued, one line per loom check, in
//! `models/ORACLES.md`; this module is its machine-readable form.
//!
//! [`on_std_threads!`](crate::on_std_threads) runs a scenario in a std-world test and refuses, at
//! compile time, a scenario and size whose guarantee needs SC.

use crate::scenarios::Config;

/// The weakest memory model under which a scenario's prediction holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryModel {
    /// C++20's model itself: the prediction holds on real threads, under
    /// loom (which explores a subset of C++20's executions) and under
    /// shuttle (SC).
    Cpp20,
    /// Only sequential consistency: checked by shuttle; never run on real
    /// threads; a loom pass of it proves nothing about C++20.
    Sc,
}

/// The memory model the scenario `name` at size `config` needs. Every
/// scenario of this crate that takes a [`Config`] is listed
/// (`every_scenario_has_a_memory_model` checks it); an unknown name panics,
/// at compile time inside [`on_std_threads!`](crate::on_std_threads).
pub const fn memory_model(name: &str, config: Config) -> MemoryModel {
    use MemoryModel::{Cpp20, Sc};
    // Injected jobs (lemma 1), latch sets (lemma 4) and locks: C++20. The
    // scenarios that block a worker outside the pool until another worker
    // has run a job it pushed onto its own deque: SC, unless no post can
    // precede the push (the JEC is then even and the push's post bumps it:
    // lemma 5 (iii)) or the other workers are counted asleep at the push
    // (lemma 2 wakes one through its lock).
    const CPP20: &[&str] = &[
        "install_from_outside",
        "injected_jobs",
        "injected_jobs_beside_blocked_worker",
        "concurrent_injectors",
        "concurrent_injectors_keep_counts_exact",
        "counts_exact_while_injecting",
        "scope_latch_wakes_owner",
        "cross_pool_latch_wakes_owner",
        "cross_pool_latch_outlives_owner_pool",
        "snapshots_while_running",
        "shutdown_while_busy",
        "join_panic_reaches_caller",
        "no_self_inflicted_wakeups",
        "no_self_inflicted_wakeups_from_sleep",
        "nested_join_scope",
        "broadcast_to_sleeping_workers",
        "broadcast_racing_sleep",
        "cross_pool_latch_wakes_sleeping_owner",
        "lock_latch_wakes_outside_thread",
        "in_place_scope_from_outside",
        "in_place_scope_wakes_sleeping_workers",
        "current_thread_is_worker_zero",
        "spawn_fifo_from_outside",
        "spawn_fifo_to_sleeping_workers",
        "spawn_fifo_order",
        "scope_fifo_order",
        "shutdown_without_handles",
        "shutdown_on_the_building_thread_without_handles",
        "injected_jobs_into_sleeping_pool",
        "installs_one_after_another",
        // The pushing worker's job returns at once, so the pusher pops its
        // own deque before it searches or sleeps: no child can wait on a
        // worker blocked outside the pool.
        "injected_job_spawns_internal_jobs",
        // Property 9 through injected jobs only: both the posts and the
        // hand-off are a read of the counters between a `SeqCst` fence and
        // the queues (lemma 10).
        "injected_job_waits_for_another_injected_job",
        "searcher_leaves_with_an_injected_job_queued",
        // Property 10: the owner's own deque and repeated posts
        // (models/src/join_halves.rs argues each).
        "join_half_published_at_next_join",
        "join_halves_published_before_a_wait",
        "nested_join_halves_run_once",
        "oldest_half_offered_while_all_busy",
        "in_line_join_offers_a_half_after_a_steal",
    ];
    const SC: &[&str] = &[
        "internal_job_is_found",
        "internal_job_is_found_beside_sleepers",
        "internal_job_overlooked_after_own_push_pop",
        // Its oracle infers from an even JEC that the child's post will
        // bump it, which the JEC's initial value breaks; branch
        // p4-c11 repairs the oracle.
        "internal_job_after_sleepy_announcement_is_found",
        "join_latch_wakes_sleeping_owner",
        "join_latch_set_while_owner_falls_asleep",
        "scope_latch_wakes_sleeping_owner",
        "yield_runs_pending_jobs",
        // Property 9 with an internal job whose pusher blocks (lemma 5 (c)).
        "blocked_jobs_wait_for_an_injected_job",
        "blocked_scope_waits_for_installs",
        "blocked_job_waits_for_an_internal_job",
        // Property 10 on rayon-core's shape: the published half is an
        // internal job whose pusher blocks (lemma 5 (c)).
        "join_half_taken_on_a_fresh_pool",
    ];
    if str_eq(name, "join_latch_wakes_owner") {
        // With two or more jobs, `a` blocks outside the pool until the
        // stolen `b` has started: the internal-job shape.
        return if config.jobs >= 2 { Sc } else { Cpp20 };
    }
    if str_eq(name, "spawn_fifo_from_worker_beside_sleepers") {
        // The first post finds the others asleep and bumps the JEC; a
        // second may find it odd and write nothing (lemma 8 (ii)).
        return if config.jobs <= 1 { Cpp20 } else { Sc };
    }
    if contains(CPP20, name) {
        return Cpp20;
    }
    if contains(SC, name) {
        return Sc;
    }
    panic!("a scenario without a memory model: add it to guarantees::memory_model");
}

const fn contains(list: &[&str], name: &str) -> bool {
    let mut index = 0;
    while index < list.len() {
        if str_eq(list[index], name) {
            return true;
        }
        index += 1;
    }
    false
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut index = 0;
    while index < a.len() {
        if a[index] != b[index] {
            return false;
        }
        index += 1;
    }
    true
}

/// `on_std_threads!(scenario(config, args...))` runs `scenario` on real
/// threads, after a compile-time check that its guarantee holds under
/// C++20 at that size ([`memory_model`]): putting an SC-only scenario in a
/// std-thread list does not compile. `config` must be a constant
/// expression (`Config::new(2).jobs(3)`).
#[macro_export]
macro_rules! on_std_threads {
    ($scenario:ident($config:expr $(, $arg:expr)* $(,)?)) => {{
        const _: () = assert!(
            matches!(
                $crate::guarantees::memory_model(stringify!($scenario), $config),
                $crate::guarantees::MemoryModel::Cpp20
            ),
            concat!(
                "`",
                stringify!($scenario),
                "` at this size holds only under sequential consistency: it must not run on real threads (models/ORACLES.md)"
            )
        );
        $scenario($config $(, $arg)*)
    }};
}

#[cfg(test)]
mod test {
    use super::*;

    /// Every scenario function of the crate (a `pub fn` taking a `Config`
    /// first) has a memory model, so none can reach a std-thread list
    /// unclassified.
    #[test]
    fn every_scenario_has_a_memory_model() {
        let sources = [
            include_str!("scenarios.rs"),
            include_str!("latch_kinds.rs"),
            include_str!("entry_points.rs"),
            include_str!("fifo.rs"),
            include_str!("countdown.rs"),
            include_str!("blocking.rs"),
            include_str!("join_halves.rs"),
        ];
        let mut seen = 0;
        for source in sources {
            for line in source.lines() {
                let Some(rest) = line.strip_prefix("pub fn ") else {
                    continue;
                };
                let Some((name, arguments)) = rest.split_once('(') else {
                    continue;
                };
                if !arguments.starts_with("config: Config") || name == "pool_on_current_thread" {
                    continue;
                }
                // Panics for a scenario missing from `memory_model`.
                let _ = memory_model(name, Config::new(2));
                seen += 1;
            }
        }
        assert!(
            seen >= 35,
            "only {seen} scenarios found: has the scan gone stale?"
        );
    }

    #[test]
    fn the_classification_follows_the_size_where_it_depends_on_it() {
        let two = Config::new(2);
        assert_eq!(
            memory_model("join_latch_wakes_owner", two),
            MemoryModel::Cpp20
        );
        assert_eq!(
            memory_model("join_latch_wakes_owner", two.jobs(2)),
            MemoryModel::Sc
        );
        assert_eq!(
            memory_model("spawn_fifo_from_worker_beside_sleepers", two),
            MemoryModel::Cpp20
        );
        assert_eq!(
            memory_model("spawn_fifo_from_worker_beside_sleepers", two.jobs(2)),
            MemoryModel::Sc
        );
        assert_eq!(memory_model("internal_job_is_found", two), MemoryModel::Sc);
    }

    #[test]
    #[should_panic(expected = "without a memory model")]
    fn an_unknown_scenario_has_none() {
        let _ = memory_model("no_such_scenario", Config::new(1));
    }
}
