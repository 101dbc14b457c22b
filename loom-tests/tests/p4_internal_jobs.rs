#![cfg(loom)]
//! Property 4 under weak memory, checked with loom (whose model is not
//! C++20's: docs/proof.md, "Memory models"; each oracle here is argued in
//! C++20 itself): internal jobs (pushed onto a worker's own deque, with no
//! fence and no final look). In both scenarios the
//! pushing worker blocks on a condvar until another worker has run its
//! child job, so a worker that goes to sleep without seeing the child
//! strands it: loom reports a deadlock.
//!
//! What protects an internal job is the JEC, and only when the post moves
//! it: a post that finds the JEC even bumps it, so a worker that got sleepy
//! before the post finds the JEC moved when it tries to join the sleeping
//! count, and one that gets sleepy after it reads the bump and so sees the
//! push (lemma 5 (a) and (b) of `docs/proof.md`). A post that finds the JEC
//! already odd writes nothing, and then under C11 nothing makes the push
//! visible to the other workers until the pusher next writes the counters
//! (lemma 5 (c) and (iii)). So a miss needs neither a narrow JEC nor
//! rollover: `internal_job_overlooked_after_own_push_pop_2w` strands the
//! child at full width.
//!
//! What loom checks here is therefore only what lemma 5 proves under C11:
//! `internal_job_after_sleepy_announcement_is_found_2w` blocks the pusher
//! only when the test's thread, after the job's post, reads an even JEC, so
//! that the child's post must bump it (consequence (iii), first half); the
//! reason that holds under C++20 itself is written beside the wait in the
//! scenario. The unconditional statement (the pusher always blocks, and the
//! child is always found) holds under sequential consistency only
//! (consequence (ii)); its check is the shuttle suite's `p4_internal_jobs`
//! (`internal_job_is_found_*`). Loom happens to pass that scenario too, but
//! only through its progress rule (the proof, "Checker coverage"), so it is
//! not run here. `p4_internal_rollover.rs` is the search at a one-bit JEC.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{
    internal_job_after_sleepy_announcement_is_found, internal_job_overlooked_after_own_push_pop,
    Config,
};

/// The child's post bumps the JEC (the test's thread read it even after the
/// job's post, and no other job is posted): the child is found by the other
/// worker, by happens-before and coherence alone (mutants `no_jec_check`,
/// `post_does_not_bump_jec`).
#[test]
fn internal_job_after_sleepy_announcement_is_found_2w() {
    let config = Config::new(2);
    Check::new(
        "4",
        "internal_job_after_sleepy_announcement_is_found",
        config,
    )
    .bound(2)
    .run(move || internal_job_after_sleepy_announcement_is_found(config));
}

/// The overlook the design accepts (lemma 5 (iii) of `docs/proof.md`): the
/// pushing worker first pushes and pops a job of its own, so a search of the
/// other worker may read that pop's "empty" after the child was pushed, and
/// the child's post need not write the counters. An expected failure (a
/// loom deadlock aborts the test binary, so run it alone):
///
/// ```text
/// RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test --profile checker \
///     -p drowse-loom-tests --test p4_internal_jobs -- --ignored --exact \
///     internal_job_overlooked_after_own_push_pop_2w --nocapture
/// ```
#[test]
#[ignore = "expected failure: the overlook the design accepts; run alone with --ignored"]
fn internal_job_overlooked_after_own_push_pop_2w() {
    let config = Config::new(2);
    Check::new("4", "internal_job_overlooked_after_own_push_pop", config)
        .bound(2)
        .run(move || internal_job_overlooked_after_own_push_pop(config));
}
