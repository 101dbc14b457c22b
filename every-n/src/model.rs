//! The sleep protocol of `core/src/sleep` as a counter abstraction: one
//! integer per local state a worker can be in, the packed counters, the
//! queues and the wake-ups in flight. Every transition is a guarded linear
//! update named after the code step it abstracts; `docs/every-n.md` argues,
//! transition by transition, that each one is what the code does. The pool
//! size `N` is a variable that no transition changes, so a proof over this
//! model holds for every `N`.
//!
//! A seeded mutant that the abstraction can express is a [`Mutant`]: the
//! builder consults it at the one transition that the mutant's patch in
//! `ci/mutants.d/` changes, so a mutant is the same change to this model,
//! not a second model.

use crate::lin::{sum, var, Atom, Lin};
use std::fmt;

pub mod join_halves;
pub mod latches;

/// Where a worker is in `WorkerThread::wait_until_cold` and `Sleep::sleep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Running a job (not counted inactive).
    Busy,
    /// Pushed a job onto its own deque (`WorkerThread::push`) and has not
    /// yet posted it (`Sleep::new_internal_jobs`).
    BusyPosting,
    /// Running a job that pushed a job onto the worker's deque and now waits,
    /// outside the pool, until another worker has run it (the property-4
    /// scenarios: a job that waits on a condvar).
    Waiting,
    /// As `Waiting`, but the post of the pushed job is still to come.
    WaitingPosting,
    /// Inside a job that never returns (property 9: a job is user code and
    /// may block for good): it takes no job again.
    Hung,
    /// Inactive and searching, not sleepy (`Sleep::start_looking` done).
    Idle,
    /// Announced (`Sleep::announce_sleepy`); its snapshot equals the JEC.
    SleepyCur,
    /// Announced; the JEC has moved since its snapshot.
    SleepyStale,
    /// Its last round found nothing and `CoreLatch::get_sleepy` succeeded
    /// (latch `SLEEPY`), before its sleep lock; snapshot current.
    DrowsyCur,
    DrowsyStale,
    /// Holds its sleep lock, latch `SLEEPING` (`CoreLatch::fall_asleep`),
    /// before the compare-and-swap that joins the sleeping count.
    LockedCur,
    LockedStale,
    /// Counted in the sleeping count, still holding its lock, before the
    /// final look at the injector.
    Pending,
    /// Blocked on its condvar with `is_blocked` true.
    Blocked,
    /// A waker cleared its `is_blocked`; it has not yet returned from
    /// `Sleep::sleep`.
    Woken,
}

impl Phase {
    pub const ALL: [Phase; 15] = [
        Phase::Busy,
        Phase::BusyPosting,
        Phase::Waiting,
        Phase::WaitingPosting,
        Phase::Hung,
        Phase::Idle,
        Phase::SleepyCur,
        Phase::SleepyStale,
        Phase::DrowsyCur,
        Phase::DrowsyStale,
        Phase::LockedCur,
        Phase::LockedStale,
        Phase::Pending,
        Phase::Blocked,
        Phase::Woken,
    ];

    pub fn short(self) -> &'static str {
        match self {
            Phase::Busy => "busy",
            Phase::BusyPosting => "busy_posting",
            Phase::Waiting => "waiting",
            Phase::WaitingPosting => "waiting_posting",
            Phase::Hung => "hung",
            Phase::Idle => "idle",
            Phase::SleepyCur => "sleepy_cur",
            Phase::SleepyStale => "sleepy_stale",
            Phase::DrowsyCur => "drowsy_cur",
            Phase::DrowsyStale => "drowsy_stale",
            Phase::LockedCur => "locked_cur",
            Phase::LockedStale => "locked_stale",
            Phase::Pending => "pending",
            Phase::Blocked => "blocked",
            Phase::Woken => "woken",
        }
    }

    /// Counted in `I` (between `start_looking` and `work_found`).
    pub fn inactive(self) -> bool {
        !matches!(
            self,
            Phase::Busy | Phase::BusyPosting | Phase::Waiting | Phase::WaitingPosting | Phase::Hung
        )
    }

    /// The same phase with the other snapshot: what a JEC bump does to a
    /// current one (`None` for phases without a snapshot).
    fn stale_of(self) -> Option<Phase> {
        match self {
            Phase::SleepyCur => Some(Phase::SleepyStale),
            Phase::DrowsyCur => Some(Phase::DrowsyStale),
            Phase::LockedCur => Some(Phase::LockedStale),
            _ => None,
        }
    }

    /// Holds its own sleep lock: a waker must wait for it.
    pub fn holds_lock(self) -> bool {
        matches!(self, Phase::LockedCur | Phase::LockedStale | Phase::Pending)
    }
}

/// The worker's terminate latch, beyond what its phase says (a phase fixes
/// the latch value while the latch is not set: `UNSET` outside `sleep`,
/// `SLEEPY` when drowsy, `SLEEPING` from `fall_asleep` until `wake_up`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// Not set.
    Unset,
    /// Set, and nobody owes the worker a wake-up for it.
    Set,
    /// Set while `SLEEPING`: the setter's `wake_specific_thread(owner)` is
    /// in flight.
    SetWakeOwed,
}

impl Flag {
    pub const ALL: [Flag; 3] = [Flag::Unset, Flag::Set, Flag::SetWakeOwed];

    pub fn short(self) -> &'static str {
        match self {
            Flag::Unset => "u",
            Flag::Set => "s",
            Flag::SetWakeOwed => "w",
        }
    }
}

/// The variable counting workers in `phase` with latch flag `flag`.
pub fn w(phase: Phase, flag: Flag) -> String {
    format!("{}_{}", phase.short(), flag.short())
}

fn all_flags(phase: Phase) -> Vec<String> {
    Flag::ALL.iter().map(|&f| w(phase, f)).collect()
}

// The shared variables.
/// The pool size; no transition changes it.
pub const N: &str = "N";
/// The sleeping count of the counters word.
pub const S: &str = "S";
/// The inactive count of the counters word.
pub const I: &str = "I";
/// 1 when the JEC is odd ("a job was posted since the last announcement").
pub const JODD: &str = "jodd";
/// 1 once the last `Registry::terminate` has started setting latches.
pub const TERM: &str = "term";
/// Injected jobs queued.
pub const QI: &str = "q_injected";
/// Internal jobs queued (on some worker's deque).
pub const QD: &str = "q_internal";
/// Internal jobs queued whose pusher waits outside the pool until they run.
pub const QP: &str = "q_pinned";
/// Pinned jobs taken, whose waiting pusher has not resumed yet.
pub const DONE: &str = "pinned_done";
/// Wake-ups in flight: `wake_any_threads` calls still owed, one per worker
/// to wake.
pub const TOK: &str = "wakes_in_flight";
/// Threads outside the pool that pushed into an empty injector and have not
/// posted yet.
pub const INJ_EMPTY: &str = "injecting_into_empty";
/// As `INJ_EMPTY`, into a non-empty injector.
pub const INJ_MORE: &str = "injecting_into_nonempty";
/// Workers that left their main loop.
pub const EXITED: &str = "exited";

