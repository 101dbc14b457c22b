//! Explicit-state breadth-first search of the model at one concrete pool
//! size: the counterexamples of mutants. The model's transitions are the
//! same data the solver checks; here every step is evaluated on integers,
//! so a run of a dozen steps is found in a fraction of a second, where one
//! SMT query per depth on the whole unrolling took minutes.
//!
//! The model at a fixed `N` is finite except for the queues and the
//! wake-ups in flight; the search caps each such variable (all but
//! `Model::bounded`) at `cap` (a state past a cap is not explored, and the
//! result says whether that happened).
//! Transition parameters are tried from 0 to `N`: every parameter of the
//! full-width model counts workers.

use crate::lin::{Atom, Lin};
use crate::model::{Model, Property};
use crate::smt::{Step, Trace};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// A linear expression over the slots `state ++ params`.
struct Expr {
    terms: Vec<(usize, i64)>,
    constant: i64,
}

impl Expr {
    fn eval(&self, env: &[i64]) -> i64 {
        self.terms.iter().map(|&(i, c)| c * env[i]).sum::<i64>() + self.constant
    }
}

enum Test {
    Ge(Expr),
    Eq(Expr),
}

impl Test {
    fn holds(&self, env: &[i64]) -> bool {
        match self {
            Test::Ge(e) => e.eval(env) >= 0,
            Test::Eq(e) => e.eval(env) == 0,
        }
    }
}

struct Compiled {
    params: usize,
    /// The guards that mention no parameter.
    state_guard: Vec<Test>,
    guard: Vec<Test>,
    /// `(state slot, new value)`.
    update: Vec<(usize, Expr)>,
}

/// What a search found.
pub enum Outcome {
    /// The shortest run (within the caps) to a state a property forbids.
    Found(Trace),
    /// No reachable state within the caps is bad.
    Safe {
        states: usize,
        depth: usize,
        /// Whether some state was cut off at a cap.
        capped: bool,
    },
    /// Gave up after `states` states.
    TooBig { states: usize },
}

