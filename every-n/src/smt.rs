//! The model as SMT-LIB for z3: the three obligations of an inductive
//! invariant (the proof for every `N`), and a given run's parameters
//! (`follow`).

use crate::lin::{Atom, Lin};
use crate::model::{Clause, Model, Property, Transition};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn num(c: i64) -> String {
    if c < 0 {
        format!("(- {})", -c)
    } else {
        c.to_string()
    }
}

/// `lin` with each name printed by `name`.
pub(crate) fn lin(l: &Lin, name: &dyn Fn(&str) -> String) -> String {
    let mut parts: Vec<String> = l
        .terms
        .iter()
        .map(|(v, &c)| {
            if c == 1 {
                name(v)
            } else {
                format!("(* {} {})", num(c), name(v))
            }
        })
        .collect();
    if l.constant != 0 || parts.is_empty() {
        parts.push(num(l.constant));
    }
    if parts.len() == 1 {
        parts.pop().unwrap()
    } else {
        format!("(+ {})", parts.join(" "))
    }
}

pub(crate) fn atom(a: &Atom, name: &dyn Fn(&str) -> String) -> String {
    match a {
        Atom::Ge(l) => format!("(>= {} 0)", lin(l, name)),
        Atom::Eq(l) => format!("(= {} 0)", lin(l, name)),
    }
}

pub(crate) fn and(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "true".to_string(),
        1 => parts.into_iter().next().unwrap(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

pub(crate) fn or(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "false".to_string(),
        1 => parts.into_iter().next().unwrap(),
        _ => format!("(or {})", parts.join(" ")),
    }
}

fn bad(p: &Property, name: &dyn Fn(&str) -> String) -> String {
    or(p.bad
        .iter()
        .map(|conj| and(conj.iter().map(|a| atom(a, name)).collect()))
        .collect())
}

/// The new value of every state variable after `t`.
pub(crate) fn next_values(model: &Model, t: &Transition) -> Vec<Lin> {
    model
        .vars
        .iter()
        .map(|v| {
            t.update
                .iter()
                .find(|(n, _)| n == v)
                .map(|(_, l)| l.clone())
                .unwrap_or_else(|| crate::lin::var(v))
        })
        .collect()
}

/// One step of a counterexample.
pub struct Step {
    pub transition: usize,
    pub params: BTreeMap<String, i64>,
}

pub struct Trace {
    pub states: Vec<BTreeMap<String, i64>>,
    pub steps: Vec<Step>,
}

pub(crate) struct Z3 {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Z3 {
    pub(crate) fn start() -> std::io::Result<Z3> {
        let mut child = Command::new("z3")
            .arg("-in")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Ok(Z3 {
            child,
            stdin,
            stdout,
        })
    }
    pub(crate) fn send(&mut self, cmd: &str) -> std::io::Result<()> {
        self.stdin.write_all(cmd.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        self.stdin.flush()
    }
    /// One balanced s-expression or atom of output.
    pub(crate) fn read(&mut self) -> std::io::Result<String> {
        let mut text = String::new();
        let mut depth = 0i64;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                return Ok(text);
            }
            depth += line.matches('(').count() as i64 - line.matches(')').count() as i64;
            text.push_str(&line);
            if depth <= 0 && !text.trim().is_empty() {
                return Ok(text);
            }
        }
    }
}

impl Z3 {
    /// Declares the model's variables and `params`, and as zero every other
    /// variable that `mentioned` names (those a sliced model dropped).
    /// Returns the facts that the variables are non-negative (all but `S`
    /// and `I`, the real counters, which the properties check).
    pub(crate) fn declare<'a>(
        &mut self,
        model: &Model,
        params: &[String],
        mentioned: impl Iterator<Item = &'a Atom>,
    ) -> std::io::Result<Vec<String>> {
        for v in model.vars.iter().chain(params) {
            self.send(&format!("(declare-const {v} Int)"))?;
        }
        let mut dropped: Vec<&String> = mentioned
            .flat_map(|a| match a {
                Atom::Ge(l) | Atom::Eq(l) => l.terms.keys(),
            })
            .filter(|v| !model.vars.contains(v) && !params.contains(v))
            .collect();
        dropped.sort();
        dropped.dedup();
        for v in dropped {
            self.send(&format!("(declare-const {v} Int)"))?;
            self.send(&format!("(assert (= {v} 0))"))?;
        }
        Ok(model
            .vars
            .iter()
            .filter(|v| *v != crate::model::S && *v != crate::model::I)
            .map(|v| format!("(>= {v} 0)"))
            .collect())
    }

    /// Whether `facts` hold together in some state (asked in a scope of its
    /// own); if they do, the values z3 gives `vars` there.
    pub(crate) fn model_of(
        &mut self,
        facts: &[String],
        vars: &[String],
    ) -> std::io::Result<Option<BTreeMap<String, i64>>> {
        self.send("(push 1)")?;
        for f in facts {
            self.send(&format!("(assert {f})"))?;
        }
        self.send("(check-sat)")?;
        let answer = self.read()?;
        let out = match answer.trim() {
            "unsat" => None,
            "sat" if vars.is_empty() => Some(BTreeMap::new()),
            "sat" => {
                self.send(&format!("(get-value ({}))", vars.join(" ")))?;
                Some(values(&self.read()?))
            }
            other => return Err(std::io::Error::other(format!("z3 said: {other}"))),
        };
        self.send("(pop 1)")?;
        Ok(out)
    }
}

