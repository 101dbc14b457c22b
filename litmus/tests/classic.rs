//! The checker against litmus tests whose C++20/RC11 verdicts are known
//! (published with RC11, Lahav et al. PLDI 2017, and the C++ papers that
//! changed the model). Each test fails if a verdict is wrong, in either
//! direction: an outcome the model allows must be found, one it forbids
//! must not be.

use drowse_litmus::program::{cas, fence, load, rmw, store};
use drowse_litmus::{allowed, Expr, Mo, Outcome, Program, RmwOp};
use Mo::{AcqRel, Acquire, Relaxed, Release, SeqCst};

fn verdict(p: &Program, outcome: impl Fn(&Outcome) -> bool) -> bool {
    let a = allowed(p);
    assert!(
        a.consistent > 0,
        "{}: no consistent execution at all",
        p.name
    );
    a.any(outcome)
}

fn assert_allowed(p: Program, outcome: impl Fn(&Outcome) -> bool) {
    assert!(
        verdict(&p, outcome),
        "{}: outcome should be allowed",
        p.name
    );
}

fn assert_forbidden(p: Program, outcome: impl Fn(&Outcome) -> bool) {
    assert!(
        !verdict(&p, outcome),
        "{}: outcome should be forbidden",
        p.name
    );
}

/// SB: x = 1; r1 = y  ||  y = 1; r2 = x. Outcome r1 = r2 = 0.
fn sb(store_mo: Mo, load_mo: Mo, fence0: Option<Mo>, fence1: Option<Mo>) -> Program {
    let thread = |w, r, reg, f: Option<Mo>| {
        let mut t = vec![store(w, 1, store_mo)];
        t.extend(f.map(fence));
        t.push(load(r, load_mo, reg));
        t
    };
    Program::new(
        "SB",
        vec![
            thread("x", "y", "r1", fence0),
            thread("y", "x", "r2", fence1),
        ],
    )
}

fn sb_weak(o: &Outcome) -> bool {
    o.reg("r1") == Some(0) && o.reg("r2") == Some(0)
}

#[test]
fn store_buffering() {
    assert_allowed(sb(Relaxed, Relaxed, None, None), sb_weak);
    assert_allowed(sb(Release, Acquire, None, None), sb_weak);
    assert_forbidden(sb(SeqCst, SeqCst, None, None), sb_weak);
    assert_forbidden(sb(Relaxed, Relaxed, Some(SeqCst), Some(SeqCst)), sb_weak);
    // One fence is not enough, nor are acq_rel fences.
    assert_allowed(sb(Relaxed, Relaxed, Some(SeqCst), None), sb_weak);
    assert_allowed(sb(Relaxed, Relaxed, None, Some(SeqCst)), sb_weak);
    assert_allowed(sb(Relaxed, Relaxed, Some(AcqRel), Some(AcqRel)), sb_weak);
}

/// RC11 §3: `seq_cst` accesses are not fences. SB with both stores and the
/// first load `seq_cst` but the second load acquire is allowed; an SC fence
/// before that (relaxed) load forbids it again, and so does a mix of SC
/// accesses on one side and an SC fence on the other.
#[test]
fn sc_accesses_differ_from_sc_fences() {
    let p = Program::new(
        "SB-sc-acq",
        vec![
            vec![store("x", 1, SeqCst), load("y", SeqCst, "r1")],
            vec![store("y", 1, SeqCst), load("x", Acquire, "r2")],
        ],
    );
    assert_allowed(p, sb_weak);
    let p = Program::new(
        "SB-sc-fence",
        vec![
            vec![store("x", 1, SeqCst), load("y", SeqCst, "r1")],
            vec![
                store("y", 1, Relaxed),
                fence(SeqCst),
                load("x", Relaxed, "r2"),
            ],
        ],
    );
    assert_forbidden(p, sb_weak);
}

/// RC11 §1's example: C11 forbade it, Power allows it with the standard
/// compilation (trailing sync), and RC11 (so C++20) allows it:
/// x =sc 1  ||  a = x_acq; b = y_sc  ||  y =sc 1; c = x_sc; a = 1, b = c = 0.
#[test]
fn rc11_introduction_example_is_allowed() {
    let p = Program::new(
        "RC11-intro",
        vec![
            vec![store("x", 1, SeqCst)],
            vec![load("x", Acquire, "a"), load("y", SeqCst, "b")],
            vec![store("y", 1, SeqCst), load("x", SeqCst, "c")],
        ],
    );
    assert_allowed(p, |o| {
        o.reg("a") == Some(1) && o.reg("b") == Some(0) && o.reg("c") == Some(0)
    });
}

