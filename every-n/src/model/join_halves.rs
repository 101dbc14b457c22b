//! The join-halves model: the main model ([`Model::before_terminate`]) with
//! `join`'s private second halves (docs/proof.md, lemma 11) added, as a
//! counter abstraction for every pool size `N` (docs/every-n.md, "Private
//! join halves").
//!
//! A worker that holds private halves (`WorkerThread::push_join_half` kept
//! one on its own stack) is counted twice: in its phase, as in the main
//! model, and in that phase's *holder* sub-count (`private_busy` of
//! `busy_u`, and so on for the phases of a running job). How many halves a
//! holder has is not kept: a holder may take back its last one at any join
//! end. The workers handed out that have not started their first search are
//! the sub-count `fresh` of `busy_u`, and `U` is the first-search count the
//! code reads (`Sleep::may_have_takers`). Every transition of the main model
//! that moves a running worker is taken once by a worker without private
//! halves and once by a holder, who keeps them; `Sleep::start_looking`, the
//! entry to every wait's search, only by a worker without (its
//! `wait_until_cold` has published them all), or by a fresh worker, which
//! then decrements `U`. The joins are the transitions this module adds:
//! those that record their second half, and those that run in line
//! (`WorkerThread::join_in_line`).

use super::{Flag, Model, Phase, Property, Transition, I, N, QD};
use crate::lin::{sum, var, Atom, Lin};
use std::fmt;

/// Workers counted inactive while holding private halves: only a mutant's
/// transition puts one there.
pub const PRIVATE_INACTIVE: &str = "private_inactive";
/// 1 once a join kept its half private while some worker was inactive (a
/// history variable).
pub const KEPT: &str = "kept_beside_taker";
/// 1 once a join kept its half private while every deque was empty, its
/// owner's too (a history variable).
pub const UNOFFERED: &str = "kept_with_nothing_offered";
/// 1 once a join ran in line while a publication was wanted: some worker
/// inactive, or every deque empty, its owner's too (a history variable).
pub const IN_LINE: &str = "in_line_with_publication_wanted";
/// How many private halves a worker holds before its joins may run in line
/// (`JOIN_WINDOW`): a constant of the run, any value `>= 0` in the proof.
/// A holder's count of halves is not kept, so the model knows of the window
/// only whether it is 0: at 0 any worker running a job may run a join in
/// line, at any other size a holder may (whether it holds that many or
/// not). The runs at any size are thus among those at 0.
pub const WINDOW: &str = "join_window";
/// The code's `JOIN_WINDOW` (`registry/worker_thread.rs`), where the
/// searches of `ci/prove --mutants` start (the proof leaves it free); a
/// test checks that the two agree.
pub const CODE_WINDOW: i64 = 1;

/// The phases of a running job: the only ones a holder may be in.
const RUNNING: [Phase; 5] = [
    Phase::Busy,
    Phase::BusyPosting,
    Phase::Waiting,
    Phase::WaitingPosting,
    Phase::Hung,
];

/// The worker count of a running phase (latch unset: the model is sliced
/// to the runs before terminate).
fn phase(p: Phase) -> String {
    super::w(p, Flag::Unset)
}

/// The holders among the workers of running phase `p`.
pub fn private(p: Phase) -> String {
    format!("private_{}", p.short())
}

/// The seeded mutants of `ci/mutants.d` that change what this model adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinMutant {
    /// `push_join_half` never publishes: every join keeps its half private.
    JoinNeverPublishes,
    /// `wait_until_cold` does not publish the waiter's private halves.
    WaitKeepsJoinHalvesPrivate,
    /// `publication_wanted` reads `may_have_takers` only, whatever its own
    /// deque holds: `push_join_half` keeps the half private, and
    /// `join_in_line` runs a join in line, whenever no worker is inactive.
    JoinIgnoresItsEmptyDeque,
    /// `join_in_line` reads `may_have_takers` only, whatever its own deque
    /// holds (`push_join_half` is the code's).
    InLineIgnoresItsEmptyDeque,
}

impl JoinMutant {
    pub const ALL: [JoinMutant; 4] = [
        JoinMutant::JoinNeverPublishes,
        JoinMutant::WaitKeepsJoinHalvesPrivate,
        JoinMutant::JoinIgnoresItsEmptyDeque,
        JoinMutant::InLineIgnoresItsEmptyDeque,
    ];

