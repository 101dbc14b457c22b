//! `ci/prove`: proves the model's properties for every `N` by checking the
//! inductive invariant of `model::invariant` with z3, or (`--mutants`) refutes each expressible seeded mutant with a
//! counterexample printed step by step.

use drowse_every_n::explicit;
use drowse_every_n::liveness;
use drowse_every_n::model::join_halves::{self, JoinMutant};
use drowse_every_n::model::{invariant, latches, Clause, Model, Mutant, Property, Width};
use drowse_every_n::smt::{self, Trace};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: ci/prove [--mutants] [--property P]
  (no option)   prove every property of docs/every-n.md for every N, at the
                full JEC width and at every width (rollover), the latch
                model's and the join-halves model's
  --mutants     for each seeded mutant the model expresses, find and print a
                counterexample; fails if one is not refuted
  --property P  only property P
  --mutant M    only mutant M";

/// The pool sizes searched for a mutant's counterexample, smallest first.
const MAX_N: i64 = 3;
/// The pool sizes searched in the latch model: its mutants are refuted at
/// N = 1 or 2, and a state there is 150 integers (144 worker classes), so
/// the control stops where the mutants do.
const LATCH_MAX_N: i64 = 2;
/// The pool sizes searched in the join-halves model: its mutants are
/// refuted at N = 1 or 2.
const JOIN_MAX_N: i64 = 2;
/// The pool sizes searched for a weakly fair run that never takes a job
/// (`liveness::find_lasso`): the liveness mutant loops at N = 1.
const LIVENESS_MAX_N: i64 = 2;
/// The pool sizes a mutant that is correct under SC is searched at.
const SAFE_SIZES: i64 = 2;
/// The most jobs of one kind queued, posts or wake-ups in flight a search
/// explores (a counterexample needs one job and the wake-ups it makes).
const CAP: i64 = 2;
/// The most states one search explores.
const MAX_STATES: usize = 20_000_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut mutants = false;
    let mut only: Option<String> = None;
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--property" => only = args.next(),
            "--mutants" => mutants = true,
            "--mutant" => {
                mutants = true;
                only = args.next();
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let ok = if mutants {
        refute_mutants(only.as_deref())
    } else {
        prove_all(only.as_deref())
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn prove_all(only: Option<&str>) -> bool {
    let mut ok = true;
    for (width, label) in [
        (Width::Full, "full JEC width"),
        (Width::Any, "every JEC width >= 1"),
    ] {
        let model = Model::new(width, None);
        let properties: Vec<&Property> = selected(&model, only)
            .into_iter()
            .filter(|p| width == Width::Full || p.name != "no_internal_job_stranded")
            .collect();
        let note = (width == Width::Any).then_some(
            "no_internal_job_stranded: not proved at narrow widths (rollover; docs/every-n.md)",
        );
        ok &= prove_invariant(&model, &invariant(width), &properties, label, note);
    }
    // The latch model (`model::latches`) and the join-halves model
    // (`model::join_halves`), where `only` names one of their properties.
    for (model, invariant, label) in [
        (latches::model(None), latches::invariant(), "latch model"),
        (
            join_halves::model(None),
            join_halves::invariant(),
            "join-halves model, before terminate",
        ),
    ] {
        let properties = selected(&model, only);
        if !properties.is_empty() {
            ok &= prove_invariant(&model, &invariant, &properties, label, None);
        }
    }
    ok &= prove_liveness(only);
    ok
}

/// The properties of `model` that `only` names (all of them without it).
fn selected<'a>(model: &'a Model, only: Option<&str>) -> Vec<&'a Property> {
    model
        .properties
        .iter()
        .filter(|p| only.map_or(true, |name| name == p.name))
        .collect()
}

