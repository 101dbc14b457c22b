#![cfg(loom)]
//! Property 5: the waker takes a woken worker off the sleeping count, under
//! that worker's lock. While outside threads inject jobs (and wake the
//! worker), the main thread takes sleep snapshots with every sleep lock
//! held: the sleeping count must always equal the number of blocked
//! workers. A woken worker that decremented the count itself, after waking,
//! would be seen still counted.

use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{concurrent_injectors_keep_counts_exact, Config};

/// One injector, one snapshot, at bound 3: the snapshot can fall between
/// the wake-up and anything the woken worker does next.
#[test]
fn counts_exact_1w_1_injector() {
    let config = Config::new(1).jobs(1);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 1)
        .bound(3)
        .run(move || concurrent_injectors_keep_counts_exact(config, 1));
}

/// Two injectors (two wakers), two snapshots, at bound 2.
#[test]
fn counts_exact_1w_2_injectors() {
    let config = Config::new(1).jobs(2);
    Check::new("5", "concurrent_injectors_keep_counts_exact", config)
        .with("injectors", 2)
        .bound(2)
        .run(move || concurrent_injectors_keep_counts_exact(config, 2));
}
