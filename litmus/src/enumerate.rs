//! Every candidate execution of a program, and the outcomes of the
//! consistent ones.
//!
//! A candidate is a choice of one skeleton per thread (which way each branch
//! goes, see `unfold`), a reads-from edge for every read from a write of the
//! same location whose values bear the skeletons out, and a modification
//! order per location (the initial write first). A candidate is an execution of the program exactly
//! when `rc11::Execution::check` accepts it; its outcome is what its
//! registers hold and each location's last value in modification order.

use crate::program::{Loc, Program, Reg};
use crate::rc11::Execution;
use crate::unfold::{evaluate, skeletons, Event, Kind, Skeleton};
use std::collections::{BTreeMap, BTreeSet};

/// What an outcome predicate sees in a register the run did not write; the
/// C programs for GenMC initialise every register to it.
pub const UNWRITTEN: u64 = 0xdead;

/// The registers a run wrote (a register in a skipped `if` is absent) and the
/// final value of every location.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Outcome {
    pub regs: BTreeMap<Reg, u64>,
    pub finals: BTreeMap<Loc, u64>,
}

impl Outcome {
    /// A register's value; `None` when the run did not write it.
    pub fn reg(&self, reg: Reg) -> Option<u64> {
        self.regs.get(reg).copied()
    }

    /// A register's value, or [`UNWRITTEN`] when the run did not write it
    /// (an instruction in a skipped `if`).
    pub fn reg_or_unwritten(&self, reg: Reg) -> u64 {
        self.reg(reg).unwrap_or(UNWRITTEN)
    }

    pub fn last(&self, loc: Loc) -> u64 {
        self.finals[loc]
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let regs: Vec<String> = self.regs.iter().map(|(r, v)| format!("{r}={v}")).collect();
        let finals: Vec<String> = self
            .finals
            .iter()
            .map(|(l, v)| format!("[{l}]={v}"))
            .collect();
        write!(f, "{} {}", regs.join(" "), finals.join(" "))
    }
}

/// The outcomes of every consistent execution.
pub struct Allowed {
    pub outcomes: BTreeSet<Outcome>,
    /// How many candidates were checked, and how many were consistent.
    pub candidates: usize,
    pub consistent: usize,
}

impl Allowed {
    pub fn any(&self, pred: impl Fn(&Outcome) -> bool) -> bool {
        self.outcomes.iter().any(pred)
    }
}

pub fn allowed(program: &Program) -> Allowed {
    let per_thread: Vec<Vec<Skeleton>> = program
        .threads
        .iter()
        .enumerate()
        .map(|(tid, code)| skeletons(code, tid))
        .collect();
    let locs = program.locations();
    let mut out = Allowed {
        outcomes: BTreeSet::new(),
        candidates: 0,
        consistent: 0,
    };
    let mut choice = vec![0; per_thread.len()];
    loop {
        let chosen: Vec<&Skeleton> = choice
            .iter()
            .zip(&per_thread)
            .map(|(&i, ps)| &ps[i])
            .collect();
        check_skeletons(program, &locs, &chosen, &mut out);
        // The next combination of skeletons (odometer order).
        let mut t = 0;
        loop {
            if t == choice.len() {
                return out;
            }
            choice[t] += 1;
            if choice[t] < per_thread[t].len() {
                break;
            }
            choice[t] = 0;
            t += 1;
        }
    }
}

fn check_skeletons(program: &Program, locs: &[Loc], chosen: &[&Skeleton], out: &mut Allowed) {
    let mut events: Vec<Event> = locs
        .iter()
        .map(|&loc| Event {
            thread: None,
            kind: Kind::Write,
            loc: Some(loc),
            mo: crate::program::Mo::Relaxed,
            read: None,
            written: Some(program.initial_value(loc)),
        })
        .collect();
    let mut first_event = Vec::new();
    for sk in chosen {
        first_event.push(events.len());
        events.extend(sk.events().cloned());
    }
    let n = events.len();
    // Each read's possible sources: the other writes of its location.
    let reads: Vec<usize> = (0..n).filter(|&i| events[i].reads()).collect();
    let sources: Vec<Vec<usize>> = reads
        .iter()
        .map(|&r| {
            (0..n)
                .filter(|&w| w != r && events[w].writes() && events[w].loc == events[r].loc)
                .collect()
        })
        .collect();
    let writes_of: Vec<(Loc, Vec<usize>)> = locs
        .iter()
        .map(|&loc| {
            let ws = (0..n)
                .filter(|&i| events[i].thread.is_some() && events[i].writes())
                .filter(|&i| events[i].loc == Some(loc))
                .collect();
            (loc, ws)
        })
        .collect();
    let mo_choices: Vec<Vec<Vec<usize>>> = writes_of
        .iter()
        .enumerate()
        .map(|(init, (_, ws))| {
            permutations(ws)
                .into_iter()
                .map(|p| std::iter::once(init).chain(p).collect())
                .collect()
        })
        .collect();

    let mut rf_pick = vec![0; reads.len()];
    loop {
        let mut rf = vec![None; n];
        for (k, &r) in reads.iter().enumerate() {
            rf[r] = Some(sources[k][rf_pick[k]]);
        }
        let mut valued = events.clone();
        if let Some(regs) = evaluate(chosen, &first_event, &mut valued, &rf) {
            for_each_mo(&mo_choices, locs, &mut |mo| {
                out.candidates += 1;
                let ex = Execution {
                    events: &valued,
                    rf: &rf,
                    mo,
                };
                if ex.check().is_ok() {
                    out.consistent += 1;
                    let finals = mo
                        .iter()
                        .map(|(loc, order)| (*loc, valued[*order.last().unwrap()].written.unwrap()))
                        .collect();
                    out.outcomes.insert(Outcome {
                        regs: regs.clone(),
                        finals,
                    });
                }
            });
        }
        let mut k = 0;
        loop {
            if k == reads.len() {
                return;
            }
            rf_pick[k] += 1;
            if rf_pick[k] < sources[k].len() {
                break;
            }
            rf_pick[k] = 0;
            k += 1;
        }
    }
}
/// A modification order: each location's writes, in order.
type Mo = [(Loc, Vec<usize>)];

fn for_each_mo(choices: &[Vec<Vec<usize>>], locs: &[Loc], f: &mut dyn FnMut(&Mo)) {
    let mut pick = vec![0; choices.len()];
    loop {
        let mo: Vec<(Loc, Vec<usize>)> = locs
            .iter()
            .zip(&pick)
            .zip(choices)
            .map(|((&loc, &i), c)| (loc, c[i].clone()))
            .collect();
        f(&mo);
        let mut k = 0;
        loop {
            if k == pick.len() {
                return;
            }
            pick[k] += 1;
            if pick[k] < choices[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
    }
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let mut rest = items.to_vec();
        rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}
