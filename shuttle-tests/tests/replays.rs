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
//! 2026-11-25, after a finder stopped reading its queue's length when nobody
//! sleeps (`Sleep::work_found`) had moved scheduling points; three of them
//! (`sleeper_decrements`, `latch_set_without_lock`,
//! `unlocked_blocked_precheck`) again on 2026-11-27, after the policy's
//! successor wake-up (`policy::finder_wakes`) had; and
//! `sleeper_decrements` once more the same day, after the successor moved
//! to after the finder's job (`Sleep::job_done`); and `sleeper_decrements`
//! and `latch_set_without_lock` again on 2026-11-28, after the hand-off (`Sleep::hand_off`) added a fence
//! and a look at the queues where the last searcher leaves while someone
//! sleeps. Each names the default seed.

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
     9103fd018abbd0f99d94f9a691010020440444646020084648a20020028a680262a0aa2a8a04
     2864044228462242a6628aa6686a624662284a2a8a468aa482282aa682aa6a68686642682828
     4282644822864428846688866468864648868648648648466866884244442266266264622664
     224422624642826624444466644466864824264622226642468806
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
     9101a70182d2d40900a0aaaa00a82a00aaaaaa0200008082aaaaaaaaaa0a00aa2a00aaaaaaaa
     0a80aaaaaa000028a8aa0200
        ",
    );
}

/// `announce_bumps_if_even`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 6 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/announce_bumps_if_even.patch applied"]
fn replay_announce_bumps_if_even() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_announce_bumps_if_even",
        move || internal_job_is_found(config),
        "
     91024691b78fdae886fb8606004450124151944448044440a2084814298992248aa428519244
     02
        ",
    );
}

/// `no_jec_check`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 26 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/no_jec_check.patch applied"]
fn replay_no_jec_check() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_no_jec_check",
        move || internal_job_is_found(config),
        "
     910247badd98bdd495f6922b00489084484904250194209000258a122589a224919228519424
     11
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
     910242e5cf85d0cea2dac8af01000492a44800844841944440a22889a4284992249122454912
        ",
    );
}

/// `latch_set_without_lock`, found by `p2_latches::scope_latch_wakes_owner_2w_random` after 6 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_set_without_lock.patch applied"]
fn replay_latch_set_without_lock() {
    let config = Config::new(2).jobs(3);
    replay_counterexample(
        "replay_latch_set_without_lock",
        move || scope_latch_wakes_owner(config),
        "
     9102b30191b78fdae886fb8606004450124151944448044440a2084814298992248aa4285192
     444aa42492a2289112258a124551a4244a24298a922449a2444924258a202490844081100542
     9048922401
        ",
    );
}

/// `latch_without_sleepy`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 2 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_without_sleepy.patch applied"]
fn replay_latch_without_sleepy() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_latch_without_sleepy",
        move || cross_pool_latch_wakes_owner(config),
        "
     91028601f4d2fde5899ba1879e01004808a24448900008222189a2285224298a22454a244552
     a24491244951120880a0248112494994480a900408820400922401
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
     91028a0182d2d40980404200244220248092289114259124298994484994444a224951224592
     12214112450110484a24498994248900240012244910
        ",
    );
}

/// `unlocked_blocked_precheck`, found by `p1_injected_jobs::install_from_outside_2w_random` after 27 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/unlocked_blocked_precheck.patch applied"]
fn replay_unlocked_blocked_precheck() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_unlocked_blocked_precheck",
        move || install_from_outside(config),
        "
     91025c84aacac08bacabc5b20180240920489004458184000992444a12485222499100451122
     21881444821229499200
        ",
    );
}

/// `cross_latch_no_keepalive`, found by `p2_latches::cross_pool_latch_outlives_owner_pool_1w_pct` after 12387 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/cross_latch_no_keepalive.patch applied"]
fn replay_cross_latch_no_keepalive() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_cross_latch_no_keepalive",
        move || cross_pool_latch_outlives_owner_pool(config),
        "
     9102ab01e0f6e4adacf4ad8d1480244992049224491200000090244992244992244912499224
     4910000052922401002449920448120000244892244992242049920408802449922449922400
     0000
        ",
    );
}
