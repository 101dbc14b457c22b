//! The three sleep counters, packed into one atomic word.
//!
//! ```text
//!  most significant                                   least significant
//! +----------------------------+------------------+------------------+
//! | jobs event counter (JEC)   | inactive threads | sleeping threads |
//! | 32 bits (16 on 32-bit)     | 16 bits (8)      | 16 bits (8)      |
//! +----------------------------+------------------+------------------+
//! ```
//!
//! Packing them lets a sleepy thread check "the JEC has not moved" and add
//! itself to the sleeping count in one compare-and-swap, and lets a thread
//! that posts work read both thread counts in the same read that bumps the
//! JEC.
//!
//! The JEC's width is chosen when the pool is built ([`JecWidth`]), from one
//! bit up to all the bits left above the thread counts. It wraps inside its
//! own bits and is only ever compared for equality, so a narrow JEC rolls over
//! quickly: the model checkers use one to three bits to reach rollover in a
//! handful of steps, running this same code.

use crate::sync::atomic::{AtomicUsize, Ordering};
use crate::sync::record;
use std::fmt;

/// Bits for each thread count: 16 on 64-bit targets, 8 on 32-bit ones.
const THREADS_BITS: u32 = if usize::BITS >= 64 { 16 } else { 8 };
const SLEEPING_SHIFT: u32 = 0;
const INACTIVE_SHIFT: u32 = THREADS_BITS;
const JEC_SHIFT: u32 = 2 * THREADS_BITS;

/// The most threads the counters can count (65,535 on 64-bit targets).
pub(crate) const THREADS_MAX: usize = (1 << THREADS_BITS) - 1;

const ONE_SLEEPING: usize = 1 << SLEEPING_SHIFT;
const ONE_INACTIVE: usize = 1 << INACTIVE_SHIFT;

/// How many bits the jobs event counter gets.
///
/// Only the `internals` feature (the checkers' narrow counters) chooses a
/// width; in every other build the width is `MAX_BITS`, a constant, so the
/// JEC's mask folds away and the type holds nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JecWidth {
    #[cfg(feature = "internals")]
    bits: u32,
}

impl JecWidth {
    /// All bits above the thread counts: 32 on 64-bit targets, 16 on 32-bit.
    pub const MAX_BITS: u32 = usize::BITS - JEC_SHIFT;

    /// The width production pools use.
    pub const FULL: JecWidth = JecWidth {
        #[cfg(feature = "internals")]
        bits: Self::MAX_BITS,
    };

    /// A JEC of `bits` bits, or `None` unless `1 <= bits <= MAX_BITS`.
    #[cfg(feature = "internals")]
    pub const fn new(bits: u32) -> Option<JecWidth> {
        if bits >= 1 && bits <= Self::MAX_BITS {
            Some(JecWidth { bits })
        } else {
            None
        }
    }

    /// The width in bits.
    pub const fn bits(self) -> u32 {
        #[cfg(feature = "internals")]
        let bits = self.bits;
        #[cfg(not(feature = "internals"))]
        let bits = Self::MAX_BITS;
        bits
    }

    /// The JEC's bits, shifted down to bit 0.
    const fn mask(self) -> usize {
        (usize::MAX >> JEC_SHIFT) >> (Self::MAX_BITS - self.bits())
    }
}

/// A value of the jobs event counter. Even: some thread got sleepy and no job
/// has been posted since. Odd: a job was posted since the last thread got
/// sleepy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JobsEventCounter(usize);

impl JobsEventCounter {
    /// Stands for "no snapshot taken". Real values fit in `MAX_BITS` bits, so
    /// this never equals one of them.
    pub(crate) const NONE: JobsEventCounter = JobsEventCounter(usize::MAX);

    #[inline]
    pub(crate) fn is_sleepy(self) -> bool {
        self.0 & 1 == 0
    }

    #[inline]
    pub(crate) fn is_active(self) -> bool {
        !self.is_sleepy()
    }

    #[cfg_attr(not(feature = "diagnostics"), allow(dead_code))]
    pub(crate) fn value(self) -> usize {
        self.0
    }
}

/// One snapshot of the packed word.
///
/// All the bit arithmetic of the counters lives in the pure methods of this
/// value type; [`AtomicCounters`] only applies them with atomic operations.
/// Each `with_*` method checks its precondition with a `debug_assert!` and
/// returns the word after one protocol step, so that the property tests can
/// compare every step with a plain-integer model, in every world.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counters {
    word: usize,
}

