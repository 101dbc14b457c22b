//! `litmus`: prints, per shape, what Drowse relies on, loom's verdict, the
//! exact RC11/C++20 verdict and GenMC's recorded verdict, and exits non-zero
//! when an exact verdict differs from the one the shape expects.
//!
//! Usage: litmus [--loom-bound N] [--emit-c DIR]
//!   --loom-bound N   loom's preemption bound (default 3)
//!   --emit-c DIR     also write each shape as a C program for GenMC

use drowse_litmus::shapes::{self, Verdict};
use drowse_litmus::{allowed, c_emit, loom_run};
use std::process::ExitCode;

/// GenMC's verdicts, recorded by hand from runs on the emitted C programs
/// (docs/litmus.md says when and how); CI cannot install GenMC.
const GENMC_RECORD: &str = include_str!("../genmc-verdicts.txt");

fn genmc_verdict(name: &str) -> &'static str {
    GENMC_RECORD
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .find(|(n, _)| *n == name)
        .map_or("not run", |(_, v)| v.trim())
}

fn word(bad_seen: bool) -> &'static str {
    if bad_seen {
        "allowed"
    } else {
        "forbidden"
    }
}

fn main() -> ExitCode {
    let mut loom_bound = 3;
    let mut emit_dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--loom-bound" => {
                loom_bound = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--loom-bound N")
            }
            "--emit-c" => emit_dir = Some(args.next().expect("--emit-c DIR")),
            _ => {
                eprintln!("usage: litmus [--loom-bound N] [--emit-c DIR]");
                return ExitCode::from(2);
            }
        }
    }
    let all = shapes::all();
    println!(
        "{:40} {:24} {:17} {:10} {:10} status",
        "shape (bad outcome)", "Drowse relies on", "loom", "exact", "GenMC"
    );
    let mut failures = 0;
    for shape in &all {
        let exact = allowed(&shape.program);
        let exact_bad = exact.any(|o| shape.bad.holds(o));
        let (loom_outcomes, loom_execs) = loom_run::loom_outcomes(&shape.program, loom_bound);
        let loom_bad = loom_outcomes.iter().any(|o| shape.bad.holds(o));
        let relies = match (shape.relied_on, shape.expect) {
            (true, _) => "forbidden",
            (false, Verdict::Allowed) => "nothing (expect allowed)",
            (false, Verdict::Forbidden) => "nothing (expect forbid.)",
        };
        let ok = exact_bad == (shape.expect == Verdict::Allowed);
        let status = match (ok, shape.relied_on) {
            (true, _) => "ok",
            (false, true) => "FAIL: C++20 allows what Drowse relies on",
            (false, false) => "FAIL: exact verdict differs from the expected one",
        };
        if !ok {
            failures += 1;
        }
        println!(
            "{:40} {:24} {:17} {:10} {:10} {}",
            shape.name,
            relies,
            format!("{} ({loom_execs})", word(loom_bad)),
            word(exact_bad),
            genmc_verdict(shape.name),
            status
        );
        if let Some(dir) = &emit_dir {
            let path = std::path::Path::new(dir).join(format!("{}.c", shape.name));
            std::fs::write(&path, c_emit::c_program(&shape.program, &shape.bad))
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        }
    }
    println!("\nloom: preemption bound {loom_bound}, executions explored in parentheses; exact: RC11 with C++20's release sequences.");
    println!("Bad outcomes and where each shape's orderings come from:");
    for shape in &all {
        println!(
            "  {}: bad = {}\n      {}",
            shape.name, shape.bad, shape.source
        );
    }
    if failures > 0 {
        eprintln!("litmus: {failures} shape(s) with an unexpected exact verdict");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
