//! Loom's verdict on a litmus program: the program run on loom's atomics,
//! one loom thread per program thread, under `loom::model` with a bound on
//! preemptions; every outcome of every explored execution is collected.
//! Loom is the checker the protocol's suites use, so this shows, shape by
//! shape, where its model of C++20 answers differently from the exact one.

use crate::enumerate::Outcome;
use crate::program::{Expr, Instr, Mo, Program, Reg, RmwOp};
use loom::sync::atomic::{fence, AtomicU64, Ordering};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

fn ordering(mo: Mo) -> Ordering {
    match mo {
        Mo::Relaxed => Ordering::Relaxed,
        Mo::Acquire => Ordering::Acquire,
        Mo::Release => Ordering::Release,
        Mo::AcqRel => Ordering::AcqRel,
        Mo::SeqCst => Ordering::SeqCst,
    }
}

fn eval(expr: Expr, regs: &BTreeMap<Reg, u64>) -> u64 {
    match expr {
        Expr::Const(v) => v,
        Expr::RegPlus(r, k) => regs[r].wrapping_add(k),
    }
}

fn run(code: &[Instr], program: &Program, mem: &[AtomicU64], regs: &mut BTreeMap<Reg, u64>) {
    let cell = |loc| {
        let i = program.locations().iter().position(|&l| l == loc).unwrap();
        &mem[i]
    };
    for instr in code {
        match *instr {
            Instr::Load { loc, mo, reg } => {
                regs.insert(reg, cell(loc).load(ordering(mo)));
            }
            Instr::Store { loc, val, mo } => cell(loc).store(eval(val, regs), ordering(mo)),
            Instr::Rmw { loc, op, mo, reg } => {
                let (a, o) = (cell(loc), ordering(mo));
                let old = match op {
                    RmwOp::FetchAdd(k) => a.fetch_add(k, o),
                    RmwOp::FetchSub(k) => a.fetch_sub(k, o),
                    RmwOp::FetchOr(k) => a.fetch_or(k, o),
                    RmwOp::Swap(k) => a.swap(k, o),
                };
                regs.insert(reg, old);
            }
            Instr::Cas {
                loc,
                expected,
                new,
                mo,
                fail,
                reg,
            } => {
                let (expected, new) = (eval(expected, regs), eval(new, regs));
                let old = cell(loc)
                    .compare_exchange(expected, new, ordering(mo), ordering(fail))
                    .unwrap_or_else(|v| v);
                regs.insert(reg, old);
            }
            Instr::Fence(mo) => fence(ordering(mo)),
            Instr::If(cond, ref body) => {
                if cond.holds(regs[cond.reg]) {
                    run(body, program, mem, regs);
                }
            }
        }
    }
}

/// Loom's outcomes for `program`, exploring executions with at most
/// `preemption_bound` preemptions; also the number of executions.
pub fn loom_outcomes(program: &Program, preemption_bound: usize) -> (BTreeSet<Outcome>, usize) {
    let program = Arc::new(program.clone());
    let seen = Arc::new(Mutex::new((BTreeSet::new(), 0usize)));
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(preemption_bound);
    let (p, s) = (Arc::clone(&program), Arc::clone(&seen));
    builder.check(move || {
        let locs = p.locations();
        let mem: Arc<Vec<AtomicU64>> = Arc::new(
            locs.iter()
                .map(|&l| AtomicU64::new(p.initial_value(l)))
                .collect(),
        );
        let handles: Vec<_> = (0..p.threads.len())
            .map(|t| {
                let (p, mem) = (Arc::clone(&p), Arc::clone(&mem));
                loom::thread::spawn(move || {
                    let mut regs = BTreeMap::new();
                    run(&p.threads[t], &p, &mem, &mut regs);
                    regs
                })
            })
            .collect();
        let mut regs = BTreeMap::new();
        for h in handles {
            regs.extend(h.join().unwrap());
        }
        // After the joins every write happens before these loads, so
        // coherence makes each return its location's last value.
        let finals = locs
            .iter()
            .zip(mem.iter())
            .map(|(&l, a)| (l, a.load(Ordering::Relaxed)))
            .collect();
        let mut s = s.lock().unwrap();
        s.0.insert(Outcome { regs, finals });
        s.1 += 1;
    });
    let s = seen.lock().unwrap();
    (s.0.clone(), s.1)
}