/// Proves `properties` of `model` for every `N` by its inductive
/// `invariant` (`smt::check_invariant`) and prints, under `label`, each
/// property that holds, `note`, the proof's size and its vacuity check, or
/// the obligation that failed; false unless it holds and is not vacuous.
fn prove_invariant(
    model: &Model,
    invariant: &[Clause],
    properties: &[&Property],
    label: &str,
    note: Option<&str>,
) -> bool {
    let start = Instant::now();
    match smt::check_invariant(model, invariant, properties) {
        Ok(Ok(queries)) => {
            for p in properties {
                println!("{} holds for every N ({label})", p.name);
            }
            if let Some(note) = note {
                println!("{note}");
            }
            println!(
                "  ({label}: {} clauses, {} transitions, {queries} unsat queries, {:.1} s)",
                invariant.len(),
                model.transitions.len(),
                start.elapsed().as_secs_f64()
            );
            report_vacuity(model, invariant, properties, label)
        }
        Ok(Err(failure)) => {
            report_failure(label, &failure);
            false
        }
        Err(e) => {
            println!("could not run z3: {e}");
            false
        }
    }
}

/// Liveness (`liveness::check`), for every `N`, with its vacuity check: a
/// job queued beside an inactive worker is taken (before terminate), and
/// an inactive worker leaves after terminate (the full model).
fn prove_liveness(only: Option<&str>) -> bool {
    let mut ok = true;
    for (property, model, label) in [
        (
            liveness::queued_job_is_taken(),
            Model::before_terminate(None),
            "full JEC width, before terminate, weak fairness",
        ),
        (
            liveness::searcher_leaves_after_terminate(),
            Model::new(Width::Full, None),
            "full JEC width, after terminate, weak fairness",
        ),
    ] {
        if only.is_some_and(|name| name != property.name) {
            continue;
        }
        ok &= prove_response(&property, &model, label);
    }
    ok
}

fn prove_response(property: &liveness::Response, model: &Model, label: &str) -> bool {
    let name = property.name;
    let start = Instant::now();
    match liveness::check(model, property) {
        Ok(Ok(report)) => {
            println!("{name} holds for every N ({label})");
            println!(
                "  ({name}: {} options of ranks 1 to {}, {} strengthening clause(s), {} unsat queries, {:.1} s)",
                report.steps.len(),
                report.steps.iter().map(|s| s.1).max().unwrap_or(0),
                property.strengthening.len(),
                report.queries,
                start.elapsed().as_secs_f64()
            );
            let mut ok = report.region_satisfiable;
            println!(
                "  vacuity ({name}): region satisfiable, also with N >= 1000: {}",
                yes(report.region_satisfiable)
            );
            for ((option, rank, steps), (_, sat)) in
                report.steps.iter().zip(&report.options_satisfiable)
            {
                ok &= *sat && *steps > 0;
                println!(
                    "  vacuity ({name}): rank {rank} \"{option}\": holds in some state of the region: {}, its steps: {steps}",
                    yes(*sat)
                );
            }
            if !ok {
                println!("  VACUOUS ({name}): the proof above proves nothing");
            }
            ok
        }
        Ok(Err(failure)) => {
            report_failure(name, &failure);
            false
        }
        Err(e) => {
            println!("could not run z3: {e}");
            false
        }
    }
}

/// A mutant that keeps every safety property and breaks liveness only
/// (`Mutant::breaks_liveness_only`): the invariant still checks, the
/// liveness check fails, and a weakly fair run at a concrete `N` loops
/// forever with a job queued and none taken.
fn refute_liveness(m: Mutant) -> bool {
    let model = Model::before_terminate(Some(m));
    let mut ok = true;
    let all: Vec<&Property> = model.properties.iter().collect();
    match smt::check_invariant(&model, &invariant(Width::Full), &all) {
        Ok(Ok(_)) => println!("{m}: every safety property still holds for every N (liveness only)"),
        Ok(Err(f)) => {
            println!(
                "{m}: expected to keep the safety properties, but {}",
                f.obligation
            );
            ok = false;
        }
        Err(e) => {
            println!("could not run z3: {e}");
            return false;
        }
    }
    match liveness::check(&model, &liveness::queued_job_is_taken()) {
        Ok(Ok(_)) => {
            println!("{m}: the liveness check still passes on the mutant");
            ok = false;
        }
        Ok(Err(f)) => println!("{m}: breaks {}", f.obligation),
        Err(e) => {
            println!("could not run z3: {e}");
            return false;
        }
    }
    for n in 1..=LIVENESS_MAX_N {
        let start = Instant::now();
        if let Some(lasso) = liveness::find_lasso(&model, n, CAP) {
            println!(
                "{m}: refuted at N = {n}: a weakly fair run that never takes the queued job ({} steps, then a cycle of {}; {:.1} s):",
                lasso.cycle_from,
                lasso.trace.steps.len() - lasso.cycle_from,
                start.elapsed().as_secs_f64()
            );
            print_trace(&model, &lasso.trace);
            println!("  (the cycle starts after step {})", lasso.cycle_from);
            if let Err(why) = smt::replay(&model, &lasso.trace) {
                println!("{m}: the run does not replay on the model: {why}");
                ok = false;
            }
            return ok;
        }
    }
    println!("{m}: no weakly fair run without a take found up to N = {LIVENESS_MAX_N}");
    false
}

