//! Trace validation: replays the steps the code records under the checkers
//! (`drowse::sync::record`) on the counter abstraction, one step at a time.
//!
//! The validator keeps each worker's [`Phase`] by index, so the model's
//! worker counts are sums over workers, and the real counters as the
//! last read-modify-write left it. For each recorded step it proposes the
//! next abstract state (the worker's next phase; the counters `S`, `I` and
//! the JEC's parity as the real counters say) and accepts the step only if a
//! transition of [`Model::new`]`(Width::Full, None)` with the step's name is
//! enabled in the current abstract state and leads to exactly that state.
//! So every step is a transition of the model, and the abstract counters
//! agree with the real ones after every step.
//!
//! What is validated (the slice that exists): the counter steps
//! (`start_looking`, `work_found`, `announce_sleepy`, a post's JEC bump,
//! joining the sleeping count, the sleeper's own decrement after its final
//! look, the waker's decrement), giving up a sleep on a moved JEC, and
//! blocking; the steps between a worker's announcement and its compare-and-
//! swap (its last round, `get_sleepy`, `fall_asleep`) and its return from
//! `sleep` after a wake-up are not recorded and are taken as the model's
//! transitions of those names when the next recorded step needs them. The
//! model's queues, wake-ups in flight, pushes and latch flags are not
//! tracked: a guard or update on them is left out (`project`). Validation
//! stops at `Registry::terminate`: latch flags after it are not tracked.

use crate::lin::{Atom, Lin};
use crate::model::{w, Flag, Model, Phase, Width, I, JODD, N, S};
use std::collections::BTreeMap;

/// A recorded step (`drowse::sync::record::Step`, mirrored: this crate does
/// not depend on Drowse).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    StartLooking,
    WorkFound,
    Announce,
    Post,
    JoinSleeping,
    Abandon,
    FinalLookFound,
    Block,
    Woken,
    Terminate,
}

/// The real counters as the model sees them: the two counts and the JEC's
/// parity (unpacked by Drowse, which packs them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Real {
    pub sleeping: i64,
    pub inactive: i64,
    pub jec_odd: i64,
}

impl Real {
    pub fn new(sleeping: usize, inactive: usize, jobs_event_counter: usize) -> Real {
        Real {
            sleeping: sleeping as i64,
            inactive: inactive as i64,
            jec_odd: (jobs_event_counter & 1) as i64,
        }
    }
}

/// A model transition restricted to the variables the validator tracks.
struct Projected {
    name: String,
    guard: Vec<Atom>,
    update: Vec<(String, Lin)>,
}

pub struct Validator {
    phases: Vec<Phase>,
    real: Real,
    /// `S`, `I` and the JEC's parity of the abstract state.
    abstract_counters: Real,
    transitions: Vec<Projected>,
    /// Steps validated so far.
    pub steps: usize,
    /// Set once `Registry::terminate` was recorded.
    pub terminated: bool,
    /// The recorded steps, for the report of a step that left the model.
    history: Vec<String>,
}

/// The variables tracked: `N`, the counters, and the worker counts of
/// each phase with an unset latch.
fn tracked(v: &str) -> bool {
    v == N || v == S || v == I || v == JODD || Phase::ALL.iter().any(|&p| w(p, Flag::Unset) == v)
}

fn project(model: Model) -> Vec<Projected> {
    let model = model.slice(&Model::after_terminate());
    model
        .transitions
        .into_iter()
        .filter(|t| t.params.is_empty())
        .map(|t| Projected {
            name: t.name,
            guard: t
                .guard
                .into_iter()
                .filter(|a| {
                    let lin = match a {
                        Atom::Ge(l) | Atom::Eq(l) => l,
                    };
                    lin.terms.keys().all(|v| tracked(v))
                })
                .collect(),
            update: t
                .update
                .into_iter()
                .filter(|(v, lin)| tracked(v) && lin.terms.keys().all(|v| tracked(v)))
                .collect(),
        })
        .collect()
}

impl Validator {
    /// A pool of `workers` workers, all busy, counters zero (the model's
    /// initial state).
    pub fn new(workers: usize) -> Validator {
        Validator {
            phases: vec![Phase::Busy; workers],
            real: Real::new(0, 0, 0),
            abstract_counters: Real::new(0, 0, 0),
            transitions: project(Model::new(Width::Full, None)),
            steps: 0,
            terminated: false,
            history: Vec::new(),
        }
    }

