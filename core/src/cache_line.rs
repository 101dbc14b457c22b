//! Test support: whether a field has a cache line to itself.
//!
//! The pool's hottest shared atomics (`Registry::terminate_count`, the sleep
//! counters) are written by every thread many times per job. Whatever shares
//! their cache line is invalidated by each of those writes, so a read-mostly
//! field beside them costs every reader a miss (docs/performance.md, "The
//! spawn flood: false sharing"). The layout is the compiler's, so it is
//! checked here rather than assumed.

use std::mem::{align_of, size_of};

/// The cache line size these checks assume: the smallest of the targets
/// `crossbeam_utils::CachePadded` pads for on the common 64-bit CPUs.
const LINE: usize = 64;

/// Whether the field that `field` borrows, `offset` bytes into an `Outer`,
/// starts a cache line and fills it, so that no other field of any `Outer`
/// lies on that line. `field` is only there to name the field's type; it is
/// never called.
pub(crate) fn has_a_cache_line_of_its_own<Outer, Field>(
    offset: usize,
    _field: fn(&Outer) -> &Field,
) -> bool {
    align_of::<Outer>() >= LINE && offset % LINE == 0 && size_of::<Field>() >= LINE
}
