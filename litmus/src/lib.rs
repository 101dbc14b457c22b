//! An exact checker of small C++20 litmus programs (RC11's axioms, with
//! C++20's release sequences), the sleep protocol's weak-memory shapes
//! written as such programs, and loom's verdict on the same programs.
//!
//! `allowed(program)` enumerates every candidate execution and returns the
//! outcomes of the consistent ones: a forbidden outcome is absent from that
//! set exactly when C++20 forbids it (for these straight-line programs).

pub mod c_emit;
pub mod enumerate;
pub mod loom_run;
pub mod program;
pub mod rc11;
pub mod relation;
pub mod shapes;
pub mod unfold;

pub use enumerate::{allowed, Allowed, Outcome};
pub use program::{Cond, Expr, Instr, Mo, Program, RmwOp};
