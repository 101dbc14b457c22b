//! The counters against a plain-integer reference model (property tests over
//! the pure [`Counters`] value, so they run unchanged in every world), and a
//! few small checks of [`AtomicCounters`] inside `crate::sync::model`.

use super::*;
use crate::sync::{thread, Arc};
use proptest::prelude::*;

/// The field widths this target must have: sleeping bits 0-15, inactive bits
/// 16-31, JEC bits 32-63 on 64-bit targets; 8/8/16 on 32-bit ones.
const fn layout() -> (u32, u32, u32) {
    if usize::BITS >= 64 {
        (16, 16, 32)
    } else {
        (8, 8, 16)
    }
}

/// The word the layout prescribes, computed with `u64` arithmetic.
fn expected_word(sleeping: u64, inactive: u64, jec: u64) -> u64 {
    let (sleeping_bits, inactive_bits, _) = layout();
    sleeping | (inactive << sleeping_bits) | (jec << (sleeping_bits + inactive_bits))
}

fn threads_max() -> u64 {
    (1 << layout().0) - 1
}

fn jec_modulus(bits: u32) -> u64 {
    1 << bits
}

fn width(bits: u32) -> JecWidth {
    JecWidth::new(bits).expect("a valid width")
}

/// The counters as three plain integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Model {
    sleeping: u64,
    inactive: u64,
    jec: u64,
    jec_bits: u32,
}

#[derive(Clone, Copy, Debug)]
enum Op {
    AddInactive,
    RemoveInactive,
    AddSleeping,
    RemoveSleeping,
    /// What posting work does.
    BumpIfEven,
    /// What announcing sleepiness does.
    BumpIfOdd,
}

impl Model {
    /// Whether the protocol may take `op` from this state: counts stay in
    /// range and a sleeping thread is always an inactive one.
    fn allows(&self, op: Op) -> bool {
        match op {
            Op::AddInactive => self.inactive < threads_max(),
            Op::RemoveInactive => self.inactive > self.sleeping,
            Op::AddSleeping => self.sleeping < self.inactive,
            Op::RemoveSleeping => self.sleeping > 0,
            Op::BumpIfEven | Op::BumpIfOdd => true,
        }
    }

    /// Applies `op`; returns whether the JEC was bumped.
    fn apply(&mut self, op: Op) -> bool {
        let bump = |jec: &mut u64| *jec = (*jec + 1) % jec_modulus(self.jec_bits);
        match op {
            Op::AddInactive => self.inactive += 1,
            Op::RemoveInactive => self.inactive -= 1,
            Op::AddSleeping => self.sleeping += 1,
            Op::RemoveSleeping => self.sleeping -= 1,
            Op::BumpIfEven if self.jec % 2 == 0 => {
                bump(&mut self.jec);
                return true;
            }
            Op::BumpIfOdd if self.jec % 2 == 1 => {
                bump(&mut self.jec);
                return true;
            }
            Op::BumpIfEven | Op::BumpIfOdd => return false,
        }
        false
    }
}

/// Applies `op` to the packed value; returns the new value and whether the
/// JEC was bumped.
fn apply(counters: Counters, op: Op, width: JecWidth) -> (Counters, bool) {
    match op {
        Op::AddInactive => (counters.with_inactive_added(), false),
        Op::RemoveInactive => (counters.with_inactive_removed(), false),
        Op::AddSleeping => (counters.with_sleeping_added(), false),
        Op::RemoveSleeping => (counters.with_sleeping_removed(), false),
        Op::BumpIfEven => {
            match counters.with_jobs_counter_bumped_if(width, |jec| jec.is_sleepy()) {
                Some(after) => (after, true),
                None => (counters, false),
            }
        }
        Op::BumpIfOdd => match counters.with_jobs_counter_bumped_if(width, |jec| jec.is_active()) {
            Some(after) => (after, true),
            None => (counters, false),
        },
    }
}

