//! Liveness for every `N`, as response properties under weak fairness of
//! the protocol's own steps ([`Response`]): before terminate, a job queued
//! while some worker is inactive (searching or asleep) is followed by a
//! take ([`queued_job_is_taken`]); after terminate, an inactive worker
//! leaves the inactive phases ([`searcher_leaves_after_terminate`]).
//! `docs/every-n.md` ("Liveness") states the theorems, the fairness they
//! assume and why the rule below proves them.
//!
//! The rule is a ranking argument, each step of it a quantifier-free
//! linear-arithmetic query with `N` free. The *region* is the states the
//! property speaks of (a job queued and some worker inactive, for the
//! first); no step but a *goal* step (a take, for the first) leaves it.
//! In each state of the region some *option* holds: a situation in
//! which one process (a worker in some phase, a thread with a wake-up to
//! deliver, a poster) has a step of its own enabled. Each option has a
//! rank; the state's rank is the least rank among the options that hold.
//! z3 checks that
//! - every step of an option's process that is not a goal reaches a state
//!   where an option of lower rank holds (*progress*),
//! - every other step that is not a goal keeps the option, or reaches one
//!   of lower rank (*persistence*),
//! - while an option holds, its process has a step enabled (*enabled*),
//! - in every state of the region some option holds (*cover*).
//!
//! So the rank never goes up and is a natural number; if it stayed at `k`
//! forever without a goal step, the option of rank `k` that holds would hold
//! forever (persistence) with its process's step enabled all along
//! (enabled), and weak fairness would make that process step, which
//! lowers the rank (progress): a contradiction. The process's steps are
//! the transitions that lower the option's own count (`Progress::count`):
//! in the counter abstraction the workers of a phase are interchangeable,
//! so a step enabled for one of them is enabled for each.
//!
//! The invariant of `model::invariant` is assumed in every query, with
//! the property's `strengthening`, which is proved inductive here on top
//! of it.

use crate::lin::{int, sum, var, Atom, Lin};
use crate::model::{invariant, Clause, Model, Width, INJ_EMPTY, INJ_MORE, N, QD, QI, QP, TOK};
use crate::smt::{and, atom, clause, next_values, or, printed_next, Failure, Step, Trace, Z3};
use std::collections::BTreeMap;

/// A situation in which one process has a step of its own to take.
#[derive(Clone, Debug)]
pub struct Progress {
    pub name: &'static str,
    /// Lower is closer to a take.
    pub rank: u32,
    /// When the option holds (a conjunction).
    pub holds: Vec<Atom>,
    /// How many processes are in the situation: the option's steps are
    /// the transitions that lower this count.
    pub count: Lin,
}

fn progress(name: &'static str, rank: u32, count: Lin, extra: Vec<Atom>) -> Progress {
    let mut holds = vec![count.clone().ge(1)];
    holds.extend(extra);
    Progress {
        name,
        rank,
        holds,
        count,
    }
}

/// The jobs queued.
fn queued() -> Lin {
    var(QI) + var(QD) + var(QP)
}

/// The posts still to come: outside threads between their push and post,
/// workers between `WorkerThread::push` and `Sleep::new_internal_jobs`.
fn posts_to_come() -> Lin {
    sum([INJ_EMPTY, INJ_MORE, "busy_posting_u", "waiting_posting_u"])
}

/// A response property checked by the rule of the module comment: from
/// every state of `region` the invariant allows, every weakly fair run
/// takes a `goal` transition.
pub struct Response {
    pub name: &'static str,
    pub region: Vec<Atom>,
    pub options: Vec<Progress>,
    /// Clauses proved inductive on top of `model::invariant(Width::Full)`.
    pub strengthening: Vec<Clause>,
    pub goal: fn(&crate::model::Transition) -> bool,
}

/// `queued_job_is_taken`: before terminate, a job queued while some worker
/// is inactive is followed by a take.
pub fn queued_job_is_taken() -> Response {
    Response {
        name: "queued_job_is_taken",
        region: region(),
        options: options(),
        strengthening: strengthening(),
        goal: is_take,
    }
}

