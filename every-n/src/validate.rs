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
//! the end of the last round (`get_sleepy`), giving up a sleep on a moved
//! JEC, blocking, the wake loop, pushes and takes, the queues' lengths, and
//! terminate's latches and the exits, to the end of the execution. The
//! steps between a worker's `get_sleepy` and its compare-and-swap
//! (`fall_asleep`) and its return from `sleep` after a wake-up are not
//! recorded and are taken as the model's transitions of those names when
//! the next recorded step needs them.
//!
//! The wake loop. The model's `wakes_in_flight` is tracked. A post, a finder
//! (`work_found`) or a successor's check (`Successor`, a busy worker's) is
//! validated with the wake-ups it adds left open: the set of numbers its
//! enabled transitions allow is kept for its thread, and the thread's next
//! record settles it: `WakeLoop { owed }` (the start of `wake_any_threads`)
//! must owe one of them, any other record means it owes none (a finder's
//! `HandOff` comes between its `work_found` and its `WakeLoop { owed: 1 }` and
//! settles nothing). The count goes up only then; meanwhile the validator's
//! count is below the model's, which can only disable transitions (every guard
//! on it is a lower bound), so the steps between are still the model's. Each
//! `Woken` of a loop is the model's `wake_specific_thread wakes a blocked
//! worker` (a wake-up in flight spent, `S - 1`, the worker `woken`); each
//! `NotBlocked` is no model step, but the worker looked at must not be counted
//! or hold its lock (the waker holds it: exact). A loop looks at the workers
//! once each, in index order, until it has spent what it owes or looked at
//! every worker; then what it still owes is dropped, each drop the model's
//! `wake_any_threads finds nobody to wake`, whose guard is that no worker is
//! counted. A thread that records anything else while its loop owes wake-ups
//! and has workers left stopped the loop early, which no model transition does
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
//! The queues. The model's `q_injected` is the injector's length and
//! `q_internal` the deques' total, both the code's: each model queue
//! records its length right after it publishes it (`Record::QueueLen`,
//! before its unlock, a scheduling point), with the thread that pushed or
//! took. `Registry::new` names the injector; a deque is known as worker
//! `i`'s from the first push or take that `i`'s `Push` or `TakeOwn`, or a
//! `Steal` from `i`, records next on the same thread (broadcast and FIFO
//! queues are outside the model). Each change of a model queue must be
//! the push or take that its thread records next, of the right queue, and
//! each push and take record must follow such a change: so the queues move
//! only in the model's pushes and takes, and the validator compares the
//! other variables at each step and takes the queues as the records left
//! them. `q_pinned` and `pinned_done` are 0 in every state: the code has no
//! notion of a pusher that waits outside the pool for its job (such a job
//! is user code blocking in a busy worker), so each push is a `q_internal`
//! push and each transition that moves them is left out of the
//! validator's transitions; their guards read them as 0.
//!
//! Every guard over the queues is checked, where the code makes it true
//! ([`GuardCounts::lines`] names each kind, and the trace-validation tests
//! print the counts):
//! - exactly, at the step: the block's "injector empty" (the final look is
//!   the last checker operation before the `Block` record);
//!   `take_local_job`'s `q_internal >= 1` on the deques as the take found
//!   them (the take took effect at its queue record);
//!   `Registry::inject push`'s "into an empty injector" / "into a non-empty
//!   injector" on the injector as the push found it;
//! - exactly when it holds at the step, else by the premise the docs argue
//!   (counted apart): the last round's "every queue empty". A round reads
//!   the queues one after another (its own deque, every other deque, the
//!   injector), so what the code makes true, and what is checked at every
//!   `GetSleepy`, is that each queue (the injector, every deque) was empty
//!   at some moment between the worker's announcement and now: the takes
//!   since the announcement covered the jobs queued at it (the premise of
//!   `docs/proof.md` lemma 5 (a) and of the internal-job argument). A
//!   round that skipped a queue, or no last round at all, fails here;
//! - within the reads' window: `work_found`'s queue guards (the source held the
//!   job; more queued; source now empty; work left for the hand-off; nothing
//!   left) decide its wake-ups, which the code reads after the decrement, past
//!   scheduling points (`more_work_queued`, `has_stealable_job`): each
//!   transition's queue guard must hold for lengths that each queue had at some
//!   moment between the `work_found` record and the thread's next record (its
//!   `HandOff` or `WakeLoop`, or its `FinderDone` if it owes none: `work_found`
//!   records it as it returns, before the job, which may block for good), with
//!   the taken job back in its source; a decision allowed by the lengths at
//!   `work_found` itself is counted as exact. A push whose own record has not
//!   come yet may be onto a deque not yet known as one, so such a queue widens
//!   the upper bound of `q_internal` there. The finder's records name the case
//!   it took, and only that case's transitions count: after a `HandOff` the
//!   hand-off's (`last searcher, work left`), wake-ups without one the helpers'
//!   (`more queued`). The same for the final look that finds a job: the
//!   injector not empty at some moment between the join and the record (the
//!   sleeper's decrement, a scheduling point, falls between its look and its
//!   record), exact when it holds at the record;
//! - skipped, and counted with the reason: `Registry::inject push`'s
//!   emptiness where the injector changed between the push's `is_empty`
//!   read and its push (a scheduling point between). Here the model is
//!   narrower than the code (a gap in the abstraction, not in the
//!   validator): the post's `queue_was_empty` case is the one the push
//!   read, which is checked, but the push itself is not a transition of the
//!   model in such runs.
//!
//! After `Registry::terminate`. The validator keeps each worker's
//! terminate-latch flag (the model's `_u`, `_s`, `_w`), whether it left its
//! main loop, and `term`. `Registry::terminate` is the model's transition of
//! that name; each `LatchSet` is `OnceLatch::set_and_wake: CoreLatch::set` for
//! the worker's phase, with the unrecorded steps it implies first (a drowsy
//! worker whose latch was `SLEEPING` did `fall_asleep`; a woken one whose latch
//! was not had returned from `sleep`), and the latch's state must be the one
//! the model gives the phase, with one exception: between a sleeper's
//! `FinalLookFound` or `Abandon` record and its `CoreLatch::wake_up` (past
//! scheduling points) the latch is still `SLEEPING` while the model, whose step
//! does both, has the worker idle (accepted only until that worker's thread
//! records its next step); the setter then owes a wake-up the model does not,
//! and its wake-up finds the worker not blocked, no step either way. The
//! setter's wake-up (`LatchWake`, then `Woken` or `NotBlocked`) is
//! `notify_worker_latch_is_set: wake_specific_thread` when the model owes it,
//! and no step when the model owes none or the owner has left. A worker leaves
//! through `Sleep::stop_looking`, with no take (`main_loop exits [p, latch f]:
//! stop_looking`, after `fall_asleep: fails` for a drowsy one, whose latch was
//! set while `SLEEPY`), or between jobs (`Exit` while busy: `main_loop exits
//! [busy, latch f]`). At the end ([`Validator::end`]) every worker must have
//! left, and no wake-up, wake loop, post, push, take or queue change be
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
//! A latch's wake-up that wakes a worker whose terminate latch is not set
//! leaves the model, whose one latch is the terminate latch (the join and
//! scope latches are not modelled).

use crate::lin::{Atom, Lin};
use crate::model::{
    w, Flag, Model, Phase, Width, DONE, EXITED, I, INJ_EMPTY, INJ_MORE, JODD, N, QD, QI, QP, S,
    TERM, TOK,
};
pub use drowse::sync::record::{Record, Step};
use std::collections::BTreeMap;
use std::sync::OnceLock;

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