/// The seeded protocol mutants (`ci/mutants.d/<name>.patch`) this
/// abstraction can express, each as a change to one transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    NoJecCheck,
    PostDoesNotBumpJec,
    AnnounceBumpsIfEven,
    SleeperDecrements,
    NoFinalInjectorCheck,
    LatchSetNeverWakes,
    OnceLatchSetNeverWakes,
    LatchWithoutSleepy,
    WakeCountThreeBits,
    WakeLoopCountsAttempts,
    UnlockedBlockedPrecheck,
    FinderSkipsHandOff,
    SpinLatchSetNeverWakes,
    CountLatchSetNeverWakes,
    CrossLatchSetNeverWakes,
    LockLatchSetNoNotify,
    LatchSetWithoutLock,
    FinalLookSkipsBroadcasts,
    BroadcastWakeLoopOffByOne,
    SearchSkipsTheInjector,
}

impl Mutant {
    /// Whether the mutant strands a job, or breaks another property, in
    /// some sequentially consistent run. `no_final_injector_check` does
    /// not: under SC a post after the sleeper's announcement makes its
    /// snapshot stale (proof.md, lemma 5 (a)), so the JEC alone keeps the
    /// sleeper from sleeping beside an injected job; the final look is
    /// needed for the weak-memory reorderings of lemma 1, which loom kills.
    pub fn breaks_sc(self) -> bool {
        self != Mutant::NoFinalInjectorCheck
    }

    /// Whether the mutant keeps every safety property and breaks liveness
    /// only (`liveness::check`): `search_skips_the_injector` never strands
    /// an injected job beside a blocked worker (its final look still sees
    /// the job and keeps the worker awake), but no worker ever takes it.
    pub fn breaks_liveness_only(self) -> bool {
        self == Mutant::SearchSkipsTheInjector
    }

    /// Whether the main model ([`Model::new`]) expresses the mutant; the
    /// others change only what the latch model ([`latches::model`]) adds.
    pub fn in_main_model(self) -> bool {
        !self.in_latch_model() || self.main_and_latch_model()
    }

    /// Whether the latch model ([`latches::model`]) expresses the mutant.
    pub fn in_latch_model(self) -> bool {
        self.main_and_latch_model()
            || matches!(
                self,
                Mutant::SpinLatchSetNeverWakes
                    | Mutant::CountLatchSetNeverWakes
                    | Mutant::CrossLatchSetNeverWakes
                    | Mutant::LockLatchSetNoNotify
                    | Mutant::LatchSetWithoutLock
                    | Mutant::FinalLookSkipsBroadcasts
                    | Mutant::BroadcastWakeLoopOffByOne
            )
    }

    /// The mutants both models express: they change a latch step the main
    /// model has for the terminate latch.
    fn main_and_latch_model(self) -> bool {
        matches!(
            self,
            Mutant::LatchSetNeverWakes
                | Mutant::OnceLatchSetNeverWakes
                | Mutant::LatchWithoutSleepy
                | Mutant::UnlockedBlockedPrecheck
        )
    }

    pub const ALL: [Mutant; 20] = [
        Mutant::NoJecCheck,
        Mutant::PostDoesNotBumpJec,
        Mutant::AnnounceBumpsIfEven,
        Mutant::SleeperDecrements,
        Mutant::NoFinalInjectorCheck,
        Mutant::LatchSetNeverWakes,
        Mutant::OnceLatchSetNeverWakes,
        Mutant::LatchWithoutSleepy,
        Mutant::WakeCountThreeBits,
        Mutant::WakeLoopCountsAttempts,
        Mutant::UnlockedBlockedPrecheck,
        Mutant::FinderSkipsHandOff,
        Mutant::SpinLatchSetNeverWakes,
        Mutant::CountLatchSetNeverWakes,
        Mutant::CrossLatchSetNeverWakes,
        Mutant::LockLatchSetNoNotify,
        Mutant::LatchSetWithoutLock,
        Mutant::FinalLookSkipsBroadcasts,
        Mutant::BroadcastWakeLoopOffByOne,
        Mutant::SearchSkipsTheInjector,
    ];

    /// The patch's name in `ci/mutants.d/`.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::NoJecCheck => "no_jec_check",
            Mutant::PostDoesNotBumpJec => "post_does_not_bump_jec",
            Mutant::AnnounceBumpsIfEven => "announce_bumps_if_even",
            Mutant::SleeperDecrements => "sleeper_decrements",
            Mutant::NoFinalInjectorCheck => "no_final_injector_check",
            Mutant::LatchSetNeverWakes => "latch_set_never_wakes",
            Mutant::OnceLatchSetNeverWakes => "once_latch_set_never_wakes",
            Mutant::LatchWithoutSleepy => "latch_without_sleepy",
            Mutant::WakeCountThreeBits => "wake_count_three_bits",
            Mutant::WakeLoopCountsAttempts => "wake_loop_counts_attempts",
            Mutant::UnlockedBlockedPrecheck => "unlocked_blocked_precheck",
            Mutant::FinderSkipsHandOff => "finder_skips_hand_off",
            Mutant::SpinLatchSetNeverWakes => "spin_latch_set_never_wakes",
            Mutant::CountLatchSetNeverWakes => "count_latch_set_never_wakes",
            Mutant::CrossLatchSetNeverWakes => "cross_latch_set_never_wakes",
            Mutant::LockLatchSetNoNotify => "lock_latch_set_no_notify",
            Mutant::LatchSetWithoutLock => "latch_set_without_lock",
            Mutant::FinalLookSkipsBroadcasts => "final_look_skips_broadcasts",
            Mutant::SearchSkipsTheInjector => "search_skips_the_injector",
            Mutant::BroadcastWakeLoopOffByOne => "broadcast_wake_loop_off_by_one",
        }
    }
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which JECs the model covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// The shipped width: no rollover within any run (2^32 bumps).
    Full,
    /// Any width `b >= 1`: an announcement's bump may bring the JEC back to
    /// the snapshot of any set of stale workers.
    Any,
}