/// `searcher_leaves_after_terminate`: after terminate, while some worker
/// is inactive (searching, sleepy or asleep), some inactive worker leaves
/// the inactive phases: it exits its main loop, or takes a job.
pub fn searcher_leaves_after_terminate() -> Response {
    use crate::model::{w, Flag, Phase, I, TERM};
    let set = |phases: &[Phase]| -> Lin {
        sum(phases
            .iter()
            .flat_map(|&p| [w(p, Flag::Set), w(p, Flag::SetWakeOwed)]))
    };
    let owed = |p: Phase| var(&w(p, Flag::SetWakeOwed));
    let inactive_unset = sum(Phase::ALL
        .iter()
        .filter(|p| p.inactive())
        .map(|&p| w(p, Flag::Unset)));
    Response {
        name: "searcher_leaves_after_terminate",
        region: vec![var(TERM).eq(1), var(I).ge(1)],
        options: vec![
            // A searcher probes its set latch before each round.
            progress(
                "a searcher with its latch set leaves (stop_looking)",
                1,
                set(&[Phase::Idle, Phase::SleepyCur, Phase::SleepyStale]),
                vec![],
            ),
            progress(
                "a woken worker with its latch set returns from sleep",
                2,
                set(&[Phase::Woken]),
                vec![],
            ),
            progress(
                "a drowsy worker's fall_asleep fails on its set latch",
                2,
                set(&[Phase::DrowsyCur, Phase::DrowsyStale]),
                vec![],
            ),
            progress(
                "the setter's owed wake-up wakes its blocked owner",
                3,
                owed(Phase::Blocked),
                vec![],
            ),
            progress(
                "a counted worker with a wake-up owed makes its final look",
                4,
                owed(Phase::Pending),
                vec![],
            ),
            // Joins the count (current snapshot, then rank 4) or abandons
            // (a moved JEC, then rank 1); a post may move it from the first
            // case to the second.
            progress(
                "a worker holding its lock with a wake-up owed joins the count or abandons",
                5,
                owed(Phase::LockedCur) + owed(Phase::LockedStale),
                vec![],
            ),
            // `Registry::terminate` sets each latch once, in some order:
            // its steps are finitely many, so an option of its that stays
            // enabled is taken (docs/every-n.md, "Liveness").
            progress(
                "Registry::terminate sets an inactive worker's latch",
                6,
                inactive_unset,
                vec![],
            ),
        ],
        strengthening: vec![],
        goal: lowers_inactive,
    }
}

/// A transition that takes a worker out of the inactive phases (an exit
/// through `stop_looking`, or `work_found`): it lowers `I`.
pub fn lowers_inactive(t: &crate::model::Transition) -> bool {
    use crate::model::I;
    t.update.iter().any(|(n, l)| n == I && *l == var(I) - 1)
}

/// The options, by rank. Before terminate every latch flag is `_u`.
pub fn options() -> Vec<Progress> {
    vec![
        // A sleepy worker's next round: with a job queued it cannot find
        // every queue empty, so it takes a job.
        progress(
            "a sleepy worker searches",
            1,
            sum(["sleepy_cur_u", "sleepy_stale_u"]),
            vec![],
        ),
        progress(
            "an idle worker announces or takes",
            2,
            var("idle_u"),
            vec![],
        ),
        progress(
            "a woken worker returns from sleep",
            3,
            var("woken_u"),
            vec![],
        ),
        progress(
            "a worker with a moved JEC abandons its sleep",
            3,
            var("locked_stale_u"),
            vec![],
        ),
        progress(
            "a counted worker's final look finds the injected job",
            3,
            var("pending_u"),
            vec![var(QI).ge(1)],
        ),
        progress(
            "a worker with a moved JEC takes its sleep lock",
            4,
            var("drowsy_stale_u"),
            vec![],
        ),
        progress(
            "a wake-up in flight wakes a blocked worker",
            4,
            var(TOK),
            vec![var("blocked_u").ge(1)],
        ),
        progress(
            "a counted worker blocks beside a wake-up in flight",
            5,
            var("pending_u"),
            vec![var(QI).eq(0), var(TOK).ge(1)],
        ),
        progress("a post comes", 6, posts_to_come(), vec![]),
    ]
}