/// Each state variable's value after `t`, printed over the values before
/// (a variable `t` leaves alone is absent: `after` of it is itself).
pub(crate) fn printed_next(model: &Model, t: &Transition) -> BTreeMap<String, String> {
    model
        .vars
        .iter()
        .zip(next_values(model, t))
        .map(|(v, l)| (v.clone(), lin(&l, &|v: &str| v.to_string())))
        .collect()
}

impl Drop for Z3 {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses `((name value) ...)`, values possibly `(- n)`.
pub(crate) fn values(text: &str) -> BTreeMap<String, i64> {
    let flat = text.replace(['(', ')'], " ( ").replace("( -", "(-");
    let tokens: Vec<&str> = flat.split_whitespace().collect();
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "(" && i + 2 < tokens.len() && tokens[i + 1] != "(" {
            let name = tokens[i + 1];
            let (value, used) = if tokens[i + 2] == "(-" {
                (-tokens[i + 3].parse::<i64>().unwrap_or(0), 4)
            } else if let Ok(v) = tokens[i + 2].parse::<i64>() {
                (v, 3)
            } else {
                i += 1;
                continue;
            };
            out.insert(name.to_string(), value);
            i += used;
        } else {
            i += 1;
        }
    }
    out
}

/// Checks, without the solver, that `trace` is a run of `model`: the first
/// state is initial, every step's guard holds and its update gives the next
/// state. Returns the first disagreement.
pub fn replay(model: &Model, trace: &Trace) -> Result<(), String> {
    let first = &trace.states[0];
    let env0 = |v: &str| first[v];
    if let Some(a) = model.init.iter().find(|a| !a.holds(&env0)) {
        return Err(format!("initial state violates {a:?}"));
    }
    for (j, step) in trace.steps.iter().enumerate() {
        let t = &model.transitions[step.transition];
        let state = &trace.states[j];
        let env = |v: &str| state.get(v).or(step.params.get(v)).copied().unwrap_or(0);
        if let Some(a) = t.guard.iter().find(|a| !a.holds(&env)) {
            return Err(format!("step {j} ({}): guard {a:?} fails", t.name));
        }
        for (v, next) in model.vars.iter().zip(next_values(model, t)) {
            if next.eval(&env) != trace.states[j + 1][v] {
                return Err(format!("step {j} ({}): {v} is wrong", t.name));
            }
        }
    }
    Ok(())
}

pub(crate) fn clause(c: &Clause, name: &dyn Fn(&str) -> String) -> String {
    or(c.dnf
        .iter()
        .map(|conj| and(conj.iter().map(|a| atom(a, name)).collect()))
        .collect())
}

/// Why an obligation failed: which, and the state (and step) z3 found.
pub struct Failure {
    pub obligation: String,
    pub state: BTreeMap<String, i64>,
}