/// One guarded update. `params` are integers the transition chooses
/// (constrained by `guard`); every state variable not in `update` keeps its
/// value.
#[derive(Clone, Debug)]
pub struct Transition {
    /// `code step [case]`: the code it abstracts, and which case of it.
    pub name: String,
    pub params: Vec<String>,
    pub guard: Vec<Atom>,
    /// `(variable, new value)` over the old values and the parameters.
    pub update: Vec<(String, Lin)>,
}

/// A property: the states it forbids.
#[derive(Clone, Debug)]
pub struct Property {
    pub name: &'static str,
    pub statement: &'static str,
    /// Bad when every atom of one disjunct holds.
    pub bad: Vec<Vec<Atom>>,
}

/// One conjunct of the inductive invariant: a disjunction of conjunctions.
#[derive(Clone, Debug)]
pub struct Clause {
    pub name: &'static str,
    pub dnf: Vec<Vec<Atom>>,
}

fn clause(name: &'static str, dnf: Vec<Vec<Atom>>) -> Clause {
    Clause { name, dnf }
}

fn flags_of(phases: &[Phase]) -> Lin {
    sum(phases.iter().flat_map(|&p| all_flags(p)))
}

/// The inductive invariant, written out (docs/every-n.md explains each
/// clause). `Width::Any` leaves out the two clauses about internal jobs,
/// which rollover breaks.
pub fn invariant(width: Width) -> Vec<Clause> {
    use Phase::*;
    let workers = flags_of(&Phase::ALL) + var(EXITED);
    let counted = flags_of(&[Pending, Blocked]);
    let inactive = flags_of(
        &Phase::ALL
            .iter()
            .copied()
            .filter(|p| p.inactive())
            .collect::<Vec<_>>(),
    );
    let cur = flags_of(&[SleepyCur, DrowsyCur, LockedCur]);
    let past_last_round_cur = flags_of(&[DrowsyCur, LockedCur]);
    let blocked = flags_of(&[Blocked]);
    let pending = flags_of(&[Pending]);
    let posting = flags_of(&[BusyPosting, WaitingPosting]);
    // Workers that will act without a wake-up: all but the blocked and the
    // waiting ones.
    // Workers that search, or will search again without a wake-up and
    // without returning from a job: the awake inactive ones, and those
    // counted asleep but still before their final look (property 9: a
    // busy worker's job may never return).
    let searchers = flags_of(&[
        Idle,
        SleepyCur,
        SleepyStale,
        DrowsyCur,
        DrowsyStale,
        LockedCur,
        LockedStale,
        Pending,
        Woken,
    ]);
    let set_flags: Vec<String> = Phase::ALL
        .iter()
        .flat_map(|&p| [w(p, Flag::Set), w(p, Flag::SetWakeOwed)])
        .chain([EXITED.to_string()])
        .collect();
    let mut inv = vec![
        clause(
            "pool_size",
            vec![vec![var(N).eq(workers.clone()), var(N).ge(1)]],
        ),
        clause("sleeping_count", vec![vec![var(S).eq(counted.clone())]]),
        clause("inactive_count", vec![vec![var(I).eq(inactive)]]),
        clause(
            "flags_are_bits",
            vec![vec![var(JODD).le(1), var(TERM).le(1)]],
        ),
        clause(
            "odd_jec_has_no_current_snapshot",
            vec![vec![var(JODD).eq(0)], vec![cur.eq(0)]],
        ),
        clause(
            "latches_set_only_after_terminate",
            vec![
                vec![var(TERM).eq(1)],
                set_flags.iter().map(|v| var(v).eq(0)).collect(),
            ],
        ),
        clause(
            "set_latch_outside_the_lock",
            vec![[LockedCur, LockedStale, Pending, Blocked]
                .iter()
                .map(|&p| var(&w(p, Flag::Set)).eq(0))
                .collect()],
        ),
        clause(
            "injected_job_has_a_searcher",
            vec![
                vec![var(TERM).ge(1)],
                vec![var(QI).le(0)],
                vec![blocked.clone().le(0)],
                vec![searchers.clone().ge(1)],
                vec![var(TOK).ge(1)],
                vec![(var(INJ_EMPTY) + var(INJ_MORE)).ge(1)],
            ],
        ),
    ];
    if width == Width::Full {
        inv.push(clause(
            "current_snapshot_past_its_last_round_means_unposted_jobs_only",
            vec![
                vec![past_last_round_cur.eq(0)],
                vec![(var(QD) + var(QP)).le(posting.clone())],
            ],
        ));
        inv.push(clause(
            "counted_worker_beside_posted_internal_job_is_covered",
            vec![
                vec![var(TERM).ge(1)],
                vec![pending.clone().le(0)],
                vec![(var(QD) + var(QP)).le(0)],
                vec![posting.clone().ge(1)],
                vec![var(TOK).ge(1)],
                vec![(searchers.clone() - pending.clone()).ge(1)],
            ],
        ));
        inv.push(clause(
            "internal_job_has_a_searcher",
            vec![
                vec![var(TERM).ge(1)],
                vec![(var(QD) + var(QP)).le(0)],
                vec![blocked.clone().le(0)],
                vec![searchers.clone().ge(1)],
                vec![var(TOK).ge(1)],
                vec![posting.clone().ge(1)],
            ],
        ));
    }
    inv
}

pub struct Model {
    pub vars: Vec<String>,
    pub init: Vec<Atom>,
    pub transitions: Vec<Transition>,
    pub properties: Vec<Property>,
    /// The initial state at pool size `n`, as its non-zero variables (every
    /// other is 0): the start of a search at a concrete `N`
    /// (`explicit::search`). It must satisfy `init`.
    pub start: fn(i64) -> Vec<(String, i64)>,
    /// The variables bounded by the pool size (worker counts, `N`, `S`,
    /// `I`): a search caps every other one (`explicit::search`).
    pub bounded: Vec<String>,
}

/// Builds a transition as a list of increments.
pub(crate) struct Tr {
    name: String,
    params: Vec<String>,
    guard: Vec<Atom>,
    delta: Vec<(String, Lin)>,
    set: Vec<(String, Lin)>,
}

impl Tr {
    pub(crate) fn new(name: impl Into<String>) -> Tr {
        Tr {
            name: name.into(),
            params: Vec::new(),
            guard: Vec::new(),
            delta: Vec::new(),
            set: Vec::new(),
        }
    }
    pub(crate) fn when(mut self, atom: Atom) -> Tr {
        self.guard.push(atom);
        self
    }
    pub(crate) fn add(mut self, name: &str, by: impl Into<Lin>) -> Tr {
        self.delta.push((name.to_string(), by.into()));
        self
    }
    /// One worker moves from `from` to `to`.
    pub(crate) fn mv(self, from: &str, to: &str) -> Tr {
        self.add(from, -1).add(to, 1)
    }
    pub(crate) fn set(mut self, name: &str, to: impl Into<Lin>) -> Tr {
        self.set.push((name.to_string(), to.into()));
        self
    }
    pub(crate) fn param(mut self, name: &str) -> Tr {
        self.params.push(name.to_string());
        self.guard.push(var(name).ge(0));
        self
    }
}

