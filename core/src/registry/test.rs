//! The registry's layout.

use super::Registry;
use crate::cache_line::has_a_cache_line_of_its_own;
use std::mem::offset_of;

#[test]
fn the_terminate_count_has_a_cache_line_of_its_own() {
    // Every spawn and every spawned job's end write it; beside
    // `thread_infos`, which every steal reads, it made a spawn flood on two
    // threads 1-6% slower across code layouts (median 3%).
    assert!(has_a_cache_line_of_its_own(
        offset_of!(Registry, terminate_count),
        |registry: &Registry| &registry.terminate_count,
    ));
}