impl Counters {
    /// All three counters at zero: a fresh pool.
    pub(crate) const ZERO: Counters = Counters { word: 0 };

    /// Packs the three fields. Each must fit its bits: `sleeping` and
    /// `inactive` at most [`THREADS_MAX`], `jec` at most `JecWidth::MAX_BITS`
    /// bits wide.
    #[cfg(test)]
    pub(crate) fn from_parts(sleeping: usize, inactive: usize, jec: usize) -> Counters {
        assert!(
            sleeping <= THREADS_MAX,
            "sleeping count {sleeping} does not fit"
        );
        assert!(
            inactive <= THREADS_MAX,
            "inactive count {inactive} does not fit"
        );
        assert!(
            jec <= JecWidth::FULL.mask(),
            "jobs event counter {jec} does not fit"
        );
        Counters {
            word: (sleeping << SLEEPING_SHIFT) | (inactive << INACTIVE_SHIFT) | (jec << JEC_SHIFT),
        }
    }

    #[inline]
    pub(crate) fn sleeping_threads(self) -> usize {
        (self.word >> SLEEPING_SHIFT) & THREADS_MAX
    }

    #[inline]
    pub(crate) fn inactive_threads(self) -> usize {
        (self.word >> INACTIVE_SHIFT) & THREADS_MAX
    }

    /// Threads that are looking for work and not asleep.
    #[inline]
    pub(crate) fn awake_but_idle_threads(self) -> usize {
        debug_assert!(
            self.sleeping_threads() <= self.inactive_threads(),
            "more sleeping than inactive threads: {self:?}"
        );
        self.inactive_threads() - self.sleeping_threads()
    }

    #[inline]
    pub(crate) fn jobs_counter(self) -> JobsEventCounter {
        JobsEventCounter(self.word >> JEC_SHIFT)
    }

    /// Hands these counters to the checker worlds' step recorder (trace
    /// validation; nothing in the std world).
    #[inline(always)]
    fn record(self) {
        record::counters(
            self.sleeping_threads(),
            self.inactive_threads(),
            self.jobs_counter().value(),
        );
    }

    /// One more inactive thread. [`AtomicCounters::add_inactive_thread`]
    /// applies it as `fetch_add(ONE_INACTIVE)`.
    #[inline]
    #[must_use]
    fn with_inactive_added(self) -> Counters {
        debug_assert!(
            self.inactive_threads() < THREADS_MAX,
            "inactive count overflows: {self:?}"
        );
        Counters {
            word: self.word.wrapping_add(ONE_INACTIVE),
        }
    }

    /// One fewer inactive thread. [`AtomicCounters::sub_inactive_thread`]
    /// applies it as `fetch_sub(ONE_INACTIVE)`.
    #[inline]
    #[must_use]
    fn with_inactive_removed(self) -> Counters {
        debug_assert!(
            self.inactive_threads() > 0,
            "inactive count underflows: {self:?}"
        );
        debug_assert!(
            self.sleeping_threads() <= self.inactive_threads(),
            "more sleeping than inactive threads: {self:?}"
        );
        Counters {
            word: self.word.wrapping_sub(ONE_INACTIVE),
        }
    }

    /// One more sleeping thread: an inactive one that was not yet counted as
    /// asleep. [`AtomicCounters::try_add_sleeping_thread`] applies it with a
    /// compare-and-swap.
    #[inline]
    #[must_use]
    fn with_sleeping_added(self) -> Counters {
        debug_assert!(
            self.sleeping_threads() < self.inactive_threads(),
            "a thread about to sleep must be inactive and not yet sleeping: {self:?}"
        );
        Counters {
            word: self.word.wrapping_add(ONE_SLEEPING),
        }
    }

    /// One fewer sleeping thread. [`AtomicCounters::sub_sleeping_thread`]
    /// applies it as `fetch_sub(ONE_SLEEPING)`.
    #[inline]
    #[must_use]
    fn with_sleeping_removed(self) -> Counters {
        debug_assert!(
            self.sleeping_threads() > 0,
            "sleeping count underflows: {self:?}"
        );
        debug_assert!(
            self.sleeping_threads() <= self.inactive_threads(),
            "more sleeping than inactive threads: {self:?}"
        );
        Counters {
            word: self.word.wrapping_sub(ONE_SLEEPING),
        }
    }