/// The transition `tr` builds, over the state variables `vars`.
pub(crate) fn finish(tr: Tr, vars: &[String]) -> Transition {
    let mut update: Vec<(String, Lin)> = Vec::new();
    for (name, by) in tr.delta {
        match update.iter_mut().find(|(n, _)| *n == name) {
            Some((_, lin)) => *lin = lin.clone() + by,
            None => update.push((name.clone(), var(&name) + by)),
        }
    }
    for (name, to) in tr.set {
        assert!(
            !update.iter().any(|(n, _)| *n == name),
            "{}: {name} both set and moved",
            tr.name
        );
        update.push((name, to));
    }
    let mut guard = tr.guard;
    // Worker counts, queues and wake-ups never go negative: a step that
    // would take one below zero is not enabled. `S` and `I` are the real
    // counters: the properties check them instead.
    for (name, lin) in &update {
        if name != S && name != I && vars.contains(name) {
            guard.push(lin.clone().ge(0));
        }
    }
    Transition {
        name: tr.name,
        params: tr.params,
        guard,
        update,
    }
}

pub struct Builder {
    mutant: Option<Mutant>,
    width: Width,
    vars: Vec<String>,
    out: Vec<Transition>,
}

impl Builder {
    fn push(&mut self, tr: Tr) {
        self.out.push(finish(tr, &self.vars));
    }

    fn is(&self, m: Mutant) -> bool {
        self.mutant == Some(m)
    }

    /// A JEC bump that makes it odd (a post): every current snapshot goes
    /// stale.
    fn stale_all(&self, mut tr: Tr) -> Tr {
        for phase in Phase::ALL {
            if let Some(stale) = phase.stale_of() {
                for flag in Flag::ALL {
                    let (cur, st) = (w(phase, flag), w(stale, flag));
                    tr = tr.set(&cur, 0).add(&st, var(&cur));
                }
            }
        }
        tr
    }

    /// An announcement's bump that makes it even: current snapshots go stale,
    /// and at a narrow width the new value may equal the snapshot of any
    /// set of stale workers (rollover).
    fn announce_bump(&self, mut tr: Tr) -> Tr {
        for phase in Phase::ALL {
            if let Some(stale) = phase.stale_of() {
                for flag in Flag::ALL {
                    let (cur, st) = (w(phase, flag), w(stale, flag));
                    if self.width == Width::Any {
                        let back = format!("rolled_back_{}", st);
                        tr = tr
                            .param(&back)
                            .when(var(&back).le(var(&st)))
                            .set(&cur, var(&back))
                            .add(&st, var(&cur) - var(&back));
                    } else {
                        tr = tr.set(&cur, 0).add(&st, var(&cur));
                    }
                }
            }
        }
        tr
    }

    /// The post of one job (`Sleep::new_jobs`), `queue_was_empty` as given
    /// (`None`: either, for an own deque, whose emptiness the model does not
    /// track). `base` has the post's other effects.
    fn post(&mut self, base: impl Fn() -> Tr, queue_was_empty: Option<bool>) {
        let bumps: &[bool] = if self.is(Mutant::PostDoesNotBumpJec) {
            &[false]
        } else {
            &[true, false]
        };
        let mut made = Vec::new();
        for &bump in bumps {
            // `bump_jobs_counter_if(is_sleepy)`: bumps an even JEC.
            let jec = |tr: Tr| -> Tr {
                if self.is(Mutant::PostDoesNotBumpJec) {
                    tr
                } else if bump {
                    self.stale_all(tr.when(var(JODD).eq(0)).set(JODD, 1))
                } else {
                    tr.when(var(JODD).eq(1))
                }
            };
            let tag = if self.is(Mutant::PostDoesNotBumpJec) {
                "never bumps"
            } else if bump {
                "bumps"
            } else {
                "JEC odd"
            };
            // What the poster reads: `sleepers` and `awake_but_idle`
            // through `to_u32`.
            let (sleepers, idle, read): (Lin, Lin, Box<dyn Fn(Tr) -> Tr>) =
                if self.is(Mutant::WakeCountThreeBits) {
                    (
                        var("s_low3"),
                        var("a_low3"),
                        Box::new(|tr: Tr| {
                            tr.param("s_low3")
                                .param("s_high")
                                .param("a_low3")
                                .param("a_high")
                                .when(var("s_low3").le(7))
                                .when(var("a_low3").le(7))
                                .when(var(S).eq(var("s_high").times(8) + var("s_low3")))
                                .when((var(I) - var(S)).eq(var("a_high").times(8) + var("a_low3")))
                        }),
                    )
                } else {
                    (var(S), var(I) - var(S), Box::new(|tr: Tr| tr))
                };
            // No sleeper: nobody.
            made.push(
                read(jec(base().when(sleepers.clone().eq(0))))
                    .rename(|n| format!("{n} [{tag}; no sleeper]")),
            );
            for was_empty in [false, true] {
                if queue_was_empty.is_some_and(|e| e != was_empty) {
                    continue;
                }
                if !was_empty {
                    // Work piling up: wake min(1, sleepers).
                    made.push(
                        read(jec(base().when(sleepers.clone().ge(1))))
                            .add(TOK, 1)
                            .rename(|n| format!("{n} [{tag}; queue was not empty: wake one]")),
                    );
                } else {
                    made.push(
                        read(jec(base()
                            .when(sleepers.clone().ge(1))
                            .when(idle.clone().le(0))))
                        .add(TOK, 1)
                        .rename(|n| format!("{n} [{tag}; queue was empty, nobody idle: wake one]")),
                    );
                    made.push(
                        read(jec(base()
                            .when(sleepers.clone().ge(1))
                            .when(idle.clone().ge(1))))
                        .rename(|n| {
                            format!("{n} [{tag}; queue was empty, an idle worker will take it]")
                        }),
                    );
                }
            }
        }
        for tr in made {
            self.push(tr);
        }
    }

    /// `wake_specific_thread` on a worker that `from` says is blocked.
    fn wake_blocked(&self, tr: Tr, from: Flag) -> Tr {
        let to = if from == Flag::Unset {
            Flag::Unset
        } else {
            Flag::Set
        };
        let tr = tr.mv(&w(Phase::Blocked, from), &w(Phase::Woken, to));
        if self.is(Mutant::SleeperDecrements) {
            tr
        } else {
            tr.add(S, -1)
        }
    }