/// MP: x = 1; y = 1  ||  r1 = y; r2 = x. Outcome r1 = 1, r2 = 0.
#[test]
fn message_passing() {
    let mp = |w: Vec<_>, r: Vec<_>| Program::new("MP", vec![w, r]);
    let weak = |o: &Outcome| o.reg("r1") == Some(1) && o.reg("r2") == Some(0);
    let writer = |m| vec![store("x", 1, Relaxed), store("y", 1, m)];
    let reader = |m| vec![load("y", m, "r1"), load("x", Relaxed, "r2")];
    assert_allowed(mp(writer(Relaxed), reader(Relaxed)), weak);
    assert_allowed(mp(writer(Release), reader(Relaxed)), weak);
    assert_allowed(mp(writer(Relaxed), reader(Acquire)), weak);
    assert_forbidden(mp(writer(Release), reader(Acquire)), weak);
    // Release and acquire fences synchronise through relaxed accesses.
    let fenced_writer = vec![
        store("x", 1, Relaxed),
        fence(Release),
        store("y", 1, Relaxed),
    ];
    let fenced_reader = vec![
        load("y", Relaxed, "r1"),
        fence(Acquire),
        load("x", Relaxed, "r2"),
    ];
    assert_forbidden(mp(fenced_writer.clone(), fenced_reader), weak);
    assert_allowed(mp(fenced_writer, reader(Relaxed)), weak);
}

/// LB: r1 = x; y = 1  ||  r2 = y; x = 1. Outcome r1 = r2 = 1. RC11's
/// no-thin-air axiom (po ∪ rf acyclic) forbids it even when relaxed; the
/// C++20 text does not forbid it for relaxed accesses (it only discourages
/// out-of-thin-air values). This is the one place where RC11 is stronger
/// than C++20; docs/litmus.md says why no shape's verdict depends on it.
#[test]
fn load_buffering() {
    let lb = |m_load, m_store| {
        Program::new(
            "LB",
            vec![
                vec![load("x", m_load, "r1"), store("y", 1, m_store)],
                vec![load("y", m_load, "r2"), store("x", 1, m_store)],
            ],
        )
    };
    let weak = |o: &Outcome| o.reg("r1") == Some(1) && o.reg("r2") == Some(1);
    assert_forbidden(lb(Relaxed, Relaxed), weak);
    assert_forbidden(lb(Acquire, Release), weak);
    // Each single read of 1 is possible.
    assert_allowed(lb(Relaxed, Relaxed), |o| o.reg("r1") == Some(1));
}

/// IRIW: x = 1 || y = 1 || r1 = x; r2 = y || r3 = y; r4 = x.
/// Outcome r1 = r3 = 1, r2 = r4 = 0: the readers disagree on the order.
#[test]
fn independent_reads_of_independent_writes() {
    let iriw = |wm, rm, f: Option<Mo>| {
        let reader = |a, b, ra, rb| {
            let mut t = vec![load(a, rm, ra)];
            t.extend(f.map(fence));
            t.push(load(b, rm, rb));
            t
        };
        Program::new(
            "IRIW",
            vec![
                vec![store("x", 1, wm)],
                vec![store("y", 1, wm)],
                reader("x", "y", "r1", "r2"),
                reader("y", "x", "r3", "r4"),
            ],
        )
    };
    let weak = |o: &Outcome| {
        o.reg("r1") == Some(1)
            && o.reg("r2") == Some(0)
            && o.reg("r3") == Some(1)
            && o.reg("r4") == Some(0)
    };
    assert_allowed(iriw(Release, Acquire, None), weak);
    assert_forbidden(iriw(SeqCst, SeqCst, None), weak);
    assert_forbidden(iriw(Relaxed, Relaxed, Some(SeqCst)), weak);
    assert_allowed(iriw(Relaxed, Relaxed, Some(AcqRel)), weak);
}

/// 2+2W: x = 1; y = 2  ||  y = 1; x = 2. Outcome: x ends 1 and y ends 1.
#[test]
fn two_plus_two_writes() {
    let w22 = |m, f: Option<Mo>| {
        let thread = |a, b| {
            let mut t = vec![store(a, 1, m)];
            t.extend(f.map(fence));
            t.push(store(b, 2, m));
            t
        };
        Program::new("2+2W", vec![thread("x", "y"), thread("y", "x")])
    };
    let weak = |o: &Outcome| o.last("x") == 1 && o.last("y") == 1;
    assert_allowed(w22(Relaxed, None), weak);
    assert_allowed(w22(Release, None), weak);
    assert_forbidden(w22(SeqCst, None), weak);
    assert_forbidden(w22(Relaxed, Some(SeqCst)), weak);
}

