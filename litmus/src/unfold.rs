//! From a thread's code to its events.
//!
//! Which events a thread runs depends on the values it reads only through
//! its `if`s and its compare-and-swaps (success writes, failure only
//! reads). So a thread is first unfolded into *skeletons*, one per choice
//! of every branch; a skeleton fixes each event's kind, location and order
//! but not its values. Once reads-from is chosen, `evaluate` computes the
//! values and keeps the skeleton only if every branch went the way it
//! assumed.

use crate::program::{Cond, Expr, Instr, Loc, Mo, Reg, RmwOp};
use std::collections::BTreeMap;

/// What an event does. An RMW is one event that both reads and writes
/// (RC11 splits it into a read and a write joined by `rmw`; one event is
/// equivalent, with `rmw` the identity on RMW events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Read,
    Write,
    Rmw,
    Fence,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// `None` for an initialisation write.
    pub thread: Option<usize>,
    pub kind: Kind,
    pub loc: Option<Loc>,
    pub mo: Mo,
    /// The value read (reads and RMWs), once evaluated.
    pub read: Option<u64>,
    /// The value written (writes and RMWs), once evaluated.
    pub written: Option<u64>,
}

impl Event {
    pub fn reads(&self) -> bool {
        matches!(self.kind, Kind::Read | Kind::Rmw)
    }

    pub fn writes(&self) -> bool {
        matches!(self.kind, Kind::Write | Kind::Rmw)
    }
}

/// How a skeleton step computes its values.
#[derive(Clone, Copy, Debug)]
enum Action {
    Load(Reg),
    Store(Expr),
    Rmw(RmwOp, Reg),
    /// A CAS assumed to succeed (`true`) or fail.
    Cas {
        expected: Expr,
        new: Expr,
        reg: Reg,
        succeeds: bool,
    },
    Fence,
}

#[derive(Clone, Debug)]
enum Step {
    Event(Event, Action),
    /// An `if` assumed to go this way.
    Assume(Cond, bool),
}

/// One way through a thread's branches.
#[derive(Clone, Debug, Default)]
pub struct Skeleton {
    steps: Vec<Step>,
}

impl Skeleton {
    /// The skeleton's events, values not yet known.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.steps.iter().filter_map(|s| match s {
            Step::Event(e, _) => Some(e),
            Step::Assume(..) => None,
        })
    }
}

/// Every skeleton of thread `tid`'s code.
pub fn skeletons(code: &[Instr], tid: usize) -> Vec<Skeleton> {
    let mut out = vec![Skeleton::default()];
    for instr in code {
        out = out
            .into_iter()
            .flat_map(|sk| extend(sk, instr, tid))
            .collect();
    }
    out
}

fn extend(sk: Skeleton, instr: &Instr, tid: usize) -> Vec<Skeleton> {
    let event = |kind, loc, mo| Event {
        thread: Some(tid),
        kind,
        loc,
        mo,
        read: None,
        written: None,
    };
    let with = |step: Step| {
        let mut s = sk.clone();
        s.steps.push(step);
        s
    };
    match *instr {
        Instr::Load { loc, mo, reg } => {
            vec![with(Step::Event(
                event(Kind::Read, Some(loc), mo),
                Action::Load(reg),
            ))]
        }
        Instr::Store { loc, val, mo } => {
            vec![with(Step::Event(
                event(Kind::Write, Some(loc), mo),
                Action::Store(val),
            ))]
        }
        Instr::Rmw { loc, op, mo, reg } => {
            vec![with(Step::Event(
                event(Kind::Rmw, Some(loc), mo),
                Action::Rmw(op, reg),
            ))]
        }
        Instr::Fence(mo) => vec![with(Step::Event(
            event(Kind::Fence, None, mo),
            Action::Fence,
        ))],
        Instr::Cas {
            loc,
            expected,
            new,
            mo,
            fail,
            reg,
        } => [true, false]
            .into_iter()
            .map(|succeeds| {
                let e = if succeeds {
                    event(Kind::Rmw, Some(loc), mo)
                } else {
                    event(Kind::Read, Some(loc), fail)
                };
                with(Step::Event(
                    e,
                    Action::Cas {
                        expected,
                        new,
                        reg,
                        succeeds,
                    },
                ))
            })
            .collect(),
        Instr::If(cond, ref body) => {
            let mut taken = vec![with(Step::Assume(cond, true))];
            for i in body {
                taken = taken.into_iter().flat_map(|s| extend(s, i, tid)).collect();
            }
            taken.push(with(Step::Assume(cond, false)));
            taken
        }
    }
}

fn eval(expr: Expr, regs: &BTreeMap<Reg, u64>) -> u64 {
    match expr {
        Expr::Const(v) => v,
        Expr::RegPlus(r, k) => regs
            .get(r)
            .unwrap_or_else(|| panic!("register {r} used before it is written"))
            .wrapping_add(k),
    }
}

/// Fills in the values of `events` (the initial writes, then each thread's
/// skeleton's events in order, as `enumerate` lays them out) given
/// reads-from, running the threads in an order where every read's source
/// already has its value. Returns the registers, or `None` when a branch
/// goes against its skeleton's assumption or no such order exists (then
/// `po ∪ rf` has a cycle, which RC11's no-thin-air axiom forbids anyway).
pub fn evaluate(
    skeletons: &[&Skeleton],
    first_event: &[usize],
    events: &mut [Event],
    rf: &[Option<usize>],
) -> Option<BTreeMap<Reg, u64>> {
    let mut regs = BTreeMap::new();
    // Per thread: the next step, and the index of its next event.
    let mut pc = vec![0; skeletons.len()];
    let mut next_event = first_event.to_vec();
    loop {
        let mut progressed = false;
        for t in 0..skeletons.len() {
            while let Some(step) = skeletons[t].steps.get(pc[t]) {
                match step {
                    Step::Assume(cond, way) => {
                        let v = *regs
                            .get(cond.reg)
                            .expect("condition on an unwritten register");
                        if cond.holds(v) != *way {
                            return None;
                        }
                    }
                    Step::Event(_, action) => {
                        let i = next_event[t];
                        let read = match rf[i] {
                            Some(w) => match events[w].written {
                                Some(v) => Some(v),
                                None => break, // its source is not evaluated yet
                            },
                            None => None,
                        };
                        let e = &mut events[i];
                        e.read = read;
                        match *action {
                            Action::Load(reg) => {
                                regs.insert(reg, read.unwrap());
                            }
                            Action::Store(val) => e.written = Some(eval(val, &regs)),
                            Action::Rmw(op, reg) => {
                                e.written = Some(op.apply(read.unwrap()));
                                regs.insert(reg, read.unwrap());
                            }
                            Action::Cas {
                                expected,
                                new,
                                reg,
                                succeeds,
                            } => {
                                if (read.unwrap() == eval(expected, &regs)) != succeeds {
                                    return None;
                                }
                                if succeeds {
                                    e.written = Some(eval(new, &regs));
                                }
                                regs.insert(reg, read.unwrap());
                            }
                            Action::Fence => {}
                        }
                        next_event[t] += 1;
                    }
                }
                pc[t] += 1;
                progressed = true;
            }
        }
        if pc.iter().zip(skeletons).all(|(&p, s)| p == s.steps.len()) {
            return Some(regs);
        }
        if !progressed {
            return None;
        }
    }
}