    fn build(&mut self) {
        use Flag::*;
        use Phase::*;
        let jobs = || var(QI) + var(QD) + var(QP);

        // Outside threads: `Registry::inject` pushes, then posts.
        self.push(
            Tr::new("Registry::inject push [into an empty injector]")
                .when(var(TERM).eq(0))
                .when(var(QI).eq(0))
                .add(QI, 1)
                .add(INJ_EMPTY, 1),
        );
        self.push(
            Tr::new("Registry::inject push [into a non-empty injector]")
                .when(var(TERM).eq(0))
                .when(var(QI).ge(1))
                .add(QI, 1)
                .add(INJ_MORE, 1),
        );
        self.post(
            || Tr::new("Sleep::new_injected_jobs").add(INJ_EMPTY, -1),
            Some(true),
        );
        self.post(
            || Tr::new("Sleep::new_injected_jobs").add(INJ_MORE, -1),
            Some(false),
        );

        for f in Flag::ALL {
            // Property 9: a running job may block for good (user code); its
            // worker never takes a job again.
            self.push(
                Tr::new(format!("a job blocks for good [latch {}]", f.short()))
                    .mv(&w(Busy, f), &w(Hung, f)),
            );
            // A running job pushes onto its worker's deque, then posts.
            self.push(
                Tr::new(format!("WorkerThread::push [latch {}]", f.short()))
                    .mv(&w(Busy, f), &w(BusyPosting, f))
                    .add(QD, 1),
            );
            self.push(
                Tr::new(format!(
                    "WorkerThread::push, then the job waits outside the pool [latch {}]",
                    f.short()
                ))
                .mv(&w(Busy, f), &w(WaitingPosting, f))
                .add(QP, 1),
            );
            self.post(
                || {
                    Tr::new(format!("Sleep::new_internal_jobs [latch {}]", f.short()))
                        .mv(&w(BusyPosting, f), &w(Busy, f))
                },
                None,
            );
            self.post(
                || {
                    Tr::new(format!(
                        "Sleep::new_internal_jobs, by a waiting job [latch {}]",
                        f.short()
                    ))
                    .mv(&w(WaitingPosting, f), &w(Waiting, f))
                },
                None,
            );
            // The waiting job resumes once its pushed job has been taken.
            self.push(
                Tr::new(format!("waiting job resumes [latch {}]", f.short()))
                    .when(var(DONE).ge(1))
                    .add(DONE, -1)
                    .mv(&w(Waiting, f), &w(Busy, f)),
            );
            self.push(
                Tr::new(format!(
                    "waiting job resumes, post still to come [latch {}]",
                    f.short()
                ))
                .when(var(DONE).ge(1))
                .add(DONE, -1)
                .mv(&w(WaitingPosting, f), &w(BusyPosting, f)),
            );
        }

        // A busy worker whose job returned: its own deque first
        // (`take_local_job`), else `start_looking`; with its latch set it
        // leaves `wait_until` instead.
        self.push(
            Tr::new("wait_until_cold: take_local_job")
                .when(var(QD).ge(1))
                .add(QD, -1),
        );
        self.push(
            Tr::new("Sleep::start_looking")
                .mv(&w(Busy, Unset), &w(Idle, Unset))
                .add(I, 1),
        );
        // The policy's successor (`Sleep::wake_successor`): a busy worker
        // whose job has run wakes one sleeper when nobody searches (`I - S`
        // is 0) and someone sleeps. The code does so only after a job it
        // found as the last searcher, without blocking, with its source
        // left empty (`policy::finder_wakes`); the model keeps none of that,
        // so any busy worker may, which only adds behaviours.
        for f in [Unset, Set, SetWakeOwed] {
            self.push(
                Tr::new(format!(
                    "Sleep::wake_successor [busy, latch {}]: wake 1",
                    f.short()
                ))
                .when(var(&w(Busy, f)).ge(1))
                .when(var(S).ge(1))
                .when((var(I) - var(S)).eq(0))
                .add(TOK, 1),
            );
        }
        for f in [Set, SetWakeOwed] {
            self.push(
                Tr::new(format!("main_loop exits [busy, latch {}]", f.short()))
                    .mv(&w(Busy, f), EXITED),
            );
            // A searcher probes its latch before each round: it leaves with
            // `Sleep::stop_looking(idle_state)`.
            for p in [Idle, SleepyCur, SleepyStale] {
                self.push(
                    Tr::new(format!(
                        "main_loop exits [{}, latch {}]: stop_looking",
                        p.short(),
                        f.short()
                    ))
                    .mv(&w(p, f), EXITED)
                    .add(I, -1),
                );
            }
        }

        // A searcher finds a job (`find_work`, then `Sleep::work_found`).
        for p in [Idle, SleepyCur, SleepyStale] {
            for (queue, exact_more) in [(QI, true), (QD, false), (QP, false)] {
                // `search_skips_the_injector`: `find_work` never pops it.
                if queue == QI && self.is(Mutant::SearchSkipsTheInjector) {
                    continue;
                }
                let base = || {
                    let tr = Tr::new(format!(
                        "Sleep::work_found [{}, takes from {queue}",
                        p.short()
                    ))
                    .mv(&w(p, Unset), &w(Busy, Unset))
                    .when(var(queue).ge(1))
                    .add(queue, -1)
                    .add(I, -1);
                    if queue == QP {
                        tr.add(DONE, 1)
                    } else {
                        tr
                    }
                };
                // `threads_to_wake = min(S, 2)` from the decrement's read;
                // helpers are woken only if the source still holds work.
                let t = base().when(var(S).eq(0));
                self.push(t.rename(|n| format!("{n}, no sleeper]")));
                // The source left empty (exactly so for the injector).
                let source_now_empty = || {
                    let t = base().when(var(S).ge(1));
                    if exact_more {
                        t.when(var(queue).le(1))
                    } else {
                        t
                    }
                };
                // With the source left empty nobody is woken only when
                // another worker still searches (`I - S` counted the finder
                // and someone else), or when nothing is left in any queue;
                // otherwise the finder hands off (below). The mutant
                // `finder_skips_hand_off` wakes nobody whatever is left.
                if self.is(Mutant::FinderSkipsHandOff) {
                    self.push(
                        source_now_empty()
                            .rename(|n| format!("{n}, source now empty, no hand-off]")),
                    );
                }
                self.push(
                    source_now_empty()
                        .when((var(I) - var(S)).ge(2))
                        .rename(|n| format!("{n}, source now empty, others search]")),
                );
                self.push(
                    source_now_empty()
                        .when(jobs().le(1))
                        .rename(|n| format!("{n}, source now empty, nothing left]")),
                );
                for (cond, k) in [(var(S).eq(1), 1), (var(S).ge(2), 2)] {
                    let more = base().when(cond).add(TOK, k);
                    let more = if exact_more {
                        more.when(var(queue).ge(2))
                    } else {
                        more
                    };
                    self.push(more.rename(|n| format!("{n}, more queued: wake {k}]")));
                }
                // The hand-off (`Sleep::hand_off`, lemma 9): the last
                // searcher to leave (`I - S` was 1: itself) wakes one
                // sleeper when some queue still holds a job after its take.
                if !self.is(Mutant::FinderSkipsHandOff) {
                    self.push(
                        base()
                            .when(var(S).ge(1))
                            .when((var(I) - var(S)).eq(1))
                            .when((var(QI) + var(QD) + var(QP)).ge(2))
                            .add(TOK, 1)
                            .rename(|n| {
                                format!("{n}, last searcher, work left: hand-off, wake 1]")
                            }),
                    );
                }
            }
        }

        // `announce_sleepy` after the budget's fruitless rounds.
        if self.is(Mutant::AnnounceBumpsIfEven) {
            let tr = Tr::new("Sleep::announce_sleepy [bumps an even JEC]")
                .mv(&w(Idle, Unset), &w(SleepyCur, Unset))
                .when(var(JODD).eq(0))
                .set(JODD, 1);
            let tr = self.stale_all(tr);
            // The announcer's own snapshot is the value after its bump.
            self.push(tr.fix_self());
            self.push(
                Tr::new("Sleep::announce_sleepy [JEC odd: no write]")
                    .mv(&w(Idle, Unset), &w(SleepyCur, Unset))
                    .when(var(JODD).eq(1)),
            );
        } else {
            let tr = Tr::new("Sleep::announce_sleepy [bumps an odd JEC]")
                .when(var(JODD).eq(1))
                .set(JODD, 0)
                .add(&w(Idle, Unset), -1);
            let tr = self.announce_bump(tr);
            self.push(tr.add(&w(SleepyCur, Unset), 1).fix_self());
            self.push(
                Tr::new("Sleep::announce_sleepy [JEC even: no write]")
                    .mv(&w(Idle, Unset), &w(SleepyCur, Unset))
                    .when(var(JODD).eq(0)),
            );
        }

        // The last round finds nothing: `Sleep::sleep` starts with
        // `CoreLatch::get_sleepy`.
        // With `search_skips_the_injector` the round does not see the
        // injector.
        let searched = if self.is(Mutant::SearchSkipsTheInjector) {
            var(QD) + var(QP)
        } else {
            jobs()
        };
        for (sleepy, drowsy) in [(SleepyCur, DrowsyCur), (SleepyStale, DrowsyStale)] {
            self.push(
                Tr::new(format!(
                    "last round finds nothing; CoreLatch::get_sleepy [{}]",
                    sleepy.short()
                ))
                .when(searched.clone().eq(0))
                .mv(&w(sleepy, Unset), &w(drowsy, Unset)),
            );
        }

        // Take the sleep lock, `CoreLatch::fall_asleep`.
        for (drowsy, locked) in [(DrowsyCur, LockedCur), (DrowsyStale, LockedStale)] {
            for f in Flag::ALL {
                let name = format!(
                    "Sleep::sleep: lock; CoreLatch::fall_asleep [{}, latch {}]",
                    drowsy.short(),
                    f.short()
                );
                if f == Unset || self.is(Mutant::LatchWithoutSleepy) {
                    self.push(Tr::new(name).mv(&w(drowsy, f), &w(locked, f)));
                } else {
                    // The latch was set while SLEEPY: the CAS fails,
                    // `wake_fully`, and the next probe sees the set latch.
                    self.push(Tr::new(format!("{name}: fails")).mv(&w(drowsy, f), &w(Idle, f)));
                }
            }
        }

        for f in Flag::ALL {
            // Join the sleeping count: one CAS with the JEC comparison.
            self.push(
                Tr::new(format!(
                    "Sleep::sleep: try_add_sleeping_thread [locked_cur, latch {}]",
                    f.short()
                ))
                .mv(&w(LockedCur, f), &w(Pending, f))
                .add(S, 1),
            );
            if self.is(Mutant::NoJecCheck) {
                self.push(
                    Tr::new(format!("Sleep::sleep: try_add_sleeping_thread, JEC not compared [locked_stale, latch {}]", f.short()))
                        .mv(&w(LockedStale, f), &w(Pending, f))
                        .add(S, 1),
                );
            } else {
                self.push(
                    Tr::new(format!("Sleep::sleep: JEC moved, abandon; CoreLatch::wake_up [locked_stale, latch {}]", f.short()))
                        .mv(&w(LockedStale, f), &w(Idle, f)),
                );
            }
            // The final look at the injector.
            if self.is(Mutant::NoFinalInjectorCheck) {
                self.push(
                    Tr::new(format!(
                        "Sleep::sleep: block, no final look [latch {}]",
                        f.short()
                    ))
                    .mv(&w(Pending, f), &w(Blocked, f)),
                );
            } else {
                self.push(
                    Tr::new(format!("Sleep::sleep: final look finds an injected job, sub_sleeping_thread [latch {}]", f.short()))
                        .when(var(QI).ge(1))
                        .mv(&w(Pending, f), &w(Idle, f))
                        .add(S, -1),
                );
                self.push(
                    Tr::new(format!(
                        "Sleep::sleep: final look finds nothing, block [latch {}]",
                        f.short()
                    ))
                    .when(var(QI).eq(0))
                    .mv(&w(Pending, f), &w(Blocked, f)),
                );
            }
            // Back from the condvar: `wake_fully`, `CoreLatch::wake_up`.
            let back = Tr::new(format!(
                "Sleep::sleep returns after a wake-up [latch {}]",
                f.short()
            ))
            .mv(&w(Woken, f), &w(Idle, f));
            self.push(if self.is(Mutant::SleeperDecrements) {
                back.add(S, -1)
            } else {
                back
            });
        }

        // `wake_any_threads`: one `wake_specific_thread` per wake-up in
        // flight, each waking a blocked worker; under the locks a scan
        // finds no worker only when none is counted as sleeping.
        for f in Flag::ALL {
            let tr = Tr::new(format!(
                "wake_specific_thread wakes a blocked worker [latch {}]",
                f.short()
            ))
            .when(var(TOK).ge(1))
            .add(TOK, -1);
            let tr = self.wake_blocked(tr, f);
            self.push(tr);
        }
        let counted: Vec<String> = [Pending, Blocked]
            .iter()
            .flat_map(|&p| all_flags(p))
            .collect();
        let drop = Tr::new("wake_any_threads finds nobody to wake")
            .when(var(TOK).ge(1))
            .add(TOK, -1);
        if self.is(Mutant::WakeLoopCountsAttempts) {
            // Counts the first worker it looks at as woken, blocked or
            // not: the wake-up is lost when that worker is awake while
            // others are blocked. Some worker must be awake and not on its
            // way to block (holding its lock, the waker would wait for it
            // and wake it): any such worker may be the first looked at.
            let awake: Vec<String> = Phase::ALL
                .iter()
                .filter(|p| !matches!(p, Blocked | LockedCur | LockedStale | Pending))
                .flat_map(|&p| all_flags(p))
                .chain([EXITED.to_string()])
                .collect();
            self.push(drop.when(sum(awake).ge(1)));
        } else if self.is(Mutant::UnlockedBlockedPrecheck) {
            self.push(drop.when(sum(all_flags(Blocked)).eq(0)));
        } else {
            self.push(drop.when(sum(counted).eq(0)));
        }

        // Shutdown: the last `Registry::terminate` sets every worker's
        // terminate latch (`OnceLatch::set_and_wake`), in some order.
        self.push(
            Tr::new("Registry::terminate")
                .when(var(TERM).eq(0))
                .set(TERM, 1),
        );
        for p in Phase::ALL {
            let sleeping = matches!(p, LockedCur | LockedStale | Pending | Blocked | Woken)
                || (self.is(Mutant::LatchWithoutSleepy) && matches!(p, DrowsyCur | DrowsyStale));
            let wakes = sleeping
                && !self.is(Mutant::LatchSetNeverWakes)
                && !self.is(Mutant::OnceLatchSetNeverWakes);
            let to = if wakes { SetWakeOwed } else { Set };
            self.push(
                Tr::new(format!(
                    "OnceLatch::set_and_wake: CoreLatch::set [{}]",
                    p.short()
                ))
                .when(var(TERM).eq(1))
                .mv(&w(p, Unset), &w(p, to)),
            );
            // The setter's `wake_specific_thread(owner)`: it waits for the
            // owner's lock, wakes it if blocked, else does nothing.
            let name = format!(
                "notify_worker_latch_is_set: wake_specific_thread [{}]",
                p.short()
            );
            if p == Blocked {
                let tr = self.wake_blocked(Tr::new(name), SetWakeOwed);
                self.push(tr);
            } else if !p.holds_lock() || self.is(Mutant::UnlockedBlockedPrecheck) {
                self.push(
                    Tr::new(format!("{name}: not blocked")).mv(&w(p, SetWakeOwed), &w(p, Set)),
                );
            }
        }
    }
}