fn report_failure(label: &str, failure: &smt::Failure) {
    println!("FAILED ({label}): {}", failure.obligation);
    let state: Vec<String> = failure
        .state
        .iter()
        .filter(|(_, &v)| v != 0)
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    println!("  in the state {}", state.join(" "));
}

/// Prints the vacuity check of a proof (`smt::vacuity`); false when the
/// proof would be vacuous: an unsatisfiable invariant (also at `N >= 1000`)
/// or a property whose bad states do not exist.
fn report_vacuity(
    model: &Model,
    invariant: &[Clause],
    properties: &[&Property],
    label: &str,
) -> bool {
    let v = match smt::vacuity(model, invariant, properties) {
        Ok(v) => v,
        Err(e) => {
            println!("could not run z3 for the vacuity check: {e}");
            return false;
        }
    };
    let mut ok = v.invariant_satisfiable && v.invariant_satisfiable_large_n;
    println!(
        "  vacuity ({label}): invariant satisfiable: {}, also with N >= 1000: {}",
        yes(v.invariant_satisfiable),
        yes(v.invariant_satisfiable_large_n)
    );
    for (name, sat) in &v.bad_satisfiable {
        ok &= *sat;
        println!(
            "  vacuity ({label}): bad states of {name} exist: {}",
            yes(*sat)
        );
    }
    println!(
        "  vacuity ({label}): {} of {} transitions enabled in some state the invariant allows; dead: {}",
        v.transitions - v.dead.len(),
        v.transitions,
        v.dead.len()
    );
    // Listed one by one when few; otherwise by reason, with the first of
    // each (the latch model's are the copies of a step in every class the
    // invariant rules out).
    if v.dead.len() <= 10 {
        for (name, why) in &v.dead {
            if why.is_empty() {
                println!("    dead: {name} (its guard contradicts the invariant's clauses together, or itself)");
            } else {
                println!("    dead: {name} (needs: {})", why.join(", "));
            }
        }
    } else {
        let mut reasons: Vec<(&Vec<&str>, Vec<&str>)> = Vec::new();
        for (name, why) in &v.dead {
            match reasons.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(name),
                None => reasons.push((why, vec![name])),
            }
        }
        for (why, names) in reasons {
            let needs = if why.is_empty() {
                "more than one clause".to_string()
            } else {
                why.join(", ")
            };
            println!(
                "    dead: {} transitions (needs: {needs}), e.g. {}",
                names.len(),
                names[0]
            );
        }
    }
    if !ok {
        println!("  VACUOUS ({label}): the proof above proves nothing");
    }
    ok
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}