    /// The patch's name in `ci/mutants.d/`.
    pub fn name(self) -> &'static str {
        match self {
            JoinMutant::JoinNeverPublishes => "join_never_publishes",
            JoinMutant::WaitKeepsJoinHalvesPrivate => "wait_keeps_join_halves_private",
            JoinMutant::JoinIgnoresItsEmptyDeque => "join_ignores_its_empty_deque",
            JoinMutant::InLineIgnoresItsEmptyDeque => "in_line_ignores_its_empty_deque",
        }
    }
}

impl fmt::Display for JoinMutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `t` with `guard` added and each `(variable, by)` of `deltas` added to
/// its update; a changed worker count gets the guard that it stays
/// non-negative (as `model::finish` gives every transition).
fn extend(t: &Transition, name: String, guard: Vec<Atom>, deltas: &[(&str, i64)]) -> Transition {
    let mut t = t.clone();
    t.name = name;
    t.guard.extend(guard);
    for &(v, by) in deltas {
        match t.update.iter_mut().find(|(n, _)| n == v) {
            Some((_, lin)) => *lin = lin.clone() + by,
            None => t.update.push((v.to_string(), var(v) + by)),
        }
        let next = t.update.iter().find(|(n, _)| n == v).unwrap().1.clone();
        t.guard.push(next.ge(0));
    }
    t
}

/// The running phase a transition takes one worker out of, and the one it
/// puts one into (each `None` if there is none).
fn moves(t: &Transition) -> (Option<Phase>, Option<Phase>) {
    let mut from = None;
    let mut to = None;
    for p in RUNNING {
        let v = phase(p);
        let Some((_, lin)) = t.update.iter().find(|(n, _)| *n == v) else {
            continue;
        };
        let delta = lin.clone() - var(&v);
        assert!(
            delta.terms.is_empty(),
            "{}: {v} is not a counter move",
            t.name
        );
        match delta.constant {
            0 => {}
            -1 => from = Some(p),
            1 => to = Some(p),
            d => panic!("{}: moves {d} workers of {v}", t.name),
        }
    }
    (from, to)
}

/// The workers of running phase `p` that hold no private half.
fn plain(p: Phase) -> Lin {
    var(&phase(p)) - var(&private(p))
}

/// The workers that could take a published half now: the inactive ones,
/// by their phases (what `may_have_takers` reads as `I`).
fn takers() -> Lin {
    sum(Phase::ALL
        .iter()
        .filter(|p| p.inactive())
        .map(|&p| phase(p)))
}

struct Builder {
    mutant: Option<JoinMutant>,
    out: Vec<Transition>,
}

impl Builder {
    fn is(&self, m: JoinMutant) -> bool {
        self.mutant == Some(m)
    }

    /// The main model's transition `t`, by the workers it may move.
    fn copy_main(&mut self, t: &Transition) {
        match moves(t) {
            (Some(Phase::Busy), None) => {
                // `Sleep::start_looking` (the sliced model has no exits):
                // in `wait_until_cold`, after `publish_join_halves`.
                assert!(t.name.starts_with("Sleep::start_looking"), "{}", t.name);
                self.out.push(extend(
                    t,
                    format!("{} [no private half]", t.name),
                    vec![plain(Phase::Busy).ge(1)],
                    &[],
                ));
                if self.is(JoinMutant::WaitKeepsJoinHalvesPrivate) {
                    self.out.push(extend(
                        t,
                        format!("{} [holding private halves, not published]", t.name),
                        vec![],
                        &[(&private(Phase::Busy), -1), (PRIVATE_INACTIVE, 1)],
                    ));
                }
            }
            (Some(from), to) => {
                assert!(to.is_some(), "{}: a running worker leaves", t.name);
                self.out.push(extend(
                    t,
                    format!("{} [no private half]", t.name),
                    vec![plain(from).ge(1)],
                    &[],
                ));
                let to = to.unwrap();
                self.out.push(extend(
                    t,
                    format!("{} [holding private halves]", t.name),
                    vec![],
                    &[(&private(from), -1), (&private(to), 1)],
                ));
            }
            // Into a running phase from a search (`work_found`), or no
            // running worker moves: the worker arriving holds nothing.
            (None, _) => self.out.push(t.clone()),
        }
    }