trait TrExt {
    fn rename(self, f: impl Fn(&str) -> String) -> Tr;
    fn fix_self(self) -> Tr;
}

impl TrExt for Tr {
    fn rename(mut self, f: impl Fn(&str) -> String) -> Tr {
        self.name = f(&self.name);
        self
    }
    /// Folds increments of variables that are also `set` into the set
    /// value (the announcer joins the phase its bump resets).
    fn fix_self(mut self) -> Tr {
        let mut delta = Vec::new();
        for (name, by) in std::mem::take(&mut self.delta) {
            match self.set.iter_mut().find(|(n, _)| *n == name) {
                Some((_, to)) => *to = to.clone() + by,
                None => delta.push((name, by)),
            }
        }
        self.delta = delta;
        self
    }
}

impl Model {
    /// The model restricted to runs in which the variables `zero` stay zero:
    /// every transition that could make one non-zero goes, and the rest read
    /// them as 0. Used to prove the job properties on the runs before
    /// `Registry::terminate` (the only runs they speak of), a model a third
    /// the size.
    pub fn slice(mut self, zero: &[String]) -> Model {
        let subst = |l: &Lin| -> Lin {
            let mut l = l.clone();
            l.terms.retain(|name, _| !zero.contains(name));
            l
        };
        let subst_atom = |a: &Atom| match a {
            Atom::Ge(l) => Atom::Ge(subst(l)),
            Atom::Eq(l) => Atom::Eq(subst(l)),
        };
        self.transitions.retain(|t| {
            t.update
                .iter()
                .all(|(name, l)| !zero.contains(name) || subst(l) == Lin::default())
        });
        for t in &mut self.transitions {
            t.update.retain(|(name, _)| !zero.contains(name));
            for (_, l) in &mut t.update {
                *l = subst(l);
            }
            t.guard = t.guard.iter().map(subst_atom).collect();
        }
        self.vars.retain(|v| !zero.contains(v));
        self.init = self.init.iter().map(subst_atom).collect();
        for p in &mut self.properties {
            p.bad = p
                .bad
                .iter()
                .map(|c| c.iter().map(subst_atom).collect())
                .collect();
        }
        // A guard that is now `0 >= 0` or `0 = 0` says nothing; one that is
        // now false disables its transition.
        self.transitions.retain(|t| {
            t.guard.iter().all(|a| match a {
                Atom::Ge(l) if l.terms.is_empty() => l.constant >= 0,
                Atom::Eq(l) if l.terms.is_empty() => l.constant == 0,
                _ => true,
            })
        });
        self
    }