/// The region: a job queued and some worker inactive (`I >= 1`, which the
/// invariant ties to the workers' phases).
pub fn region() -> Vec<Atom> {
    vec![queued().ge(1), var(crate::model::I).ge(1)]
}

/// Clauses proved inductive on top of `model::invariant(Width::Full)`.
pub fn strengthening() -> Vec<Clause> {
    vec![Clause {
        // A worker past its last round with a current snapshot saw every
        // queue empty, and no post has come since (the post's bump would
        // have made its snapshot stale): every injected job queued now has
        // its post still to come, as `model::invariant`'s clause says of
        // internal jobs.
        name: "current_snapshot_past_its_last_round_means_unposted_injections_only",
        dnf: vec![
            vec![sum(["drowsy_cur_u", "locked_cur_u"]).eq(0)],
            vec![var(QI).le(sum([INJ_EMPTY, INJ_MORE]))],
        ],
    }]
}

/// A transition takes a job when it lowers a queue.
pub fn is_take(t: &crate::model::Transition) -> bool {
    [QI, QD, QP].iter().any(|q| {
        t.update
            .iter()
            .find(|(n, _)| n == q)
            .is_some_and(|(_, l)| *l == var(q) - 1)
    })
}

/// How the transition changes `count`: `Some(true)` if it lowers it by a
/// constant (a step of the option), `Some(false)` if it cannot lower it,
/// `None` if it may (not a counter move: a modelling error).
fn lowers(model: &Model, t: &crate::model::Transition, count: &Lin) -> Option<bool> {
    let next: BTreeMap<&String, Lin> = model.vars.iter().zip(next_values(model, t)).collect();
    let mut after = int(count.constant);
    for (v, &c) in &count.terms {
        after = after + next.get(v).cloned().unwrap_or_else(|| var(v)).times(c);
    }
    let delta = after - count.clone();
    if delta.terms.is_empty() && delta.constant < 0 {
        Some(true)
    } else if delta.terms.values().all(|&c| c >= 0) && delta.constant >= 0 {
        Some(false)
    } else {
        None
    }
}