    /// The same counts with the JEC one higher, wrapping within `width`.
    #[inline]
    #[must_use]
    fn with_jobs_counter_bumped(self, width: JecWidth) -> Counters {
        debug_assert!(
            self.jobs_counter().0 <= width.mask(),
            "jobs event counter wider than {width:?}: {self:?}"
        );
        let threads = self.word & ((1 << JEC_SHIFT) - 1);
        let jec = (self.jobs_counter().0.wrapping_add(1)) & width.mask();
        Counters {
            word: threads | (jec << JEC_SHIFT),
        }
    }

    /// The word after a conditional bump: `Some` with the JEC bumped if
    /// `bump_when` holds for its current value, `None` otherwise.
    #[inline]
    fn with_jobs_counter_bumped_if(
        self,
        width: JecWidth,
        bump_when: impl Fn(JobsEventCounter) -> bool,
    ) -> Option<Counters> {
        bump_when(self.jobs_counter()).then(|| self.with_jobs_counter_bumped(width))
    }
}

impl fmt::Debug for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Counters")
            .field("sleeping", &self.sleeping_threads())
            .field("inactive", &self.inactive_threads())
            .field("jec", &self.jobs_counter().0)
            .finish()
    }
}

/// The packed counters of one pool. Every change is a `SeqCst`
/// read-modify-write and every load is `SeqCst` (loom treats both as
/// acquire/release; the protocol's store-load orderings come from its two
/// explicit fences). A failed compare-and-swap reads with `Relaxed`
/// ordering, which is safe because its value is thrown away:
/// `try_exchange` reports only success, and its callers load again. The
/// arithmetic is [`Counters`]'s; this type only makes it atomic.
pub(crate) struct AtomicCounters {
    word: AtomicUsize,
    jec_width: JecWidth,
}

impl AtomicCounters {
    pub(crate) fn new(jec_width: JecWidth) -> AtomicCounters {
        AtomicCounters {
            word: AtomicUsize::new(Counters::ZERO.word),
            jec_width,
        }
    }

    #[inline]
    pub(crate) fn load(&self) -> Counters {
        Counters {
            word: self.word.load(Ordering::SeqCst),
        }
    }

    #[inline]
    fn try_exchange(&self, current: Counters, new: Counters) -> bool {
        self.word
            .compare_exchange(current.word, new.word, Ordering::SeqCst, Ordering::Relaxed)
            .inspect(|_| new.record())
            .is_ok()
    }

    /// A thread starts looking for work.
    #[inline]
    pub(crate) fn add_inactive_thread(&self) {
        let before = Counters {
            word: self.word.fetch_add(ONE_INACTIVE, Ordering::SeqCst),
        };
        // The `fetch_add` stored exactly this value; computing it again runs
        // the step's debug checks on `before`.
        let _after = before.with_inactive_added();
        _after.record();
    }

    /// A thread found work. Returns the counters as they were just before,
    /// from which the search policy decides whom to wake to help.
    #[inline]
    pub(crate) fn sub_inactive_thread(&self) -> Counters {
        let before = Counters {
            word: self.word.fetch_sub(ONE_INACTIVE, Ordering::SeqCst),
        };
        // As in `add_inactive_thread`: the checks of the step just taken.
        let _after = before.with_inactive_removed();
        _after.record();
        before
    }

    /// A waker takes one thread off the sleeping count.
    #[inline]
    pub(crate) fn sub_sleeping_thread(&self) {
        let before = Counters {
            word: self.word.fetch_sub(ONE_SLEEPING, Ordering::SeqCst),
        };
        // As in `add_inactive_thread`: the checks of the step just taken.
        let _after = before.with_sleeping_removed();
        _after.record();
    }

    /// Adds one sleeping thread if the word still equals `seen`, so that the
    /// JEC is known not to have moved since `seen` was loaded.
    #[inline]
    pub(crate) fn try_add_sleeping_thread(&self, seen: Counters) -> bool {
        self.try_exchange(seen, seen.with_sleeping_added())
    }

    /// Bumps the JEC if `bump_when` holds for its current value. Returns the
    /// word before and after (equal when there was no bump).
    #[inline]
    pub(crate) fn bump_jobs_counter_if(
        &self,
        bump_when: impl Fn(JobsEventCounter) -> bool,
    ) -> (Counters, Counters) {
        loop {
            let before = self.load();
            let Some(after) = before.with_jobs_counter_bumped_if(self.jec_width, &bump_when) else {
                before.record();
                return (before, before);
            };
            if self.try_exchange(before, after) {
                return (before, after);
            }
        }
    }
}

#[cfg(test)]
mod test;