    /// What this model adds: the joins, and the publication before a wait.
    fn joins(&mut self, base: &Transition) {
        let busy = phase(Phase::Busy);
        let posting = phase(Phase::BusyPosting);
        let holders = private(Phase::Busy);
        let holders_posting = private(Phase::BusyPosting);
        // A publication is `WorkerThread::push` (then the main model's
        // `Sleep::new_internal_jobs`, which the holder copies carry).
        let publish = [(busy.as_str(), -1), (posting.as_str(), 1), (QD, 1)];
        let t = |name: &str, guard: Vec<Atom>, deltas: &[(&str, i64)]| {
            extend(base, name.to_string(), guard, deltas)
        };
        // `push_join_half` publishes its oldest private half when its own
        // deque is empty or `may_have_takers`: which deque is empty the
        // model does not know, so it may publish at any join.
        if !self.is(JoinMutant::JoinNeverPublishes) {
            self.out.push(t(
                "push_join_half: publish_oldest_join_half [own deque empty or may_have_takers; no other private half: this one]",
                vec![plain(Phase::Busy).ge(1)],
                &publish,
            ));
            let mut deltas = publish.to_vec();
            deltas.extend([(holders.as_str(), -1), (holders_posting.as_str(), 1)]);
            self.out.push(t(
                "push_join_half: publish_oldest_join_half [own deque empty or may_have_takers; the oldest, this one kept]",
                vec![],
                &deltas,
            ));
        }
        // It keeps the half private only when its own deque holds a job and
        // `may_have_takers` reads `I = 0`. The model does not know which
        // deque holds what: it asks that some deque does (`q_internal >= 1`),
        // which the code's condition implies. Each keep splits on what is
        // true: nobody could take the half and some deque holds a job (the
        // case the code takes), or some worker is inactive, or every deque
        // is empty (each of those marks its history variable: dead unless
        // a mutant reads less than the code does).
        let code_reads: Vec<Atom> = match self.mutant {
            Some(JoinMutant::JoinNeverPublishes) => vec![],
            Some(JoinMutant::JoinIgnoresItsEmptyDeque) => vec![var(I).eq(0)],
            _ => vec![var(QD).ge(1), var(I).eq(0)],
        };
        let mark = |mut t: Transition, flag: &str| -> Transition {
            t.update.push((flag.to_string(), 1.into()));
            t
        };
        for (who, guard, deltas) in [
            (
                "its first",
                plain(Phase::Busy).ge(1),
                vec![(holders.as_str(), 1)],
            ),
            ("beside others", var(&holders).ge(1), vec![]),
        ] {
            let mut g = code_reads.clone();
            g.push(guard);
            // A holder that keeps one more changes nothing the model
            // counts: only its marking cases are transitions.
            if !deltas.is_empty() {
                let mut ok = g.clone();
                ok.extend([takers().eq(0), var(QD).ge(1)]);
                self.out.push(t(
                    &format!(
                        "push_join_half [no taker, own deque not empty: keeps it private, {who}]"
                    ),
                    ok,
                    &deltas,
                ));
            }
            let mut beside = g.clone();
            beside.push(takers().ge(1));
            self.out.push(mark(
                t(
                    &format!("push_join_half [a worker inactive: keeps it private, {who}]"),
                    beside,
                    &deltas,
                ),
                KEPT,
            ));
            let mut empty = g;
            empty.push(var(QD).eq(0));
            self.out.push(mark(
                t(
                    &format!("push_join_half [every deque empty: keeps it private, {who}]"),
                    empty,
                    &deltas,
                ),
                UNOFFERED,
            ));
        }

        // `join_in_line`: a join whose worker holds `JOIN_WINDOW` private
        // halves runs its two halves one after the other on its thread, and
        // records nothing, when `publication_wanted` is false: its own deque
        // holds a job (the model asks that some deque does, as for the
        // keep) and `may_have_takers` reads `I = 0`. It touches neither the
        // stack nor a deque, so it changes nothing the model counts; the
        // joins nested in its halves are more joins of the same worker,
        // which the model lets it make at any time. The window enters as
        // `join_window` (see `WINDOW`): at 0 a worker without private
        // halves may run in line, at any size a holder. Each case splits as
        // the keep does: the code's (a transition that changes nothing,
        // there so that the vacuity check shows an in-line join can
        // happen), and the two that set `IN_LINE`.
        let in_line_reads: Vec<Atom> = match self.mutant {
            Some(JoinMutant::JoinIgnoresItsEmptyDeque | JoinMutant::InLineIgnoresItsEmptyDeque) => {
                vec![var(I).eq(0)]
            }
            _ => vec![var(QD).ge(1), var(I).eq(0)],
        };
        for (who, guard) in [
            (
                "window 0, no private half",
                vec![plain(Phase::Busy).ge(1), var(WINDOW).eq(0)],
            ),
            ("holding private halves", vec![var(&holders).ge(1)]),
        ] {
            let mut g = in_line_reads.clone();
            g.extend(guard);
            let mut ok = g.clone();
            ok.extend([takers().eq(0), var(QD).ge(1)]);
            self.out.push(t(
                &format!(
                    "WorkerThread::join_in_line [no taker, own deque not empty: both halves here, {who}]"
                ),
                ok,
                &[],
            ));
            let mut beside = g.clone();
            beside.push(takers().ge(1));
            self.out.push(mark(
                t(
                    &format!(
                        "WorkerThread::join_in_line [a worker inactive: both halves here, {who}]"
                    ),
                    beside,
                    &[],
                ),
                IN_LINE,
            ));
            let mut empty = g;
            empty.push(var(QD).eq(0));
            self.out.push(mark(
                t(
                    &format!(
                        "WorkerThread::join_in_line [every deque empty: both halves here, {who}]"
                    ),
                    empty,
                    &[],
                ),
                IN_LINE,
            ));
        }

        // A join ends on its private half: `take_private_join_half` hands it
        // back and the owner runs it inline. Only the last one changes the
        // count.
        self.out.push(t(
            "take_private_join_half [private, the owner's last: run inline]",
            vec![],
            &[(&holders, -1)],
        ));
        // Before a wait (`wait_until_cold`) or a yield: every private half,
        // oldest first, each a push and a post. The wait's `start_looking`
        // comes after the last.
        let mut more = publish.to_vec();
        more.extend([(holders.as_str(), -1), (holders_posting.as_str(), 1)]);
        let mut last = publish.to_vec();
        last.push((holders.as_str(), -1));
        self.out.push(t(
            "wait_until_cold: publish_join_halves [the oldest; more left]",
            vec![],
            &more,
        ));
        self.out.push(t(
            "wait_until_cold: publish_join_halves [the last private one]",
            vec![],
            &last,
        ));
    }
}

