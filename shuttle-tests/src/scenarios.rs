//! The scenarios this suite runs, all from `drowse-models` (written once for
//! both checkers).

pub use drowse_models::{
    counts_exact_while_injecting, injected_jobs, no_self_inflicted_wakeups_from_sleep,
    snapshots_while_running, wait_until_all_asleep,
};
