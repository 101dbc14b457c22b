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
//! What is validated: the counter steps (`start_looking`, `work_found`,
//! `announce_sleepy`, a post's JEC bump, joining the sleeping count, the
//! sleeper's own decrement after its final look, the waker's decrement),
//! giving up a sleep on a moved JEC, blocking, the wake loop, pushes and
//! takes, the injector's length, and terminate's latches and the exits, to
//! the end of the execution. The steps between a worker's announcement and
//! its compare-and-swap (its last round, `get_sleepy`, `fall_asleep`) and
//! its return from `sleep` after a wake-up are not recorded and are taken
//! as the model's transitions of those names when the next recorded step
//! needs them.
//!
//! The wake loop. The model's `wakes_in_flight` is tracked. A post, a
//! finder (`work_found`) or a successor's check (`Successor`, a busy
//! worker's) is validated with the wake-ups it adds left open:
//! the set of numbers its enabled transitions allow is kept for its
//! thread, and the thread's next record settles it: `WakeLoop { owed }`
//! (the start of `wake_any_threads`) must owe one of them, any other
//! record means it owes none. The count goes up only then; meanwhile the
//! validator's count is below the model's, which can only disable
//! transitions (every guard on it is a lower bound), so the steps between
//! are still the model's. Each `Woken` of a loop is the model's
//! `wake_specific_thread wakes a blocked worker` (a wake-up in flight
//! spent, `S - 1`, the worker `woken`); each `NotBlocked` is no model step,
//! but the worker looked at must not be counted or hold its lock (the
//! waker holds it: exact). A loop looks at the workers once each, in index
//! order, until it has spent what it owes or looked at every worker; then
//! what it still owes is dropped, each drop the model's `wake_any_threads
//! finds nobody to wake`, whose guard is that no worker is counted. A
//! thread that records anything else while its loop owes wake-ups and has
//! workers left stopped the loop early, which no model transition does
//! (`wake_loop_counts_attempts` fails here). Records of one thread are told
//! apart from another's by the checker thread that made them.
//!
//! Where the model's step is coarser than the code's. The scan is not
//! atomic: it looks at one worker at a time, under that worker's lock, so
//! a worker it passed while uncounted may join the sleeping count behind it
//! and be counted when the scan ends; the model's drop is then not enabled
//! although the code is right (shuttle finds such runs). `docs/every-n.md`
//! argues why the model still covers them (a worker that joins after the
//! post announced after it, so its last round came after the push, lemma 5
//! (a)); the validator checks that argument's premise instead of the guard:
//! every counted worker joined after the scan looked at it and, for a
//! post's scan, announced after the post (`drops_beside_later_sleepers`
//! counts them). A finder's scan is checked for the first half only: the
//! argument is about posts, and a finder's wake-ups are helpers no step of
//! the proof uses (`policy.rs`).
//!
//! Pushes and takes. Each post is its thread's next step after its push
//! (`InjectPush`, `Push`), validated as that push's case: an injected or an
//! internal post (`Sleep::new_injected_jobs` with the model's
//! `injecting_into_empty` or `injecting_into_nonempty` down by one, or
//! `Sleep::new_internal_jobs` from `busy_posting`), with the
//! `queue_was_empty` the push read; a push with no post, or a post with no
//! push, leaves the model. A busy worker's own pop is the model's
//! `wait_until_cold: take_local_job`; a searcher's take (`TakeInjected`,
//! `TakeOwn`, `Steal`) is followed by its `work_found`, validated as the
//! transition for that queue.
//!
//! The injector's length is the code's: the model queue records it right
//! after it publishes it (`Record::QueueLen`, before its unlock, a
//! scheduling point), and `Registry::new` names the injector. So the final
//! look's guard (`final look finds nothing, block` needs the injector
//! empty) is checked exactly: the look is the last checker operation
//! before the `Block` record. The transitions that change the injector's
//! length (the push, `work_found`) are compared without it: the queue
//! records the change before their records come.
//!
//! Where the model is not exact for the code, and the validator leaves the
//! guard out (`inexact_injector_guard`):
//! - `Registry::inject push [into an empty injector]` needs the injector
//!   empty, `[into a non-empty injector]` non-empty; the code reads
//!   `is_empty` before its push, with a scheduling point between, so another
//!   thread's take or push can make the push land in an injector whose
//!   emptiness differs from what it read and hands to the post. Here the
//!   model is narrower than the code (a gap in the abstraction, not in the
//!   validator): the post's `queue_was_empty` case is the one the push read,
//!   which the validator checks, but the push itself is not a transition of
//!   the model in such runs.
//! - The last round's "every queue empty": a round reads the queues one
//!   after another (argued in `docs/every-n.md`, not checked).
//! - `work_found`'s "more queued" (the injector holds another job):
//!   `more_work_queued` reads after the decrement, past scheduling points;
//!   and the take itself comes before the decrement.
//! - The final look that finds a job: the sleeper's decrement, a scheduling
//!   point, falls between the look and its record (and the look includes
//!   the worker's broadcast queue).
//!
//! After `Registry::terminate`. The validator keeps each worker's
//! terminate-latch flag (the model's `_u`, `_s`, `_w`), whether it left its
//! main loop, and `term`. `Registry::terminate` is the model's transition
//! of that name; each `LatchSet` is `OnceLatch::set_and_wake: CoreLatch::set`
//! for the worker's phase, with the unrecorded steps it implies first (a
//! sleepy worker whose latch was `SLEEPING` did its last round and
//! `fall_asleep`; a woken one whose latch was not had returned from
//! `sleep`), and the latch's state must be the one the model gives the
//! phase, with one exception: between a sleeper's `FinalLookFound` or
//! `Abandon` record and its `CoreLatch::wake_up` (past scheduling points)
//! the latch is still `SLEEPING` while the model, whose step does both, has
//! the worker idle; the setter then owes a wake-up the model does not, and
//! its wake-up finds the worker not blocked, no step either way. The
//! setter's wake-up (`LatchWake`, then `Woken` or `NotBlocked`) is
//! `notify_worker_latch_is_set: wake_specific_thread` when the model owes
//! it, and no step when the model owes none or the owner has left. A
//! worker leaves through `Sleep::stop_looking`, with no take (`main_loop
//! exits [p, latch f]: stop_looking`), or between jobs (`Exit` while busy: `main_loop
//! exits [busy, latch f]`). At the end ([`Validator::end`]) every worker
//! must have left, and no wake-up, wake loop, post, push or take be
//! pending.
//!
//! One more place where the model is coarser than the code: a worker probes
//! its latch before each search round and between jobs, not atomically
//! with them, so a latch set after its last probe finds it starting to
//! look, announcing or taking a job; the model's worker with a set latch
//! only leaves. Such a set (it owes no wake-up: the worker is not
//! `SLEEPING`) touches nothing those steps read, so the run is the model's
//! with the set moved after them; the validator validates them with the
//! latch unset and puts the flag back (`deferred_latch_sets` counts them).
//!
//! Not tracked: the deques' lengths (`q_internal`; which deque a job is on,
//! and whether its pusher waits outside the pool, `q_pinned`, are not
//! recorded). A latch's wake-up that wakes a worker whose terminate latch
//! is not set leaves the model, whose one latch is the terminate latch (the
//! join and scope latches are not modelled).