    /// The model at the full width sliced to the runs before
    /// `Registry::terminate` (the only runs the job properties speak of).
    pub fn before_terminate(mutant: Option<Mutant>) -> Model {
        Model::new(Width::Full, mutant).slice(&Model::after_terminate())
    }

    /// The variables that stay zero until `Registry::terminate`.
    pub fn after_terminate() -> Vec<String> {
        let mut zero = vec![TERM.to_string(), EXITED.to_string()];
        for p in Phase::ALL {
            zero.push(w(p, Flag::Set));
            zero.push(w(p, Flag::SetWakeOwed));
        }
        zero
    }

    pub fn new(width: Width, mutant: Option<Mutant>) -> Model {
        let mut vars: Vec<String> = [
            N, S, I, JODD, TERM, QI, QD, QP, DONE, TOK, INJ_EMPTY, INJ_MORE, EXITED,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for p in Phase::ALL {
            for f in Flag::ALL {
                vars.push(w(p, f));
            }
        }
        let mut b = Builder {
            mutant,
            width,
            vars: vars.clone(),
            out: Vec::new(),
        };
        b.build();
        let transitions = b.out;
        for t in &transitions {
            for (name, lin) in &t.update {
                assert!(vars.contains(name), "{}: updates unknown {name}", t.name);
                for v in lin.terms.keys() {
                    assert!(
                        vars.contains(v) || t.params.contains(v),
                        "{}: unknown {v}",
                        t.name
                    );
                }
            }
        }

        // Every worker starts busy (in `main_loop`, before its first
        // `start_looking`); everything else is zero, the JEC even.
        let mut init = vec![var(N).ge(1), var("busy_u").eq(var(N))];
        for v in &vars {
            if v != N && v != "busy_u" {
                init.push(var(v).eq(0));
            }
        }

        let workers = sum(Phase::ALL.iter().flat_map(|&p| all_flags(p))) + var(EXITED);
        let inactive = sum(Phase::ALL
            .iter()
            .filter(|p| p.inactive())
            .flat_map(|&p| all_flags(p)));
        let counted = sum([Phase::Pending, Phase::Blocked]
            .iter()
            .flat_map(|&p| all_flags(p)));
        let blocked = sum(all_flags(Phase::Blocked));
        let waiting = sum(all_flags(Phase::Waiting)) + sum(all_flags(Phase::Hung));
        // Stuck: some worker blocked in `sleep`, every other worker blocked
        // in `sleep`, waiting outside the pool for a queued job, or inside a
        // job that never returns (or gone), and nothing in flight that could
        // wake one (property 9).
        let stuck = vec![
            var(TERM).eq(0),
            blocked.clone().ge(1),
            (workers.clone() - blocked.clone() - waiting.clone()).eq(0),
            var(TOK).eq(0),
            var(INJ_EMPTY).eq(0),
            var(INJ_MORE).eq(0),
            var(DONE).eq(0),
        ];
        let with = |mut atoms: Vec<Atom>, extra: Atom| {
            atoms.push(extra);
            atoms
        };
        let properties = vec![
            Property {
                name: "no_injected_job_stranded",
                statement: "no injected job stays queued while some worker is blocked in sleep, every other one is blocked or waiting outside the pool, and no wake-up is in flight",
                bad: vec![with(stuck.clone(), var(QI).ge(1))],
            },
            Property {
                name: "no_internal_job_stranded",
                statement: "no internal job stays queued while some worker is blocked in sleep, every other one is blocked or waiting outside the pool, and no wake-up is in flight (SC)",
                bad: vec![with(stuck.clone(), (var(QD) + var(QP)).ge(1))],
            },
            Property {
                name: "waker_decrements",
                statement: "the sleeping count equals the number of workers counted by their own CAS and not yet woken (holding their lock or blocked), never underflows, and S <= I <= N",
                bad: vec![
                    vec![var(S).ge(counted.clone() + 1)],
                    vec![var(S).le(counted.clone() - 1)],
                    vec![var(S).le(-1)],
                    vec![var(I).ge(inactive.clone() + 1)],
                    vec![var(I).le(inactive.clone() - 1)],
                    vec![var(S).ge(var(I) + 1)],
                    vec![var(I).ge(var(N) + 1)],
                ],
            },
            Property {
                name: "set_latch_wakes_blocked_owner",
                statement: "a worker blocked on a set latch has the setter's wake-up in flight",
                bad: vec![vec![var(&w(Phase::Blocked, Flag::Set)).ge(1)]],
            },
            Property {
                name: "set_latch_never_slept_on",
                statement: "a worker whose latch is set and owed no wake-up never holds its sleep lock to sleep (so each reaches exit: see the ranking in docs/every-n.md)",
                bad: vec![vec![(var(&w(Phase::LockedCur, Flag::Set)) + var(&w(Phase::LockedStale, Flag::Set)) + var(&w(Phase::Pending, Flag::Set)) + var(&w(Phase::Blocked, Flag::Set))).ge(1)]],
            },
        ];
        let mut bounded: Vec<String> = vec![N.to_string(), S.to_string(), I.to_string()];
        bounded.extend(Phase::ALL.iter().flat_map(|&p| all_flags(p)));
        bounded.push(EXITED.to_string());
        Model {
            vars,
            init,
            transitions,
            properties,
            start: |n| vec![(N.to_string(), n), ("busy_u".to_string(), n)],
            bounded,
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use std::path::Path;

    fn sources(dir: &Path, out: &mut String) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }

    /// Every function a transition is named after exists in `core/src`:
    /// renaming a protocol step fails here until the model follows.
    #[test]
    fn transitions_name_code_that_exists() {
        names_exist(&Model::new(Width::Full, None));
    }

    /// The same for the latch model, and for each of its mutants (whose
    /// changed transitions have names of their own).
    #[test]
    fn latch_model_transitions_name_code_that_exists() {
        names_exist(&latches::model(None));
        for m in Mutant::ALL.into_iter().filter(|m| m.in_latch_model()) {
            names_exist(&latches::model(Some(m)));
        }
    }

    pub(super) fn names_exist(model: &Model) {
        let mut code = String::new();
        sources(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src"),
            &mut code,
        );
        let mut checked = 0;
        for t in &model.transitions {
            // The text outside `[...]` names code; inside is the case.
            let mut outside = String::new();
            let mut depth = 0;
            for c in t.name.chars() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ if depth == 0 => outside.push(c),
                    _ => {}
                }
            }
            for token in outside.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')) {
                let token = token.trim_end_matches(':');
                let function = token.rsplit("::").next().unwrap();
                if token.contains("::") || function.contains('_') {
                    assert!(
                        code.contains(&format!("fn {function}("))
                            || code.contains(&format!("fn {function}<")),
                        "{}: no fn {function} in core/src",
                        t.name
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "only {checked} names checked");
    }

    /// Every transition keeps the number of workers: the model neither
    /// loses nor makes one (the solver checks the same as `pool_size`; this
    /// runs without z3).
    #[test]
    fn transitions_keep_the_pool_size() {
        for width in [Width::Full, Width::Any] {
            for mutant in std::iter::once(None).chain(Mutant::ALL.map(Some)) {
                let model = Model::new(width, mutant);
                for t in &model.transitions {
                    let mut total = Lin::default();
                    for p in Phase::ALL {
                        for f in Flag::ALL {
                            let v = w(p, f);
                            let next = t
                                .update
                                .iter()
                                .find(|(n, _)| *n == v)
                                .map_or_else(|| var(&v), |(_, l)| l.clone());
                            total = total + next - var(&v);
                        }
                    }
                    let next_exited = t
                        .update
                        .iter()
                        .find(|(n, _)| n == EXITED)
                        .map_or_else(|| var(EXITED), |(_, l)| l.clone());
                    total = total + next_exited - var(EXITED);
                    assert_eq!(
                        total,
                        Lin::default(),
                        "{mutant:?}: {} changes the pool size",
                        t.name
                    );
                }
            }
        }
    }
}
