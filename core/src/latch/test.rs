//! Latch checks. Latches hold facade atomics and locks, which under loom exist
//! only inside a model, so every test runs in `crate::sync::model` (once in
//! std, every interleaving under loom, random schedules under shuttle). Keep
//! the bodies tiny.

use super::*;
use crate::sync::thread;
use std::ptr;

/// A latch pointer that a test hands to a setter thread, keeping its
/// provenance (an address cast back to a pointer would have none under
/// strict provenance).
struct LatchPointer(*const OutsideLatch<'static>);

// SAFETY: a test sends it to one setter thread, while the latch it points to
// is kept alive (and shared only through atomics and a mutex) by the owner,
// which waits for the set and joins the setter.
unsafe impl Send for LatchPointer {}

impl LatchPointer {
    /// The pointer; a method, so that a closure captures the whole (`Send`)
    /// wrapper, not its field.
    fn get(self) -> *const OutsideLatch<'static> {
        self.0
    }
}

#[test]
fn core_latch_handshake() {
    crate::sync::model(|| {
        let latch = CoreLatch::new();
        assert!(latch.get_sleepy());
        assert!(latch.fall_asleep());
        // SAFETY: `latch` is live.
        assert!(
            unsafe { CoreLatch::set(&latch) },
            "setting a SLEEPING latch asks for a wake-up"
        );
        assert!(latch.probe());
        assert!(!latch.get_sleepy(), "a set latch never gets sleepy again");
    });
}

#[test]
fn setting_an_unset_or_sleepy_latch_asks_for_no_wake_up() {
    crate::sync::model(|| {
        let unset = CoreLatch::new();
        // SAFETY: `unset` is live.
        assert!(!unsafe { CoreLatch::set(&unset) });
        assert!(unset.probe());
        assert!(!unset.fall_asleep());

        let sleepy = CoreLatch::new();
        assert!(sleepy.get_sleepy());
        // SAFETY: `sleepy` is live.
        assert!(!unsafe { CoreLatch::set(&sleepy) });
        assert!(!sleepy.fall_asleep(), "the owner's next CAS fails");
        assert!(sleepy.probe());
    });
}

#[test]
fn waking_up_returns_to_unset_unless_set() {
    crate::sync::model(|| {
        let latch = CoreLatch::new();
        assert!(latch.get_sleepy());
        assert!(latch.fall_asleep());
        latch.wake_up();
        assert!(!latch.probe());
        assert!(latch.get_sleepy(), "back to UNSET: may get sleepy again");
        assert!(latch.fall_asleep());
        // SAFETY: `latch` is live.
        assert!(unsafe { CoreLatch::set(&latch) });
        latch.wake_up();
        assert!(latch.probe(), "SET is final");
    });
}

/// The owner commits to blocking exactly when the setter is told to wake it:
/// never a block with nobody to wake it, never a wake-up for an owner that
/// stays awake.
#[test]
fn owner_blocks_exactly_when_the_setter_wakes_it() {
    crate::sync::model(|| {
        let latch = Arc::new(CoreLatch::new());
        let setter_latch = Arc::clone(&latch);
        let setter = thread::spawn(move || {
            // SAFETY: the Arc keeps the latch live.
            unsafe { CoreLatch::set(&*setter_latch) }
        });
        let would_block = latch.get_sleepy() && latch.fall_asleep();
        let must_wake = setter.join().unwrap();
        assert_eq!(would_block, must_wake);
        assert!(latch.probe());
    });
}

#[test]
fn lock_latch_wakes_its_waiter_and_resets() {
    crate::sync::model(|| {
        let latch = Arc::new(LockLatch::new());
        let setter_latch = Arc::clone(&latch);
        let setter = thread::spawn(move || setter_latch.set());
        latch.wait_and_reset();
        setter.join().unwrap();
        assert!(!*latch.is_set.lock().unwrap(), "reset for the next use");
    });
}

#[test]
fn outside_latch_is_the_threads_own_and_reused() {
    crate::sync::model(|| {
        for _ in 0..2 {
            OutsideLatch::with_current_thread(|latch| {
                // The job that would carry the latch, reduced to it: set by
                // another thread through a raw pointer, as a job's is. (A
                // pointer with a `'static` type: loom has no scoped threads.)
                let pointer = LatchPointer(ptr::from_ref(&latch).cast());
                let setter = thread::spawn(move || {
                    // SAFETY: `latch` lives on the frame below, which waits
                    // for this set and then joins this thread.
                    unsafe { Latch::set(pointer.get()) }
                });
                latch.wait_and_reset();
                setter.join().unwrap();
            });
        }
        // Both waits used this thread's one latch, which the reset left
        // unset (a set latch would let the next wait return early).
        let first = OutsideLatch::with_current_thread(|latch| Arc::clone(latch.latch));
        let second = OutsideLatch::with_current_thread(|latch| Arc::clone(latch.latch));
        assert!(Arc::ptr_eq(&first, &second), "one latch per thread");
        assert!(!*first.is_set.lock().unwrap(), "reset for the next use");
    });
}