    /// The counters a read-modify-write left (or the JEC bump read).
    pub fn counters(&mut self, real: Real) {
        self.real = real;
    }

    fn state(&self, phases: &[Phase], real: Real) -> BTreeMap<String, i64> {
        let mut st = BTreeMap::new();
        st.insert(N.to_string(), phases.len() as i64);
        st.insert(S.to_string(), real.sleeping);
        st.insert(I.to_string(), real.inactive);
        st.insert(JODD.to_string(), real.jec_odd);
        for p in Phase::ALL {
            st.insert(w(p, Flag::Unset), 0);
        }
        for &p in phases {
            *st.get_mut(&w(p, Flag::Unset)).unwrap() += 1;
        }
        st
    }

    fn show(st: &BTreeMap<String, i64>) -> String {
        st.iter()
            .filter(|(k, v)| **v != 0 || [S, I, JODD].contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Takes the model transition named `prefix...` from the current
    /// abstract state (`self.phases`, counters as they were) to `phases`
    /// with counters `real`, or says why none does.
    fn take(&mut self, prefix: &str, phases: Vec<Phase>, real: Real) -> Result<(), String> {
        let before = self.state(&self.phases, self.abstract_real());
        let after = self.state(&phases, real);
        let env = |v: &str| before[v];
        let mut tried = Vec::new();
        for t in self
            .transitions
            .iter()
            .filter(|t| t.name.starts_with(prefix))
        {
            if !t.guard.iter().all(|a| a.holds(&env)) {
                tried.push(format!("  {}: not enabled", t.name));
                continue;
            }
            let mut next = before.clone();
            for (v, lin) in &t.update {
                next.insert(v.clone(), lin.eval(&env));
            }
            if next == after {
                self.phases = phases;
                self.abstract_counters = real;
                return Ok(());
            }
            tried.push(format!("  {}: leads to {}", t.name, Self::show(&next)));
        }
        Err(format!(
            "the step `{prefix}` left the model.\n  abstract state before: {}\n  \
             the code's state after: {}\n  transitions of that name:\n{}",
            Self::show(&before),
            Self::show(&after),
            if tried.is_empty() {
                "  (none)".to_string()
            } else {
                tried.join("\n")
            }
        ))
    }

    fn abstract_real(&self) -> Real {
        self.abstract_counters
    }

    fn phase(&self, worker: Option<usize>) -> Result<(usize, Phase), String> {
        let index = worker.ok_or("a worker's step recorded without its index")?;
        let phase = *self
            .phases
            .get(index)
            .ok_or_else(|| format!("worker {index} is not in a pool of {}", self.phases.len()))?;
        Ok((index, phase))
    }

    /// Moves worker `index` to `to` through the transition named `prefix`,
    /// counters unchanged.
    fn implicit(&mut self, prefix: &str, index: usize, to: Phase) -> Result<(), String> {
        let mut phases = self.phases.clone();
        phases[index] = to;
        let real = self.abstract_real();
        self.take(prefix, phases, real)
    }

    /// Validates one recorded step; on failure, what went wrong and the
    /// steps before it.
    pub fn step(&mut self, step: Step, worker: Option<usize>) -> Result<(), String> {
        if self.terminated {
            return Ok(());
        }
        self.history.push(match worker {
            Some(i) => format!("{step:?}(worker {i})"),
            None => format!("{step:?}"),
        });
        self.apply(step, worker).map_err(|e| {
            let start = self.history.len().saturating_sub(12);
            format!(
                "trace validation: step {} {}: {e}\n  the last recorded steps: {}",
                self.history.len(),
                self.history.last().unwrap(),
                self.history[start..].join(", ")
            )
        })?;
        self.steps += 1;
        Ok(())
    }

    fn apply(&mut self, step: Step, worker: Option<usize>) -> Result<(), String> {
        use Phase::*;
        let real = self.real;
        match step {
            Step::Terminate => {
                self.terminated = true;
                Ok(())
            }
            Step::Post => {
                let bumped = self.abstract_real().jec_odd == 0 && real.jec_odd == 1;
                let phases = self
                    .phases
                    .iter()
                    .map(|&p| if bumped { stale(p) } else { p })
                    .collect();
                self.take("Sleep::new_injected_jobs", phases, real)
            }
            _ => {
                let (index, mut phase) = self.phase(worker)?;
                if phase == Woken && matches!(step, Step::WorkFound | Step::Announce) {
                    self.implicit(
                        "Sleep::sleep returns after a wake-up [latch u]",
                        index,
                        Idle,
                    )?;
                    phase = Idle;
                }
                let mut phases = self.phases.clone();
                let (prefix, to) = match step {
                    Step::StartLooking => ("Sleep::start_looking".to_string(), Idle),
                    Step::WorkFound => (format!("Sleep::work_found [{}", short(phase)), Busy),
                    Step::Announce => {
                        if self.abstract_real().jec_odd == 1 && real.jec_odd == 0 {
                            phases = phases.into_iter().map(stale).collect();
                        }
                        ("Sleep::announce_sleepy".to_string(), SleepyCur)
                    }
                    Step::JoinSleeping | Step::Abandon => {
                        let (drowsy, locked) = match phase {
                            SleepyStale => (DrowsyStale, LockedStale),
                            _ => (DrowsyCur, LockedCur),
                        };
                        self.implicit(
                            &format!("last round finds nothing; CoreLatch::get_sleepy [{}]", short(phase)),
                            index,
                            drowsy,
                        )?;
                        self.implicit(
                            &format!("Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch u]", short(drowsy)),
                            index,
                            locked,
                        )?;
                        phases = self.phases.clone();
                        if step == Step::JoinSleeping {
                            (format!("Sleep::sleep: try_add_sleeping_thread [{}, latch u]", short(locked)), Pending)
                        } else {
                            (format!("Sleep::sleep: JEC moved, abandon; CoreLatch::wake_up [{}, latch u]", short(locked)), Idle)
                        }
                    }
                    Step::FinalLookFound => (
                        "Sleep::sleep: final look finds an injected job, sub_sleeping_thread [latch u]".to_string(),
                        Idle,
                    ),
                    Step::Block => ("Sleep::sleep: final look finds nothing, block [latch u]".to_string(), Blocked),
                    Step::Woken => ("wake_specific_thread wakes a blocked worker [latch u]".to_string(), Woken),
                    Step::Post | Step::Terminate => unreachable!(),
                };
                phases[index] = to;
                self.take(&prefix, phases, real)
            }
        }
    }
}

fn stale(p: Phase) -> Phase {
    match p {
        Phase::SleepyCur => Phase::SleepyStale,
        Phase::DrowsyCur => Phase::DrowsyStale,
        Phase::LockedCur => Phase::LockedStale,
        p => p,
    }
}

fn short(p: Phase) -> &'static str {
    p.short()
}

#[cfg(test)]
mod test {
    use super::{Real, Step, Validator};

