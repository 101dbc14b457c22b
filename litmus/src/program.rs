//! Litmus programs: a few threads of straight-line atomic accesses on named
//! locations, with `if` blocks on values read (the protocol's "bump the JEC
//! only if it is even"). Every access is atomic; there are no plain
//! (non-atomic) accesses, so RC11's race axiom never applies.

use std::fmt;

/// A memory order of C++20 (`memory_order_consume` is not modelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mo {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Mo {
    /// `⊒ acq` in RC11's notation: the order makes a read or fence acquire.
    pub fn is_acquire(self) -> bool {
        matches!(self, Mo::Acquire | Mo::AcqRel | Mo::SeqCst)
    }

    /// `⊒ rel`: the order makes a write or fence release.
    pub fn is_release(self) -> bool {
        matches!(self, Mo::Release | Mo::AcqRel | Mo::SeqCst)
    }

    pub fn c_name(self) -> &'static str {
        match self {
            Mo::Relaxed => "memory_order_relaxed",
            Mo::Acquire => "memory_order_acquire",
            Mo::Release => "memory_order_release",
            Mo::AcqRel => "memory_order_acq_rel",
            Mo::SeqCst => "memory_order_seq_cst",
        }
    }
}

impl fmt::Display for Mo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Mo::Relaxed => "rlx",
            Mo::Acquire => "acq",
            Mo::Release => "rel",
            Mo::AcqRel => "acq_rel",
            Mo::SeqCst => "sc",
        };
        f.write_str(name)
    }
}

/// A location's name.
pub type Loc = &'static str;
/// A register's name; unique across the program, since outcomes name them.
pub type Reg = &'static str;

/// A value to store or compare with: a constant, or a register plus a
/// constant (wrapping).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expr {
    Const(u64),
    RegPlus(Reg, u64),
}

/// A read-modify-write that always writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmwOp {
    FetchAdd(u64),
    FetchSub(u64),
    FetchOr(u64),
    Swap(u64),
}

impl RmwOp {
    pub fn apply(self, old: u64) -> u64 {
        match self {
            RmwOp::FetchAdd(k) => old.wrapping_add(k),
            RmwOp::FetchSub(k) => old.wrapping_sub(k),
            RmwOp::FetchOr(k) => old | k,
            RmwOp::Swap(k) => k,
        }
    }
}

/// `(reg & mask) == value`, or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cond {
    pub reg: Reg,
    pub mask: u64,
    pub value: u64,
    pub negate: bool,
}

impl Cond {
    pub fn eq(reg: Reg, value: u64) -> Cond {
        Cond {
            reg,
            mask: u64::MAX,
            value,
            negate: false,
        }
    }

    pub fn ne(reg: Reg, value: u64) -> Cond {
        Cond {
            negate: true,
            ..Cond::eq(reg, value)
        }
    }

    /// `(reg & mask) == value`.
    pub fn masked(reg: Reg, mask: u64, value: u64) -> Cond {
        Cond {
            reg,
            mask,
            value,
            negate: false,
        }
    }

    pub fn holds(self, reg_value: u64) -> bool {
        ((reg_value & self.mask) == self.value) != self.negate
    }
}

/// One instruction of a thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instr {
    Load {
        loc: Loc,
        mo: Mo,
        reg: Reg,
    },
    Store {
        loc: Loc,
        val: Expr,
        mo: Mo,
    },
    Rmw {
        loc: Loc,
        op: RmwOp,
        mo: Mo,
        reg: Reg,
    },
    /// `compare_exchange(expected, new, mo, fail)`: an RMW when the value
    /// read equals `expected`, otherwise a read with order `fail`. `reg`
    /// receives the value read either way.
    Cas {
        loc: Loc,
        expected: Expr,
        new: Expr,
        mo: Mo,
        fail: Mo,
        reg: Reg,
    },
    Fence(Mo),
    If(Cond, Vec<Instr>),
}

/// Shorthands for writing programs.
pub fn load(loc: Loc, mo: Mo, reg: Reg) -> Instr {
    Instr::Load { loc, mo, reg }
}

pub fn store(loc: Loc, val: u64, mo: Mo) -> Instr {
    Instr::Store {
        loc,
        val: Expr::Const(val),
        mo,
    }
}