fn refute_mutants(only: Option<&str>) -> bool {
    let patches = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/mutants.d");
    let mut ok = true;
    if only.is_none() {
        // The control: the same search on each model without a mutant finds
        // nothing (the proofs say so for every N; this checks the search).
        // Up to the largest size a mutant of that model is searched at: a
        // mutant refuted at N = 3 is refuted by a search that finds nothing
        // there without it.
        for (model, label, max_n) in [
            (Model::new(Width::Full, None), "unmutated model", MAX_N),
            (latches::model(None), "unmutated latch model", LATCH_MAX_N),
            (
                join_halves::model(None),
                "unmutated join-halves model",
                JOIN_MAX_N,
            ),
        ] {
            let all: Vec<&Property> = model.properties.iter().collect();
            for n in 1..=max_n {
                let start = Instant::now();
                match explicit::search(&model, &all, n, CAP, MAX_STATES) {
                    explicit::Outcome::Safe { states, depth, .. } => println!(
                        "{label}: no bad state among the {states} reachable at N = {n} (runs up to {depth} steps; {:.1} s)",
                        start.elapsed().as_secs_f64()
                    ),
                    explicit::Outcome::Found(trace) => {
                        println!("{label}: reaches a bad state at N = {n}:");
                        print_trace(&model, &trace);
                        ok = false;
                    }
                    explicit::Outcome::TooBig { states } => {
                        println!("{label}: N = {n}: search stopped after {states} states");
                    }
                }
            }
        }
    }
    if only.is_none() {
        // The liveness control: no weakly fair run without a take.
        let model = Model::before_terminate(None);
        for n in 1..=LIVENESS_MAX_N {
            let start = Instant::now();
            match liveness::find_lasso(&model, n, CAP) {
                None => println!(
                    "unmutated model: no weakly fair run that never takes a queued job at N = {n} ({:.1} s)",
                    start.elapsed().as_secs_f64()
                ),
                Some(lasso) => {
                    println!("unmutated model: a weakly fair run never takes a queued job at N = {n}:");
                    print_trace(&model, &lasso.trace);
                    ok = false;
                }
            }
        }
    }
    for m in Mutant::ALL {
        if only.is_some_and(|name| name != m.name()) {
            continue;
        }
        if !patches.join(format!("{}.patch", m.name())).is_file() {
            println!("{m}: no ci/mutants.d/{m}.patch");
            ok = false;
            continue;
        }
        if m.breaks_liveness_only() {
            ok &= refute_liveness(m);
        } else if m.in_main_model() {
            ok &= refute_in_main_model(m);
        }
        if m.in_latch_model() {
            ok &= refute_in_latch_model(m);
        }
    }
    for m in JoinMutant::ALL {
        if only.is_some_and(|name| name != m.name()) {
            continue;
        }
        if !patches.join(format!("{}.patch", m.name())).is_file() {
            println!("{m}: no ci/mutants.d/{m}.patch");
            ok = false;
            continue;
        }
        ok &= refute_in_join_model(m);
    }
    ok
}

/// A mutant in the join-halves model (`model::join_halves`): the invariant
/// breaks, and the smallest pool has a run to a state a property forbids.
fn refute_in_join_model(m: JoinMutant) -> bool {
    let model = join_halves::model(Some(m));
    let invariant = join_halves::invariant();
    let target = [join_halves::target(m)];
    let label = " (join-halves model)";
    refute_in_side_model(m, &model, &invariant, &target, label, JOIN_MAX_N)
}

/// A mutant in the latch model or the join-halves model, `model` with the
/// mutant: the proof's `invariant` breaks, and the smallest pool up to
/// `max_n` has a run to a state one of the properties named `target`
/// forbids; prints both under `label`.
fn refute_in_side_model(
    m: impl std::fmt::Display + Copy,
    model: &Model,
    invariant: &[Clause],
    target: &[&str],
    label: &str,
    max_n: i64,
) -> bool {
    let mut ok = invariant_breaks(m, model, invariant, label);
    let start = Instant::now();
    let target: Vec<&Property> = model
        .properties
        .iter()
        .filter(|p| target.contains(&p.name))
        .collect();
    match search_smallest(model, &target, max_n) {
        Some(trace) => ok &= report_refutation(m, model, &trace, label, start),
        None => {
            ok = false;
            println!("{m}{label}: NOT refuted (no bad state at N = 1..={max_n})");
        }
    }
    ok
}

/// Whether the invariant breaks on the mutant model (it must: the proof
/// would otherwise say nothing against the mutant); prints the obligation.
fn invariant_breaks(
    m: impl std::fmt::Display,
    model: &Model,
    invariant: &[Clause],
    label: &str,
) -> bool {
    let all: Vec<&Property> = model.properties.iter().collect();
    match smt::check_invariant(model, invariant, &all) {
        Ok(Ok(_)) => {
            println!("{m}{label}: the invariant still checks on the mutant");
            false
        }
        // A mutant changes what the protocol does, never how many
        // workers there are: a broken `pool_size` is a broken model.
        Ok(Err(f)) if f.obligation.contains("of pool_size ") => {
            println!(
                "{m}{label}: the mutant model loses or makes workers: {}",
                f.obligation
            );
            false
        }
        Ok(Err(f)) => {
            println!("{m}{label}: the invariant breaks: {}", f.obligation);
            true
        }
        Err(e) => {
            println!("{m}{label}: z3: {e}");
            true
        }
    }
}