/// The join-halves model (`mutant`: one of [`JoinMutant`], or none).
pub fn model(mutant: Option<JoinMutant>) -> Model {
    let main = Model::before_terminate(None);
    let mut b = Builder {
        mutant,
        out: Vec::new(),
    };
    for t in &main.transitions {
        b.copy_main(t);
    }
    // A transition with nothing: the joins are written on top of it.
    let base = Transition {
        name: String::new(),
        params: Vec::new(),
        guard: Vec::new(),
        update: Vec::new(),
    };
    b.joins(&base);

    let mut added: Vec<String> = RUNNING.iter().map(|&p| private(p)).collect();
    added.extend([PRIVATE_INACTIVE, KEPT, UNOFFERED, IN_LINE].map(String::from));
    let mut vars = main.vars.clone();
    vars.extend(added.iter().cloned());
    let mut init = main.init.clone();
    for v in &added {
        init.push(var(v).eq(0));
    }
    // The window: any size, fixed for the run (no transition updates it,
    // so a search need not cap it).
    vars.push(WINDOW.to_string());
    init.push(var(WINDOW).ge(0));
    let mut bounded = main.bounded.clone();
    bounded.extend(added.iter().cloned());
    bounded.push(WINDOW.to_string());
    let mut properties: Vec<Property> = main
        .properties
        .into_iter()
        .filter(|p| {
            [
                "no_injected_job_stranded",
                "no_internal_job_stranded",
                "waker_decrements",
            ]
            .contains(&p.name)
        })
        .collect();
    properties.extend(own_properties());
    for t in &b.out {
        for (name, lin) in &t.update {
            assert!(vars.contains(name), "{}: updates unknown {name}", t.name);
            for v in lin.terms.keys() {
                assert!(vars.contains(v), "{}: unknown {v}", t.name);
            }
        }
    }
    Model {
        vars,
        init,
        transitions: b.out,
        properties,
        start: |n| {
            vec![
                (N.to_string(), n),
                ("busy_u".to_string(), n),
                (WINDOW.to_string(), CODE_WINDOW),
            ]
        },
        bounded,
    }
}