use crate::lin::{Atom, Lin};
use crate::model::{
    w, Flag, Model, Phase, Width, EXITED, I, INJ_EMPTY, INJ_MORE, JODD, N, QD, QI, S, TERM, TOK,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

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
    /// A `wake_specific_thread` call woke the worker.
    Woken,
    /// A `wake_specific_thread` call found the worker not blocked.
    NotBlocked,
    /// `wake_successor`: the worker has run its job and owes a successor.
    Successor,
    /// `hand_off`: the last searcher to leave saw work queued and wakes
    /// one sleeper (its `WakeLoop { owed: 1 }` follows).
    HandOff,
    /// `wake_any_threads` starts, owing `owed` wake-ups.
    WakeLoop {
        owed: usize,
    },
    /// The thread's next `wake_specific_thread` is a latch's wake-up of
    /// its owner.
    LatchWake,
    /// `Registry::inject` pushed a job; `was_empty` is what it read first.
    InjectPush {
        was_empty: bool,
    },
    /// `WorkerThread::push` pushed a job onto its deque.
    Push {
        was_empty: bool,
    },
    /// A job taken from the injector.
    TakeInjected,
    /// A job popped from the worker's own deque.
    TakeOwn,
    /// A job stolen from worker `worker`'s deque.
    Steal,
    Terminate,
    /// `OnceLatch::set_and_wake` set the worker's terminate latch.
    LatchSet {
        was_sleeping: bool,
    },
    /// The worker left its main loop.
    Exit,
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

/// Outside threads between their push and their post, by what their push
/// read (the model's `injecting_into_empty`, `injecting_into_nonempty`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Queues {
    /// The injector's length, as the queue last recorded it.
    injected: i64,
    injecting_into_empty: i64,
    injecting_into_nonempty: i64,
}

/// The terminate latches: each worker's flag, whether it left its main
/// loop, and whether `Registry::terminate` has run.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Marks {
    flags: Vec<Flag>,
    exited: Vec<bool>,
    term: i64,
}

/// A push whose post is its thread's next step.
#[derive(Clone, Copy, Debug)]
enum Pushed {
    Injector { was_empty: bool },
    Deque { was_empty: bool, worker: usize },
}

/// Where a searcher took the job its `work_found` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Injector,
    Deque,
}

/// A model transition restricted to the variables the validator tracks.
struct Projected {
    name: String,
    guard: Vec<Atom>,
    update: Vec<(String, Lin)>,
}

/// A wake loop in progress (`wake_any_threads`), by one thread.
struct Scan {
    /// Wake-ups it still owes.
    left: usize,
    /// The worker it looks at next (it looks at each in index order).
    next: usize,
    /// The step that decided its wake-ups, and whether it was a post.
    owed_at: Owing,
    /// When it looked at each worker (the validator's record count).
    looked_at: Vec<usize>,
}

/// A post or finder whose wake-ups come with its thread's next record.
#[derive(Clone, Debug)]
struct Owing {
    /// The numbers of wake-ups the model's transitions allowed it.
    allowed: Vec<i64>,
    /// Its record's number.
    at: usize,
    post: bool,
}

pub struct Validator {
    phases: Vec<Phase>,
    marks: Marks,
    real: Real,
    /// `S`, `I` and the JEC's parity of the abstract state.
    abstract_counters: Real,
    /// The model's `wakes_in_flight`: wake-ups owed and not yet spent or
    /// dropped.
    pub wakes_in_flight: i64,
    /// By thread: a post or finder whose wake-ups are not yet known (its
    /// `WakeLoop` record, or none, comes next), and the numbers of
    /// wake-ups the model's transitions allowed it.
    owing: BTreeMap<u64, Owing>,
    /// Each worker's last announcement and last join of the sleeping count
    /// (record numbers).
    announced_at: Vec<usize>,
    joined_at: Vec<usize>,
    /// By thread: its wake loop, while it owes wake-ups.
    scans: BTreeMap<u64, Scan>,
    /// By thread: the owner whose latch the thread is about to wake.
    latch_wakes: BTreeMap<u64, Option<usize>>,
    queues: Queues,
    /// The injector's queue id (`drowse::sync::record::Record::Injector`).
    injector: Option<usize>,
    /// By thread: its push, until its post.
    pushed: BTreeMap<u64, Pushed>,
    /// By thread: the queue its searcher took a job from, until its
    /// `work_found`.
    taken: BTreeMap<u64, Source>,
    /// The model's transitions as the validator reads them, built once per
    /// process (each execution makes a validator).
    transitions: &'static [Projected],
    /// Steps validated so far.
    pub steps: usize,
    /// Of them: wake-ups spent, workers a wake loop found not blocked, and
    /// wake-ups a scan dropped (so a run's summary can show that the wake
    /// loop's checks ran).
    pub wake_ups_spent: usize,
    pub found_not_blocked: usize,
    pub wake_ups_dropped: usize,
    /// Of the dropped: those the model's guard (nobody counted) did not
    /// allow, because a worker the scan had passed joined the sleeping
    /// count behind it (see the module documentation).
    pub drops_beside_later_sleepers: usize,
    /// Internal posts, and jobs taken from deques (own pops and steals).
    pub internal_posts: usize,
    pub deque_takes: usize,
    /// Successors owed after a job (`Successor` records).
    pub successors: usize,
    /// Steps of a worker whose latch was set after its last probe,
    /// validated with the set moved after them (see `apply`).
    pub deferred_latch_sets: usize,
    /// Set once `Registry::terminate` was recorded.
    pub terminated: bool,
    /// The recorded steps, for the report of a step that left the model.
    history: Vec<String>,
}

/// The variables tracked: `N`, the counters, the wake-ups in flight, the
/// injector's length, the outside threads between their push and their
/// post, and the worker counts of each phase with an unset latch. Not the
/// deques' lengths: see the module documentation.
fn tracked(v: &str) -> bool {
    v == N
        || v == S
        || v == I
        || v == JODD
        || v == TOK
        || v == QI
        || v == INJ_EMPTY
        || v == INJ_MORE
        || v == TERM
        || v == EXITED
        || Phase::ALL
            .iter()
            .any(|&p| Flag::ALL.iter().any(|&f| w(p, f) == v))
}

/// The model's guards on the injector's length that are not exact for the
/// code, so the validator leaves them out (the module documentation says
/// why each).
fn inexact_injector_guard(transition: &str, lin: &Lin) -> bool {
    lin.terms.contains_key(QI)
        && [
            "Registry::inject push",
            "Sleep::work_found",
            "last round finds nothing",
            "Sleep::sleep: final look finds an injected job",
        ]
        .iter()
        .any(|p| transition.starts_with(p))
}

/// The transitions whose change of the injector's length the queue
/// records before their own record.
fn moves_injector_earlier(transition: &str) -> bool {
    transition.starts_with("Registry::inject push") || transition.starts_with("Sleep::work_found")
}