/// The transitions of the model a recorded step may be: by name.
#[derive(Clone, Copy)]
enum Named<'a> {
    /// The transition of exactly this name.
    Exactly(&'a str),
    /// The transitions whose names start with this one (the model splits
    /// a step into cases).
    StartingWith(&'a str),
    /// The transitions whose names start with this one and that the
    /// function accepts.
    Where(&'a str, &'a dyn Fn(&str) -> bool),
}

impl Named<'_> {
    fn accepts(&self, transition: &str) -> bool {
        match *self {
            Named::Exactly(name) => transition == name,
            Named::StartingWith(name) => transition.starts_with(name),
            Named::Where(name, also) => transition.starts_with(name) && also(transition),
        }
    }

    /// The step's name, for reports.
    fn name(&self) -> &str {
        match *self {
            Named::Exactly(name) | Named::StartingWith(name) | Named::Where(name, _) => name,
        }
    }
}

/// Outside threads between their push and their post, by what their push
/// read (the model's `injecting_into_empty`, `injecting_into_nonempty`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Queues {
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

impl Source {
    /// The model's variable for the queue.
    fn var(self) -> &'static str {
        match self {
            Source::Injector => QI,
            Source::Deque => QD,
        }
    }
}

/// A model transition as the validator takes it: the guard split into the
/// atoms over the queue variables (`queue_guard`, checked where the code's
/// queues say, see the module documentation) and the rest (`guard`,
/// checked at the step); the update without the queue variables, which
/// the queues' own records move.
#[derive(Debug)]
struct Projected {
    name: String,
    guard: Vec<Atom>,
    queue_guard: Vec<Atom>,
    update: Vec<(String, Lin)>,
}

/// A queue's change, recorded by the queue (`Record::QueueLen`) for the
/// thread that pushed or took; its push or take record comes next.
#[derive(Clone, Copy, Debug)]
struct Move {
    queue: usize,
    before: i64,
    after: i64,
    /// The deques' total (`q_internal`) just before, counting this queue
    /// if it is no deque known yet (its owner's first push may not have
    /// been recorded yet).
    internal_before: i64,
}

/// The queues' lengths from some record on: each queue's length then
/// (`start`) and the least and greatest since (`range`).
#[derive(Clone, Debug, Default)]
struct Window {
    start: BTreeMap<usize, i64>,
    range: BTreeMap<usize, (i64, i64)>,
}

impl Window {
    fn open(lens: &BTreeMap<usize, i64>) -> Window {
        Window {
            start: lens.clone(),
            range: lens.iter().map(|(&q, &l)| (q, (l, l))).collect(),
        }
    }

    fn moved(&mut self, m: &Move) {
        let r = self.range.entry(m.queue).or_insert((m.before, m.before));
        r.0 = r.0.min(m.after);
        r.1 = r.1.max(m.after);
    }

    /// The least and greatest length of `queue` since the window opened.
    fn range(&self, queue: usize) -> (i64, i64) {
        self.range.get(&queue).copied().unwrap_or((0, 0))
    }

    fn start(&self, queue: usize) -> (i64, i64) {
        let l = self.start.get(&queue).copied().unwrap_or(0);
        (l, l)
    }
}

/// Bounds on the queue variables under which a queue guard is evaluated:
/// it holds if it holds for some values within them (one value each for
/// an exact check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct QueueBox {
    injected: (i64, i64),
    internal: (i64, i64),
}

impl QueueBox {
    fn point(injected: i64, internal: i64) -> QueueBox {
        QueueBox {
            injected: (injected, injected),
            internal: (internal, internal),
        }
    }

    /// The queue `source` with one more job (the model's take comes with
    /// the step; the code's came before it).
    fn plus_one(mut self, source: &str) -> QueueBox {
        let r = if source == QI {
            &mut self.injected
        } else {
            &mut self.internal
        };
        *r = (r.0 + 1, r.1 + 1);
        self
    }

    fn holds(&self, atom: &Atom, env: &dyn Fn(&str) -> i64) -> bool {
        let lin = match atom {
            Atom::Ge(l) | Atom::Eq(l) => l,
        };
        let (mut lo, mut hi) = (lin.constant, lin.constant);
        for (v, &c) in &lin.terms {
            let (a, b) = if v == QI {
                self.injected
            } else if v == QD {
                self.internal
            } else if v == QP || v == DONE {
                (0, 0)
            } else {
                (env(v), env(v))
            };
            if c >= 0 {
                lo += c * a;
                hi += c * b;
            } else {
                lo += c * b;
                hi += c * a;
            }
        }
        match atom {
            Atom::Ge(_) => hi >= 0,
            Atom::Eq(_) => lo <= 0 && 0 <= hi,
        }
    }
}

/// How `take_with` checks the queue guards of the transitions it tries.
#[derive(Clone, Copy, Debug)]
enum QueueCheck {
    /// Within these bounds.
    In(QueueBox),
    /// Not there: the caller checks them (it gets the transitions).
    Later,
}

/// How the guards over the queues were checked in a run, by kind (and the
/// other guards: every transition taken). `lines` says what each is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuardCounts {
    /// Transitions taken: each one's guard over the counters, phases,
    /// latches and wake-ups in flight checked exactly at its step.
    pub transitions: usize,
    pub inject_push_exact: usize,
    pub inject_push_skipped: usize,
    pub takes_exact: usize,
    pub finder_exact: usize,
    pub finder_by_reads: usize,
    /// Of the finders: those whose wake-up was the hand-off.
    pub hand_offs: usize,
    pub last_round_exact: usize,
    pub last_round_premise: usize,
    pub final_look_found_exact: usize,
    pub final_look_found_by_reads: usize,
    pub block_exact: usize,
    pub drops_exact: usize,
    pub drops_premise: usize,
}

impl GuardCounts {
    pub fn add(&mut self, o: &GuardCounts) {
        self.transitions += o.transitions;
        self.inject_push_exact += o.inject_push_exact;
        self.inject_push_skipped += o.inject_push_skipped;
        self.takes_exact += o.takes_exact;
        self.finder_exact += o.finder_exact;
        self.finder_by_reads += o.finder_by_reads;
        self.hand_offs += o.hand_offs;
        self.last_round_exact += o.last_round_exact;
        self.last_round_premise += o.last_round_premise;
        self.final_look_found_exact += o.final_look_found_exact;
        self.final_look_found_by_reads += o.final_look_found_by_reads;
        self.block_exact += o.block_exact;
        self.drops_exact += o.drops_exact;
        self.drops_premise += o.drops_premise;
    }