fn assert_agrees(counters: Counters, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        counters.sleeping_threads() as u64,
        model.sleeping,
        "{:?}",
        counters
    );
    prop_assert_eq!(
        counters.inactive_threads() as u64,
        model.inactive,
        "{:?}",
        counters
    );
    prop_assert_eq!(
        counters.awake_but_idle_threads() as u64,
        model.inactive - model.sleeping
    );
    let jec = counters.jobs_counter();
    prop_assert_eq!(jec.value() as u64, model.jec, "{:?}", counters);
    prop_assert_eq!(jec.is_sleepy(), model.jec % 2 == 0);
    prop_assert_eq!(jec.is_active(), model.jec % 2 == 1);
    prop_assert_ne!(jec, JobsEventCounter::NONE);
    prop_assert_eq!(
        counters.word as u64,
        expected_word(model.sleeping, model.inactive, model.jec)
    );
    Ok(())
}

/// A thread count, biased towards the edges of its range.
fn thread_count() -> impl Strategy<Value = u64> {
    let max = threads_max();
    prop_oneof![
        Just(0),
        Just(1),
        Just(max - 1),
        Just(max),
        0..=4u64,
        (max - 4)..=max,
        0..=max,
    ]
}

/// A JEC width and a value of it, biased towards zero and the wrap point.
fn jec_width_and_value() -> impl Strategy<Value = (u32, u64)> {
    (1..=JecWidth::MAX_BITS).prop_flat_map(|bits| {
        let max = jec_modulus(bits) - 1;
        let value = prop_oneof![Just(0), Just(max), Just(max.saturating_sub(1)), 0..=max,];
        (Just(bits), value)
    })
}