/// The properties this model adds (docs/proof.md, lemma 11 (b), (c), (e)
/// and (o)).
pub fn own_properties() -> Vec<Property> {
    vec![
        Property {
            name: "private_halves_published_before_a_wait",
            statement: "no worker searches, is sleepy or sleeps while holding a private join half",
            bad: vec![vec![var(PRIVATE_INACTIVE).ge(1)]],
        },
        Property {
            name: "join_keeps_half_private_only_without_takers",
            statement: "a join keeps its second half private only while no worker is inactive (searching, sleepy or asleep)",
            bad: vec![vec![var(KEPT).ge(1)]],
        },
        Property {
            name: "join_keeps_half_private_only_beside_an_offer",
            statement: "a join keeps its second half private only while some deque holds a job (in the code: its own)",
            bad: vec![vec![var(UNOFFERED).ge(1)]],
        },
        Property {
            name: "join_runs_in_line_only_beside_an_offer",
            statement: "a join runs in line only while no worker is inactive and some deque holds a job (in the code: its own)",
            bad: vec![vec![var(IN_LINE).ge(1)]],
        },
    ]
}

/// The property a mutant's counterexample is searched for: the claim of
/// lemma 11 that its patch breaks (`join_never_publishes` also keeps a half
/// private beside an empty deque, which `join_ignores_its_empty_deque`
/// alone shows; its own run is the one beside an inactive worker).
pub fn target(m: JoinMutant) -> &'static str {
    match m {
        JoinMutant::JoinNeverPublishes => "join_keeps_half_private_only_without_takers",
        JoinMutant::WaitKeepsJoinHalvesPrivate => "private_halves_published_before_a_wait",
        JoinMutant::JoinIgnoresItsEmptyDeque => "join_keeps_half_private_only_beside_an_offer",
        JoinMutant::InLineIgnoresItsEmptyDeque => "join_runs_in_line_only_beside_an_offer",
    }
}

/// The clauses this model adds to `model::invariant(Width::Full)`
/// (docs/every-n.md, "Private join halves").
pub fn invariant_clauses() -> Vec<super::Clause> {
    use super::Clause;
    let within: Vec<Atom> = RUNNING
        .iter()
        .map(|&p| var(&private(p)).le(var(&phase(p))))
        .collect();
    vec![
        Clause {
            name: "holders_run_jobs",
            dnf: vec![within],
        },
        Clause {
            name: "no_holder_inactive",
            dnf: vec![vec![var(PRIVATE_INACTIVE).eq(0)]],
        },
        Clause {
            name: "no_half_kept_beside_a_taker",
            dnf: vec![vec![var(KEPT).eq(0)]],
        },
        Clause {
            name: "no_half_kept_with_nothing_offered",
            dnf: vec![vec![var(UNOFFERED).eq(0)]],
        },
        Clause {
            name: "no_join_in_line_with_publication_wanted",
            dnf: vec![vec![var(IN_LINE).eq(0)]],
        },
    ]
}

