#![cfg(shuttle)]
//! The counterexamples shuttle found for the seeded mutants, replayable.
//!
//! Each test replays, with `shuttle::replay` (see
//! `drowse_shuttle_tests::replay`), the shortest failing schedule found for
//! one mutant by the test that kills it in `ci/mutants.d/shuttle.tsv`. They
//! are ignored: they fail only under their mutant, and mean nothing without
//! it (a schedule is a list of thread choices; on the correct code it
//! diverges or just passes).
//!
//! ```text
//! RUSTFLAGS="--cfg shuttle --cfg drowse_mutants" DROWSE_MUTANT=latch_set_never_wakes \
//!     CARGO_TARGET_DIR=target/shuttle-mutants cargo test --profile checker -p drowse-shuttle-tests \
//!     --test replays -- --ignored --exact replay_latch_set_never_wakes
//! ```
//!
//! The full failure output of each is in
//! `docs/counterexamples/raw/shuttle-<mutant>.txt`. A schedule is only valid
//! for the code it was recorded on: after a change to `core/` that moves a
//! scheduling point, rerun the killing test and update the string.

use drowse_models::{
    cross_pool_latch_outlives_owner_pool, cross_pool_latch_wakes_owner, install_from_outside,
    internal_job_is_found, scope_latch_wakes_owner, Config,
};
use drowse_shuttle_tests::{replay, scenarios};

/// Panics unless `mutant` is the one selected: a replay without it proves
/// nothing.
fn require_mutant(mutant: &str) {
    let selected = drowse::mutant::Mutant::selected().map(|m| m.name());
    assert_eq!(
        selected,
        Some(mutant),
        "run with RUSTFLAGS=\"--cfg shuttle --cfg drowse_mutants\" DROWSE_MUTANT={mutant}"
    );
}

/// `sleeper_decrements`, found by `p6_counters::snapshots_while_running_4w_random` after 176 executions (seed 15200549188714316027).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=sleeper_decrements"]
fn replay_sleeper_decrements() {
    require_mutant("sleeper_decrements");
    let config = Config::new(4).jobs(4);
    replay(
        move || scenarios::snapshots_while_running(config),
        "
     9103bc01f3dfc8caf3d183d2bf01002220042602242220242660608428488604020486484022
     a42440826864a424a22802a4a6686a88a0aa2a6226a24aa22288646a8624224224646a864688
     424664282246844846864486686a82a28644a4844a8aaa8aa8a8444a42442aaa
        ",
    );
}

/// `snapshot_before_bump`, found by `liveness::no_self_inflicted_wakeups_from_sleep_1w_pct` after 1 executions (seed 2203387311323440849).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=snapshot_before_bump"]
fn replay_snapshot_before_bump() {
    require_mutant("snapshot_before_bump");
    let config = Config::new(1);
    replay(
        move || scenarios::no_self_inflicted_wakeups_from_sleep(config),
        "
     9101ad01d1cda5d0dea280ca1e0080aa2a00a80a00aaaaaa0a0000008082aaaaaaaaaa0080aa
     0280aaaaaaaa00a0aaaaaa0000000aaa2a0000
        ",
    );
}

/// `announce_bumps_if_even`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 54 executions (seed 15410026972173049885).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=announce_bumps_if_even"]
fn replay_announce_bumps_if_even() {
    require_mutant("announce_bumps_if_even");
    let config = Config::new(2);
    replay(
        move || internal_job_is_found(config),
        "
     91023faad5a8edee84c0e84f002851020000a02491244489144592a42891224551224912
        ",
    );
}

/// `no_jec_check`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 15 executions (seed 8644858294281807979).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=no_jec_check"]
fn replay_no_jec_check() {
    require_mutant("no_jec_check");
    let config = Config::new(2);
    replay(
        move || internal_job_is_found(config),
        "
     9102419bd5ea9ff282f9f75e800401a22001944002142582244992a24852a2245114499204
        ",
    );
}

/// `post_does_not_bump_jec`, found by `p4_internal_jobs::internal_job_is_found_2w_random` after 6 executions (seed 556255797835678611).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=post_does_not_bump_jec"]
fn replay_post_does_not_bump_jec() {
    require_mutant("post_does_not_bump_jec");
    let config = Config::new(2);
    replay(
        move || internal_job_is_found(config),
        "
     91023e9bf7a9aed2d0e0f716802490924482042189a00481004551a24851924451142501
        ",
    );
}

/// `latch_set_without_lock`, found by `p2_latches::scope_latch_wakes_owner_2w_random` after 3 executions (seed 9851630488650705662).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=latch_set_without_lock"]
fn replay_latch_set_without_lock() {
    require_mutant("latch_set_without_lock");
    let config = Config::new(2).jobs(3);
    replay(
        move || scope_latch_wakes_owner(config),
        "
     91028a01c2d4a1c5c6e78bd3fe0100248a840009220809a04089942451124549122992244949
     14255114459214498a22299194249212440184404280488a22009224
        ",
    );
}

/// `latch_without_sleepy`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 16 executions (seed 3971600022864094968).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=latch_without_sleepy"]
fn replay_latch_without_sleepy() {
    require_mutant("latch_without_sleepy");
    let config = Config::new(1);
    replay(
        move || cross_pool_latch_wakes_owner(config),
        "
     910270c0bf97d9a2b7cadb5480044aa0440180441190205182484922299124498912094a0429
     01002989222541102440800400922449
        ",
    );
}

/// `latch_set_never_wakes`, found by `p2_latches::cross_pool_latch_wakes_owner_1w_random` after 3 executions (seed 1091904136504539049).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=latch_set_never_wakes"]
fn replay_latch_set_never_wakes() {
    require_mutant("latch_set_never_wakes");
    let config = Config::new(1);
    replay(
        move || cross_pool_latch_wakes_owner(config),
        "
     91027a9b95a7edaca5a1bf1b000490100981224980a40490122549a22491a22489942451a244
     8a12254a002409220889a4044182240802044912
        ",
    );
}

/// `unlocked_blocked_precheck`, found by `p1_injected_jobs::install_from_outside_2w_random` after 280 executions (seed 13641245320682460652).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=unlocked_blocked_precheck"]
fn replay_unlocked_blocked_precheck() {
    require_mutant("unlocked_blocked_precheck");
    let config = Config::new(2);
    replay(
        move || install_from_outside(config),
        "
     91024bf5ebece697bbc79438004442a4200114281180208a242992142989a228800008421209
     0a2401
        ",
    );
}

/// `cross_latch_no_keepalive`, found by `p2_latches::cross_pool_latch_outlives_owner_pool_1w_pct` after 3891 executions (seed 15399479191812819705).
#[test]
#[ignore = "fails by design under DROWSE_MUTANT=cross_latch_no_keepalive"]
fn replay_cross_latch_no_keepalive() {
    require_mutant("cross_latch_no_keepalive");
    let config = Config::new(1);
    replay(
        move || cross_pool_latch_outlives_owner_pool(config),
        "
     9102a50188d1e0c79c9b89a51080244912000000009224494992244992244992489224491000
     00909224010020491220499204000048902449922449129024491220009224499224090000
        ",
    );
}