/// The smallest pool with a run of `model` to a state `target` forbids, the
/// shortest run in it.
fn search_smallest(model: &Model, target: &[&Property], max_n: i64) -> Option<Trace> {
    (1..=max_n).find_map(
        |n| match explicit::search(model, target, n, CAP, MAX_STATES) {
            explicit::Outcome::Found(trace) => Some(trace),
            explicit::Outcome::Safe { states, depth, .. } => {
                println!(
                    "  (N = {n}: no bad state among {states} states, runs up to {depth} steps)"
                );
                None
            }
            explicit::Outcome::TooBig { states } => {
                println!("  (N = {n}: search stopped after {states} states)");
                None
            }
        },
    )
}

/// Prints a mutant's counterexample; false unless it ends in a bad state
/// and replays on the model.
fn report_refutation(
    m: impl std::fmt::Display,
    model: &Model,
    trace: &Trace,
    label: &str,
    start: Instant,
) -> bool {
    let last = trace.states.last().unwrap();
    let env = |v: &str| last[v];
    let broken: Vec<&str> = model
        .properties
        .iter()
        .filter(|p| p.bad.iter().any(|c| c.iter().all(|a| a.holds(&env))))
        .map(|p| p.name)
        .collect();
    println!(
        "{m}{label}: refuted at N = {}, {} steps ({:.1} s); breaks {}",
        last[drowse_every_n::model::N],
        trace.steps.len(),
        start.elapsed().as_secs_f64(),
        broken.join(", ")
    );
    let mut ok = true;
    if broken.is_empty() {
        println!("  the run ends in no state a property forbids");
        ok = false;
    }
    if let Err(e) = smt::replay(model, trace) {
        println!("  the trace is not a run of the model: {e}");
        ok = false;
    }
    print_trace(model, trace);
    ok
}

fn refute_in_main_model(m: Mutant) -> bool {
    let mut ok = true;
    // The latch mutants need the terminate latch; the others are
    // searched for before terminate, in the smaller sliced model.
    let model = match m {
        Mutant::LatchSetNeverWakes
        | Mutant::OnceLatchSetNeverWakes
        | Mutant::LatchWithoutSleepy => Model::new(Width::Full, Some(m)),
        _ => Model::before_terminate(Some(m)),
    };
    // A crowd of eight sleepers is what the three-bit count misreads.
    let n = if m == Mutant::WakeCountThreeBits {
        8
    } else {
        2
    };
    let all: Vec<&Property> = model.properties.iter().collect();
    // The run searched for ends where the code hangs: for a latch
    // mutant, an owner blocked on its set latch with no wake-up owed
    // (the shortest run to any bad state stops earlier, at the owner
    // holding its lock on a set latch, `set_latch_never_slept_on`).
    let target: Vec<&Property> = match m {
        Mutant::LatchSetNeverWakes
        | Mutant::OnceLatchSetNeverWakes
        | Mutant::LatchWithoutSleepy => model
            .properties
            .iter()
            .filter(|p| p.name == "set_latch_wakes_blocked_owner")
            .collect(),
        _ => all.clone(),
    };
    // The proof's invariant must not survive the mutant either.
    ok &= invariant_breaks(m, &model, &invariant(Width::Full), "");
    // A terminate latch that never wakes its owner also leaves a sleeper
    // that never leaves after terminate: the termination ranking must fail
    // on it (the check shown able to fail).
    if m == Mutant::OnceLatchSetNeverWakes {
        let property = liveness::searcher_leaves_after_terminate();
        match liveness::check(&Model::new(Width::Full, Some(m)), &property) {
            Ok(Ok(_)) => {
                println!("{m}: {} still checks on the mutant", property.name);
                ok = false;
            }
            Ok(Err(f)) => println!("{m}: {} breaks: {}", property.name, f.obligation),
            Err(e) => {
                println!("could not run z3: {e}");
                ok = false;
            }
        }
    }
    let start = Instant::now();
    if !m.breaks_sc() {
        // Correct under SC (`Mutant::breaks_sc`): the search must find
        // nothing; it covers every state reachable at the small sizes.
        for n in 1..=SAFE_SIZES {
            match explicit::search(&model, &all, n, CAP, MAX_STATES) {
                explicit::Outcome::Safe {
                    states,
                    depth,
                    capped,
                } => println!(
                    "{m}: correct under SC: no bad state among the {states} reachable at N = {n} (runs up to {depth} steps{}; {:.1} s)",
                    if capped { format!(", queues and wake-ups capped at {CAP}") } else { String::new() },
                    start.elapsed().as_secs_f64()
                ),
                explicit::Outcome::Found(trace) => {
                    println!("{m}: expected correct under SC, but reaches a bad state at N = {n}:");
                    print_trace(&model, &trace);
                    ok = false;
                }
                explicit::Outcome::TooBig { states } => {
                    println!("{m}: N = {n}: search stopped after {states} states");
                }
            }
        }
        return ok;
    }
    let found = match schedule(m) {
        // A run too long for the search is given as the transitions it
        // takes; the model decides whether each is enabled, and the end
        // state must be bad.
        Some(names) => smt::follow(&model, &names, n).map(|run| match run {
            Ok(trace) => Some(trace),
            Err(why) => {
                println!("{m}: the given run is not a run of the mutant model: {why}");
                None
            }
        }),
        // The smallest pool with a counterexample, the shortest run in it.
        None => Ok(search_smallest(&model, &target, MAX_N)),
    };
    match found {
        Ok(Some(trace)) => ok &= report_refutation(m, &model, &trace, "", start),
        Ok(None) => {
            ok = false;
            println!("{m}: NOT refuted (no bad state at N = 1..={MAX_N} within the caps)");
        }
        Err(e) => {
            ok = false;
            println!("{m}: z3: {e}");
        }
    }
    ok
}