fn project(model: Model) -> Vec<Projected> {
    model
        .transitions
        .into_iter()
        .filter(|t| t.params.is_empty())
        .map(|t| Projected {
            guard: t
                .guard
                .into_iter()
                .filter(|a| {
                    let lin = match a {
                        Atom::Ge(l) | Atom::Eq(l) => l,
                    };
                    lin.terms.keys().all(|v| tracked(v)) && !inexact_injector_guard(&t.name, lin)
                })
                .collect(),
            name: t.name,
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
            marks: Marks {
                flags: vec![Flag::Unset; workers],
                exited: vec![false; workers],
                term: 0,
            },
            real: Real::new(0, 0, 0),
            abstract_counters: Real::new(0, 0, 0),
            wakes_in_flight: 0,
            owing: BTreeMap::new(),
            announced_at: vec![0; workers],
            joined_at: vec![0; workers],
            scans: BTreeMap::new(),
            latch_wakes: BTreeMap::new(),
            queues: Queues::default(),
            injector: None,
            pushed: BTreeMap::new(),
            taken: BTreeMap::new(),
            transitions: {
                static PROJECTED: OnceLock<Vec<Projected>> = OnceLock::new();
                PROJECTED.get_or_init(|| project(Model::new(Width::Full, None)))
            },
            steps: 0,
            wake_ups_spent: 0,
            found_not_blocked: 0,
            wake_ups_dropped: 0,
            drops_beside_later_sleepers: 0,
            internal_posts: 0,
            deque_takes: 0,
            successors: 0,
            deferred_latch_sets: 0,
            terminated: false,
            history: Vec::new(),
        }
    }

    /// The pool's injector is queue `queue`.
    pub fn injector(&mut self, queue: usize) {
        self.injector.get_or_insert(queue);
    }

    /// Queue `queue` holds `len` jobs now.
    pub fn queue_len(&mut self, queue: usize, len: usize) {
        if self.injector == Some(queue) {
            self.queues.injected = len as i64;
        }
    }

    /// The counters a read-modify-write left (or the JEC bump read).
    pub fn counters(&mut self, real: Real) {
        self.real = real;
    }

    fn state(
        &self,
        phases: &[Phase],
        real: Real,
        tok: i64,
        q: Queues,
        m: &Marks,
    ) -> BTreeMap<String, i64> {
        let mut st = BTreeMap::new();
        st.insert(N.to_string(), phases.len() as i64);
        st.insert(TOK.to_string(), tok);
        st.insert(QI.to_string(), q.injected);
        st.insert(INJ_EMPTY.to_string(), q.injecting_into_empty);
        st.insert(INJ_MORE.to_string(), q.injecting_into_nonempty);
        st.insert(S.to_string(), real.sleeping);
        st.insert(I.to_string(), real.inactive);
        st.insert(JODD.to_string(), real.jec_odd);
        for p in Phase::ALL {
            for f in Flag::ALL {
                st.insert(w(p, f), 0);
            }
        }
        st.insert(TERM.to_string(), m.term);
        st.insert(EXITED.to_string(), 0);
        for (i, &p) in phases.iter().enumerate() {
            let v = if m.exited[i] {
                EXITED.to_string()
            } else {
                w(p, m.flags[i])
            };
            *st.get_mut(&v).unwrap() += 1;
        }
        st
    }

    fn show(st: &BTreeMap<String, i64>) -> String {
        st.iter()
            .filter(|(k, v)| **v != 0 || [S, I, JODD, TOK, QI].contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Takes the model transition named `prefix...` from the current
    /// abstract state (`self.phases`, counters as they were, the wake-ups
    /// in flight) to `phases` with counters `real` and `tok` wake-ups in
    /// flight, or says why none does. With `tok` `None` the transition may
    /// change the wake-ups in flight by any amount and the validator's count
    /// stays: the result is every change that a transition leading to the
    /// other values makes (a post or finder whose wake-ups are recorded
    /// later, by `WakeLoop`).
    fn take(
        &mut self,
        prefix: &str,
        phases: Vec<Phase>,
        real: Real,
        tok: Option<i64>,
    ) -> Result<Vec<i64>, String> {
        let queues = self.queues;
        let marks = self.marks.clone();
        self.take_with(
            &|n| n.starts_with(prefix),
            prefix,
            phases,
            real,
            tok,
            (queues, marks),
        )
    }

    /// As `take_with`, for a post (`post`), a finder or a successor's check
    /// that decides wake-ups: what the transitions taken allowed it to owe is
    /// kept until its thread records its `WakeLoop`.
    #[allow(clippy::too_many_arguments)]
    fn take_deciding_wake_ups(
        &mut self,
        filter: &dyn Fn(&str) -> bool,
        name: &str,
        phases: Vec<Phase>,
        real: Real,
        queues: Queues,
        thread: u64,
        post: bool,
    ) -> Result<(), String> {
        let marks = self.marks.clone();
        let allowed = self.take_with(filter, name, phases, real, None, (queues, marks))?;
        let at = self.history.len();
        self.owing.insert(thread, Owing { allowed, at, post });
        Ok(())
    }

    /// As `take`, among the transitions whose names `filter` accepts, to
    /// the queues `queues`.
    fn take_with(
        &mut self,
        filter: &dyn Fn(&str) -> bool,
        prefix: &str,
        phases: Vec<Phase>,
        real: Real,
        tok: Option<i64>,
        (queues, marks): (Queues, Marks),
    ) -> Result<Vec<i64>, String> {
        let before = self.state(
            &self.phases,
            self.abstract_real(),
            self.wakes_in_flight,
            self.queues,
            &self.marks,
        );
        let after = self.state(
            &phases,
            real,
            tok.unwrap_or(self.wakes_in_flight),
            queues,
            &marks,
        );
        let env = |v: &str| before[v];
        // The state a transition leads to, or `None` when it is not
        // enabled; compared with `after` as the validator sees it.
        let next_of = |t: &Projected| -> Option<BTreeMap<String, i64>> {
            if !t.guard.iter().all(|a| a.holds(&env)) {
                return None;
            }
            let mut next = before.clone();
            for (v, lin) in &t.update {
                next.insert(v.clone(), lin.eval(&env));
            }
            // The injector's length moves where the queue records it (the
            // push's or take's store), before the step that the model
            // joins it to (the push's record, the finder's `work_found`):
            // it is compared there, not here.
            if moves_injector_earlier(&t.name) {
                next.insert(QI.to_string(), after[QI]);
            }
            Some(next)
        };
        let mut changes = Vec::new();
        for t in self.transitions.iter().filter(|t| filter(&t.name)) {
            let Some(mut next) = next_of(t) else {
                continue;
            };
            let change = next[TOK] - before[TOK];
            if tok.is_none() {
                next.insert(TOK.to_string(), before[TOK]);
            }
            if next == after {
                if !changes.contains(&change) {
                    changes.push(change);
                }
                if tok.is_some() {
                    break;
                }
            }
        }
        if changes.is_empty() {
            // Only now the report: what each transition of that name does.
            let tried: Vec<String> = self
                .transitions
                .iter()
                .filter(|t| filter(&t.name))
                .map(|t| match next_of(t) {
                    None => format!("  {}: not enabled", t.name),
                    Some(next) => format!("  {}: leads to {}", t.name, Self::show(&next)),
                })
                .collect();
            return Err(format!(
                "the step `{prefix}` left the model.\n  abstract state before: {}\n  \
                 the code's state after: {}\n  transitions of that name:\n{}",
                Self::show(&before),
                Self::show(&after),
                if tried.is_empty() {
                    "  (none)".to_string()
                } else {
                    tried.join("\n")
                }
            ));
        }
        self.phases = phases;
        self.abstract_counters = real;
        self.queues = queues;
        self.marks = marks;
        if let Some(tok) = tok {
            self.wakes_in_flight = tok;
        }
        Ok(changes)
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
        self.take(prefix, phases, real, Some(self.wakes_in_flight))
            .map(drop)
    }

    /// Validates one recorded step of checker thread `thread`; on failure,
    /// what went wrong and the steps before it.
    pub fn step(&mut self, step: Step, worker: Option<usize>, thread: u64) -> Result<(), String> {
        self.history.push(match worker {
            Some(i) => format!("{step:?}(worker {i})"),
            None => format!("{step:?}"),
        });
        self.apply(step, worker, thread).map_err(|e| {
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

    /// The wake-ups that `thread`'s post or finder owes are `owed`: one of
    /// the numbers its model transition allowed.
    fn owe(&mut self, thread: u64, owed: usize) -> Result<Option<Owing>, String> {
        match self.owing.remove(&thread) {
            Some(o) if o.allowed.contains(&(owed as i64)) => {
                self.wakes_in_flight += owed as i64;
                Ok(Some(o))
            }
            Some(o) => Err(format!(
                "the post or finder before it owes {owed} wake-up(s); the model's \
                 transitions from the state it read owe {:?}",
                o.allowed
            )),
            None if owed == 0 => Ok(None),
            None => Err(format!(
                "a wake loop owing {owed} wake-up(s) that no post or finder of this \
                 thread decided"
            )),
        }
    }

    fn apply(&mut self, step: Step, worker: Option<usize>, thread: u64) -> Result<(), String> {
        // A worker probes its terminate latch before each round and
        // between jobs, not atomically with them: a latch set after its
        // last probe finds it starting to look, announcing or taking a
        // job, which the model, whose worker with a set latch only leaves,
        // has no transition for. The set (no wake-up owed: the worker is
        // not `SLEEPING`) touches nothing these steps read, so the run is
        // the model's with the set moved after them: they are validated
        // with the latch unset, and the flag comes back after.
        let deferred = match (step, worker) {
            (Step::StartLooking | Step::Announce | Step::WorkFound, Some(i))
                if self.marks.flags.get(i) == Some(&Flag::Set)
                    && !self.marks.exited[i]
                    && matches!(
                        self.phases[i],
                        Phase::Busy | Phase::Idle | Phase::SleepyCur | Phase::SleepyStale
                    )
                    && (step != Step::WorkFound || self.taken.contains_key(&thread)) =>
            {
                self.marks.flags[i] = Flag::Unset;
                Some(i)
            }
            _ => None,
        };
        let result = self.apply_step(step, worker, thread);
        if let Some(i) = deferred {
            self.marks.flags[i] = Flag::Set;
            self.deferred_latch_sets += 1;
        }
        result
    }

    fn apply_step(&mut self, step: Step, worker: Option<usize>, thread: u64) -> Result<(), String> {
        use Phase::*;
        // A thread's post or finder decides its wake-ups from the read it
        // records, and its next record is its wake loop's start, if it has
        // one: any other record means it owes none.
        if !matches!(step, Step::WakeLoop { .. }) {
            self.owe(thread, 0)?;
        }
        let now = self.history.len();
        // A push's post is its thread's next step, and a searcher's take is
        // followed by its `work_found`: nothing in between records.
        if step != Step::Post {
            if let Some(pushed) = self.pushed.remove(&thread) {
                return Err(format!(
                    "the push {pushed:?} of this thread has no post: the model's push is \
                     followed by its post (`Sleep::new_injected_jobs`, \
                     `Sleep::new_internal_jobs`)"
                ));
            }
        }
        if step != Step::WorkFound {
            if let Some(source) = self.taken.remove(&thread) {
                return Err(format!(
                    "a take from the {source:?} that no `work_found` follows: the model \
                     takes a job only in `work_found` or `take_local_job` by a busy worker"
                ));
            }
        }
        // A wake loop looks at workers until it has spent what it owes or
        // has looked at every worker; a thread that records anything else
        // meanwhile stopped its loop early.
        if !matches!(step, Step::Woken | Step::NotBlocked) {
            if let Some(scan) = self.scans.remove(&thread) {
                return Err(format!(
                    "the wake loop of this thread stopped after looking at worker(s) \
                     0..{} of {}, still owing {} wake-up(s): in the model a wake-up in \
                     flight is spent only by waking a blocked worker \
                     (`wake_specific_thread wakes a blocked worker`) and dropped only \
                     by a scan that finds nobody (`wake_any_threads finds nobody to \
                     wake`)",
                    scan.next,
                    self.phases.len(),
                    scan.left
                ));
            }
        }
        let real = self.real;
        match step {
            Step::Terminate => {
                let mut marks = self.marks.clone();
                marks.term = 1;
                let (phases, real, tok, queues) = (
                    self.phases.clone(),
                    self.abstract_real(),
                    Some(self.wakes_in_flight),
                    self.queues,
                );
                let name = "Registry::terminate";
                self.take_with(&|n| n == name, name, phases, real, tok, (queues, marks))?;
                self.terminated = true;
                Ok(())
            }
            Step::LatchSet { was_sleeping } => self.latch_set(was_sleeping, worker),
            Step::Exit => {
                let (index, phase) = self.phase(worker)?;
                if self.marks.exited[index] {
                    // It left through `Sleep::stop_looking(idle_state)`.
                    return Ok(());
                }
                let mut marks = self.marks.clone();
                marks.exited[index] = true;
                let name = format!(
                    "main_loop exits [{}, latch {}]",
                    short(phase),
                    self.marks.flags[index].short()
                );
                let (phases, real, tok, queues) = (
                    self.phases.clone(),
                    self.abstract_real(),
                    Some(self.wakes_in_flight),
                    self.queues,
                );
                self.take_with(&|n| n == name, &name, phases, real, tok, (queues, marks))
                    .map(drop)
            }
            Step::Post => {
                let bumped = self.abstract_real().jec_odd == 0 && real.jec_odd == 1;
                let mut phases: Vec<Phase> = self
                    .phases
                    .iter()
                    .map(|&p| if bumped { stale(p) } else { p })
                    .collect();
                let mut queues = self.queues;
                let (name, was_empty) = match self.pushed.remove(&thread) {
                    Some(Pushed::Injector { was_empty }) => {
                        if was_empty {
                            queues.injecting_into_empty -= 1;
                        } else {
                            queues.injecting_into_nonempty -= 1;
                        }
                        ("Sleep::new_injected_jobs".to_string(), was_empty)
                    }
                    Some(Pushed::Deque { was_empty, worker }) => {
                        phases[worker] = Busy;
                        self.internal_posts += 1;
                        (
                            format!(
                                "Sleep::new_internal_jobs [latch {}]",
                                self.marks.flags[worker].short()
                            ),
                            was_empty,
                        )
                    }
                    None => return Err("a post with no push before it".to_string()),
                };
                // The post's case is the one its push read: `queue_was_empty`.
                let case = if was_empty {
                    "queue was empty"
                } else {
                    "queue was not empty"
                };
                let filter = |n: &str| {
                    n.starts_with(name.as_str()) && (n.contains(case) || n.contains("no sleeper"))
                };
                self.take_deciding_wake_ups(&filter, &name, phases, real, queues, thread, true)?;
                Ok(())
            }
            Step::InjectPush { was_empty } => {
                let mut queues = self.queues;
                let name = if was_empty {
                    queues.injecting_into_empty += 1;
                    "Registry::inject push [into an empty injector]"
                } else {
                    queues.injecting_into_nonempty += 1;
                    "Registry::inject push [into a non-empty injector]"
                };
                let phases = self.phases.clone();
                let tok = Some(self.wakes_in_flight);
                // No counter changes: the counters as they were.
                let real = self.abstract_real();
                self.take_with(
                    &|n| n == name,
                    name,
                    phases,
                    real,
                    tok,
                    (queues, self.marks.clone()),
                )?;
                self.pushed.insert(thread, Pushed::Injector { was_empty });
                Ok(())
            }
            Step::Push { was_empty } => {
                let (index, _) = self.phase(worker)?;
                let mut phases = self.phases.clone();
                phases[index] = BusyPosting;
                let queues = self.queues;
                let name = format!(
                    "WorkerThread::push [latch {}]",
                    self.marks.flags[index].short()
                );
                let tok = Some(self.wakes_in_flight);
                let real = self.abstract_real();
                self.take_with(
                    &|n| n == name,
                    &name,
                    phases,
                    real,
                    tok,
                    (queues, self.marks.clone()),
                )?;
                self.pushed.insert(
                    thread,
                    Pushed::Deque {
                        was_empty,
                        worker: index,
                    },
                );
                Ok(())
            }
            Step::TakeInjected | Step::TakeOwn | Step::Steal => {
                let source = if step == Step::TakeInjected {
                    Source::Injector
                } else {
                    self.deque_takes += 1;
                    Source::Deque
                };
                if step == Step::TakeOwn {
                    let (_, phase) = self.phase(worker)?;
                    if phase == Busy {
                        // Between jobs, before searching: the model's
                        // `take_local_job`.
                        let queues = self.queues;
                        let name = "wait_until_cold: take_local_job";
                        let phases = self.phases.clone();
                        let tok = Some(self.wakes_in_flight);
                        let real = self.abstract_real();
                        return self
                            .take_with(
                                &|n| n == name,
                                name,
                                phases,
                                real,
                                tok,
                                (queues, self.marks.clone()),
                            )
                            .map(drop);
                    }
                }
                // A searcher's take: the model takes it in `work_found`, the
                // thread's next step.
                self.taken.insert(thread, source);
                Ok(())
            }
            Step::WakeLoop { owed } => {
                if let Some(owed_at) = self.owe(thread, owed)? {
                    if owed > 0 {
                        let looked_at = vec![0; self.phases.len()];
                        self.scans.insert(
                            thread,
                            Scan {
                                left: owed,
                                next: 0,
                                owed_at,
                                looked_at,
                            },
                        );
                    }
                }
                Ok(())
            }
            Step::LatchWake => {
                self.latch_wakes.insert(thread, worker);
                Ok(())
            }
            Step::Successor => {
                // Its counters read and this record have no scheduling point
                // between, so the model's guard is checked on the counters
                // it read; its `WakeLoop { owed: 1 }` settles the wake-up.
                let (index, phase) = self.phase(worker)?;
                if phase != Busy {
                    return Err(format!(
                        "worker {index} wakes a successor while {}: in the model only a \
                         busy worker, whose job has run, does (`Sleep::wake_successor`)",
                        short(phase)
                    ));
                }
                let name = format!(
                    "Sleep::wake_successor [busy, latch {}]",
                    self.marks.flags[index].short()
                );
                let (phases, queues) = (self.phases.clone(), self.queues);
                self.take_deciding_wake_ups(
                    &|n| n.starts_with(&name),
                    &name,
                    phases,
                    real,
                    queues,
                    thread,
                    false,
                )?;
                self.successors += 1;
                Ok(())
            }
            // Its wake-up was decided with its `work_found`, whose
            // transition the model chose among those that owe one (the
            // hand-off's, `Sleep::work_found [.., hand-off, wake 1]`); the
            // `WakeLoop` that follows settles it.
            Step::HandOff => {
                let (index, phase) = self.phase(worker)?;
                if phase != Busy {
                    return Err(format!(
                        "worker {index} hands off while {}: in the model only a finder \
                         that has just taken its job does (`Sleep::hand_off`)",
                        short(phase)
                    ));
                }
                Ok(())
            }
            Step::Woken | Step::NotBlocked => self.look(step == Step::Woken, worker, thread),
            _ => {
                let (index, mut phase) = self.phase(worker)?;
                let f = self.marks.flags[index].short();
                if phase == Woken && matches!(step, Step::WorkFound | Step::Announce) {
                    self.implicit(
                        &format!("Sleep::sleep returns after a wake-up [latch {f}]"),
                        index,
                        Idle,
                    )?;
                    phase = Idle;
                }
                if step == Step::WorkFound
                    && !self.taken.contains_key(&thread)
                    && self.marks.flags[index] != Flag::Unset
                {
                    // Its terminate latch is set: it leaves the main loop
                    // with `Sleep::stop_looking(idle_state)`.
                    let mut marks = self.marks.clone();
                    marks.exited[index] = true;
                    let name = format!(
                        "main_loop exits [{}, latch {f}]: stop_looking",
                        short(phase)
                    );
                    let (phases, tok, queues) =
                        (self.phases.clone(), Some(self.wakes_in_flight), self.queues);
                    return self
                        .take_with(&|n| n == name, &name, phases, real, tok, (queues, marks))
                        .map(drop);
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
                        // A latch set that found it `SLEEPING` already took
                        // it there (`latch_set`).
                        let locked = if matches!(phase, LockedCur | LockedStale) {
                            phase
                        } else {
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
                                &format!("Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch {f}]", short(drowsy)),
                                index,
                                locked,
                            )?;
                            locked
                        };
                        phases = self.phases.clone();
                        if step == Step::JoinSleeping {
                            (format!("Sleep::sleep: try_add_sleeping_thread [{}, latch {f}]", short(locked)), Pending)
                        } else {
                            (format!("Sleep::sleep: JEC moved, abandon; CoreLatch::wake_up [{}, latch {f}]", short(locked)), Idle)
                        }
                    }
                    Step::FinalLookFound => (
                        format!("Sleep::sleep: final look finds an injected job, sub_sleeping_thread [latch {f}]"),
                        Idle,
                    ),
                    Step::Block => (format!("Sleep::sleep: final look finds nothing, block [latch {f}]"), Blocked),
                    _ => unreachable!(),
                };
                phases[index] = to;
                if step == Step::WorkFound {
                    let source = self.taken.remove(&thread).ok_or(
                        "`work_found` with no take before it (a set latch, or a broadcast \
                         job: neither is in the model before `Registry::terminate`)",
                    )?;
                    let queues = self.queues;
                    let from = match source {
                        Source::Injector => QI,
                        Source::Deque => QD,
                    };
                    let name = format!("{prefix}, takes from {from}");
                    let filter = |n: &str| n.starts_with(&name);
                    // `finder_wakes` decides after more scheduling points
                    // (its queue loads); the model adds the wake-ups with the
                    // decrement. Counting them only when the `WakeLoop`
                    // record comes leaves the validator's count below the
                    // model's meanwhile, which can only disable transitions
                    // (every guard on the count is a lower bound), so each
                    // step between is still one of the model's.
                    self.take_deciding_wake_ups(
                        &filter, &name, phases, real, queues, thread, false,
                    )?;
                    Ok(())
                } else {
                    self.take(&prefix, phases, real, Some(self.wakes_in_flight))?;
                    match step {
                        Step::Announce => self.announced_at[index] = now,
                        Step::JoinSleeping => self.joined_at[index] = now,
                        _ => {}
                    }
                    Ok(())
                }
            }
        }
    }

    /// A `wake_specific_thread` call of `thread` looked at `worker` and
    /// woke it or found it not blocked.
    fn look(&mut self, woke: bool, worker: Option<usize>, thread: u64) -> Result<(), String> {
        let (index, phase) = self.phase(worker)?;
        if let Some(owner) = self.latch_wakes.remove(&thread) {
            if owner != Some(index) {
                return Err(format!(
                    "a latch's wake-up of worker {owner:?} looked at worker {index}"
                ));
            }
            return self.latch_wake(woke, index, phase);
        }
        let Some(scan) = self.scans.get_mut(&thread) else {
            return Err(format!(
                "`wake_specific_thread` looked at worker {index} outside a wake loop \
                 owing wake-ups and outside a latch's wake-up"
            ));
        };
        if index != scan.next {
            return Err(format!(
                "the wake loop looked at worker {index} where the next was {}: it looks \
                 at each worker once, in index order",
                scan.next
            ));
        }
        scan.looked_at[index] = self.history.len();
        scan.next += 1;
        if woke {
            scan.left -= 1;
        }
        let (next, left) = (scan.next, scan.left);
        if woke {
            let mut phases = self.phases.clone();
            phases[index] = Phase::Woken;
            let real = self.real;
            let tok = self.wakes_in_flight - 1;
            let flag = self.marks.flags[index];
            let mut marks = self.marks.clone();
            if flag != Flag::Unset {
                // The wake-up a set latch owed is spent too.
                marks.flags[index] = Flag::Set;
            }
            let name = format!(
                "wake_specific_thread wakes a blocked worker [latch {}]",
                flag.short()
            );
            let queues = self.queues;
            self.take_with(
                &|n| n == name,
                &name,
                phases,
                real,
                Some(tok),
                (queues, marks),
            )?;
            self.wake_ups_spent += 1;
        } else {
            // The waker holds the worker's lock: the worker is not on its
            // way to block (it holds its lock from `fall_asleep` until it
            // blocks) and not blocked (`is_blocked` is false).
            if phase.holds_lock() || phase == Phase::Blocked {
                return Err(format!(
                    "`wake_specific_thread` found worker {index} not blocked and not \
                     holding its lock, where the model has it {}",
                    phase.short()
                ));
            }
            self.found_not_blocked += 1;
        }
        if left == 0 {
            self.scans.remove(&thread);
            return Ok(());
        }
        if next < self.phases.len() {
            return Ok(());
        }
        let Some(scan) = self.scans.remove(&thread) else {
            unreachable!("the scan looked at worker {index}")
        };
        // The scan looked at every worker: the wake-ups it still owes are
        // dropped, each the model's transition whose guard is that no
        // worker is counted as sleeping.
        for _ in 0..left {
            let phases = self.phases.clone();
            let real = self.abstract_real();
            let tok = self.wakes_in_flight - 1;
            if let Err(e) = self.take(
                "wake_any_threads finds nobody to wake",
                phases,
                real,
                Some(tok),
            ) {
                // The scan is not one step: it looks at one worker at a
                // time, under that worker's lock. A worker it looked at
                // while that worker was not counted may join the sleeping
                // count behind it; the model's guard then fails although
                // the code is right. Checked instead: every counted worker
                // joined after the scan looked at it, and, for a post's
                // scan, announced after the post (docs/every-n.md: such a
                // worker's last round came after the push, lemma 5 (a)).
                self.later_sleepers_only(&scan)
                    .map_err(|why| format!("{e}\n  {why}"))?;
                self.wakes_in_flight = tok;
                self.drops_beside_later_sleepers += 1;
            }
            self.wake_ups_dropped += 1;
        }
        Ok(())
    }

    /// `OnceLatch::set_and_wake` set worker `worker`'s terminate latch and
    /// found it `SLEEPING` or not.
    fn latch_set(&mut self, was_sleeping: bool, worker: Option<usize>) -> Result<(), String> {
        use Phase::*;
        let (index, mut phase) = self.phase(worker)?;
        if self.marks.flags[index] != Flag::Unset || self.marks.exited[index] {
            return Err(format!("worker {index}'s terminate latch set twice"));
        }
        if was_sleeping && matches!(phase, SleepyCur | SleepyStale) {
            // It did its last round and `fall_asleep`, unrecorded.
            let (drowsy, locked) = match phase {
                SleepyStale => (DrowsyStale, LockedStale),
                _ => (DrowsyCur, LockedCur),
            };
            self.implicit(
                &format!(
                    "last round finds nothing; CoreLatch::get_sleepy [{}]",
                    short(phase)
                ),
                index,
                drowsy,
            )?;
            self.implicit(
                &format!(
                    "Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch u]",
                    short(drowsy)
                ),
                index,
                locked,
            )?;
            phase = locked;
        }
        if !was_sleeping && phase == Woken {
            // It returned from `sleep` (`CoreLatch::wake_up`), unrecorded.
            self.implicit(
                "Sleep::sleep returns after a wake-up [latch u]",
                index,
                Idle,
            )?;
            phase = Idle;
        }
        let sleeping = matches!(phase, LockedCur | LockedStale | Pending | Blocked | Woken);
        // Between a sleeper's `FinalLookFound` or `Abandon` record and its
        // `CoreLatch::wake_up` (past scheduling points) its latch is still
        // `SLEEPING`, while the model, whose step does both, has it idle:
        // the setter then owes a wake-up that the model does not, and it
        // finds the worker not blocked (no step either way).
        if was_sleeping != sleeping && !(was_sleeping && phase == Idle) {
            return Err(format!(
                "`CoreLatch::set` found worker {index}'s latch {}, where the model has \
                 the worker {}",
                if was_sleeping {
                    "SLEEPING"
                } else {
                    "not SLEEPING"
                },
                short(phase)
            ));
        }
        let mut marks = self.marks.clone();
        marks.flags[index] = if sleeping {
            Flag::SetWakeOwed
        } else {
            Flag::Set
        };
        let name = format!("OnceLatch::set_and_wake: CoreLatch::set [{}]", short(phase));
        let (phases, real, tok, queues) = (
            self.phases.clone(),
            self.abstract_real(),
            Some(self.wakes_in_flight),
            self.queues,
        );
        self.take_with(&|n| n == name, &name, phases, real, tok, (queues, marks))
            .map(drop)
    }

    /// A latch's `wake_specific_thread(owner)` woke worker `index` or found
    /// it not blocked.
    fn latch_wake(&mut self, woke: bool, index: usize, phase: Phase) -> Result<(), String> {
        let flag = self.marks.flags[index];
        if self.marks.exited[index] && !woke {
            // The owner left its main loop before the setter's wake-up
            // came (the model's exits take the owed wake-up with them).
            return Ok(());
        }
        let mut marks = self.marks.clone();
        let mut phases = self.phases.clone();
        let (name, real) = if woke {
            if flag != Flag::SetWakeOwed {
                return Err(format!(
                    "a latch's wake-up woke worker {index}, whose terminate latch the model \
                     has {}: the model's one latch is the terminate latch",
                    flag.short()
                ));
            }
            phases[index] = Phase::Woken;
            marks.flags[index] = Flag::Set;
            (
                format!(
                    "notify_worker_latch_is_set: wake_specific_thread [{}]",
                    short(phase)
                ),
                self.real,
            )
        } else {
            if phase.holds_lock() || phase == Phase::Blocked {
                return Err(format!(
                    "a latch's wake-up found worker {index} not blocked and not holding its \
                     lock, where the model has it {}",
                    short(phase)
                ));
            }
            if flag != Flag::SetWakeOwed {
                return Ok(());
            }
            marks.flags[index] = Flag::Set;
            (
                format!(
                    "notify_worker_latch_is_set: wake_specific_thread [{}]: not blocked",
                    short(phase)
                ),
                self.abstract_real(),
            )
        };
        let (tok, queues) = (Some(self.wakes_in_flight), self.queues);
        self.take_with(&|n| n == name, &name, phases, real, tok, (queues, marks))
            .map(drop)
    }

    /// The end of an execution: every worker left its main loop, every
    /// wake-up owed was spent or dropped, and nothing is half done.
    pub fn end(&self) -> Result<(), String> {
        let left: Vec<usize> = (0..self.phases.len())
            .filter(|&i| !self.marks.exited[i])
            .collect();
        if !left.is_empty() {
            return Err(format!(
                "trace validation: worker(s) {left:?} never left the main loop"
            ));
        }
        // A post or finder whose thread recorded nothing after it owed no
        // wake-up (its wake loop would have recorded).
        if let Some(o) = self.owing.values().find(|o| !o.allowed.contains(&0)) {
            return Err(format!(
                "trace validation: the execution ended after a post or finder (record \
                 {}) that owes {:?} wake-ups and started no wake loop",
                o.at, o.allowed
            ));
        }
        if self.wakes_in_flight != 0
            || !self.scans.is_empty()
            || !self.pushed.is_empty()
            || !self.taken.is_empty()
        {
            return Err(format!(
                "trace validation: the execution ended with {} wake-up(s) in flight, {} wake \
                 loop(s), {} push(es) and {} take(s) unfinished",
                self.wakes_in_flight,
                self.scans.len(),
                self.pushed.len(),
                self.taken.len()
            ));
        }
        Ok(())
    }

    /// Every counted worker joined the sleeping count after `scan` looked
    /// at it, and, for a post's scan, announced after the post.
    fn later_sleepers_only(&self, scan: &Scan) -> Result<(), String> {
        for (w, &p) in self.phases.iter().enumerate() {
            if !matches!(p, Phase::Pending | Phase::Blocked) {
                continue;
            }
            if self.joined_at[w] <= scan.looked_at[w] {
                return Err(format!(
                    "worker {w} is counted and joined the sleeping count (record {}) \
                     before the scan looked at it (record {})",
                    self.joined_at[w], scan.looked_at[w]
                ));
            }
            if scan.owed_at.post && self.announced_at[w] <= scan.owed_at.at {
                return Err(format!(
                    "worker {w} is counted, joined after the scan passed it, but \
                     announced (record {}) before the post that owes the wake-up \
                     (record {})",
                    self.announced_at[w], scan.owed_at.at
                ));
            }
        }
        Ok(())
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

    /// The checker threads of the tests: the outside thread and worker 0's.
    const OUTSIDE: u64 = 100;
    const W0: u64 = 0;

    /// One worker searches, announces, sleeps, and a post owes it a
    /// wake-up: every step is a transition of the model.
    fn run_to_block(v: &mut Validator) {
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 0));
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(1, 1, 0));
        v.step(Step::JoinSleeping, Some(0), W0).unwrap();
        v.step(Step::Block, Some(0), W0).unwrap();
        v.counters(counters(1, 1, 1));
        v.step(Step::InjectPush { was_empty: true }, None, OUTSIDE)
            .unwrap();
        v.step(Step::Post, None, OUTSIDE).unwrap();
        v.step(Step::WakeLoop { owed: 1 }, None, OUTSIDE).unwrap();
    }

    #[test]
    fn a_sleep_and_a_wake_up_are_transitions_of_the_model() {
        let mut v = Validator::new(1);
        run_to_block(&mut v);
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(0), OUTSIDE).unwrap();
        v.step(Step::TakeInjected, None, W0).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(0), W0).unwrap();
        v.step(Step::Terminate, None, OUTSIDE).unwrap();
        assert_eq!(v.steps, 11);
        assert_eq!(v.wakes_in_flight, 0);
    }

    #[test]
    fn a_wake_up_that_leaves_the_sleeping_count_leaves_the_model() {
        // `sleeper_decrements`: the waker does not decrement.
        let mut v = Validator::new(1);
        run_to_block(&mut v);
        let err = v.step(Step::Woken, Some(0), OUTSIDE).unwrap_err();
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
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 0));
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::InjectPush { was_empty: true }, None, OUTSIDE)
            .unwrap();
        v.step(Step::Post, None, OUTSIDE).unwrap();
        v.counters(counters(1, 1, 1));
        let err = v.step(Step::JoinSleeping, Some(0), W0).unwrap_err();
        assert!(err.contains("locked_stale"), "{err}");
    }

    /// Two workers: worker 1 blocks, worker 0 is busy; a post owes one
    /// wake-up.
    fn two_workers_one_blocked(v: &mut Validator) {
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        v.step(Step::Announce, Some(1), 1).unwrap();
        v.counters(counters(1, 1, 0));
        v.step(Step::JoinSleeping, Some(1), 1).unwrap();
        v.step(Step::Block, Some(1), 1).unwrap();
        v.counters(counters(1, 1, 1));
        v.step(Step::InjectPush { was_empty: true }, None, OUTSIDE)
            .unwrap();
        v.step(Step::Post, None, OUTSIDE).unwrap();
        v.step(Step::WakeLoop { owed: 1 }, None, OUTSIDE).unwrap();
    }

    #[test]
    fn a_wake_loop_passes_an_awake_worker_and_wakes_a_blocked_one() {
        let mut v = Validator::new(2);
        two_workers_one_blocked(&mut v);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(1), OUTSIDE).unwrap();
        v.step(Step::Terminate, None, OUTSIDE).unwrap();
        assert_eq!(v.wakes_in_flight, 0);
    }

    #[test]
    fn a_wake_loop_that_stops_at_an_awake_worker_leaves_the_model() {
        // `wake_loop_counts_attempts`: worker 0 is awake, the loop counts
        // it as woken and stops; the poster's next record shows it.
        let mut v = Validator::new(2);
        two_workers_one_blocked(&mut v);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        let err = v.step(Step::Terminate, None, OUTSIDE).unwrap_err();
        assert!(
            err.contains("stopped after looking at worker(s) 0..1 of 2"),
            "{err}"
        );
    }

    #[test]
    fn a_scan_that_finds_nobody_while_a_worker_is_counted_leaves_the_model() {
        // Worker 1 is counted; a scan that reports it not blocked (a waker
        // that looked without its lock) drops a wake-up the model keeps.
        let mut v = Validator::new(2);
        two_workers_one_blocked(&mut v);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        let err = v.step(Step::NotBlocked, Some(1), OUTSIDE).unwrap_err();
        assert!(err.contains("where the model has it blocked"), "{err}");
    }

    #[test]
    fn a_post_that_owes_no_wake_up_beside_a_sleeper_and_no_idle_worker_leaves_the_model() {
        // No worker idle, one asleep: the model's post owes one wake-up.
        let mut v2 = Validator::new(2);
        v2.counters(counters(0, 1, 0));
        v2.step(Step::StartLooking, Some(1), 1).unwrap();
        v2.step(Step::Announce, Some(1), 1).unwrap();
        v2.counters(counters(1, 1, 0));
        v2.step(Step::JoinSleeping, Some(1), 1).unwrap();
        v2.step(Step::Block, Some(1), 1).unwrap();
        v2.counters(counters(1, 1, 1));
        v2.step(Step::InjectPush { was_empty: true }, None, OUTSIDE)
            .unwrap();
        v2.step(Step::Post, None, OUTSIDE).unwrap();
        let err = v2
            .step(Step::WakeLoop { owed: 0 }, None, OUTSIDE)
            .unwrap_err();
        assert!(err.contains("owes 0 wake-up(s)"), "{err}");
    }

    #[test]
    fn a_scan_that_finds_nobody_drops_its_wake_up() {
        // The blocked worker was woken by another loop first: the scan
        // finds nobody, and nobody is counted.
        let mut v = Validator::new(2);
        two_workers_one_blocked(&mut v);
        // A second post, on another thread, wakes worker 1 first.
        v.step(Step::InjectPush { was_empty: false }, None, 7)
            .unwrap();
        v.step(Step::Post, None, 7).unwrap();
        v.step(Step::WakeLoop { owed: 1 }, None, 7).unwrap();
        v.step(Step::NotBlocked, Some(0), 7).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(1), 7).unwrap();
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        v.step(Step::NotBlocked, Some(1), OUTSIDE).unwrap();
        assert_eq!(v.wakes_in_flight, 0);
    }

    #[test]
    fn a_scan_may_drop_its_wake_up_beside_a_worker_that_slept_behind_it() {
        // The post's scan passes worker 0 while it is busy; another post's
        // loop wakes worker 1; worker 0 announces, sleeps and blocks; the
        // first scan then finds worker 1 not blocked and drops its wake-up
        // with worker 0 counted: not the model's guard, but worker 0
        // joined after the scan passed it and announced after the post.
        let mut v = Validator::new(2);
        two_workers_one_blocked(&mut v);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        v.step(Step::InjectPush { was_empty: false }, None, 7)
            .unwrap();
        v.step(Step::Post, None, 7).unwrap();
        v.step(Step::WakeLoop { owed: 1 }, None, 7).unwrap();
        v.step(Step::NotBlocked, Some(0), 7).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(1), 7).unwrap();
        // Worker 1 runs both jobs, then worker 0 sleeps.
        const W1: u64 = 1;
        v.step(Step::TakeInjected, None, W1).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(1), W1).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::StartLooking, Some(1), W1).unwrap();
        v.step(Step::TakeInjected, None, W1).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(1), W1).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 2));
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(1, 1, 2));
        v.step(Step::JoinSleeping, Some(0), W0).unwrap();
        v.step(Step::Block, Some(0), W0).unwrap();
        v.step(Step::NotBlocked, Some(1), OUTSIDE).unwrap();
        assert_eq!(v.wakes_in_flight, 0);
        assert_eq!(v.drops_beside_later_sleepers, 1);
    }

    #[test]
    fn a_push_without_its_post_leaves_the_model() {
        // `spawn_fifo_outside_skips_post`: the pusher's next step is not
        // the post.
        let mut v = Validator::new(1);
        v.step(Step::InjectPush { was_empty: true }, None, OUTSIDE)
            .unwrap();
        let err = v.step(Step::Terminate, None, OUTSIDE).unwrap_err();
        assert!(err.contains("has no post"), "{err}");
    }

    #[test]
    fn an_internal_push_and_post_and_a_local_take_are_transitions_of_the_model() {
        // Worker 0 runs a job that pushes one onto its deque and posts it
        // (nobody sleeps), then pops it between jobs.
        let mut v = Validator::new(2);
        v.step(Step::Push { was_empty: true }, Some(0), W0).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::Post, None, W0).unwrap();
        v.step(Step::TakeOwn, Some(0), W0).unwrap();
        assert_eq!(v.steps, 3);
    }

    #[test]
    fn a_post_of_the_wrong_case_leaves_the_model() {
        // Worker 0 sleeps; a job pushed into a non-empty injector must
        // wake one; a post that owes nothing took the empty case.
        let mut v = Validator::new(2);
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(1, 1, 0));
        v.step(Step::JoinSleeping, Some(0), W0).unwrap();
        v.step(Step::Block, Some(0), W0).unwrap();
        v.counters(counters(1, 2, 0));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        v.step(Step::InjectPush { was_empty: false }, None, OUTSIDE)
            .unwrap();
        v.counters(counters(1, 2, 1));
        v.step(Step::Post, None, OUTSIDE).unwrap();
        let err = v
            .step(Step::WakeLoop { owed: 0 }, None, OUTSIDE)
            .unwrap_err();
        assert!(err.contains("owe [1]"), "{err}");
    }

    #[test]
    fn a_block_beside_an_injected_job_leaves_the_model() {
        // `no_final_injector_check`: worker 1 joins the sleeping count, a
        // job is injected and posted, and the worker blocks without a
        // final look, which would have seen the job.
        let mut v = Validator::new(2);
        v.injector(7);
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        v.step(Step::Announce, Some(1), 1).unwrap();
        v.counters(counters(1, 1, 0));
        v.step(Step::JoinSleeping, Some(1), 1).unwrap();
        v.queue_len(7, 1);
        v.step(Step::InjectPush { was_empty: true }, None, OUTSIDE)
            .unwrap();
        v.counters(counters(1, 1, 1));
        v.step(Step::Post, None, OUTSIDE).unwrap();
        let err = v.step(Step::Block, Some(1), 1).unwrap_err();
        assert!(err.contains("final look finds nothing, block"), "{err}");
    }

    /// Worker 0 blocks, the pool terminates: the setter finds its latch
    /// SLEEPING and wakes it; worker 1 is busy and leaves between jobs.
    fn terminate_beside_a_blocked_worker(v: &mut Validator) {
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(1, 1, 0));
        v.step(Step::JoinSleeping, Some(0), W0).unwrap();
        v.step(Step::Block, Some(0), W0).unwrap();
        v.step(Step::Terminate, None, OUTSIDE).unwrap();
    }

    #[test]
    fn terminate_wakes_and_ends_every_worker() {
        let mut v = Validator::new(2);
        terminate_beside_a_blocked_worker(&mut v);
        v.step(Step::LatchSet { was_sleeping: true }, Some(0), OUTSIDE)
            .unwrap();
        v.step(Step::LatchWake, Some(0), OUTSIDE).unwrap();
        v.counters(counters(0, 1, 0));
        v.step(Step::Woken, Some(0), OUTSIDE).unwrap();
        v.step(
            Step::LatchSet {
                was_sleeping: false,
            },
            Some(1),
            OUTSIDE,
        )
        .unwrap();
        v.step(Step::Exit, Some(1), 1).unwrap();
        // Worker 0 returns from `sleep`, probes its latch and leaves.
        v.counters(counters(0, 0, 0));
        v.step(Step::WorkFound, Some(0), W0).unwrap();
        v.step(Step::Exit, Some(0), W0).unwrap();
        v.end().unwrap();
    }

    #[test]
    fn a_latch_set_that_finds_a_blocked_worker_awake_leaves_the_model() {
        let mut v = Validator::new(2);
        terminate_beside_a_blocked_worker(&mut v);
        let err = v
            .step(
                Step::LatchSet {
                    was_sleeping: false,
                },
                Some(0),
                OUTSIDE,
            )
            .unwrap_err();
        assert!(err.contains("not SLEEPING"), "{err}");
    }

    #[test]
    fn an_execution_that_ends_with_a_worker_in_its_main_loop_fails() {
        // `once_latch_set_never_wakes` hangs instead; this is what the end
        // of such a run would show.
        let mut v = Validator::new(2);
        terminate_beside_a_blocked_worker(&mut v);
        v.step(Step::LatchSet { was_sleeping: true }, Some(0), OUTSIDE)
            .unwrap();
        v.step(
            Step::LatchSet {
                was_sleeping: false,
            },
            Some(1),
            OUTSIDE,
        )
        .unwrap();
        v.step(Step::Exit, Some(1), 1).unwrap();
        let err = v.end().unwrap_err();
        assert!(err.contains("[0] never left"), "{err}");
    }
}