    /// One line per kind of guard: how many were checked exactly, how many
    /// by the premise the docs argue instead, how many skipped and why.
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!(
                "counters, phases, latches, wake-ups in flight (every transition's guard but its queue atoms): {} checked exactly",
                self.transitions
            ),
            format!(
                "`Registry::inject push` (injector empty / not empty): {} checked exactly at the push; {} skipped: the injector changed between the push's `is_empty` read and its push (the model's push is narrower than the code; the post's case, what the push read, is checked)",
                self.inject_push_exact, self.inject_push_skipped
            ),
            format!(
                "`wait_until_cold: take_local_job` (q_internal >= 1): {} checked exactly at the take's queue record (a searcher's take, `work_found`'s `q >= 1`, is checked with its wake-ups, below)",
                self.takes_exact
            ),
            format!(
                "`work_found`'s wake-ups (more queued / source now empty / work left / nothing left): {} checked exactly (allowed by the queues at the decrement), {} by the reads' window (each guard held for lengths the queues had at some moment between the decrement and the decision); {} of them hand-offs",
                self.finder_exact, self.finder_by_reads, self.hand_offs
            ),
            format!(
                "last round finds nothing (every queue empty): {} exactly at `get_sleepy`, {} by the premise (checked on all {}: each queue was empty at some moment since the announcement)",
                self.last_round_exact,
                self.last_round_premise,
                self.last_round_exact + self.last_round_premise
            ),
            format!(
                "final look finds an injected job (injector not empty): {} checked exactly, {} by the look's window (not empty at some moment between the join and the record)",
                self.final_look_found_exact, self.final_look_found_by_reads
            ),
            format!(
                "final look finds nothing, block (injector empty): {} checked exactly",
                self.block_exact
            ),
            format!(
                "`wake_any_threads finds nobody to wake` (nobody counted): {} checked exactly, {} by the premise (every counted worker joined behind the scan)",
                self.drops_exact, self.drops_premise
            ),
            "q_pinned, pinned_done: 0 in every state (each push is a q_internal push: the code has no pusher that waits outside the pool); the transitions that move them are never taken".to_string(),
        ]
    }
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
    /// The transitions that matched its step but for their queue guards,
    /// with the wake-ups each owes.
    candidates: Vec<(i64, &'static Projected)>,
    /// Its record's number.
    at: usize,
    post: bool,
    /// A finder's source, and the queues' lengths since its `work_found`
    /// (its reads of the queues fall in that window).
    finder: Option<(Source, Window)>,
    /// The finder recorded its `HandOff`.
    hand_off: bool,
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
    /// Every model queue's length, as the queue last recorded it (the
    /// injector, the deques, and queues outside the model: broadcast and
    /// FIFO queues).
    lens: BTreeMap<usize, i64>,
    /// The deques, each with its worker: a queue is known as worker `i`'s
    /// deque from the first push or take of it that `i`'s `Push`,
    /// `TakeOwn` or a `Steal` from `i` records.
    deques: BTreeMap<usize, usize>,
    /// By thread: its queue changes since its last step record.
    moves: BTreeMap<u64, Vec<Move>>,
    /// By worker: the queues since its last announcement (for its last
    /// round), and since it joined the sleeping count (for its final look).
    since_announce: BTreeMap<usize, Window>,
    since_join: BTreeMap<usize, Window>,
    /// By thread: the worker whose `FinalLookFound` or `Abandon` it
    /// recorded last, until its next step record (its latch is still
    /// `SLEEPING` until its `CoreLatch::wake_up`, unrecorded).
    leaving_sleep: BTreeMap<u64, usize>,
    /// How each kind of guard was checked.
    pub guards: GuardCounts,
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

/// The model's queue variables: the injector's length, the deques' total,
/// and the pinned jobs (0 here: see the module documentation).
fn queue_var(v: &str) -> bool {
    v == QI || v == QD || v == QP || v == DONE
}

fn mentions_queue(a: &Atom) -> bool {
    match a {
        Atom::Ge(l) | Atom::Eq(l) => l.terms.keys().any(|v| queue_var(v)),
    }
}

fn project(model: Model) -> Vec<Projected> {
    model
        .transitions
        .into_iter()
        .filter(|t| t.params.is_empty())
        // A pinned job's push, take and its pusher's resumption: the code
        // has no pusher that waits outside the pool for its job.
        .filter(|t| !t.update.iter().any(|(v, _)| v == QP || v == DONE))
        .map(|t| {
            let (queue_guard, guard): (Vec<Atom>, Vec<Atom>) =
                t.guard.into_iter().partition(mentions_queue);
            for (v, lin) in &t.update {
                assert!(
                    queue_var(v) || !lin.terms.keys().any(|x| queue_var(x)),
                    "{}: {v} is set from a queue variable",
                    t.name
                );
            }
            Projected {
                name: t.name,
                guard,
                queue_guard,
                update: t
                    .update
                    .into_iter()
                    .filter(|(v, _)| !queue_var(v))
                    .collect(),
            }
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
            lens: BTreeMap::new(),
            deques: BTreeMap::new(),
            moves: BTreeMap::new(),
            since_announce: BTreeMap::new(),
            since_join: BTreeMap::new(),
            leaving_sleep: BTreeMap::new(),
            guards: GuardCounts::default(),
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

    /// Takes one record of the code (`drowse::sync::record`): a step is
    /// checked against the model (`Err`: the report of the step that left
    /// it); the other records say what the next steps are checked against.
    pub fn record(&mut self, record: Record) -> Result<(), String> {
        match record {
            Record::Counters {
                sleeping,
                inactive,
                jobs_event_counter,
            } => self.counters(Real::new(sleeping, inactive, jobs_event_counter)),
            Record::Injector { queue } => self.injector(queue),
            Record::QueueLen { queue, len, thread } => self.queue_len(queue, len, thread),
            Record::Step {
                step,
                worker,
                thread,
            } => return self.step(step, worker, thread),
        }
        Ok(())
    }

    /// The pool's injector is queue `queue`.
    pub fn injector(&mut self, queue: usize) {
        self.injector.get_or_insert(queue);
    }

    /// Thread `thread`'s push or take left queue `queue` holding `len`
    /// jobs.
    pub fn queue_len(&mut self, queue: usize, len: usize, thread: u64) {
        let before = self.lens.get(&queue).copied().unwrap_or(0);
        let mut internal_before = self.internal();
        if !self.deques.contains_key(&queue) && self.injector != Some(queue) {
            internal_before += before;
        }
        let m = Move {
            queue,
            before,
            after: len as i64,
            internal_before,
        };
        self.lens.insert(queue, len as i64);
        for o in self.owing.values_mut() {
            if let Some((_, window)) = &mut o.finder {
                window.moved(&m);
            }
        }
        for window in self
            .since_announce
            .values_mut()
            .chain(self.since_join.values_mut())
        {
            window.moved(&m);
        }
        self.moves.entry(thread).or_default().push(m);
    }

    /// The injector's length (the model's `q_injected`).
    fn injected(&self) -> i64 {
        self.injector
            .and_then(|q| self.lens.get(&q))
            .copied()
            .unwrap_or(0)
    }

    /// The deques' total (the model's `q_internal`).
    fn internal(&self) -> i64 {
        self.deques
            .keys()
            .map(|q| self.lens.get(q).copied().unwrap_or(0))
            .sum()
    }

    /// The queue variables' bounds over `window` (`start`: at its opening).
    fn window_box(&self, window: &Window, start: bool) -> QueueBox {
        let range = |q: usize| {
            if start {
                window.start(q)
            } else {
                window.range(q)
            }
        };
        let injected = self.injector.map_or((0, 0), range);
        let mut internal = self
            .deques
            .keys()
            .map(|&q| range(q))
            .fold((0, 0), |(a, b), (lo, hi)| (a + lo, b + hi));
        if !start {
            // A push whose own record has not come yet (a scheduling point,
            // its unlock, comes between) may be onto a deque not yet known
            // as one (its owner's first push): a reader may have seen it.
            // Such queues widen the upper bound only (a FIFO job's queue
            // counts twice then, with its deque's: a looser check, never a
            // false failure).
            let mut pending: Vec<usize> = self
                .moves
                .values()
                .flatten()
                .filter(|m| m.after > m.before && !self.in_model(m.queue))
                .map(|m| m.queue)
                .collect();
            pending.sort_unstable();
            pending.dedup();
            internal.1 += pending.iter().map(|&q| window.range(q).1).sum::<i64>();
        }
        QueueBox { injected, internal }
    }

    fn now(&self) -> QueueBox {
        QueueBox::point(self.injected(), self.internal())
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
        // The queues' lengths are the code's: their own records move them.
        st.insert(QI.to_string(), self.injected());
        st.insert(QD.to_string(), self.internal());
        st.insert(QP.to_string(), 0);
        st.insert(DONE.to_string(), 0);
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
            .filter(|(k, v)| **v != 0 || [S, I, JODD, TOK, QI, QD].contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Takes the model transition named `prefix...` from the current
    /// abstract state (`self.phases`, counters as they were, the wake-ups
    /// in flight) to `phases` with counters `real` and `tok` wake-ups in
    /// flight, its queue guards checked on the queues as they are now, or
    /// says why none does.
    fn take(
        &mut self,
        prefix: &str,
        phases: Vec<Phase>,
        real: Real,
        tok: i64,
    ) -> Result<(), String> {
        let (marks, now) = (self.marks.clone(), QueueCheck::In(self.now()));
        self.take_checked(Named::StartingWith(prefix), phases, real, tok, marks, now)
    }

    /// As `take`, for the transition named exactly `name`, which leaves the
    /// marks (terminate latches, exits, `term`) as `marks` with the queues
    /// as they are.
    fn take_exactly(
        &mut self,
        name: &str,
        phases: Vec<Phase>,
        real: Real,
        tok: i64,
        marks: Marks,
    ) -> Result<(), String> {
        let now = QueueCheck::In(self.now());
        self.take_checked(Named::Exactly(name), phases, real, tok, marks, now)
    }

    /// As `take_with`, the queues staying as they are and `tok` wake-ups in
    /// flight after the step.
    fn take_checked(
        &mut self,
        names: Named<'_>,
        phases: Vec<Phase>,
        real: Real,
        tok: i64,
        marks: Marks,
        check: QueueCheck,
    ) -> Result<(), String> {
        let queues = self.queues;
        self.take_with(names, phases, real, Some(tok), (queues, marks, check))
            .map(drop)
    }

    /// Takes the transition named exactly `name` that changes the marks
    /// only: the phases, counters and wake-ups in flight stay as they were.
    fn take_marks(&mut self, name: &str, marks: Marks) -> Result<(), String> {
        let (phases, real) = (self.phases.clone(), self.abstract_real());
        self.take_exactly(name, phases, real, self.wakes_in_flight, marks)
    }

    /// As `take` (`Ok(true)`) where a transition of that name leads there
    /// with its queue guards holding on the queues now; else with its queue
    /// guards checked as `otherwise` says (`Ok(false)`): for a step whose
    /// queue reads came before its record, past scheduling points.
    fn take_now_or(
        &mut self,
        prefix: &str,
        phases: Vec<Phase>,
        real: Real,
        tok: i64,
        otherwise: QueueCheck,
    ) -> Result<bool, String> {
        if self.take(prefix, phases.clone(), real, tok).is_ok() {
            return Ok(true);
        }
        let (names, marks) = (Named::StartingWith(prefix), self.marks.clone());
        self.take_checked(names, phases, real, tok, marks, otherwise)?;
        Ok(false)
    }

    /// As `take_with` (queue guards left to the settlement), for a post
    /// (`post`), a finder (`finder`: its source) or a successor's check
    /// that decides wake-ups: the transitions that matched are kept until
    /// its thread records its `WakeLoop`.
    #[allow(clippy::too_many_arguments)]
    fn take_deciding_wake_ups(
        &mut self,
        names: Named<'_>,
        phases: Vec<Phase>,
        real: Real,
        queues: Queues,
        thread: u64,
        post: bool,
        finder: Option<Source>,
    ) -> Result<(), String> {
        let marks = self.marks.clone();
        let candidates = self.take_with(
            names,
            phases,
            real,
            None,
            (queues, marks, QueueCheck::Later),
        )?;
        let at = self.history.len();
        let finder = finder.map(|source| (source, Window::open(&self.lens)));
        self.owing.insert(
            thread,
            Owing {
                candidates,
                at,
                post,
                finder,
                hand_off: false,
            },
        );
        Ok(())
    }

    /// As `take`, among the transitions `names` accepts, to
    /// the queues `queues`, their queue guards checked as `check` says.
    /// With `tok` `None` the transition may change the wake-ups in flight
    /// by any amount and the validator's count stays: the result is every
    /// transition that leads to the other values, with the change it makes
    /// (a post or finder whose wake-ups are recorded later, by `WakeLoop`).
    fn take_with(
        &mut self,
        names: Named<'_>,
        phases: Vec<Phase>,
        real: Real,
        tok: Option<i64>,
        (queues, marks, check): (Queues, Marks, QueueCheck),
    ) -> Result<Vec<(i64, &'static Projected)>, String> {
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
        let queue_guard_holds = |t: &Projected| match check {
            QueueCheck::In(b) => t.queue_guard.iter().all(|a| b.holds(a, &env)),
            QueueCheck::Later => true,
        };
        // The state a transition leads to, or `None` when it is not
        // enabled; compared with `after` as the validator sees it.
        let next_of = |t: &Projected| -> Option<BTreeMap<String, i64>> {
            if !t.guard.iter().all(|a| a.holds(&env)) || !queue_guard_holds(t) {
                return None;
            }
            let mut next = before.clone();
            for (v, lin) in &t.update {
                next.insert(v.clone(), lin.eval(&env));
            }
            Some(next)
        };
        let transitions: &'static [Projected] = self.transitions;
        let mut matched = Vec::new();
        for t in transitions.iter().filter(|t| names.accepts(&t.name)) {
            let Some(mut next) = next_of(t) else {
                continue;
            };
            let change = next[TOK] - before[TOK];
            if tok.is_none() {
                next.insert(TOK.to_string(), before[TOK]);
            }
            if next == after {
                matched.push((change, t));
                if tok.is_some() {
                    break;
                }
            }
        }
        if matched.is_empty() {
            // Only now the report: what each transition of that name does.
            let tried: Vec<String> = transitions
                .iter()
                .filter(|t| names.accepts(&t.name))
                .map(|t| match next_of(t) {
                    None if t.guard.iter().all(|a| a.holds(&env)) => {
                        format!("  {}: its queue guard fails ({check:?})", t.name)
                    }
                    None => format!("  {}: not enabled", t.name),
                    Some(next) => format!("  {}: leads to {}", t.name, Self::show(&next)),
                })
                .collect();
            return Err(format!(
                "the step `{}` left the model.\n  abstract state before: {}\n  \
                 the code's state after: {}\n  transitions of that name:\n{}",
                names.name(),
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
        self.guards.transitions += 1;
        Ok(matched)
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
        self.take(prefix, phases, real, self.wakes_in_flight)
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

    /// The numbers of wake-ups that the transitions `o` matched allow,
    /// their queue guards checked: a finder's within the lengths its
    /// window saw (`start`: at its opening, the `work_found` record), with
    /// its taken job back in its source (the model's take is part of the
    /// step); a post's and a successor's have none.
    fn allowed(&self, o: &Owing, start: bool) -> Vec<i64> {
        let b = match &o.finder {
            Some((source, window)) => self.window_box(window, start).plus_one(source.var()),
            None => self.now(),
        };
        let state = self.state(
            &self.phases,
            self.abstract_real(),
            self.wakes_in_flight,
            self.queues,
            &self.marks,
        );
        let env = |v: &str| state[v];
        let mut allowed = Vec::new();
        for (change, t) in &o.candidates {
            // A finder's records say which case of its transition it took:
            // after a `HandOff`, the hand-off; wake-ups without one, the
            // helpers for more work queued in its source.
            let case_fits = match &o.finder {
                Some(_) if o.hand_off => t.name.contains("hand-off"),
                Some(_) if *change > 0 => t.name.contains("more queued"),
                _ => true,
            };
            if case_fits
                && t.queue_guard.iter().all(|a| b.holds(a, &env))
                && !allowed.contains(change)
            {
                allowed.push(*change);
            }
        }
        allowed
    }

    /// `o`'s candidate transitions, for a report, with the queue bounds
    /// their queue guards were checked in.
    fn candidates_shown(&self, o: &Owing) -> String {
        let b = match &o.finder {
            Some((source, window)) => self.window_box(window, false).plus_one(source.var()),
            None => self.now(),
        };
        let names: Vec<&str> = o.candidates.iter().map(|(_, t)| t.name.as_str()).collect();
        format!("{names:?} in {b:?}")
    }

    /// The wake-ups that `thread`'s post or finder owes are `owed`: one of
    /// the numbers its model transition allowed.
    fn owe(&mut self, thread: u64, owed: usize) -> Result<Option<Owing>, String> {
        match self.owing.remove(&thread) {
            Some(o) => {
                let allowed = self.allowed(&o, false);
                if !allowed.contains(&(owed as i64)) {
                    return Err(format!(
                        "the post or finder before it owes {owed} wake-up(s); the model's \
                         transitions from the state it read owe {allowed:?}{}{}\n  \
                         the transitions that matched but for their queue guards: {}",
                        if o.hand_off {
                            " by its hand-off (it recorded `HandOff`)"
                        } else {
                            ""
                        },
                        if o.finder.is_some() {
                            " (their queue guards checked within the lengths the queues \
                             had from its `work_found` to now, where its reads fall)"
                        } else {
                            ""
                        },
                        self.candidates_shown(&o)
                    ));
                }
                if o.hand_off {
                    self.guards.hand_offs += 1;
                }
                if o.finder.is_some() {
                    if self.allowed(&o, true).contains(&(owed as i64)) {
                        self.guards.finder_exact += 1;
                    } else {
                        self.guards.finder_by_reads += 1;
                    }
                }
                self.wakes_in_flight += owed as i64;
                Ok(Some(o))
            }
            None if owed == 0 => Ok(None),
            None => Err(format!(
                "a wake loop owing {owed} wake-up(s) that no post or finder of this \
                 thread decided"
            )),
        }
    }

    /// The injector, or a known deque: a queue of the model.
    fn in_model(&self, queue: usize) -> bool {
        self.injector == Some(queue) || self.deques.contains_key(&queue)
    }

    /// The queue change that `thread`'s step `step` records, if it is a
    /// push or a take: its thread's last change of the injector or of the
    /// worker's deque since its last step record (a FIFO job's push comes
    /// with a push into the worker's FIFO queue, a queue outside the
    /// model). A worker's deque is known from its first push or take.
    /// Every other change of a queue of the model must be a push or take
    /// that its thread records next: the model moves the queues only in
    /// those steps.
    fn queue_moves(
        &mut self,
        step: Step,
        worker: Option<usize>,
        thread: u64,
    ) -> Result<Option<Move>, String> {
        let moves = self.moves.remove(&thread).unwrap_or_default();
        // Whose deque (`None`: the injector), and by how much.
        let expected = match step {
            Step::InjectPush { .. } => Some((None, 1)),
            Step::TakeInjected => Some((None, -1)),
            Step::Push { .. } => Some((Some(worker.ok_or("a push without its worker")?), 1)),
            Step::TakeOwn | Step::Steal => {
                Some((Some(worker.ok_or("a take without its deque's worker")?), -1))
            }
            _ => None,
        };
        let mut matched = None;
        if let Some((owner, delta)) = expected {
            let known =
                owner.and_then(|o| self.deques.iter().find(|(_, &w)| w == o).map(|(&q, _)| q));
            let fits = |m: &Move| {
                m.after - m.before == delta
                    && match owner {
                        None => Some(m.queue) == self.injector,
                        Some(_) => match known {
                            Some(q) => m.queue == q,
                            None => {
                                Some(m.queue) != self.injector
                                    && !self.deques.contains_key(&m.queue)
                            }
                        },
                    }
            };
            let Some(i) = moves.iter().rposition(fits) else {
                return Err(format!(
                    "{step:?} follows no {} {} by its thread",
                    if delta > 0 { "push onto" } else { "take from" },
                    match owner {
                        None => "the injector".to_string(),
                        Some(o) => format!("worker {o}'s deque"),
                    }
                ));
            };
            if let Some(o) = owner {
                self.deques.insert(moves[i].queue, o);
            }
            matched = Some(i);
        }
        for (i, m) in moves.iter().enumerate() {
            if Some(i) != matched && self.in_model(m.queue) {
                return Err(format!(
                    "{} of {} that its thread records no push or take of (its next \
                     step is {step:?}): the model moves the queues only in its pushes \
                     and takes",
                    if m.after > m.before {
                        "a push onto"
                    } else {
                        "a take from"
                    },
                    if Some(m.queue) == self.injector {
                        "the injector".to_string()
                    } else {
                        format!("worker {}'s deque", self.deques[&m.queue])
                    }
                ));
            }
        }
        Ok(matched.map(|i| moves[i]))
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
        // `HandOff` comes between a finder's `work_found` and its
        // `WakeLoop { owed: 1 }`.
        if !matches!(step, Step::WakeLoop { .. } | Step::HandOff) {
            self.owe(thread, 0)?;
        }
        let now = self.history.len();
        let moved = self.queue_moves(step, worker, thread)?;
        self.leaving_sleep.remove(&thread);
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
                self.take_marks("Registry::terminate", marks)?;
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
                self.take_marks(&name, marks)
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
                let case = |n: &str| n.contains(case) || n.contains("no sleeper");
                self.take_deciding_wake_ups(
                    Named::Where(&name, &case),
                    phases,
                    real,
                    queues,
                    thread,
                    true,
                    None,
                )?;
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
                let m = moved.ok_or("a push without its queue's change")?;
                // Its guard (the injector empty, or not) on the injector as
                // the push found it: the push took effect at its queue
                // record.
                let at_push = QueueCheck::In(QueueBox::point(m.before, self.internal()));
                let marks = self.marks.clone();
                let exact = self.take_with(
                    Named::Exactly(name),
                    phases.clone(),
                    real,
                    tok,
                    (queues, marks.clone(), at_push),
                );
                match exact {
                    Ok(_) => self.guards.inject_push_exact += 1,
                    // The push read `is_empty` before it pushed, with a
                    // scheduling point between: another thread's push or
                    // take made the injector's emptiness differ from what
                    // it read. The model's push is narrower than the code
                    // here; the post's case (what the push read) is checked.
                    Err(_) if (m.before == 0) != was_empty => {
                        self.take_with(
                            Named::Exactly(name),
                            phases,
                            real,
                            tok,
                            (queues, marks, QueueCheck::Later),
                        )?;
                        self.guards.inject_push_skipped += 1;
                    }
                    Err(e) => return Err(e),
                }
                self.pushed.insert(thread, Pushed::Injector { was_empty });
                Ok(())
            }
            Step::Push { was_empty } => {
                let (index, _) = self.phase(worker)?;
                let mut phases = self.phases.clone();
                phases[index] = BusyPosting;
                let name = format!(
                    "WorkerThread::push [latch {}]",
                    self.marks.flags[index].short()
                );
                let (real, tok, marks) = (
                    self.abstract_real(),
                    self.wakes_in_flight,
                    self.marks.clone(),
                );
                self.take_exactly(&name, phases, real, tok, marks)?;
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
                        // `take_local_job`, its guard (`q_internal >= 1`)
                        // on the deques as the take found them (it took
                        // effect at its queue record).
                        let m = moved.ok_or("a take without its queue's change")?;
                        let at_take =
                            QueueCheck::In(QueueBox::point(self.injected(), m.internal_before));
                        let name = Named::Exactly("wait_until_cold: take_local_job");
                        let (phases, real) = (self.phases.clone(), self.abstract_real());
                        let (tok, marks) = (self.wakes_in_flight, self.marks.clone());
                        self.take_checked(name, phases, real, tok, marks, at_take)?;
                        self.guards.takes_exact += 1;
                        return Ok(());
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
                    Named::StartingWith(&name),
                    phases,
                    real,
                    queues,
                    thread,
                    false,
                    None,
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
                match self.owing.get_mut(&thread) {
                    Some(o) if phase == Busy && o.finder.is_some() => {
                        o.hand_off = true;
                        Ok(())
                    }
                    _ => Err(format!(
                        "worker {index} hands off while {}: in the model only a finder \
                         that has just taken its job does (`Sleep::work_found [.., \
                         hand-off, wake 1]`; the model's exits through \
                         `Sleep::stop_looking` have no hand-off)",
                        short(phase)
                    )),
                }
            }
            // No model step: it ends the window of the finder's reads, and,
            // as any record but its `HandOff` or `WakeLoop`, settles what it
            // owes (above) before its job runs, which may block for good.
            Step::FinderDone => Ok(()),
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
                    if matches!(phase, DrowsyCur | DrowsyStale) {
                        // Its latch was set while `SLEEPY`: `fall_asleep`
                        // failed and it went back to searching, unrecorded.
                        self.implicit(
                            &format!(
                                "Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch {f}]: fails",
                                short(phase)
                            ),
                            index,
                            Idle,
                        )?;
                        phase = Idle;
                    }
                    // Its terminate latch is set: it leaves the main loop
                    // with `Sleep::stop_looking(idle_state)`.
                    let mut marks = self.marks.clone();
                    marks.exited[index] = true;
                    let name = format!(
                        "main_loop exits [{}, latch {f}]: stop_looking",
                        short(phase)
                    );
                    let phases = self.phases.clone();
                    return self.take_exactly(&name, phases, real, self.wakes_in_flight, marks);
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
                    Step::GetSleepy => {
                        let drowsy = match phase {
                            SleepyCur => DrowsyCur,
                            SleepyStale => DrowsyStale,
                            _ => {
                                return Err(format!(
                                    "worker {index} gets sleepy while {}: in the model only \
                                     a sleepy worker's last round ends so",
                                    short(phase)
                                ))
                            }
                        };
                        (
                            format!(
                                "last round finds nothing; CoreLatch::get_sleepy [{}]",
                                short(phase)
                            ),
                            drowsy,
                        )
                    }
                    Step::JoinSleeping | Step::Abandon => {
                        // A latch set that found it `SLEEPING` already took
                        // it there (`latch_set`).
                        let locked = match phase {
                            LockedCur | LockedStale => phase,
                            DrowsyCur | DrowsyStale => {
                                let locked = if phase == DrowsyCur {
                                    LockedCur
                                } else {
                                    LockedStale
                                };
                                self.implicit(
                                    &format!(
                                        "Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch {f}]",
                                        short(phase)
                                    ),
                                    index,
                                    locked,
                                )?;
                                locked
                            }
                            _ => {
                                return Err(format!(
                                    "worker {index} tries to join the sleeping count while {}: \
                                     its last round's end (`GetSleepy`) comes first",
                                    short(phase)
                                ))
                            }
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
                let tok = self.wakes_in_flight;
                match step {
                    Step::WorkFound => {
                        let source = self.taken.remove(&thread).ok_or(
                            "`work_found` with no take before it (a set latch, or a broadcast \
                             job: neither is in the model before `Registry::terminate`)",
                        )?;
                        let queues = self.queues;
                        let name = format!("{prefix}, takes from {}", source.var());
                        // `finder_wakes` and the hand-off decide after more
                        // scheduling points (their queue loads); the model
                        // adds the wake-ups with the decrement. Counting
                        // them only when the `WakeLoop` record comes leaves
                        // the validator's count below the model's
                        // meanwhile, which can only disable transitions
                        // (every guard on the count is a lower bound), so
                        // each step between is still one of the model's.
                        // The queue guards are checked then too, on the
                        // lengths the queues had meanwhile (`owe`).
                        self.take_deciding_wake_ups(
                            Named::StartingWith(&name),
                            phases,
                            real,
                            queues,
                            thread,
                            false,
                            Some(source),
                        )
                    }
                    Step::GetSleepy => {
                        // No counter changes: the counters as they were.
                        let real = self.abstract_real();
                        self.last_round(index, &prefix, phases, real)
                    }
                    Step::FinalLookFound => {
                        // The look (`has_injected_job`) came before the
                        // sleeper's decrement, a scheduling point, and this
                        // record: its guard is checked now if it holds now,
                        // else on the lengths since the join.
                        let window = self.since_join.remove(&index).ok_or_else(|| {
                            format!("worker {index}'s final look with no join before it")
                        })?;
                        let since = QueueCheck::In(self.window_box(&window, false));
                        if self.take_now_or(&prefix, phases, real, tok, since)? {
                            self.guards.final_look_found_exact += 1;
                        } else {
                            self.guards.final_look_found_by_reads += 1;
                        }
                        self.leaving_sleep.insert(thread, index);
                        Ok(())
                    }
                    _ => {
                        // The block's look is the last checker operation
                        // before its record: its guard (the injector
                        // empty) is checked on the queues now.
                        self.take(&prefix, phases, real, tok)?;
                        match step {
                            Step::Announce => {
                                self.announced_at[index] = now;
                                self.since_announce.insert(index, Window::open(&self.lens));
                            }
                            Step::JoinSleeping => {
                                self.joined_at[index] = now;
                                self.since_join.insert(index, Window::open(&self.lens));
                            }
                            Step::Block => {
                                self.since_join.remove(&index);
                                self.guards.block_exact += 1;
                            }
                            Step::Abandon => {
                                self.leaving_sleep.insert(thread, index);
                            }
                            _ => {}
                        }
                        Ok(())
                    }
                }
            }
        }
    }

    /// `get_sleepy`: worker `index`'s last round found nothing. The model's
    /// guard is that every queue is empty at once; the round reads them
    /// one after another (its own deque, every other deque, the injector),
    /// so what the code makes true, checked on every last round, is that
    /// each queue was empty at some moment between the announcement and
    /// now: the takes since the announcement covered the jobs queued at
    /// it (docs/every-n.md, the last round; proof.md, lemma 5 (a)). Where
    /// every queue is empty now, the model's guard is checked as well.
    fn last_round(
        &mut self,
        index: usize,
        prefix: &str,
        phases: Vec<Phase>,
        real: Real,
    ) -> Result<(), String> {
        let window = self.since_announce.remove(&index).ok_or_else(|| {
            format!("worker {index}'s last round ended with no announcement before it")
        })?;
        for q in self.injector.into_iter().chain(self.deques.keys().copied()) {
            let (least, _) = window.range(q);
            if least > 0 {
                let queue = match self.deques.get(&q) {
                    Some(w) => format!("worker {w}'s deque"),
                    None => "the injector".to_string(),
                };
                return Err(format!(
                    "worker {index}'s last round found nothing, but {queue} held a job at \
                     every moment since its announcement (record {}): {} then, never fewer \
                     than {least} since; the takes since did not cover the jobs queued at the \
                     announcement, and a round that looked at that queue would have taken \
                     one (the model's `last round finds nothing` needs every queue empty)",
                    self.announced_at[index],
                    window.start(q).0
                ));
            }
        }
        let tok = self.wakes_in_flight;
        if self.take_now_or(prefix, phases, real, tok, QueueCheck::Later)? {
            self.guards.last_round_exact += 1;
        } else {
            self.guards.last_round_premise += 1;
        }
        Ok(())
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
            self.take_exactly(&name, phases, real, tok, marks)?;
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
            if let Err(e) = self.take("wake_any_threads finds nobody to wake", phases, real, tok) {
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
                self.guards.drops_premise += 1;
            } else {
                self.guards.drops_exact += 1;
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
        if was_sleeping && matches!(phase, DrowsyCur | DrowsyStale) {
            // It did `fall_asleep`, unrecorded.
            let locked = if phase == DrowsyStale {
                LockedStale
            } else {
                LockedCur
            };
            self.implicit(
                &format!(
                    "Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch u]",
                    short(phase)
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
        // finds the worker not blocked (no step either way). Accepted only
        // there: before the worker's thread records anything else.
        let leaving_sleep = self.leaving_sleep.values().any(|&w| w == index);
        if was_sleeping != sleeping && !(was_sleeping && phase == Idle && leaving_sleep) {
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
        self.take_marks(&name, marks)
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
        self.take_exactly(&name, phases, real, self.wakes_in_flight, marks)
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
        if let Some(o) = self
            .owing
            .values()
            .find(|o| !self.allowed(o, false).contains(&0))
        {
            return Err(format!(
                "trace validation: the execution ended after a post or finder (record \
                 {}) that owes {:?} wake-ups and started no wake loop",
                o.at,
                self.allowed(o, false)
            ));
        }
        if let Some((thread, moves)) = self
            .moves
            .iter()
            .find(|(_, m)| m.iter().any(|m| self.in_model(m.queue)))
        {
            return Err(format!(
                "trace validation: the execution ended after thread {thread}'s change of a \
                 queue of the model with no push or take record ({moves:?})"
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
    /// The injector's queue id; worker `i`'s deque is `DEQUES + i`.
    const INJECTOR: usize = 7;
    const DEQUES: usize = 1000;

    fn validator(workers: usize) -> Validator {
        let mut v = Validator::new(workers);
        v.injector(INJECTOR);
        v
    }

    /// Asserts that `result` is an error whose message contains `what`.
    #[track_caller]
    fn assert_fails_with(result: Result<(), String>, what: &str) {
        let err = result.unwrap_err();
        assert!(err.contains(what), "{err}");
    }

    fn len(v: &Validator, queue: usize) -> usize {
        v.lens.get(&queue).copied().unwrap_or(0) as usize
    }

    /// `thread` pushes a job into the injector, having read `was_empty`.
    fn inject(v: &mut Validator, was_empty: bool, thread: u64) -> Result<(), String> {
        v.queue_len(INJECTOR, len(v, INJECTOR) + 1, thread);
        v.step(Step::InjectPush { was_empty }, None, thread)
    }

    /// Worker `worker`'s thread takes a job from the injector.
    fn take_injected(v: &mut Validator, thread: u64) -> Result<(), String> {
        v.queue_len(INJECTOR, len(v, INJECTOR) - 1, thread);
        v.step(Step::TakeInjected, None, thread)
    }

    /// Worker `worker` pushes a job onto its deque.
    fn push(v: &mut Validator, worker: usize) -> Result<(), String> {
        let was_empty = len(v, DEQUES + worker) == 0;
        v.queue_len(DEQUES + worker, len(v, DEQUES + worker) + 1, worker as u64);
        v.step(Step::Push { was_empty }, Some(worker), worker as u64)
    }

    /// `thread` takes a job from worker `worker`'s deque: its own pop, or a
    /// steal.
    fn take_from_deque(v: &mut Validator, worker: usize, thread: u64) -> Result<(), String> {
        v.queue_len(DEQUES + worker, len(v, DEQUES + worker) - 1, thread);
        let step = if thread == worker as u64 {
            Step::TakeOwn
        } else {
            Step::Steal
        };
        v.step(step, Some(worker), thread)
    }

    /// Worker `worker`, on checker thread `worker`, searches (`inactive`
    /// workers inactive then, none asleep, the JEC even), announces, finds
    /// nothing in its last round and joins the sleeping count.
    fn join_sleeping(v: &mut Validator, worker: usize, inactive: usize) {
        let thread = worker as u64;
        v.counters(counters(0, inactive, 0));
        v.step(Step::StartLooking, Some(worker), thread).unwrap();
        v.step(Step::Announce, Some(worker), thread).unwrap();
        v.step(Step::GetSleepy, Some(worker), thread).unwrap();
        v.counters(counters(1, inactive, 0));
        v.step(Step::JoinSleeping, Some(worker), thread).unwrap();
    }

    /// As `join_sleeping`, then the worker blocks.
    fn block(v: &mut Validator, worker: usize, inactive: usize) {
        join_sleeping(v, worker, inactive);
        v.step(Step::Block, Some(worker), worker as u64).unwrap();
    }

    /// Worker `worker` blocks, the only one inactive, and a job is
    /// injected and posted: the post owes it a wake-up.
    fn inject_beside_a_sleeper(v: &mut Validator, worker: usize) {
        block(v, worker, 1);
        v.counters(counters(1, 1, 1));
        inject(v, true, OUTSIDE).unwrap();
        v.step(Step::Post, None, OUTSIDE).unwrap();
    }

    /// As `inject_beside_a_sleeper`, and the post's wake loop starts,
    /// owing that wake-up: every step is a transition of the model.
    fn wake_loop_for_a_sleeper(v: &mut Validator, worker: usize) {
        inject_beside_a_sleeper(v, worker);
        v.step(Step::WakeLoop { owed: 1 }, None, OUTSIDE).unwrap();
    }

    #[test]
    fn a_sleep_and_a_wake_up_are_transitions_of_the_model() {
        let mut v = validator(1);
        wake_loop_for_a_sleeper(&mut v, 0);
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(0), OUTSIDE).unwrap();
        take_injected(&mut v, W0).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(0), W0).unwrap();
        v.step(Step::Terminate, None, OUTSIDE).unwrap();
        assert_eq!(v.steps, 12);
        assert_eq!(v.wakes_in_flight, 0);
    }

    #[test]
    fn a_wake_up_that_leaves_the_sleeping_count_leaves_the_model() {
        // `sleeper_decrements`: the waker does not decrement.
        let mut v = validator(1);
        wake_loop_for_a_sleeper(&mut v, 0);
        assert_fails_with(
            v.step(Step::Woken, Some(0), OUTSIDE),
            "wake_specific_thread wakes a blocked worker",
        );
    }

    #[test]
    fn joining_with_a_stale_snapshot_leaves_the_model() {
        // `no_jec_check`: a post made the snapshot stale, the worker joins.
        let mut v = validator(1);
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 0));
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 1));
        inject(&mut v, true, OUTSIDE).unwrap();
        v.step(Step::Post, None, OUTSIDE).unwrap();
        // The job came after the announcement: the last round may miss it.
        v.step(Step::GetSleepy, Some(0), W0).unwrap();
        assert_eq!(v.guards.last_round_premise, 1);
        v.counters(counters(1, 1, 1));
        assert_fails_with(v.step(Step::JoinSleeping, Some(0), W0), "locked_stale");
    }

    #[test]
    fn a_wake_loop_passes_an_awake_worker_and_wakes_a_blocked_one() {
        let mut v = validator(2);
        wake_loop_for_a_sleeper(&mut v, 1);
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
        let mut v = validator(2);
        wake_loop_for_a_sleeper(&mut v, 1);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        assert_fails_with(
            v.step(Step::Terminate, None, OUTSIDE),
            "stopped after looking at worker(s) 0..1 of 2",
        );
    }

    #[test]
    fn a_scan_that_finds_nobody_while_a_worker_is_counted_leaves_the_model() {
        // Worker 1 is counted; a scan that reports it not blocked (a waker
        // that looked without its lock) drops a wake-up the model keeps.
        let mut v = validator(2);
        wake_loop_for_a_sleeper(&mut v, 1);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        assert_fails_with(
            v.step(Step::NotBlocked, Some(1), OUTSIDE),
            "where the model has it blocked",
        );
    }

    #[test]
    fn a_post_that_owes_no_wake_up_beside_a_sleeper_and_no_idle_worker_leaves_the_model() {
        // No worker idle, one asleep: the model's post owes one wake-up.
        let mut v2 = validator(2);
        inject_beside_a_sleeper(&mut v2, 1);
        assert_fails_with(
            v2.step(Step::WakeLoop { owed: 0 }, None, OUTSIDE),
            "owes 0 wake-up(s)",
        );
    }

    #[test]
    fn a_scan_that_finds_nobody_drops_its_wake_up() {
        // The blocked worker was woken by another loop first: the scan
        // finds nobody, and nobody is counted.
        let mut v = validator(2);
        wake_loop_for_a_sleeper(&mut v, 1);
        // A second post, on another thread, wakes worker 1 first.
        inject(&mut v, false, 7).unwrap();
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
        let mut v = validator(2);
        wake_loop_for_a_sleeper(&mut v, 1);
        v.step(Step::NotBlocked, Some(0), OUTSIDE).unwrap();
        inject(&mut v, false, 7).unwrap();
        v.step(Step::Post, None, 7).unwrap();
        v.step(Step::WakeLoop { owed: 1 }, None, 7).unwrap();
        v.step(Step::NotBlocked, Some(0), 7).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(1), 7).unwrap();
        // Worker 1 runs both jobs, then worker 0 sleeps.
        const W1: u64 = 1;
        take_injected(&mut v, W1).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(1), W1).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::StartLooking, Some(1), W1).unwrap();
        take_injected(&mut v, W1).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::WorkFound, Some(1), W1).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.counters(counters(0, 1, 2));
        v.step(Step::Announce, Some(0), W0).unwrap();
        v.counters(counters(1, 1, 2));
        v.step(Step::GetSleepy, Some(0), W0).unwrap();
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
        let mut v = validator(1);
        inject(&mut v, true, OUTSIDE).unwrap();
        assert_fails_with(v.step(Step::Terminate, None, OUTSIDE), "has no post");
    }

    #[test]
    fn an_internal_push_and_post_and_a_local_take_are_transitions_of_the_model() {
        // Worker 0 runs a job that pushes one onto its deque and posts it
        // (nobody sleeps), then pops it between jobs.
        let mut v = validator(2);
        push(&mut v, 0).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::Post, None, W0).unwrap();
        take_from_deque(&mut v, 0, W0).unwrap();
        assert_eq!(v.steps, 3);
    }

    #[test]
    fn a_post_of_the_wrong_case_leaves_the_model() {
        // Worker 0 sleeps; a job pushed into a non-empty injector must
        // wake one; a post that owes nothing took the empty case.
        let mut v = validator(2);
        block(&mut v, 0, 1);
        v.counters(counters(1, 2, 0));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        inject(&mut v, false, OUTSIDE).unwrap();
        v.counters(counters(1, 2, 1));
        v.step(Step::Post, None, OUTSIDE).unwrap();
        assert_fails_with(v.step(Step::WakeLoop { owed: 0 }, None, OUTSIDE), "owe [1]");
    }

    #[test]
    fn a_block_beside_an_injected_job_leaves_the_model() {
        // `no_final_injector_check`: worker 1 joins the sleeping count, a
        // job is injected and posted, and the worker blocks without a
        // final look, which would have seen the job.
        let mut v = validator(2);
        join_sleeping(&mut v, 1, 1);
        inject(&mut v, true, OUTSIDE).unwrap();
        v.counters(counters(1, 1, 1));
        v.step(Step::Post, None, OUTSIDE).unwrap();
        assert_fails_with(
            v.step(Step::Block, Some(1), 1),
            "final look finds nothing, block",
        );
    }

    /// Worker 0 runs a job that pushes one onto its deque and posts it;
    /// worker 1 starts searching and announces.
    fn a_job_queued_at_an_announcement(v: &mut Validator) {
        push(v, 0).unwrap();
        v.counters(counters(0, 0, 1));
        v.step(Step::Post, None, W0).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        v.counters(counters(0, 1, 2));
        v.step(Step::Announce, Some(1), 1).unwrap();
    }

    #[test]
    fn a_last_round_that_misses_a_job_queued_at_the_announcement_leaves_the_model() {
        // `last_round_skipped`, `steal_skips_last_worker`: nobody took the
        // job, yet the round found nothing.
        let mut v = validator(2);
        a_job_queued_at_an_announcement(&mut v);
        assert_fails_with(
            v.step(Step::GetSleepy, Some(1), 1),
            "worker 0's deque held a job at every moment",
        );
    }

    #[test]
    fn a_last_round_after_the_job_queued_at_the_announcement_was_taken_is_the_models() {
        let mut v = validator(2);
        a_job_queued_at_an_announcement(&mut v);
        take_from_deque(&mut v, 0, W0).unwrap();
        v.step(Step::GetSleepy, Some(1), 1).unwrap();
        assert_eq!(v.guards.last_round_exact, 1);
        assert_eq!(v.guards.takes_exact, 1);
    }

    #[test]
    fn a_take_that_no_queue_recorded_leaves_the_model() {
        let mut v = validator(2);
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        assert_fails_with(
            v.step(Step::TakeInjected, None, 1),
            "follows no take from the injector",
        );
    }

    /// Three workers: worker 2 blocked, worker 1 searching (and worker 0
    /// too if `two_search`); a job on worker 0's deque and one in the
    /// injector, both posted.
    fn a_sleeper_beside_two_queued_jobs(v: &mut Validator, two_search: bool) {
        block(v, 2, 1);
        v.counters(counters(1, 2, 0));
        v.step(Step::StartLooking, Some(1), 1).unwrap();
        push(v, 0).unwrap();
        v.counters(counters(1, 2, 1));
        v.step(Step::Post, None, W0).unwrap();
        inject(v, true, OUTSIDE).unwrap();
        v.step(Step::Post, None, OUTSIDE).unwrap();
        if two_search {
            v.counters(counters(1, 3, 1));
            v.step(Step::StartLooking, Some(0), W0).unwrap();
        }
    }

    #[test]
    fn the_last_searcher_hands_off_the_work_it_leaves() {
        // Worker 1 steals worker 0's job, the last searcher: the injected
        // job is left, so it wakes the sleeper before its job.
        let mut v = validator(3);
        a_sleeper_beside_two_queued_jobs(&mut v, false);
        take_from_deque(&mut v, 0, 1).unwrap();
        v.counters(counters(1, 1, 1));
        v.step(Step::WorkFound, Some(1), 1).unwrap();
        v.step(Step::HandOff, Some(1), 1).unwrap();
        v.step(Step::WakeLoop { owed: 1 }, None, 1).unwrap();
        assert_eq!(v.guards.finder_exact, 1);
        v.step(Step::NotBlocked, Some(0), 1).unwrap();
        v.step(Step::NotBlocked, Some(1), 1).unwrap();
        v.counters(counters(0, 1, 1));
        v.step(Step::Woken, Some(2), 1).unwrap();
        assert_eq!(v.wakes_in_flight, 0);
    }

    #[test]
    fn a_hand_off_beside_a_searcher_leaves_the_model() {
        // `hand_off_beside_a_searcher`: worker 0 still searches when
        // worker 1 takes the injected job (the injector now empty).
        let mut v = validator(3);
        a_sleeper_beside_two_queued_jobs(&mut v, true);
        take_injected(&mut v, 1).unwrap();
        v.counters(counters(1, 2, 1));
        v.step(Step::WorkFound, Some(1), 1).unwrap();
        v.step(Step::HandOff, Some(1), 1).unwrap();
        assert_fails_with(
            v.step(Step::WakeLoop { owed: 1 }, None, 1),
            "owe [] by its hand-off",
        );
    }

    /// Worker 0 blocks, the pool terminates: the setter finds its latch
    /// SLEEPING and wakes it; worker 1 is busy and leaves between jobs.
    fn terminate_beside_a_blocked_worker(v: &mut Validator) {
        block(v, 0, 1);
        v.step(Step::Terminate, None, OUTSIDE).unwrap();
    }

    #[test]
    fn terminate_wakes_and_ends_every_worker() {
        let mut v = validator(2);
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
    fn a_latch_set_that_finds_a_searcher_sleeping_leaves_the_model() {
        // Only a sleeper between its final look (or abandon) and its
        // `wake_up` is idle with its latch still `SLEEPING`.
        let mut v = validator(1);
        v.counters(counters(0, 1, 0));
        v.step(Step::StartLooking, Some(0), W0).unwrap();
        v.step(Step::Terminate, None, OUTSIDE).unwrap();
        assert_fails_with(
            v.step(Step::LatchSet { was_sleeping: true }, Some(0), OUTSIDE),
            "latch SLEEPING",
        );
    }

    #[test]
    fn a_latch_set_that_finds_a_blocked_worker_awake_leaves_the_model() {
        let mut v = validator(2);
        terminate_beside_a_blocked_worker(&mut v);
        assert_fails_with(
            v.step(
                Step::LatchSet {
                    was_sleeping: false,
                },
                Some(0),
                OUTSIDE,
            ),
            "not SLEEPING",
        );
    }

    #[test]
    fn an_execution_that_ends_with_a_worker_in_its_main_loop_fails() {
        // `once_latch_set_never_wakes` hangs instead; this is what the end
        // of such a run would show.
        let mut v = validator(2);
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
        assert_fails_with(v.end(), "[0] never left");
    }
}