/// A mutant in the latch model (`model::latches`): the invariant breaks,
/// and the smallest pool has a run to the state where the code hangs.
fn refute_in_latch_model(m: Mutant) -> bool {
    let model = latches::model(Some(m));
    let invariant = latches::invariant();
    let label = " (latch model)";
    refute_in_side_model(
        m,
        &model,
        &invariant,
        latches::target(m),
        label,
        LATCH_MAX_N,
    )
}

fn print_trace(model: &Model, trace: &Trace) {
    let nonzero = |s: &std::collections::BTreeMap<String, i64>| {
        s.iter()
            .filter(|(_, &v)| v != 0)
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("  start: {}", nonzero(&trace.states[0]));
    for (j, step) in trace.steps.iter().enumerate() {
        let (before, after) = (&trace.states[j], &trace.states[j + 1]);
        let changes: Vec<String> = after
            .iter()
            .filter(|(k, v)| before[*k] != **v)
            .map(|(k, v)| format!("{k} {}->{v}", before[k]))
            .collect();
        println!(
            "  {:>2}. {}: {}",
            j + 1,
            model.transitions[step.transition].name,
            changes.join(", ")
        );
    }
    println!("  end: {}", nonzero(trace.states.last().unwrap()));
}

/// The run that refutes `m` when the explicit search cannot reach it in
/// reasonable time: eight workers must fall asleep one by one (six steps
/// each) before the three-bit count reads the crowd as nobody.
fn schedule(m: Mutant) -> Option<Vec<String>> {
    if m != Mutant::WakeCountThreeBits {
        return None;
    }
    let one_sleeper = [
        "Sleep::start_looking",
        "Sleep::announce_sleepy [JEC even: no write]",
        "last round finds nothing; CoreLatch::get_sleepy [sleepy_cur]",
        "Sleep::sleep: lock; CoreLatch::fall_asleep [drowsy_cur, latch u]",
        "Sleep::sleep: try_add_sleeping_thread [locked_cur, latch u]",
        "Sleep::sleep: final look finds nothing, block [latch u]",
    ];
    let mut run: Vec<String> = std::iter::repeat(one_sleeper)
        .take(8)
        .flatten()
        .map(str::to_string)
        .collect();
    run.push("Registry::inject push [into an empty injector]".to_string());
    run.push("Sleep::new_injected_jobs [bumps; no sleeper]".to_string());
    Some(run)
}
