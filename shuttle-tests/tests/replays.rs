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
//! and update the string. Six of them were recorded again that way on
//! 2026-11-23, when `is_blocked` moved inside the sleep mutex (its atomic
//! loads and stores had been scheduling points): those name the default
//! seed; the other four still fail with the schedules first recorded.

use drowse_models::{
    cross_pool_latch_outlives_owner_pool, cross_pool_latch_wakes_owner, install_from_outside,
    internal_job_is_found, scope_latch_wakes_owner, Config,
};
use drowse_shuttle_tests::{replay_counterexample, scenarios};

/// `sleeper_decrements`, found by `p6_counters::snapshots_while_running_4w_random` after 15 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/sleeper_decrements.patch applied"]
fn replay_sleeper_decrements() {
    let config = Config::new(4).jobs(4);
    replay_counterexample(
        "replay_sleeper_decrements",
        move || scenarios::snapshots_while_running(config),
        "
     9103cb01e7cda3a88ff5acd8ef010020006866602600688a4684420260a066a4480006a022a2
     48684684828886626a882462464624a622264288a648222a262aaa24a22a2a4248a42262646a
     2486a62482284a4aa22648484848684666484426448686448868464866888484864864444422
     2204
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
     9101970182d2d40900a0aa0a80aa00a8aaaa000000a0a0aaaaaaaa0a00aa0a80aaaaaa2a00aa
     aa2a00000aaa0a00
        ",
    );
}

/// `announce_bumps_if_even`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 54 executions (seed 15410026972173049885).
#[test]
#[ignore = "fails by design with ci/mutants.d/announce_bumps_if_even.patch applied"]
fn replay_announce_bumps_if_even() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_announce_bumps_if_even",
        move || internal_job_is_found(config),
        "
     91023faad5a8edee84c0e84f002851020000a02491244489144592a42891224551224912
        ",
    );
}

/// `no_jec_check`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 15 executions (seed 8644858294281807979).
#[test]
#[ignore = "fails by design with ci/mutants.d/no_jec_check.patch applied"]
fn replay_no_jec_check() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_no_jec_check",
        move || internal_job_is_found(config),
        "
     9102419bd5ea9ff282f9f75e800401a22001944002142582244992a24852a2245114499204
        ",
    );
}

/// `post_does_not_bump_jec`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 6 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/post_does_not_bump_jec.patch applied"]
fn replay_post_does_not_bump_jec() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_post_does_not_bump_jec",
        move || internal_job_is_found(config),
        "
     91023f91b78fdae886fb8606004450124151944448044440a2085114298992248aa42809
        ",
    );
}

/// `latch_set_without_lock`, found by `p2_latches::scope_latch_wakes_owner_2w_random` after 3 executions (seed 9851630488650705662).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_set_without_lock.patch applied"]
fn replay_latch_set_without_lock() {
    let config = Config::new(2).jobs(3);
    replay_counterexample(
        "replay_latch_set_without_lock",
        move || scope_latch_wakes_owner(config),
        "
     91028a01c2d4a1c5c6e78bd3fe0100248a840009220809a04089942451124549122992244949
     14255114459214498a22299194249212440184404280488a22009224
        ",
    );
}

/// `latch_without_sleepy`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 8 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_without_sleepy.patch applied"]
fn replay_latch_without_sleepy() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_latch_without_sleepy",
        move || cross_pool_latch_wakes_owner(config),
        "
     910262aab3c0f8de82c3fc6c00084010204912419194288010244aa2248994284aa224499448
     92a2445214499224499224
        ",
    );
}

/// `latch_set_never_wakes`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 2 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_set_never_wakes.patch applied"]
fn replay_latch_set_never_wakes() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_latch_set_never_wakes",
        move || cross_pool_latch_wakes_owner(config),
        "
     91026bf4d2fde5899ba1879e01004808a24448900008222189a2285224298a22454a24250292
     400114495114498a0229529224499200
        ",
    );
}

/// `unlocked_blocked_precheck`, found by `p1_injected_jobs::install_from_outside_2w_random` after 280 executions (seed 13641245320682460652).
#[test]
#[ignore = "fails by design with ci/mutants.d/unlocked_blocked_precheck.patch applied"]
fn replay_unlocked_blocked_precheck() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_unlocked_blocked_precheck",
        move || install_from_outside(config),
        "
     91024bf5ebece697bbc79438004442a4200114281180208a242992142989a228800008421209
     0a2401
        ",
    );
}

/// `cross_latch_no_keepalive`, found by `p2_latches::cross_pool_latch_outlives_owner_pool_1w_pct` after 2088 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/cross_latch_no_keepalive.patch applied"]
fn replay_cross_latch_no_keepalive() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_cross_latch_no_keepalive",
        move || cross_pool_latch_outlives_owner_pool(config),
        "
     91029701bfa3a7ad9afcd4936000000000009224494992244992244992248924499204010020
     2549020048922401920000204192244992240149922440002449922449120000
        ",
    );
}