/// A state the protocol can be in: sleeping <= inactive <= THREADS_MAX.
fn model_state() -> impl Strategy<Value = Model> {
    (thread_count(), thread_count(), jec_width_and_value()).prop_map(|(a, b, (jec_bits, jec))| {
        Model {
            sleeping: a.min(b),
            inactive: a.max(b),
            jec,
            jec_bits,
        }
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::AddInactive),
        Just(Op::RemoveInactive),
        Just(Op::AddSleeping),
        Just(Op::RemoveSleeping),
        Just(Op::BumpIfEven),
        Just(Op::BumpIfOdd),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Every step agrees with the plain-integer model on every field.
    #[test]
    fn operations_agree_with_the_model(
        start in model_state(),
        ops in prop::collection::vec(op(), 0..64),
    ) {
        let width = width(start.jec_bits);
        let mut model = start;
        let mut counters = Counters::from_parts(
            start.sleeping as usize,
            start.inactive as usize,
            start.jec as usize,
        );
        assert_agrees(counters, &model)?;
        for op in ops {
            if !model.allows(op) {
                continue;
            }
            let model_bumped = model.apply(op);
            let (after, bumped) = apply(counters, op, width);
            prop_assert_eq!(bumped, model_bumped, "{:?} on {:?}", op, counters);
            if !bumped {
                prop_assert!(
                    matches!(op, Op::AddInactive | Op::RemoveInactive | Op::AddSleeping | Op::RemoveSleeping)
                        || after == counters,
                    "a refused bump changed the word"
                );
            }
            counters = after;
            assert_agrees(counters, &model)?;
        }
    }

    /// From-parts then the accessors give the parts back, in the prescribed
    /// bit positions.
    #[test]
    fn packing_round_trips(state in model_state()) {
        let counters = Counters::from_parts(
            state.sleeping as usize,
            state.inactive as usize,
            state.jec as usize,
        );
        assert_agrees(counters, &state)?;
        let (sleeping_bits, inactive_bits, jec_bits) = layout();
        prop_assert_eq!(sleeping_bits + inactive_bits + jec_bits, usize::BITS);
        prop_assert_eq!(jec_bits, JecWidth::MAX_BITS);
    }

    /// A bump changes only the JEC's bits, whatever the thread counts (at
    /// their maximum too), and wraps to zero within its width.
    #[test]
    fn bumping_never_touches_the_thread_counts(state in model_state()) {
        let width = width(state.jec_bits);
        let before = Counters::from_parts(
            state.sleeping as usize,
            state.inactive as usize,
            state.jec as usize,
        );
        let after = before.with_jobs_counter_bumped(width);
        let thread_bits = (1usize << JEC_SHIFT) - 1;
        prop_assert_eq!(after.word & thread_bits, before.word & thread_bits);
        prop_assert_eq!(after.sleeping_threads(), before.sleeping_threads());
        prop_assert_eq!(after.inactive_threads(), before.inactive_threads());
        let expected = (state.jec + 1) % jec_modulus(state.jec_bits);
        prop_assert_eq!(after.jobs_counter().value() as u64, expected);
        prop_assert_ne!(after.jobs_counter(), before.jobs_counter());
        prop_assert_ne!(after.jobs_counter().is_sleepy(), before.jobs_counter().is_sleepy());
    }

    /// Thread-count steps never touch the JEC's bits.
    #[test]
    fn thread_steps_never_touch_the_jec(state in model_state(), op in op()) {
        prop_assume!(state.allows(op));
        prop_assume!(!matches!(op, Op::BumpIfEven | Op::BumpIfOdd));
        let before = Counters::from_parts(
            state.sleeping as usize,
            state.inactive as usize,
            state.jec as usize,
        );
        let (after, _) = apply(before, op, width(state.jec_bits));
        prop_assert_eq!(after.word >> JEC_SHIFT, before.word >> JEC_SHIFT);
    }

    /// The mask has exactly `bits` low bits set.
    #[test]
    fn jec_width_masks_exactly_its_bits(bits in 1..=JecWidth::MAX_BITS) {
        let width = width(bits);
        prop_assert_eq!(width.bits(), bits);
        prop_assert_eq!(width.mask() as u64, jec_modulus(bits) - 1);
    }
}

#[test]
fn jec_width_rejects_zero_and_too_many_bits() {
    assert_eq!(JecWidth::new(0), None);
    assert_eq!(JecWidth::new(JecWidth::MAX_BITS + 1), None);
    assert_eq!(JecWidth::new(u32::MAX), None);
    assert_eq!(JecWidth::new(1).map(JecWidth::bits), Some(1));
    assert_eq!(JecWidth::new(JecWidth::MAX_BITS), Some(JecWidth::FULL));
    assert_eq!(JecWidth::MAX_BITS, layout().2);
    assert_eq!(THREADS_MAX as u64, threads_max());
}

#[test]
fn the_none_snapshot_is_no_real_value() {
    let largest = Counters::from_parts(THREADS_MAX, THREADS_MAX, JecWidth::FULL.mask());
    assert_ne!(largest.jobs_counter(), JobsEventCounter::NONE);
    assert_eq!(Counters::ZERO.jobs_counter().value(), 0);
    assert!(Counters::ZERO.jobs_counter().is_sleepy());
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "inactive count overflows")]
fn adding_an_inactive_thread_past_the_maximum_is_caught() {
    let _ = Counters::from_parts(0, THREADS_MAX, 0).with_inactive_added();
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "inactive count underflows")]
fn removing_an_inactive_thread_below_zero_is_caught() {
    let _ = Counters::ZERO.with_inactive_removed();
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "must be inactive and not yet sleeping")]
fn sleeping_without_being_inactive_is_caught() {
    let _ = Counters::from_parts(1, 1, 0).with_sleeping_added();
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "sleeping count underflows")]
fn removing_a_sleeping_thread_below_zero_is_caught() {
    let _ = Counters::from_parts(0, 1, 0).with_sleeping_removed();
}

// `AtomicCounters` holds a facade atomic, which under loom exists only inside
// a model: these run in `crate::sync::model` (once in std, every interleaving
// under loom, 1000 random schedules under shuttle). Keep them tiny.

#[test]
fn fresh_counters_are_zero() {
    crate::sync::model(|| {
        let counters = AtomicCounters::new(JecWidth::FULL);
        let now = counters.load();
        assert_eq!(now.sleeping_threads(), 0);
        assert_eq!(now.inactive_threads(), 0);
        assert_eq!(now.jobs_counter().value(), 0);
    });
}

