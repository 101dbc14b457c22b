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

/// `sleeper_decrements`, found by `p6_counters::snapshots_while_running_4w_random` after 325 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/sleeper_decrements.patch applied"]
fn replay_sleeper_decrements() {
    let config = Config::new(4).jobs(4);
    replay_counterexample(
        "replay_sleeper_decrements",
        move || scenarios::snapshots_while_running(config),
        "
     9103e201b0b29d80d8d5e9fbef010020224244224020242268204a2046a822a48a06004a6a0a
     26a248a486a2a482082a68a6464020802a424a486884226a8a822a2a284a4a26226268242264
     2666628482662864228864864466828866664686848888446868484488844464864828268688
     86666868668686442286884282
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
     9101a80182d2d40900a0aaaa02a0aa00a8aaaa0a0000000aaaaaaaaaaa2a00a8aa00a8aaaaaa
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
     910245e0b3c4e1cbed9fd113802480a2248992044a2224422441921244420425512249519424
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
     910245e0b3c4e1cbed9fd113802480a2248992044a22244224419212444284088912498aa224
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
     910244e5cf85d0cea2dac8af01000492a44800844841944440a22889a4284992249122455192
     04
        ",
    );
}

/// `latch_set_without_lock`, found by `p2_latches::scope_latch_wakes_owner_2w_random` after 3 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_set_without_lock.patch applied"]
fn replay_latch_set_without_lock() {
    let config = Config::new(2).jobs(3);
    replay_counterexample(
        "replay_latch_set_without_lock",
        move || scope_latch_wakes_owner(config),
        "
     9102bb0190d8fdf6f0aa8eb95800081220048a22484a004849a4248aa4289114454a24455114
     2989124949a42892142949a4285122459192444a94445122291204095222258a122091a42490
     1400928408912201
        ",
    );
}

/// `latch_without_sleepy`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 64 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/latch_without_sleepy.patch applied"]
fn replay_latch_without_sleepy() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_latch_without_sleepy",
        move || cross_pool_latch_wakes_owner(config),
        "
     91028d01e0b3c4e1cbed9fd113802480a2248992044a22244224419212444284088912498aa2
     244a92248a924492922452224551244991a44852a244922449922449
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

/// `unlocked_blocked_precheck`, found by `p1_injected_jobs::install_from_outside_2w_random` after 43 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/unlocked_blocked_precheck.patch applied"]
fn replay_unlocked_blocked_precheck() {
    let config = Config::new(2);
    replay_counterexample(
        "replay_unlocked_blocked_precheck",
        move || install_from_outside(config),
        "
     91026693f7b781c7e0eacd6d004010a44481040051a204521425522245911245900244922444
     5112414a922001924492244902
        ",
    );
}

/// `cross_latch_no_keepalive`, found by `p2_latches::cross_pool_latch_outlives_owner_pool_1w_pct` after 3668 executions (seed 20261122, the default).
#[test]
#[ignore = "fails by design with ci/mutants.d/cross_latch_no_keepalive.patch applied"]
fn replay_cross_latch_no_keepalive() {
    let config = Config::new(1);
    replay_counterexample(
        "replay_cross_latch_no_keepalive",
        move || cross_pool_latch_outlives_owner_pool(config),
        "
     9102a201b1ffb189b0d2d1852b00000000004992244992244992244992449224499224491000
     005292240100244992044812000004499224499204244992000190244992244992040000
        ",
    );
}
