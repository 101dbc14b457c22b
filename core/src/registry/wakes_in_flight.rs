//! Latch wake-ups in flight: a debug check that a registry outlives every
//! thread on its way to wake one of its workers.
//!
//! A cross-pool `SpinLatch` is set by a worker of another pool. Once the
//! latch reads SET its owner may return, and the owner's pool may end and
//! free its registry, while the setter still has to wake the owner through
//! that registry's sleep state. The setter must therefore keep the registry
//! alive itself (`SpinLatch::set`). Forgetting to is a use-after-free that
//! no checker sees on its own: loom and shuttle check assertions and
//! deadlocks, not accesses to freed memory, and stable Rust has no
//! sanitizer. So under the checkers, and in debug builds of Drowse's own
//! tests, a setter records,
//! from before its swap until after its wake-up, that a wake-up of the
//! registry at that address is in flight, and a registry asserts when it is
//! dropped that none is. The setter's own reference is released after its
//! record, so in a correct protocol the assertion cannot fire.
//!
//! The record is a plain `std` mutex on purpose: it is bookkeeping, not
//! part of the protocol, and must not add scheduling points that loom or
//! shuttle would explore. It is never held across a facade operation.

use std::sync::{Mutex, MutexGuard};

/// Whether the check runs: under loom and shuttle, and in debug builds of
/// Drowse's own tests and suites (`internals`). Users' debug builds do not
/// pay for a process-wide lock on every latch set.
const ENABLED: bool =
    crate::sync::IS_CHECKER || cfg!(all(debug_assertions, any(test, feature = "internals")));

/// One entry per wake-up in flight: the address of the registry it goes
/// through.
static IN_FLIGHT: Mutex<Vec<usize>> = Mutex::new(Vec::new());

fn in_flight() -> MutexGuard<'static, Vec<usize>> {
    // Every update is one push or one swap_remove, so a panic elsewhere
    // while the lock was held cannot leave the list half-changed.
    IN_FLIGHT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A wake-up through the registry at some address, in flight until dropped.
#[must_use = "the wake-up is in flight only while the guard lives"]
pub(crate) struct WakeInFlight {
    address: Option<usize>,
}

impl WakeInFlight {
    /// Records a wake-up in flight through the registry at `address`.
    pub(crate) fn begin(address: usize) -> WakeInFlight {
        if !ENABLED {
            return WakeInFlight { address: None };
        }
        in_flight().push(address);
        WakeInFlight {
            address: Some(address),
        }
    }
}

impl Drop for WakeInFlight {
    fn drop(&mut self) {
        if let Some(address) = self.address {
            let mut in_flight = in_flight();
            if let Some(position) = in_flight.iter().position(|&a| a == address) {
                in_flight.swap_remove(position);
            }
        }
    }
}

/// Panics if a wake-up through the registry at `address` is in flight: that
/// registry is being freed under a thread that is about to use it.
pub(super) fn assert_none_in_flight(address: usize) {
    if ENABLED && in_flight().contains(&address) {
        panic!(
            "a registry is being freed while a latch setter is on its way to wake \
             one of its workers (a cross-pool latch set without keeping the owner's \
             pool alive)"
        );
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    #[cfg_attr(
        not(debug_assertions),
        ignore = "the check is off in release std builds"
    )]
    fn a_wake_in_flight_forbids_freeing_its_registry() {
        // An address no registry has: aligned allocations never sit at 1.
        let address = 1;
        assert_none_in_flight(address);
        let wake = WakeInFlight::begin(address);
        let freed = std::panic::catch_unwind(|| assert_none_in_flight(address));
        assert!(
            freed.is_err(),
            "freeing under a wake in flight must fail the check"
        );
        drop(wake);
        assert_none_in_flight(address);
    }
}
