#![cfg(shuttle)]
//! Trace validation at 8 and 16 workers (`docs/every-n.md`, "Trace
//! validation"): the `injected_jobs` scenario with a validator that checks
//! every recorded step of the sleep protocol against the every-N model.
//! The scenario's own oracle (each job runs once, the pool ends at rest)
//! still holds; the validator adds that each recorded step is a transition
//! of the model enabled in the abstract state, and that the abstract
//! counters equal the real ones after it (both hold under SC, which shuttle
//! runs: `docs/every-n.md` argues each transition is what the code does).

use drowse_models::{injected_jobs, Config};
use drowse_shuttle_tests::trace::Validation;
use drowse_shuttle_tests::Check;

fn validated(config: Config) {
    let validation = Validation::start(config.workers);
    injected_jobs(config);
    // Each job is injected and posted before the pool terminates (the
    // scenario waits until every job ran): a run with fewer validated
    // steps than posts recorded too little.
    validation.finish(config.jobs);
}

#[test]
fn injected_jobs_validated_8w_4j_random() {
    let config = Config::new(8).jobs(4);
    Check::new("trace", "injected_jobs_validated", config)
        .random()
        .iterations(2000)
        .run(move || validated(config));
}

#[test]
fn injected_jobs_validated_16w_4j_pct() {
    let config = Config::new(16).jobs(4);
    Check::new("trace", "injected_jobs_validated", config)
        .pct(3)
        .iterations(1000)
        .run(move || validated(config));
}
