#![cfg(shuttle)]
//! The counterexamples shuttle found for the seeded mutants, replayable.
//!
//! Each test replays, with `shuttle::replay` (see
//! `drowse_shuttle_tests::replay_counterexample`), a failing schedule found
//! for one mutant by the test that kills it in `ci/mutants.d/shuttle.tsv`
//! (named in its comment, with the seed). They are ignored: they fail only with their mutant's patch
//! (`ci/mutants.d/<mutant>.patch`) applied, and mean nothing without it (a
//! schedule is a list of thread choices; on the correct code it diverges or
//! just passes). Each has its row in `ci/mutants.d/shuttle.tsv`, so
//! `ci/mutants` (and with it `ci/run`) replays it on the mutated code and
//! requires it to fail:
//!
//! ```text
//! ci/mutants latch_set_never_wakes
//! ```
//!
//! The full failure output of each is in
//! `docs/counterexamples/raw/shuttle-<mutant>.txt`. A schedule is only valid
//! for the code it was recorded on: after a change to `core/` that moves a
//! scheduling point, the replay prints `result=diverged` (an error in
//! `ci/mutants`, not a kill); rerun the killing test with the patch applied
//! (`ci/mutants NAME` logs its failing schedule in `target/mutants-logs/`)
//! and update the string. All ten were recorded again that way on
//! 2026-11-23, after waking helpers only for queued work, the broadcast
//! queues and the workers' exit countdown had moved scheduling points; each
//! names the default seed.

use drowse_models::{
    cross_pool_latch_outlives_owner_pool, cross_pool_latch_wakes_owner, install_from_outside,
    internal_job_is_found, scope_latch_wakes_owner, Config,
};
use drowse_shuttle_tests::{replay_counterexample, scenarios};

/// `sleeper_decrements`, found by `p6_counters::snapshots_while_running_4w_random` after 149 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/sleeper_decrements.patch applied"]
fn replay_sleeper_decrements() {
    let config = Config::new(4).jobs(4);
    replay_counterexample(
        "replay_sleeper_decrements",
        move || scenarios::snapshots_while_running(config),
        "
     9103c9028abbd0f99d94f9a691010020440444646020084648a20020028a680262a0aa2a8a04
     2864044228462242a6628aa6686a624662284a2a8a468aa482282aa682aa6a68686642682828
     4282644822864428688424866668846468884466886444862866662682882246266642644464
     4642624442244664246266666666246644626224226226448484462484626824462662224288
     666626484646648628684624444686868228684642882822848802
        ",
    );
}

/// `snapshot_before_bump`, found by `liveness::no_self_inflicted_wakeups_from_sleep_1w_pct` after 1 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/snapshot_before_bump.patch applied"]
fn replay_snapshot_before_bump() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_snapshot_before_bump",
        move || scenarios::no_self_inflicted_wakeups_from_sleep(config),
        "
     9101a80182d2d40900a0aaaa00a82a00aaaaaa0200008082aaaaaaaaaa2a00a8aa00a8aaaaaa
     2a00aaaaaa0200a0a0aa0a00
        ",
    );
}

/// `announce_bumps_if_even`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 64 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/announce_bumps_if_even.patch applied"]
fn replay_announce_bumps_if_even() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_announce_bumps_if_even",
        move || internal_job_is_found(config),
        "
     910246e0b3c4e1cbed9fd113802480a2248992044a2224422441921244420425512249519424
     01
        ",
    );
}

/// `no_jec_check`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 64 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/no_jec_check.patch applied"]
fn replay_no_jec_check() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_no_jec_check",
        move || internal_job_is_found(config),
        "
     910244e0b3c4e1cbed9fd113802480a2248992044a22244224419212444284088912498aa204
        ",
    );
}

/// `post_does_not_bump_jec`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 58 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/post_does_not_bump_jec.patch applied"]
fn replay_post_does_not_bump_jec() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_post_does_not_bump_jec",
        move || internal_job_is_found(config),
        "
     910243e5cf85d0cea2dac8af01000492a44800844841944440a22889a4284992249122455192
     00
        ",
    );
}

/// `latch_set_without_lock`, found by `p2_latches::scope_latch_wakes_owner_2w_random` after 21 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_set_without_lock.patch applied"]
fn replay_latch_set_without_lock() {
    let config = Config::new(2).jobs(3);
    replay_counterexample(
        "replay_latch_set_without_lock",
        move || scope_latch_wakes_owner(config),
        "
     9102a90181dce5b3e1e6beb18b01804041a42451224110220850840892a42889a24489122591
     a4444a142591924489924489a228892225529224912448412445822225901421011009819248
     9204
        ",
    );
}

/// `latch_without_sleepy`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 22 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_without_sleepy.patch applied"]
fn replay_latch_without_sleepy() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_latch_without_sleepy",
        move || cross_pool_latch_wakes_owner(config),
        "
     9102c101bbaaeb8ae3ecdad80780244912488924041100288a222549224942204012242949a2
     2889922889a24452224991942449a42489944892222952944851104450024142224552a42811
     92240902204000244902
        ",
    );
}

/// `latch_set_never_wakes`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 1 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_set_never_wakes.patch applied"]
fn replay_latch_set_never_wakes() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_latch_set_never_wakes",
        move || cross_pool_latch_wakes_owner(config),
        "
     91028c0182d2d40980404200244220248092289114259124298994484994444a224951224592
     a22448a2280082089124255292244a2225519024000000
        ",
    );
}

/// `unlocked_blocked_precheck`, found by `p1_injected_jobs::install_from_outside_2w_random` after 6 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/unlocked_blocked_precheck.patch applied"]
fn replay_unlocked_blocked_precheck() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_unlocked_blocked_precheck",
        move || install_from_outside(config),
        "
     91025691b78fdae886fb8606004450124151944448044440a2084814298992248aa440121004
     0a920052224502
        ",
    );
}

/// `cross_latch_no_keepalive`, found by `p2_latches::cross_pool_latch_outlives_owner_pool_1w_pct` after 8737 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/cross_latch_no_keepalive.patch applied"]
fn replay_cross_latch_no_keepalive() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_cross_latch_no_keepalive",
        move || cross_pool_latch_outlives_owner_pool(config),
        "
     9102a901b0a09dc3fa86eec64b00000000009224495292244992244992244992249124499224
     0800002949920000922449122009000012244992244912902449020440922449922449920000
     00
        ",
    );
}