    fn counters(sleeping: usize, inactive: usize, jec: usize) -> Real {
        Real::new(sleeping, inactive, jec)
    }

    /// One worker searches, announces, sleeps, is woken by a post and finds
    /// the job: every step is a transition of the model.
    fn run_to_block(v: &mut Validator) {
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0)).unwrap();
        v.counters(counters(0, 1, 0));
        v.step(Step::Announce, Some(0)).unwrap();
        v.counters(counters(1, 1, 0));
        v.step(Step::JoinSleeping, Some(0)).unwrap();
        v.step(Step::Block, Some(0)).unwrap();
        v.counters(counters(1, 1, 1));
        v.step(Step::Post, None).unwrap();
    }

    #[test]
    fn a_sleep_and_a_wake_up_are_transitions_of_the_model() {
        let mut v = Validator::new(1);
        run_to_block(&mut v);
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(0)).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(0)).unwrap();
        v.step(Step::Terminate, None).unwrap();
        assert_eq!(v.steps, 8);
    }

    #[test]
    fn a_wake_up_that_leaves_the_sleeping_count_leaves_the_model() {
        // `sleeper_decrements`: the waker does not decrement.
        let mut v = Validator::new(1);
        run_to_block(&mut v);
        let err = v.step(Step::Woken, Some(0)).unwrap_err();
        assert!(
            err.contains("wake_specific_thread wakes a blocked worker"),
            "{err}"
        );
    }

    #[test]
    fn joining_with_a_stale_snapshot_leaves_the_model() {
        // `no_jec_check`: a post made the snapshot stale, the worker joins.
        let mut v = Validator::new(1);
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0)).unwrap();
        v.counters(counters(0, 1, 0));
        v.step(Step::Announce, Some(0)).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::Post, None).unwrap();
        v.counters(counters(1, 1, 1));
        let err = v.step(Step::JoinSleeping, Some(0)).unwrap_err();
        assert!(err.contains("locked_stale"), "{err}");
    }
}
