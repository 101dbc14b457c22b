//! Seeded bugs ("mutants") that show each check of the protocol can fail.
//!
//! A test that cannot fail proves nothing. Every invariant the loom and
//! shuttle suites check is paired with one or more mutants below: a one-line
//! deviation at one point of the real code. A normal build compiles every
//! mutant away (`is_active` is the constant `false`). A build with
//! `RUSTFLAGS="--cfg drowse_mutants"` compiles them all in, and the
//! environment variable `DROWSE_MUTANT=<name>` selects at most one of them at
//! run time. One build therefore serves every mutant, which keeps the mutant
//! run (`ci/mutants`) to one compilation per checker.
//!
//! By hand, one mutant against the loom test that kills it (listed, for
//! every mutant and checker, in `ci/mutants.d/<checker>.tsv`):
//!
//! ```text
//! RUSTFLAGS="--cfg loom --cfg drowse_mutants" CARGO_TARGET_DIR=target/loom-mutants \
//!     DROWSE_MUTANT=no_inject_fence cargo test --profile checker -p drowse-loom-tests \
//!     --test p1_injected_jobs -- --exact injected_jobs_beside_blocked_worker_2w --nocapture
//! ```
//!
//! The same command with `RUSTFLAGS="--cfg loom"` (and without
//! `DROWSE_MUTANT`) passes. `docs/counterexamples/` has what the checkers
//! printed for each mutant, with the failing schedule explained step by step.

/// One seeded deviation from the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mutant {
    /// The injecting thread skips the `SeqCst` fence between pushing into the
    /// injector and reading the counters.
    NoInjectFence,
    /// The sleeping thread skips the `SeqCst` fence between incrementing the
    /// sleeping count and its final look at the injector.
    NoSleepFence,
    /// The sleeping thread skips its final look at the injector.
    NoFinalInjectorCheck,
    /// The woken thread decrements the sleeping count itself, after it wakes,
    /// instead of the waker doing it under the sleeper's lock.
    SleeperDecrements,
    /// Announcing sleepiness remembers the JEC from before its own bump.
    SnapshotBeforeBump,
    /// Announcing sleepiness bumps an even JEC (as posting work does), as one
    /// reading of seed 003's text has it, instead of an odd one.
    AnnounceBumpsIfEven,
    /// The sleeping thread does not compare the JEC with its snapshot.
    NoJecCheck,
    /// Setting a latch whose owner sleeps notifies without taking the owner's
    /// sleep lock.
    LatchSetWithoutLock,
    /// The latch goes straight from UNSET to SLEEPING, under the lock, with no
    /// SLEEPY announcement before it.
    LatchWithoutSleepy,
    /// The waker reads `is_blocked` without the sleeper's lock and skips the
    /// sleeper when it reads `false`.
    UnlockedBlockedPrecheck,
    /// Posting work never bumps the JEC.
    PostDoesNotBumpJec,
    /// A latch set never wakes its owner, whatever the latch state was.
    LatchSetNeverWakes,
    /// The setter of a cross-pool latch does not keep the owner's registry
    /// alive while it wakes the owner.
    CrossLatchNoKeepalive,
}

impl Mutant {
    /// Every mutant, in the order `ci/mutants` runs them.
    pub const ALL: &'static [Mutant] = &[
        Mutant::NoInjectFence,
        Mutant::NoSleepFence,
        Mutant::NoFinalInjectorCheck,
        Mutant::SleeperDecrements,
        Mutant::SnapshotBeforeBump,
        Mutant::AnnounceBumpsIfEven,
        Mutant::NoJecCheck,
        Mutant::LatchSetWithoutLock,
        Mutant::LatchWithoutSleepy,
        Mutant::UnlockedBlockedPrecheck,
        Mutant::PostDoesNotBumpJec,
        Mutant::LatchSetNeverWakes,
        Mutant::CrossLatchNoKeepalive,
    ];

    /// The name `DROWSE_MUTANT` selects this mutant by.
    pub const fn name(self) -> &'static str {
        match self {
            Mutant::NoInjectFence => "no_inject_fence",
            Mutant::NoSleepFence => "no_sleep_fence",
            Mutant::NoFinalInjectorCheck => "no_final_injector_check",
            Mutant::SleeperDecrements => "sleeper_decrements",
            Mutant::SnapshotBeforeBump => "snapshot_before_bump",
            Mutant::AnnounceBumpsIfEven => "announce_bumps_if_even",
            Mutant::NoJecCheck => "no_jec_check",
            Mutant::LatchSetWithoutLock => "latch_set_without_lock",
            Mutant::LatchWithoutSleepy => "latch_without_sleepy",
            Mutant::UnlockedBlockedPrecheck => "unlocked_blocked_precheck",
            Mutant::PostDoesNotBumpJec => "post_does_not_bump_jec",
            Mutant::LatchSetNeverWakes => "latch_set_never_wakes",
            Mutant::CrossLatchNoKeepalive => "cross_latch_no_keepalive",
        }
    }

    /// The mutant called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Mutant> {
        Mutant::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// True when this build compiled the mutants in (`--cfg drowse_mutants`).
    pub const fn compiled_in() -> bool {
        cfg!(drowse_mutants)
    }

    /// The mutant selected for this process, if any.
    ///
    /// # Panics
    /// In a `drowse_mutants` build, when `DROWSE_MUTANT` names no mutant: a
    /// typo must not make a mutant look killed or survive silently.
    pub fn selected() -> Option<Mutant> {
        selection::selected()
    }
}

/// Whether `mutant` is the one selected for this run. A constant `false` in
/// normal builds, so the deviation compiles away.
#[inline(always)]
pub(crate) fn is_active(mutant: Mutant) -> bool {
    if cfg!(drowse_mutants) {
        selection::selected() == Some(mutant)
    } else {
        false
    }
}

#[cfg(drowse_mutants)]
mod selection {
    use super::Mutant;
    use std::sync::OnceLock;

    pub(super) fn selected() -> Option<Mutant> {
        static SELECTED: OnceLock<Option<Mutant>> = OnceLock::new();
        *SELECTED.get_or_init(|| match std::env::var("DROWSE_MUTANT") {
            Ok(name) if name.is_empty() => None,
            Ok(name) => Some(Mutant::from_name(&name).unwrap_or_else(|| {
                let known: Vec<_> = Mutant::ALL.iter().map(|m| m.name()).collect();
                panic!("DROWSE_MUTANT={name:?} names no mutant; known: {known:?}")
            })),
            Err(_) => None,
        })
    }
}

#[cfg(not(drowse_mutants))]
mod selection {
    use super::Mutant;

    pub(super) fn selected() -> Option<Mutant> {
        None
    }
}

#[cfg(test)]
mod test {
    use super::Mutant;

    #[test]
    fn names_round_trip() {
        for &mutant in Mutant::ALL {
            assert_eq!(Mutant::from_name(mutant.name()), Some(mutant));
        }
        assert_eq!(Mutant::from_name("no_such_mutant"), None);
    }

    #[test]
    fn normal_builds_select_nothing() {
        if !Mutant::compiled_in() {
            assert_eq!(Mutant::selected(), None);
            assert!(!super::is_active(Mutant::NoInjectFence));
        }
    }
}