#[test]
fn one_worker_through_sleep_and_wake() {
    crate::sync::model(|| {
        let counters = AtomicCounters::new(width(2));
        counters.add_inactive_thread();
        // Getting sleepy with an even JEC changes nothing.
        let (before, after) = counters.bump_jobs_counter_if(JobsEventCounter::is_active);
        assert_eq!(before, after);
        let seen = counters.load();
        // A post makes it odd, so the stale snapshot cannot sleep.
        let (before, after) = counters.bump_jobs_counter_if(JobsEventCounter::is_sleepy);
        assert_eq!(
            (before.jobs_counter().value(), after.jobs_counter().value()),
            (0, 1)
        );
        assert!(!counters.try_add_sleeping_thread(seen));
        // Sleepy again (1 -> 2), then sleep from a fresh snapshot.
        let (_, after) = counters.bump_jobs_counter_if(JobsEventCounter::is_active);
        assert_eq!(after.jobs_counter().value(), 2);
        assert!(counters.try_add_sleeping_thread(after));
        let now = counters.load();
        assert_eq!((now.sleeping_threads(), now.inactive_threads()), (1, 1));
        assert_eq!(now.awake_but_idle_threads(), 0);
        counters.sub_sleeping_thread();
        let before = counters.sub_inactive_thread();
        assert_eq!(
            (before.sleeping_threads(), before.inactive_threads()),
            (0, 1)
        );
        let now = counters.load();
        assert_eq!((now.sleeping_threads(), now.inactive_threads()), (0, 0));
        assert_eq!(now.jobs_counter().value(), 2);
    });
}

#[test]
fn a_one_bit_jec_rolls_over_and_leaves_the_counts_exact() {
    crate::sync::model(|| {
        let counters = AtomicCounters::new(width(1));
        for _ in 0..3 {
            counters.add_inactive_thread();
        }
        for _ in 0..3 {
            let seen = counters.load();
            assert!(counters.try_add_sleeping_thread(seen));
        }
        let (_, odd) = counters.bump_jobs_counter_if(JobsEventCounter::is_sleepy);
        let (_, even) = counters.bump_jobs_counter_if(JobsEventCounter::is_active);
        assert_eq!(odd.jobs_counter().value(), 1);
        assert_eq!(
            even.jobs_counter().value(),
            0,
            "a one-bit JEC wraps to zero"
        );
        assert_eq!((even.sleeping_threads(), even.inactive_threads()), (3, 3));
        // A waker takes one sleeper off; the woken thread, finding work,
        // leaves the inactive count and sees the other two still asleep.
        counters.sub_sleeping_thread();
        let before = counters.sub_inactive_thread();
        assert_eq!(
            (before.sleeping_threads(), before.inactive_threads()),
            (2, 3)
        );
    });
}

#[test]
fn two_posters_bump_a_sleepy_jec_once() {
    crate::sync::model(|| {
        let counters = Arc::new(AtomicCounters::new(JecWidth::FULL));
        let other = Arc::clone(&counters);
        let poster = thread::spawn(move || {
            let (before, after) = other.bump_jobs_counter_if(JobsEventCounter::is_sleepy);
            before != after
        });
        let (before, after) = counters.bump_jobs_counter_if(JobsEventCounter::is_sleepy);
        let other_bumped = poster.join().unwrap();
        assert!(
            (before != after) != other_bumped,
            "exactly one poster bumps"
        );
        assert_eq!(counters.load().jobs_counter().value(), 1);
    });
}

/// The heart of the protocol's use of the word: a sleeper's compare-and-swap
/// and a poster's bump cannot miss each other. Either the sleeper's CAS comes
/// first and the poster sees it counted, or the bump comes first and the CAS
/// fails.
#[test]
fn a_sleeper_and_a_poster_see_each_other() {
    crate::sync::model(|| {
        let counters = Arc::new(AtomicCounters::new(JecWidth::FULL));
        counters.add_inactive_thread();
        let seen = counters.load();
        let other = Arc::clone(&counters);
        let poster = thread::spawn(move || {
            let (before, _) = other.bump_jobs_counter_if(JobsEventCounter::is_sleepy);
            before.sleeping_threads()
        });
        let slept = counters.try_add_sleeping_thread(seen);
        let sleepers_seen_by_poster = poster.join().unwrap();
        assert_eq!(slept, sleepers_seen_by_poster == 1);
        let now = counters.load();
        assert_eq!(now.sleeping_threads(), usize::from(slept));
        assert_eq!(now.jobs_counter().value(), 1);
    });
}