/// Checks that `invariant` holds initially, is preserved by every
/// transition, and excludes the bad states of `properties`, each as one
/// quantifier-free linear-arithmetic query whose answer must be `unsat`.
/// `N` is a free variable in every query: the answer covers every pool
/// size. Returns the obligations checked, or the first that fails.
pub fn check_invariant(
    model: &Model,
    invariant: &[Clause],
    properties: &[&Property],
) -> std::io::Result<Result<usize, Failure>> {
    let mut z3 = Z3::start()?;
    z3.send("(set-logic QF_LIA)")?;
    let params: Vec<String> = {
        let mut all: Vec<String> = model
            .transitions
            .iter()
            .flat_map(|t| t.params.iter().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let id = |v: &str| v.to_string();
    let nonneg = z3.declare(
        model,
        &params,
        invariant.iter().flat_map(|c| c.dnf.iter().flatten()),
    )?;
    let inv_now = and(invariant.iter().map(|c| clause(c, &id)).collect());
    let mut checked = 0;
    let shown: Vec<String> = model.vars.iter().chain(&params).cloned().collect();
    let mut query =
        |z3: &mut Z3, what: String, facts: Vec<String>| -> std::io::Result<Option<Failure>> {
            checked += 1;
            Ok(z3.model_of(&facts, &shown)?.map(|state| Failure {
                obligation: what,
                state,
            }))
        };
    // Initiation.
    let init = and(model.init.iter().map(|a| atom(a, &id)).collect());
    for c in invariant {
        if let Some(f) = query(
            &mut z3,
            format!("initiation of {}", c.name),
            vec![init.clone(), format!("(not {})", clause(c, &id))],
        )? {
            return Ok(Err(f));
        }
    }
    // Consecution: one query per transition and clause.
    for t in &model.transitions {
        let next = printed_next(model, t);
        let after = |v: &str| next.get(v).cloned().unwrap_or_else(|| v.to_string());
        let mut facts = vec![inv_now.clone()];
        facts.extend(t.guard.iter().map(|a| atom(a, &id)));
        facts.extend(nonneg.iter().cloned());
        for c in invariant {
            let mut fs = facts.clone();
            fs.push(format!("(not {})", clause(c, &after)));
            if let Some(f) = query(
                &mut z3,
                format!("consecution of {} under {}", c.name, t.name),
                fs,
            )? {
                return Ok(Err(f));
            }
        }
    }
    // Safety.
    for p in properties {
        let mut fs = vec![inv_now.clone()];
        fs.extend(nonneg.iter().cloned());
        fs.push(bad(p, &id));
        if let Some(f) = query(&mut z3, format!("safety of {}", p.name), fs)? {
            return Ok(Err(f));
        }
    }
    Ok(Ok(checked))
}

/// What the vacuity check found (`vacuity`).
pub struct Vacuity {
    /// The invariant with every variable non-negative has a model, and one
    /// with `N >= 1000` (a proof over an empty set of states, or of small
    /// pools only, proves nothing).
    pub invariant_satisfiable: bool,
    pub invariant_satisfiable_large_n: bool,
    /// Per property, whether its bad states (variables non-negative, no
    /// invariant) exist at all: a property whose bad set is empty is
    /// trivially true.
    pub bad_satisfiable: Vec<(&'static str, bool)>,
    /// Transitions whose guard the invariant never allows, each with the
    /// clauses without which it would be allowed (the reason it is dead).
    pub dead: Vec<(String, Vec<&'static str>)>,
    /// Transitions checked.
    pub transitions: usize,
}

/// The vacuity check of a proof by `check_invariant`: that the invariant,
/// each property's bad set and each transition's guard (under the
/// invariant) are satisfiable. A dead transition is not an error (some are
/// dead by design: a set latch is never found in a lock-holding phase), but
/// each is reported with the clauses that kill it.
pub fn vacuity(
    model: &Model,
    invariant: &[Clause],
    properties: &[&Property],
) -> std::io::Result<Vacuity> {
    let mut z3 = Z3::start()?;
    z3.send("(set-logic QF_LIA)")?;
    let mut params: Vec<String> = model
        .transitions
        .iter()
        .flat_map(|t| t.params.iter().cloned())
        .collect();
    params.sort();
    params.dedup();
    let id = |v: &str| v.to_string();
    for v in model.vars.iter().chain(&params) {
        z3.send(&format!("(declare-const {v} Int)"))?;
    }
    let nonneg: Vec<String> = model.vars.iter().map(|v| format!("(>= {v} 0)")).collect();
    let sat = |z3: &mut Z3, facts: &[String]| -> std::io::Result<bool> {
        Ok(z3.model_of(facts, &[])?.is_some())
    };
    let clauses: Vec<String> = invariant.iter().map(|c| clause(c, &id)).collect();
    let with_invariant = |extra: &[String]| -> Vec<String> {
        let mut facts = clauses.clone();
        facts.extend(nonneg.iter().cloned());
        facts.extend(extra.iter().cloned());
        facts
    };
    let invariant_satisfiable = sat(&mut z3, &with_invariant(&[]))?;
    let invariant_satisfiable_large_n = sat(
        &mut z3,
        &with_invariant(&[format!("(>= {} 1000)", crate::model::N)]),
    )?;
    let mut bad_satisfiable = Vec::new();
    for p in properties {
        let mut facts = nonneg.clone();
        facts.push(bad(p, &id));
        bad_satisfiable.push((p.name, sat(&mut z3, &facts)?));
    }
    let mut dead = Vec::new();
    for t in &model.transitions {
        let guard: Vec<String> = t.guard.iter().map(|a| atom(a, &id)).collect();
        if sat(&mut z3, &with_invariant(&guard))? {
            continue;
        }
        let mut why = Vec::new();
        for (skip, c) in invariant.iter().enumerate() {
            let mut facts: Vec<String> = clauses
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, f)| f.clone())
                .collect();
            facts.extend(nonneg.iter().cloned());
            facts.extend(guard.iter().cloned());
            if sat(&mut z3, &facts)? {
                why.push(c.name);
            }
        }
        dead.push((t.name.clone(), why));
    }
    Ok(Vacuity {
        invariant_satisfiable,
        invariant_satisfiable_large_n,
        bad_satisfiable,
        dead,
        transitions: model.transitions.len(),
    })
}

/// The run that takes the transitions named in `schedule`, one after the
/// other, from the initial state with `N = n`; z3 picks each step's
/// parameters. Fails naming the first step whose guard cannot hold.
pub fn follow(
    model: &Model,
    schedule: &[String],
    n: i64,
) -> std::io::Result<Result<Trace, String>> {
    let mut z3 = Z3::start()?;
    z3.send("(set-logic QF_LIA)")?;
    let mut state: BTreeMap<String, i64> = model.vars.iter().map(|v| (v.clone(), 0)).collect();
    state.insert(crate::model::N.to_string(), n);
    // The initial state: every worker busy.
    state.insert("busy_u".to_string(), n);
    let mut trace = Trace {
        states: vec![state.clone()],
        steps: Vec::new(),
    };
    for (j, name) in schedule.iter().enumerate() {
        let Some(index) = model.transitions.iter().position(|t| &t.name == name) else {
            return Ok(Err(format!("step {}: no transition named {name}", j + 1)));
        };
        let t = &model.transitions[index];
        let value = |v: &str| match state.get(v) {
            Some(x) if *x < 0 => format!("(- {})", -x),
            Some(x) => x.to_string(),
            None => v.to_string(),
        };
        z3.send("(push 1)")?;
        for p in &t.params {
            z3.send(&format!("(declare-const {p} Int)"))?;
        }
        for a in &t.guard {
            z3.send(&format!("(assert {})", atom(a, &value)))?;
        }
        z3.send("(check-sat)")?;
        let answer = z3.read()?;
        if answer.trim() != "sat" {
            return Ok(Err(format!("step {} ({name}) is not enabled", j + 1)));
        }
        let params = if t.params.is_empty() {
            BTreeMap::new()
        } else {
            z3.send(&format!("(get-value ({}))", t.params.join(" ")))?;
            values(&z3.read()?)
        };
        z3.send("(pop 1)")?;
        let env = |v: &str| state.get(v).or(params.get(v)).copied().unwrap_or(0);
        let next: BTreeMap<String, i64> = model
            .vars
            .iter()
            .zip(next_values(model, t))
            .map(|(v, l)| (v.clone(), l.eval(&env)))
            .collect();
        trace.steps.push(Step {
            transition: index,
            params,
        });
        state = next;
        trace.states.push(state.clone());
    }
    Ok(Ok(trace))
}