/// The whole invariant: the main model's at the full width, read before
/// terminate (the variables `Model::after_terminate` names are 0, as the
/// sliced model has them), and this model's clauses.
pub fn invariant() -> Vec<super::Clause> {
    let zero = Model::after_terminate();
    let sliced = |l: &Lin| {
        let mut l = l.clone();
        l.terms.retain(|v, _| !zero.contains(v));
        l
    };
    let mut inv: Vec<super::Clause> = super::invariant(super::Width::Full)
        .into_iter()
        .map(|mut c| {
            for conj in &mut c.dnf {
                for a in conj.iter_mut() {
                    *a = match a {
                        Atom::Ge(l) => Atom::Ge(sliced(l)),
                        Atom::Eq(l) => Atom::Eq(sliced(l)),
                    };
                }
            }
            c
        })
        .collect();
    inv.extend(invariant_clauses());
    inv
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::explicit::{search, Outcome};

    fn next(t: &Transition, v: &str) -> Lin {
        t.update
            .iter()
            .find(|(n, _)| n == v)
            .map_or_else(|| var(v), |(_, l)| l.clone())
    }

    /// Every transition keeps the pool size, in the model and its mutants,
    /// and moves a holder only with its phase (this runs without z3).
    #[test]
    fn transitions_keep_the_pool_and_the_holders_in_running_phases() {
        for mutant in std::iter::once(None).chain(JoinMutant::ALL.map(Some)) {
            let m = model(mutant);
            let workers: Vec<String> = Phase::ALL
                .iter()
                .map(|&p| super::super::w(p, Flag::Unset))
                .collect();
            for t in &m.transitions {
                let total = workers
                    .iter()
                    .fold(Lin::default(), |acc, v| acc + next(t, v) - var(v));
                assert_eq!(total, Lin::default(), "{mutant:?}: {}", t.name);
                // A holder that leaves a running phase goes to another,
                // or (a mutant) is counted inactive.
                let holders: Vec<String> = RUNNING
                    .iter()
                    .map(|&p| private(p))
                    .chain([PRIVATE_INACTIVE.to_string()])
                    .collect();
                let moved = holders
                    .iter()
                    .fold(Lin::default(), |acc, v| acc + next(t, v) - var(v));
                assert!(
                    moved == Lin::default()
                        || (moved.terms.is_empty() && moved.constant.abs() == 1),
                    "{mutant:?}: {}",
                    t.name
                );
            }
        }
    }

    /// The model's own transitions name code that exists in `core/src`.
    #[test]
    fn transitions_name_code_that_exists() {
        super::super::test::names_exist(&model(None));
    }

    /// The searches start at the code's window.
    #[cfg(feature = "validate")]
    #[test]
    fn code_window_is_the_codes() {
        assert_eq!(CODE_WINDOW, drowse::model_api::JOIN_WINDOW as i64);
    }

    /// The window decides who may run a join in line: at 0 any worker that
    /// runs a job, at the code's window a holder only. The in-line mutant's
    /// shortest run at one worker shows both: at 0 a worker joins in line
    /// before anything is pushed; at the code's window its in-line join
    /// comes after it kept a half private beside a job that was then taken.
    #[test]
    fn in_line_joins_by_window() {
        let last_step = |m: &Model| {
            let target: Vec<&Property> = m
                .properties
                .iter()
                .filter(|p| p.name == "join_runs_in_line_only_beside_an_offer")
                .collect();
            let Outcome::Found(trace) = search(m, &target, 1, 2, 2_000_000) else {
                panic!("no in-line join beside empty deques at one worker");
            };
            crate::smt::replay(m, &trace).unwrap();
            let last = trace.steps.last().unwrap().transition;
            (trace.steps.len(), m.transitions[last].name.clone())
        };
        let mut at_zero = model(Some(JoinMutant::InLineIgnoresItsEmptyDeque));
        at_zero.start = |n| vec![(N.to_string(), n), ("busy_u".to_string(), n)];
        let (steps, name) = last_step(&at_zero);
        assert_eq!(steps, 1);
        assert!(name.ends_with("window 0, no private half]"), "{name}");
        let (steps, name) = last_step(&model(Some(JoinMutant::InLineIgnoresItsEmptyDeque)));
        assert!(steps > 3, "{steps} steps");
        assert!(name.ends_with("holding private halves]"), "{name}");
    }

    /// At one worker: nothing bad without a mutant; a wait that keeps its
    /// halves private is a holder counted inactive.
    #[test]
    fn one_worker() {
        let m = model(None);
        let all: Vec<&Property> = m.properties.iter().collect();
        assert!(matches!(
            search(&m, &all, 1, 2, 2_000_000),
            Outcome::Safe { states, .. } if states > 1000
        ));
        let m = model(Some(JoinMutant::WaitKeepsJoinHalvesPrivate));
        let target: Vec<&Property> = m
            .properties
            .iter()
            .filter(|p| p.name == "private_halves_published_before_a_wait")
            .collect();
        let Outcome::Found(trace) = search(&m, &target, 1, 2, 2_000_000) else {
            panic!("no run found at one worker");
        };
        crate::smt::replay(&m, &trace).unwrap();
    }
}