pub fn rmw(loc: Loc, op: RmwOp, mo: Mo, reg: Reg) -> Instr {
    Instr::Rmw { loc, op, mo, reg }
}

pub fn cas(loc: Loc, expected: Expr, new: Expr, mo: Mo, fail: Mo, reg: Reg) -> Instr {
    Instr::Cas {
        loc,
        expected,
        new,
        mo,
        fail,
        reg,
    }
}

pub fn fence(mo: Mo) -> Instr {
    Instr::Fence(mo)
}

/// A program: initial values (a location not listed starts at 0) and threads.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: &'static str,
    pub init: Vec<(Loc, u64)>,
    pub threads: Vec<Vec<Instr>>,
}

impl Program {
    pub fn new(name: &'static str, threads: Vec<Vec<Instr>>) -> Program {
        Program {
            name,
            init: Vec::new(),
            threads,
        }
    }

    pub fn with_init(mut self, loc: Loc, value: u64) -> Program {
        self.init.push((loc, value));
        self
    }

    /// Every location the program names, in order of first mention.
    pub fn locations(&self) -> Vec<Loc> {
        let mut locs: Vec<Loc> = self.init.iter().map(|&(l, _)| l).collect();
        fn walk(instrs: &[Instr], locs: &mut Vec<Loc>) {
            for instr in instrs {
                let loc = match instr {
                    Instr::Load { loc, .. }
                    | Instr::Store { loc, .. }
                    | Instr::Rmw { loc, .. }
                    | Instr::Cas { loc, .. } => *loc,
                    Instr::Fence(_) => continue,
                    Instr::If(_, body) => {
                        walk(body, locs);
                        continue;
                    }
                };
                if !locs.contains(&loc) {
                    locs.push(loc);
                }
            }
        }
        for thread in &self.threads {
            walk(thread, &mut locs);
        }
        locs
    }

    pub fn initial_value(&self, loc: Loc) -> u64 {
        self.init
            .iter()
            .find(|&&(l, _)| l == loc)
            .map_or(0, |&(_, v)| v)
    }
}

/// A predicate on a run's outcome: what a shape asks about. A register the
/// run did not write reads as `enumerate::UNWRITTEN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pred {
    Reg(Cond),
    /// A location's final value (the last in modification order).
    Last(Loc, u64),
    And(Vec<Pred>),
    Or(Vec<Pred>),
    Not(Box<Pred>),
}

impl Pred {
    pub fn reg_eq(reg: Reg, value: u64) -> Pred {
        Pred::Reg(Cond::eq(reg, value))
    }

    pub fn reg_ne(reg: Reg, value: u64) -> Pred {
        Pred::Reg(Cond::ne(reg, value))
    }

    pub fn reg_masked(reg: Reg, mask: u64, value: u64) -> Pred {
        Pred::Reg(Cond::masked(reg, mask, value))
    }

    pub fn holds(&self, outcome: &crate::Outcome) -> bool {
        match self {
            Pred::Reg(c) => c.holds(outcome.reg_or_unwritten(c.reg)),
            Pred::Last(loc, v) => outcome.last(loc) == *v,
            Pred::And(ps) => ps.iter().all(|p| p.holds(outcome)),
            Pred::Or(ps) => ps.iter().any(|p| p.holds(outcome)),
            Pred::Not(p) => !p.holds(outcome),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.negate { "!=" } else { "==" };
        if self.mask == u64::MAX {
            write!(f, "{} {op} {:#x}", self.reg, self.value)
        } else {
            write!(
                f,
                "({} & {:#x}) {op} {:#x}",
                self.reg, self.mask, self.value
            )
        }
    }
}

impl fmt::Display for Pred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |f: &mut fmt::Formatter<'_>, ps: &[Pred], sep: &str| {
            let parts: Vec<String> = ps.iter().map(|p| format!("({p})")).collect();
            f.write_str(&parts.join(sep))
        };
        match self {
            Pred::Reg(c) => write!(f, "{c}"),
            Pred::Last(loc, v) => write!(f, "[{loc}] == {v:#x}"),
            Pred::And(ps) => join(f, ps, " && "),
            Pred::Or(ps) => join(f, ps, " || "),
            Pred::Not(p) => write!(f, "!({p})"),
        }
    }
}
