#![cfg(loom)]
//! Trace validation at 2 workers under loom (`docs/every-n.md`, "Trace
//! validation"): the `injected_jobs` scenario with a validator that checks
//! every recorded step of the sleep protocol against the every-N model, in
//! every execution loom explores within the bound. The records the
//! validator reads are the values the code's read-modify-writes returned,
//! which are the newest in loom's modification order, and the one plain
//! read the code records (the JEC bump's read when it writes nothing)
//! decides the step the code takes, so the abstract counters follow the
//! real ones under loom's C11 model as under SC.
//!
//! Under C++20 itself that one read is weaker: a `SeqCst` load may return a
//! word older than the newest in modification order (loom's `SeqCst` model
//! returns the newest; docs/proof.md, "Memory models"). The validator would
//! then compare its abstract counters with a stale word and report a step
//! that left the model where none did. So this check's pass is predicted
//! under loom's model only, and the error it could make under C++20 is a
//! false failure, never a missed one: every value written is still a
//! read-modify-write's own result. The shuttle runs (SC) are unaffected.

use drowse_loom_tests::trace::{report, Validation};
use drowse_loom_tests::Check;
use drowse_models::Checker;
use drowse_models::{injected_jobs, Config};

#[test]
fn injected_jobs_validated_2w_2j() {
    let config = Config::new(2).jobs(2);
    Check::new("trace", "injected_jobs_validated", config)
        .bound(1)
        .run(move || {
            let validation = Validation::start(config.workers);
            injected_jobs(config);
            // Each job is posted before the pool terminates.
            validation.finish(config.jobs);
        });
    report("injected_jobs_validated_2w_2j");
}