/// Breadth-first search from the initial state at `N = n` for a state that
/// one of `properties` forbids, exploring at most `max_states` states.
pub fn search(
    model: &Model,
    properties: &[&Property],
    n: i64,
    cap: i64,
    max_states: usize,
) -> Outcome {
    let nv = model.vars.len();
    let slot = |params: &[String], name: &str| -> usize {
        model
            .vars
            .iter()
            .position(|v| v == name)
            .or_else(|| params.iter().position(|p| p == name).map(|i| nv + i))
            .unwrap_or_else(|| panic!("unknown name {name}"))
    };
    let expr = |params: &[String], l: &Lin| Expr {
        terms: l.terms.iter().map(|(v, &c)| (slot(params, v), c)).collect(),
        constant: l.constant,
    };
    let test = |params: &[String], a: &Atom| match a {
        Atom::Ge(l) => Test::Ge(expr(params, l)),
        Atom::Eq(l) => Test::Eq(expr(params, l)),
    };
    let transitions: Vec<Compiled> = model
        .transitions
        .iter()
        .map(|t| Compiled {
            params: t.params.len(),
            state_guard: t
                .guard
                .iter()
                .filter(|a| match a {
                    Atom::Ge(l) | Atom::Eq(l) => l.terms.keys().all(|v| !t.params.contains(v)),
                })
                .map(|a| test(&t.params, a))
                .collect(),
            guard: t.guard.iter().map(|a| test(&t.params, a)).collect(),
            update: t
                .update
                .iter()
                .map(|(v, l)| (slot(&t.params, v), expr(&t.params, l)))
                .collect(),
        })
        .collect();
    let bad: Vec<Vec<Test>> = properties
        .iter()
        .flat_map(|p| p.bad.iter())
        .map(|conj| conj.iter().map(|a| test(&[], a)).collect())
        .collect();
    let is_bad = |s: &[i64]| bad.iter().any(|conj| conj.iter().all(|t| t.holds(s)));
    let capped: Vec<bool> = model
        .vars
        .iter()
        .map(|v| !model.bounded.contains(v))
        .collect();

    let mut init = vec![0i64; nv];
    for (v, value) in (model.start)(n) {
        init[slot(&[], &v)] = value;
    }
    let init_env = |v: &str| init[slot(&[], v)];
    assert!(
        model.init.iter().all(|a| a.holds(&init_env)),
        "the search's start is not an initial state of the model"
    );

    // state -> (parent, transition, params), in discovery order.
    let mut seen: HashMap<Vec<i64>, usize> = HashMap::new();
    let mut nodes: Vec<(Vec<i64>, usize, usize, Vec<i64>)> = Vec::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone(), 0);
    nodes.push((init.clone(), usize::MAX, 0, Vec::new()));
    queue.push_back((0usize, 0usize));
    let mut was_capped = false;
    let mut depth_reached = 0;
    let mut found = if is_bad(&init) { Some(0) } else { None };
    let mut env = Vec::new();
    while let (None, Some((node, depth))) = (found, queue.pop_front()) {
        depth_reached = depth_reached.max(depth);
        let state = nodes[node].0.clone();
        for (ti, t) in transitions.iter().enumerate() {
            // The guards on the state alone first: most transitions are
            // disabled before any parameter is tried.
            if !t.state_guard.iter().all(|g| g.holds(&state)) {
                continue;
            }
            // Every parameter assignment in 0..=n.
            let mut params = vec![0i64; t.params];
            loop {
                env.clear();
                env.extend_from_slice(&state);
                env.extend_from_slice(&params);
                if t.guard.iter().all(|g| g.holds(&env)) {
                    let mut next = state.clone();
                    for (i, e) in &t.update {
                        next[*i] = e.eval(&env);
                    }
                    if next
                        .iter()
                        .zip(&capped)
                        .any(|(&value, &c)| c && value > cap)
                    {
                        was_capped = true;
                    } else if !seen.contains_key(&next) {
                        let id = nodes.len();
                        seen.insert(next.clone(), id);
                        let bad_now = is_bad(&next);
                        nodes.push((next, node, ti, params.clone()));
                        if bad_now {
                            found = Some(id);
                            break;
                        }
                        queue.push_back((id, depth + 1));
                    }
                }
                // Next assignment.
                let mut k = 0;
                while k < params.len() && params[k] == n {
                    params[k] = 0;
                    k += 1;
                }
                if k == params.len() {
                    break;
                }
                params[k] += 1;
            }
            if found.is_some() {
                break;
            }
        }
        if nodes.len() > max_states {
            return Outcome::TooBig {
                states: nodes.len(),
            };
        }
    }
    let Some(end) = found else {
        return Outcome::Safe {
            states: nodes.len(),
            depth: depth_reached,
            capped: was_capped,
        };
    };
    // Walk back to the start.
    let mut path = Vec::new();
    let mut at = end;
    while at != 0 {
        path.push(at);
        at = nodes[at].1;
    }
    path.reverse();
    let as_map = |s: &[i64]| -> BTreeMap<String, i64> {
        model.vars.iter().cloned().zip(s.iter().copied()).collect()
    };
    let mut states = vec![as_map(&nodes[0].0)];
    let mut steps = Vec::new();
    for id in path {
        let (s, _, ti, params) = &nodes[id];
        states.push(as_map(s));
        steps.push(Step {
            transition: *ti,
            params: model.transitions[*ti]
                .params
                .iter()
                .cloned()
                .zip(params.iter().copied())
                .collect(),
        });
    }
    Outcome::Found(Trace { states, steps })
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::model::{Mutant, Width};

    fn run(mutant: Option<Mutant>, n: i64) -> Outcome {
        let model = Model::before_terminate(mutant);
        let all: Vec<&Property> = model.properties.iter().collect();
        search(&model, &all, n, 2, 1_000_000)
    }

    /// Without a mutant the search finds no bad state (the proof says so
    /// for every N), and it explores more than the start.
    #[test]
    fn unmutated_model_is_safe_at_two_workers() {
        match run(None, 2) {
            Outcome::Safe { states, .. } => assert!(states > 1000, "{states} states"),
            Outcome::Found(t) => panic!("bad state after {} steps", t.steps.len()),
            Outcome::TooBig { states } => panic!("stopped at {states} states"),
        }
    }

    /// A mutant's run is found, is a run of the model (checked without
    /// the search's code), and needs two workers: at one the only worker
    /// looked at is the blocked one, and the lossy loop wakes it.
    #[test]
    fn lossy_wake_loop_is_found_at_two_workers() {
        assert!(matches!(
            run(Some(Mutant::WakeLoopCountsAttempts), 1),
            Outcome::Safe { .. }
        ));
        let model = Model::new(Width::Full, Some(Mutant::WakeLoopCountsAttempts))
            .slice(&Model::after_terminate());
        let Outcome::Found(trace) = run(Some(Mutant::WakeLoopCountsAttempts), 2) else {
            panic!("no run found");
        };
        crate::smt::replay(&model, &trace).unwrap();
        assert!(trace.steps.len() >= 8, "{} steps", trace.steps.len());
    }
}