/// What the check found.
pub struct Report {
    pub queries: usize,
    /// Per option: its rank and how many transitions are its steps.
    pub steps: Vec<(&'static str, u32, usize)>,
    /// Vacuity: the region is reachable by the invariant's lights (it has a
    /// state that the invariant allows), and each option holds in some
    /// state of the region.
    pub region_satisfiable: bool,
    pub options_satisfiable: Vec<(&'static str, bool)>,
}

/// Checks `property` on `model` by the rule of the module comment (the
/// model at the full width: `Model::before_terminate` for
/// `queued_job_is_taken`, the whole model for termination).
pub fn check(model: &Model, property: &Response) -> std::io::Result<Result<Report, Failure>> {
    let mut clauses = invariant(Width::Full);
    let strong = &property.strengthening;
    clauses.extend(strong.iter().cloned());
    let options = &property.options;
    let region = &property.region;
    let is_goal = property.goal;

    let mut z3 = Z3::start()?;
    z3.send("(set-logic QF_LIA)")?;
    for t in &model.transitions {
        assert!(
            t.params.is_empty(),
            "{}: liveness needs parameter-free transitions",
            t.name
        );
    }
    let id = |v: &str| v.to_string();
    // Each transition's new values, printed once: `after(t)` names them.
    let nexts: Vec<BTreeMap<String, String>> = model
        .transitions
        .iter()
        .map(|t| printed_next(model, t))
        .collect();
    let after = |t: usize| {
        let next = &nexts[t];
        move |v: &str| next.get(v).cloned().unwrap_or_else(|| v.to_string())
    };
    let nonneg = z3.declare(
        model,
        &[],
        clauses
            .iter()
            .flat_map(|c| c.dnf.iter().flatten())
            .chain(options.iter().flat_map(|o| o.holds.iter())),
    )?;
    let conj = |atoms: &[Atom], name: &dyn Fn(&str) -> String| -> String {
        and(atoms.iter().map(|a| atom(a, name)).collect())
    };
    let inv_now = and(clauses.iter().map(|c| clause(c, &id)).collect());
    let region_now = conj(region, &id);
    let mut queries = 0;
    let shown = model.vars.clone();
    let mut sat = |z3: &mut Z3, facts: &[String]| {
        queries += 1;
        z3.model_of(facts, &shown)
    };
    let fail = |what: String, state: BTreeMap<String, i64>| {
        Ok(Err(Failure {
            obligation: what,
            state,
        }))
    };
    let base = |extra: Vec<String>| -> Vec<String> {
        let mut f = vec![inv_now.clone(), region_now.clone()];
        f.extend(nonneg.iter().cloned());
        f.extend(extra);
        f
    };

    // The strengthening is inductive: initiation and consecution, with the
    // whole invariant assumed before the step.
    let init = conj(&model.init, &id);
    for c in strong {
        if let Some(s) = sat(
            &mut z3,
            &[init.clone(), format!("(not {})", clause(c, &id))],
        )? {
            return fail(format!("initiation of {}", c.name), s);
        }
    }
    for (ti, t) in model.transitions.iter().enumerate() {
        let mut facts = vec![inv_now.clone()];
        facts.extend(nonneg.iter().cloned());
        facts.extend(t.guard.iter().map(|a| atom(a, &id)));
        for c in strong {
            let mut fs = facts.clone();
            fs.push(format!("(not {})", clause(c, &after(ti))));
            if let Some(s) = sat(&mut z3, &fs)? {
                return fail(format!("consecution of {} under {}", c.name, t.name), s);
            }
        }
    }

    // Cover: some option holds everywhere in the region.
    let any_option = or(options.iter().map(|o| conj(&o.holds, &id)).collect());
    if let Some(s) = sat(&mut z3, &base(vec![format!("(not {any_option})")]))? {
        return fail(
            "cover: a state of the region where no option holds".into(),
            s,
        );
    }

    let mut steps_per_option = Vec::new();
    for o in options {
        let holds_now = conj(&o.holds, &id);
        let mut steps = Vec::new();
        for t in &model.transitions {
            match lowers(model, t, &o.count) {
                Some(true) => steps.push(t),
                Some(false) => {}
                None => panic!("{}: not a counter move for option {}", t.name, o.name),
            }
        }
        steps_per_option.push((o.name, o.rank, steps.len()));
        // Enabled: one of its steps can be taken.
        let enabled = or(steps.iter().map(|t| conj(&t.guard, &id)).collect());
        if let Some(s) = sat(
            &mut z3,
            &base(vec![holds_now.clone(), format!("(not {enabled})")]),
        )? {
            return fail(format!("enabled: {} has no step", o.name), s);
        }
        for (ti, t) in model.transitions.iter().enumerate() {
            if is_goal(t) {
                continue;
            }
            let lower = or(options
                .iter()
                .filter(|p| p.rank < o.rank)
                .map(|p| conj(&p.holds, &after(ti)))
                .collect());
            let is_step = steps.iter().any(|s| std::ptr::eq(*s, t));
            let wanted = if is_step {
                lower
            } else {
                or(vec![conj(&o.holds, &after(ti)), lower])
            };
            let mut fs = base(vec![holds_now.clone()]);
            fs.extend(t.guard.iter().map(|a| atom(a, &id)));
            fs.push(format!("(not {wanted})"));
            if let Some(s) = sat(&mut z3, &fs)? {
                let what = if is_step { "progress" } else { "persistence" };
                return fail(format!("{what} of {} under {}", o.name, t.name), s);
            }
        }
    }

    // The region: no step but a goal step leaves it.
    for (ti, t) in model.transitions.iter().enumerate() {
        if is_goal(t) {
            continue;
        }
        let mut fs = base(t.guard.iter().map(|a| atom(a, &id)).collect());
        fs.push(format!("(not {})", conj(region, &after(ti))));
        if let Some(s) = sat(&mut z3, &fs)? {
            return fail(
                format!("region: {} leaves it without a goal step", t.name),
                s,
            );
        }
    }

    // Vacuity.
    let region_satisfiable = sat(&mut z3, &base(vec![]))?.is_some()
        && sat(&mut z3, &base(vec![format!("(>= {N} 1000)")]))?.is_some();
    let mut options_satisfiable = Vec::new();
    for o in options {
        options_satisfiable.push((
            o.name,
            sat(&mut z3, &base(vec![conj(&o.holds, &id)]))?.is_some(),
        ));
    }
    Ok(Ok(Report {
        queries,
        steps: steps_per_option,
        region_satisfiable,
        options_satisfiable,
    }))
}

/// A run that refutes liveness at a concrete `N`: a prefix from the
/// initial state, then a cycle of steps back to the prefix's last state, in
/// the region, with no take; weakly fair (`find_lasso`).
pub struct Lasso {
    /// The run: its last state is `trace.states[cycle_from]`.
    pub trace: Trace,
    /// Where the cycle starts.
    pub cycle_from: usize,
}

/// Searches the model at `N = n` for a [`Lasso`]: every reachable state
/// (queues, posts and wake-ups in flight capped at `cap`), then, from each
/// one in the region, a cycle of non-take steps that stays in the region
/// and is weakly fair: no class of process (the workers of one phase, the
/// wake-ups in flight, the posts to come) has a step enabled in every
/// state of the cycle while none of the cycle's steps is one of its.
pub fn find_lasso(model: &Model, n: i64, cap: i64) -> Option<Lasso> {
    use std::collections::{HashMap, VecDeque};
    let index: HashMap<&str, usize> = model
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    // The transitions compiled to slot indices: a guard atom is
    // `(terms, constant, is_equality)`, an update `(slot, terms, constant)`.
    type Terms = Vec<(usize, i64)>;
    let compile = |l: &Lin| -> (Terms, i64) {
        (
            l.terms
                .iter()
                .map(|(v, &c)| (index[v.as_str()], c))
                .collect(),
            l.constant,
        )
    };
    let eval = |(terms, c): &(Terms, i64), st: &[i64]| -> i64 {
        terms.iter().map(|&(i, k)| k * st[i]).sum::<i64>() + c
    };
    let compile_atoms = |atoms: &[Atom]| -> Vec<((Terms, i64), bool)> {
        atoms
            .iter()
            .map(|a| match a {
                Atom::Ge(l) => (compile(l), false),
                Atom::Eq(l) => (compile(l), true),
            })
            .collect()
    };
    let holds = |atoms: &[((Terms, i64), bool)], st: &[i64]| {
        atoms.iter().all(|(l, is_eq)| {
            let x = eval(l, st);
            if *is_eq {
                x == 0
            } else {
                x >= 0
            }
        })
    };
    let guards: Vec<_> = model
        .transitions
        .iter()
        .map(|t| compile_atoms(&t.guard))
        .collect();
    let updates: Vec<Vec<(usize, (Terms, i64))>> = model
        .transitions
        .iter()
        .map(|t| {
            t.update
                .iter()
                .map(|(v, l)| (index[v.as_str()], compile(l)))
                .collect()
        })
        .collect();
    let region_atoms = compile_atoms(&region());
    let enabled = |st: &[i64], ti: usize| holds(&guards[ti], st);
    let apply = |st: &[i64], ti: usize| -> Vec<i64> {
        let mut next = st.to_vec();
        for (slot, l) in &updates[ti] {
            next[*slot] = eval(l, st);
        }
        next
    };
    let capped: Vec<usize> = model
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| !model.bounded.contains(v))
        .map(|(i, _)| i)
        .collect();
    let within_caps = |st: &[i64]| capped.iter().all(|&i| st[i] <= cap);
    let in_region = |st: &[i64]| holds(&region_atoms, st);
    // The initial state.
    let mut init = vec![0; model.vars.len()];
    for (v, x) in (model.start)(n) {
        init[index[v.as_str()]] = x;
    }
    let mut seen: HashMap<Vec<i64>, Option<(usize, usize)>> = HashMap::new();
    let mut order = vec![init.clone()];
    seen.insert(init.clone(), None);
    let mut queue = VecDeque::from([0usize]);
    while let Some(at) = queue.pop_front() {
        let st = order[at].clone();
        for ti in 0..model.transitions.len() {
            if !enabled(&st, ti) {
                continue;
            }
            let next = apply(&st, ti);
            if !within_caps(&next) || seen.contains_key(&next) {
                continue;
            }
            seen.insert(next.clone(), Some((at, ti)));
            order.push(next);
            queue.push_back(order.len() - 1);
        }
    }
    let position: HashMap<&Vec<i64>, usize> =
        order.iter().enumerate().map(|(i, s)| (s, i)).collect();
    // The classes of processes, each by the count its steps lower.
    let classes: Vec<Lin> = model
        .vars
        .iter()
        .filter(|v| v.ends_with("_u") && *v != "hung_u")
        .map(|v| var(v))
        .chain([var(TOK), var(INJ_EMPTY), var(INJ_MORE)])
        .collect();
    let step_of: Vec<Vec<bool>> = classes
        .iter()
        .map(|c| {
            model
                .transitions
                .iter()
                .map(|t| lowers(model, t, c) == Some(true))
                .collect()
        })
        .collect();
    // The graph of region states and non-take steps, its strongly
    // connected components (Tarjan, iterative).
    let m = order.len();
    let edges: Vec<Vec<(usize, usize)>> = (0..m)
        .map(|at| {
            if !in_region(&order[at]) {
                return Vec::new();
            }
            model
                .transitions
                .iter()
                .enumerate()
                .filter(|&(ti, t)| !is_take(t) && enabled(&order[at], ti))
                .filter_map(|(ti, _)| position.get(&apply(&order[at], ti)).map(|&next| (next, ti)))
                .filter(|&(next, _)| in_region(&order[next]))
                .collect()
        })
        .collect();
    let components = tarjan(&edges);
    // The shortest lasso over the components that have a fair cycle.
    let mut best: Option<Lasso> = None;
    for comp in components {
        let member: std::collections::HashSet<usize> = comp.iter().copied().collect();
        let inner = |at: usize| {
            edges[at]
                .iter()
                .filter(|(n, _)| member.contains(n))
                .copied()
        };
        if !comp.iter().any(|&at| inner(at).next().is_some()) {
            continue;
        }
        // A fair cycle exists in the component iff every class is stepped
        // by one of its edges or disabled in one of its states; then a
        // tour through one witness per class is one.
        let mut witnesses = Vec::new();
        let mut fair = true;
        for steps_of_class in &step_of {
            let stepped = comp.iter().find_map(|&at| {
                inner(at)
                    .find(|&(_, t)| steps_of_class[t])
                    .map(|(_, t)| (at, t))
            });
            let disabled = comp.iter().copied().find(|&at| {
                !model
                    .transitions
                    .iter()
                    .enumerate()
                    .any(|(ti, _)| steps_of_class[ti] && enabled(&order[at], ti))
            });
            match (stepped, disabled) {
                (Some((at, t)), _) => witnesses.push((at, Some(t))),
                (None, Some(at)) => witnesses.push((at, None)),
                (None, None) => fair = false,
            }
        }
        if !fair {
            continue;
        }
        let path = |from: usize, to: usize| -> Vec<(usize, usize)> {
            let mut parent: HashMap<usize, (usize, usize)> = HashMap::new();
            let mut frontier = VecDeque::from([from]);
            let mut seen_here = std::collections::HashSet::from([from]);
            while let Some(at) = frontier.pop_front() {
                if at == to {
                    break;
                }
                for (next, t) in inner(at) {
                    if seen_here.insert(next) {
                        parent.insert(next, (at, t));
                        frontier.push_back(next);
                    }
                }
            }
            let mut steps = Vec::new();
            let mut at = to;
            while at != from {
                let (prev, t) = parent[&at];
                steps.push((prev, t));
                at = prev;
            }
            steps.reverse();
            steps
        };
        // Weakly fair: each class is stepped or disabled somewhere on it.
        let fair = |cycle: &[(usize, usize)]| {
            (0..classes.len()).all(|k| {
                cycle.iter().any(|&(at, t)| {
                    step_of[k][t]
                        || !(0..model.transitions.len())
                            .any(|ti| step_of[k][ti] && enabled(&order[at], ti))
                })
            })
        };
        // The shortest cycle through some state of the component, if one
        // is fair; else the tour from the component's first state through
        // each witness (taking its step when it is a step) and back.
        let shortest = comp.iter().find_map(|&at| {
            inner(at)
                .map(|(next, t)| {
                    let mut c = vec![(at, t)];
                    c.extend(path(next, at));
                    c
                })
                .filter(|c| fair(c))
                .min_by_key(|c| c.len())
        });
        let cycle = shortest.unwrap_or_else(|| {
            let start = comp[0];
            let mut cycle: Vec<(usize, usize)> = Vec::new();
            let mut at = start;
            for &(w, t) in &witnesses {
                cycle.extend(path(at, w));
                at = w;
                if let Some(t) = t {
                    cycle.push((w, t));
                    at = position[&apply(&order[w], t)];
                }
            }
            cycle.extend(path(at, start));
            if cycle.is_empty() {
                // Every witness is the start state, disabled there: any
                // inner edge and the way back.
                let (next, t) = inner(start).next().unwrap();
                cycle.push((start, t));
                cycle.extend(path(next, start));
            }
            cycle
        });
        let start = cycle[0].0;
        let mut prefix = Vec::new();
        let mut at = start;
        while let Some(Some((prev, t))) = seen.get(&order[at]) {
            prefix.push((*prev, *t));
            at = *prev;
        }
        prefix.reverse();
        let state = |i: usize| -> BTreeMap<String, i64> {
            model
                .vars
                .iter()
                .cloned()
                .zip(order[i].iter().copied())
                .collect()
        };
        let mut states: Vec<BTreeMap<String, i64>> =
            prefix.iter().map(|&(i, _)| state(i)).collect();
        let cycle_from = states.len();
        states.extend(cycle.iter().map(|&(i, _)| state(i)));
        states.push(state(start));
        let steps = prefix
            .iter()
            .chain(&cycle)
            .map(|&(_, t)| Step {
                transition: t,
                params: BTreeMap::new(),
            })
            .collect();
        let lasso = Lasso {
            trace: Trace { states, steps },
            cycle_from,
        };
        if best
            .as_ref()
            .map_or(true, |b| lasso.trace.steps.len() < b.trace.steps.len())
        {
            best = Some(lasso);
        }
    }
    best
}

/// The strongly connected components of a graph given by its edges
/// `(target, label)`, by Tarjan's algorithm without recursion.
fn tarjan(edges: &[Vec<(usize, usize)>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next_index = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i == 0 && index[v] == usize::MAX {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&(w, _)) = edges[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().unwrap();
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::model::Mutant;

    #[test]
    fn no_fair_run_of_one_worker_leaves_a_job_untaken() {
        assert!(find_lasso(&Model::before_terminate(None), 1, 2).is_none());
    }

    #[test]
    fn a_search_that_skips_the_injector_loops_beside_the_job() {
        let model = Model::before_terminate(Some(Mutant::SearchSkipsTheInjector));
        let lasso = find_lasso(&model, 1, 2).expect("a fair run without a take");
        crate::smt::replay(&model, &lasso.trace).unwrap();
        let cycle = &lasso.trace.steps[lasso.cycle_from..];
        assert!(!cycle.is_empty());
        assert!(cycle
            .iter()
            .all(|s| !is_take(&model.transitions[s.transition])));
        assert_eq!(
            lasso.trace.states[lasso.cycle_from],
            *lasso.trace.states.last().unwrap()
        );
        // The worker goes round its sleep with the injected job queued.
        assert!(lasso.trace.states[lasso.cycle_from][QI] >= 1);
    }
}