/// RWC with SC fences (RC11 §3, the fence rule C11 lacked):
/// x = 1 || r1 = x; F_sc; r2 = y || y = 1; F_sc; r3 = x.
/// r1 = 1, r2 = 0, r3 = 0 is forbidden by psc_F.
#[test]
fn read_to_write_causality_with_sc_fences() {
    let p = Program::new(
        "RWC+fences",
        vec![
            vec![store("x", 1, Relaxed)],
            vec![
                load("x", Relaxed, "r1"),
                fence(SeqCst),
                load("y", Relaxed, "r2"),
            ],
            vec![
                store("y", 1, Relaxed),
                fence(SeqCst),
                load("x", Relaxed, "r3"),
            ],
        ],
    );
    let weak =
        |o: &Outcome| o.reg("r1") == Some(1) && o.reg("r2") == Some(0) && o.reg("r3") == Some(0);
    assert_forbidden(p.clone(), weak);
    let mut no_fence = p;
    no_fence.threads[1].remove(1);
    assert_allowed(no_fence, weak);
}

/// Atomicity: two fetch_adds never read the same value.
#[test]
fn rmws_are_atomic() {
    let p = Program::new(
        "2xFAA",
        vec![
            vec![rmw("x", RmwOp::FetchAdd(1), Relaxed, "r1")],
            vec![rmw("x", RmwOp::FetchAdd(1), Relaxed, "r2")],
        ],
    );
    let a = allowed(&p);
    assert!(a.outcomes.iter().all(|o| o.last("x") == 2));
    assert!(!a.any(|o| o.reg("r1") == o.reg("r2")));
    assert!(a.any(|o| o.reg("r1") == Some(0)) && a.any(|o| o.reg("r2") == Some(0)));
}

/// Release sequences in C++20: an RMW continues one (the acquire reader of
/// the RMW's value synchronises with the release store), a relaxed store,
/// even by the releasing thread itself, does not (P0982R1 removed that).
#[test]
fn release_sequences() {
    let weak = |o: &Outcome| o.reg("r1") == Some(2) && o.reg("r2") == Some(0);
    let reader = vec![load("y", Acquire, "r1"), load("x", Relaxed, "r2")];
    let writer = vec![store("x", 1, Relaxed), store("y", 1, Release)];
    let p = Program::new(
        "rs-rmw",
        vec![
            writer.clone(),
            vec![rmw("y", RmwOp::FetchAdd(1), Relaxed, "t")],
            reader.clone(),
        ],
    );
    assert_forbidden(p, weak);
    let p = Program::new(
        "rs-store",
        vec![writer.clone(), vec![store("y", 2, Relaxed)], reader.clone()],
    );
    assert_allowed(p, weak);
    let mut same_thread = writer;
    same_thread.push(store("y", 2, Relaxed));
    let p = Program::new("rs-same-thread", vec![same_thread, reader]);
    assert_allowed(p, weak);
}

/// A failed compare-and-swap is a load with the *failure* order (C++20
/// [atomics.types.operations]: "if the operation returns false, these
/// operations are atomic load operations on memory with memory ordering
/// `failure`"). MP whose reader is a CAS that fails on reading the flag:
/// with failure `Relaxed` it does not synchronise (even with success
/// `SeqCst`); with failure `Acquire` it does. GenMC 0.10.3 gives the failed
/// read its success order instead (docs/litmus.md), so this is where the two
/// checkers part.
#[test]
fn failed_cas_has_the_failure_order() {
    let mp = |fail| {
        Program::new(
            "MP+failed-CAS",
            vec![
                vec![store("x", 1, Relaxed), store("y", 1, Release)],
                vec![
                    cas("y", Expr::Const(5), Expr::Const(6), SeqCst, fail, "r1"),
                    load("x", Relaxed, "r2"),
                ],
            ],
        )
    };
    let weak = |o: &Outcome| o.reg("r1") == Some(1) && o.reg("r2") == Some(0);
    assert_allowed(mp(Relaxed), weak);
    assert_forbidden(mp(Acquire), weak);
}
