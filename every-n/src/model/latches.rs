//! The latch model: workers that wait on a latch of their own while they
//! run jobs (join's `SpinLatch`, a scope's `CountLatch`, the cross-pool
//! `SpinLatch`), their terminate latches between those waits, broadcasts,
//! and outside threads blocked on a `LockLatch`, as a counter abstraction
//! for every pool size `N` (docs/every-n.md, "The latches").
//!
//! A worker's local state is its phase in `wait_until_cold` and
//! `Sleep::sleep`, the frame it waits in (its main loop, on its terminate
//! latch, or a wait on a latch of a job: only the innermost wait reaches
//! the sleep protocol, see [`Frame`]), that latch's flag (as in the main
//! model: unset, set, set with the setter's wake-up owed) and its broadcast
//! queue ([`Bcast`]). What the main model keeps to decide whether a job is
//! found (the queues, the JEC, the wake-ups a post owes) is left out: every
//! decision that reads it may go either way, and any blocked worker may be
//! woken at any step (a post's, a finder's or a late setter's
//! `wake_specific_thread`). So this model allows more runs than the code,
//! never fewer, and what it proves holds whatever the job protocol does.

use super::{finish, Clause, Flag, Model, Mutant, Property, Tr, Transition, EXITED, I, N, S};
use crate::lin::{sum, var, Lin};

/// Where a worker is in `wait_until_cold` and `Sleep::sleep`: the main
/// model's phases without the snapshot (the JEC check may go either way)
/// and without the job's own waiting (a busy worker may stay busy forever).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Running a job, or between jobs in `wait_until_cold` / `main_loop`.
    Busy,
    /// Searching (`Sleep::start_looking` done), not sleepy.
    Idle,
    /// Announced (`Sleep::announce_sleepy`), before its last round.
    Sleepy,
    /// `CoreLatch::get_sleepy` done (latch `SLEEPY`), before the lock.
    Drowsy,
    /// Holds its sleep lock, latch `SLEEPING`, before the CAS that joins the
    /// sleeping count.
    Locked,
    /// Counted asleep, holding its lock, before the final look.
    Pending,
    /// Blocked on its condvar.
    Blocked,
    /// Woken, not yet back from `Sleep::sleep` (latch still `SLEEPING`).
    Woken,
}

impl Phase {
    pub const ALL: [Phase; 8] = [
        Phase::Busy,
        Phase::Idle,
        Phase::Sleepy,
        Phase::Drowsy,
        Phase::Locked,
        Phase::Pending,
        Phase::Blocked,
        Phase::Woken,
    ];

    pub fn short(self) -> &'static str {
        match self {
            Phase::Busy => "busy",
            Phase::Idle => "idle",
            Phase::Sleepy => "sleepy",
            Phase::Drowsy => "drowsy",
            Phase::Locked => "locked",
            Phase::Pending => "pending",
            Phase::Blocked => "blocked",
            Phase::Woken => "woken",
        }
    }

    fn holds_lock(self) -> bool {
        matches!(self, Phase::Locked | Phase::Pending)
    }
}

/// The frame whose latch the worker's sleep protocol uses: the innermost
/// wait. An outer wait's latch is `UNSET` or `SET`, never `SLEEPY` or
/// `SLEEPING` (a worker takes a job only outside `Sleep::sleep`, which
/// leaves its latch `UNSET` unless set), so a set of it owes no wake-up,
/// and the worker reads it only once the inner wait has returned: the
/// model forgets outer frames and guesses, when a wait returns, the frame
/// below and its latch (unset or set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// `main_loop`, on the terminate latch (`OnceLatch`).
    Main,
    /// `wait_until` inside a job, on a join's `SpinLatch`, a scope's
    /// `CountLatch` or a cross-pool `SpinLatch` (which one is decided by the
    /// set: the waits are the same steps).
    Wait,
}

impl Frame {
    pub const ALL: [Frame; 2] = [Frame::Main, Frame::Wait];

    pub fn short(self) -> &'static str {
        match self {
            Frame::Main => "m",
            Frame::Wait => "j",
        }
    }
}

/// The worker's broadcast queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bcast {
    /// Nothing queued there.
    None,
    /// A job queued, and a broadcaster's `wake_specific_thread` for this
    /// worker still to come.
    Owed,
    /// A job queued, and no broadcaster's wake-up to come.
    Done,
}

impl Bcast {
    pub const ALL: [Bcast; 3] = [Bcast::None, Bcast::Owed, Bcast::Done];

    pub fn short(self) -> &'static str {
        match self {
            Bcast::None => "n",
            Bcast::Owed => "q",
            Bcast::Done => "d",
        }
    }
}

/// The variable counting workers in `phase`, waiting in `frame` on a latch
/// whose flag is `flag`, with broadcast queue `bcast`: `blocked_js_d` is a
/// blocked worker whose join/scope/cross-pool latch is set with nothing
/// owed, with a broadcast job queued and no wake-up to come.
pub fn w(phase: Phase, frame: Frame, flag: Flag, bcast: Bcast) -> String {
    format!(
        "{}_{}{}_{}",
        phase.short(),
        frame.short(),
        flag.short(),
        bcast.short()
    )
}

/// Every worker class.
fn classes() -> impl Iterator<Item = (Phase, Frame, Flag, Bcast)> {
    Phase::ALL.into_iter().flat_map(|p| {
        Frame::ALL.into_iter().flat_map(move |fr| {
            Flag::ALL
                .into_iter()
                .flat_map(move |f| Bcast::ALL.into_iter().map(move |b| (p, fr, f, b)))
        })
    })
}

fn count(keep: impl Fn(Phase, Frame, Flag, Bcast) -> bool) -> Lin {
    sum(classes()
        .filter(|&(p, fr, f, b)| keep(p, fr, f, b))
        .map(|(p, fr, f, b)| w(p, fr, f, b)))
}

/// Threads outside the pool (a free variable, as `N`).
pub const M: &str = "M";
/// Outside threads not waiting on their `LockLatch`.
pub const OUT_BUSY: &str = "out_busy";
/// In `LockLatch::wait_and_reset`, about to check the flag under the
/// mutex (first, or after a wake-up); the latch unset / set.
pub const OUT_CHECKING_U: &str = "out_checking_u";
pub const OUT_CHECKING_S: &str = "out_checking_s";
/// Waiting on the condvar (the mutex released); the latch unset / set
/// with no notification to come.
pub const OUT_BLOCKED_U: &str = "out_blocked_u";
pub const OUT_BLOCKED_S: &str = "out_blocked_s";

const OUTSIDE: [&str; 5] = [
    OUT_BUSY,
    OUT_CHECKING_U,
    OUT_CHECKING_S,
    OUT_BLOCKED_U,
    OUT_BLOCKED_S,
];

/// The flag a worker woken from its condvar has: a wake-up owed by its
/// latch's setter is spent or finds it awake (`_w` becomes `_s`).
fn after_wake(f: Flag) -> Flag {
    if f == Flag::Unset {
        Flag::Unset
    } else {
        Flag::Set
    }
}

struct Builder {
    mutant: Option<Mutant>,
    vars: Vec<String>,
    out: Vec<Transition>,
}

impl Builder {
    fn is(&self, m: Mutant) -> bool {
        self.mutant == Some(m)
    }

    fn push(&mut self, tr: Tr) {
        self.out.push(finish(tr, &self.vars));
    }

    /// Whether a set of the latch finds it `SLEEPING` in phase `p`: from
    /// `fall_asleep` until `CoreLatch::wake_up` (`latch_without_sleepy`:
    /// from `get_sleepy`).
    fn sleeping(&self, p: Phase) -> bool {
        matches!(
            p,
            Phase::Locked | Phase::Pending | Phase::Blocked | Phase::Woken
        ) || (self.is(Mutant::LatchWithoutSleepy) && p == Phase::Drowsy)
    }

    /// Whether a waker's `wake_specific_thread` on a worker in phase `p`
    /// that holds its lock finds it not blocked instead of waiting for the
    /// lock: the unlocked read of `is_blocked` of the two mutants.
    fn unlocked_read(&self) -> bool {
        self.is(Mutant::LatchSetWithoutLock) || self.is(Mutant::UnlockedBlockedPrecheck)
    }

    fn build(&mut self) {
        use Phase::*;
        for (fr, f, b) in Frame::ALL.into_iter().flat_map(|fr| {
            Flag::ALL
                .into_iter()
                .flat_map(move |f| Bcast::ALL.into_iter().map(move |b| (fr, f, b)))
        }) {
            let c = |p: Phase| w(p, fr, f, b);
            let cls = format!("{}{}_{}", fr.short(), f.short(), b.short());
            // The searcher's path. Its steps that do not read the latch are
            // taken whatever the latch's flag: a set after the worker's last
            // probe finds it starting to look, announcing or taking a job.
            self.push(
                Tr::new(format!("Sleep::start_looking [{cls}]"))
                    .mv(&c(Busy), &c(Idle))
                    .add(I, 1),
            );
            for p in [Idle, Sleepy] {
                self.push(
                    Tr::new(format!("Sleep::work_found [{}, {cls}]", p.short()))
                        .mv(&c(p), &c(Busy))
                        .add(I, -1),
                );
                if b != Bcast::None {
                    // Its own broadcast job (`take_local_job` is the first
                    // look of `find_work`); more may be queued there.
                    for b2 in [Bcast::None, b] {
                        self.push(
                            Tr::new(format!(
                                "Sleep::work_found: take_broadcast_job [{}, {cls}, then {}]",
                                p.short(),
                                b2.short()
                            ))
                            .mv(&c(p), &w(Busy, fr, f, b2))
                            .add(I, -1),
                        );
                    }
                }
            }
            if b != Bcast::None {
                self.push(
                    Tr::new(format!(
                        "wait_until_cold: take_local_job: take_broadcast_job [{cls}]"
                    ))
                    .mv(&c(Busy), &w(Busy, fr, f, Bcast::None)),
                );
            }
            self.push(Tr::new(format!("Sleep::announce_sleepy [{cls}]")).mv(&c(Idle), &c(Sleepy)));
            // The last round is not modelled (no queues): the worker may try
            // to sleep whatever is queued, its broadcast queue included.
            if f == Flag::Unset {
                self.push(
                    Tr::new(format!(
                        "last round finds nothing; CoreLatch::get_sleepy [{cls}]"
                    ))
                    .mv(&c(Sleepy), &c(Drowsy)),
                );
            } else {
                self.push(
                    Tr::new(format!(
                        "CoreLatch::get_sleepy fails: the latch is set [{cls}]"
                    ))
                    .mv(&c(Sleepy), &c(Idle)),
                );
            }
            if f == Flag::Unset || self.is(Mutant::LatchWithoutSleepy) {
                self.push(
                    Tr::new(format!(
                        "Sleep::sleep: lock; CoreLatch::fall_asleep [{cls}]"
                    ))
                    .mv(&c(Drowsy), &c(Locked)),
                );
            } else {
                self.push(
                    Tr::new(format!(
                        "Sleep::sleep: lock; CoreLatch::fall_asleep fails [{cls}]"
                    ))
                    .mv(&c(Drowsy), &c(Idle)),
                );
            }
            // The JEC check either way.
            self.push(
                Tr::new(format!("Sleep::sleep: try_add_sleeping_thread [{cls}]"))
                    .mv(&c(Locked), &c(Pending))
                    .add(S, 1),
            );
            self.push(
                Tr::new(format!(
                    "Sleep::sleep: JEC moved, abandon; CoreLatch::wake_up [{cls}]"
                ))
                .mv(&c(Locked), &c(Idle)),
            );
            // The final look (`has_broadcast_or_injected_job`): it finds an
            // injected job or not, and it always finds a queued broadcast
            // job (`final_look_skips_broadcasts`: never).
            self.push(
                Tr::new(format!(
                    "Sleep::sleep: final look finds a job, sub_sleeping_thread [{cls}]"
                ))
                .mv(&c(Pending), &c(Idle))
                .add(S, -1),
            );
            if b == Bcast::None || self.is(Mutant::FinalLookSkipsBroadcasts) {
                self.push(
                    Tr::new(format!(
                        "Sleep::sleep: final look finds nothing, block [{cls}]"
                    ))
                    .mv(&c(Pending), &c(Blocked)),
                );
            }
            // Any other thread's `wake_specific_thread` (a post's or
            // finder's wake loop, a late setter or broadcaster) may wake a
            // blocked worker at any step.
            self.push(
                Tr::new(format!(
                    "wake_specific_thread wakes a blocked worker [{cls}]"
                ))
                .mv(&c(Blocked), &w(Woken, fr, after_wake(f), b))
                .add(S, -1),
            );
            self.push(
                Tr::new(format!("Sleep::sleep returns after a wake-up [{cls}]"))
                    .mv(&c(Woken), &c(Idle)),
            );

            // A job running on the worker waits on a latch of its own: a
            // join whose other half was stolen, a scope with jobs still
            // running, an `install` into another pool. The frame it runs in
            // is forgotten.
            self.push(
                Tr::new(format!(
                    "WorkerThread::wait_until [a job waits on a new latch; {cls}]"
                ))
                .mv(&c(Busy), &w(Busy, Frame::Wait, Flag::Unset, b)),
            );

            // The probe finds the latch set: leave the frame.
            if f != Flag::Unset {
                match fr {
                    Frame::Main => {
                        self.push(
                            Tr::new(format!("main_loop exits [busy, {cls}]")).mv(&c(Busy), EXITED),
                        );
                        for p in [Idle, Sleepy] {
                            self.push(
                                Tr::new(format!(
                                    "main_loop exits [{}, {cls}]: stop_looking",
                                    p.short()
                                ))
                                .mv(&c(p), EXITED)
                                .add(I, -1),
                            );
                        }
                    }
                    Frame::Wait => {
                        // Back in the job that waited, which returns to the
                        // frame below: its latch unset, or set (a set owed
                        // nothing there). A setter's wake-up still owed
                        // reaches a worker that no longer waits on its latch:
                        // the any-time wake-up above covers it.
                        for (fr2, f2) in [
                            (Frame::Main, Flag::Unset),
                            (Frame::Main, Flag::Set),
                            (Frame::Wait, Flag::Unset),
                            (Frame::Wait, Flag::Set),
                        ] {
                            let below = format!("{}{}", fr2.short(), f2.short());
                            self.push(
                                Tr::new(format!(
                                    "wait_until_cold returns [busy, {cls}; the frame below: {below}]"
                                ))
                                .mv(&c(Busy), &w(Busy, fr2, f2, b)),
                            );
                            for p in [Idle, Sleepy] {
                                self.push(
                                    Tr::new(format!(
                                        "wait_until_cold: stop_looking [{}, {cls}; the frame below: {below}]",
                                        p.short()
                                    ))
                                    .mv(&c(p), &w(Busy, fr2, f2, b))
                                    .add(I, -1),
                                );
                            }
                        }
                    }
                }
            }

            // The sets: `CoreLatch::set` swaps in SET; the setter owes its
            // `notify_worker_latch_is_set` when the swap replaced SLEEPING.
            if f == Flag::Unset {
                // Which thread sets it: join's latch, by the worker that ran
                // the stolen half, and a scope's, by the worker that ran its
                // last job (or the owner, its own body last): a busy
                // worker of this pool, perhaps the owner itself (a join
                // whose first half panicked waits with the second half
                // still on its deque, and may run it). A cross-pool latch,
                // by a worker of the other pool, and the terminate latch, by
                // the last `Registry::terminate`: any thread.
                let kinds: &[(&str, Mutant, bool)] = match fr {
                    Frame::Main => &[(
                        "OnceLatch::set_and_wake: CoreLatch::set [terminate latch",
                        Mutant::OnceLatchSetNeverWakes,
                        false,
                    )],
                    Frame::Wait => &[
                        (
                            "SpinLatch::set: CoreLatch::set [join's latch",
                            Mutant::SpinLatchSetNeverWakes,
                            true,
                        ),
                        (
                            "CountLatch::set: CoreLatch::set [scope's latch, the count reaches zero",
                            Mutant::CountLatchSetNeverWakes,
                            true,
                        ),
                        (
                            "SpinLatch::set: CoreLatch::set [cross-pool latch",
                            Mutant::CrossLatchSetNeverWakes,
                            false,
                        ),
                    ],
                };
                let busy = count(|p, _, _, _| p == Busy);
                for &(name, never, by_a_busy_worker) in kinds {
                    for p in Phase::ALL {
                        let wakes = self.sleeping(p)
                            && !self.is(Mutant::LatchSetNeverWakes)
                            && !self.is(never);
                        let to = if wakes { Flag::SetWakeOwed } else { Flag::Set };
                        let tr = Tr::new(format!("{name}, {}, {cls}]", p.short()))
                            .mv(&c(p), &w(p, fr, to, b));
                        self.push(if by_a_busy_worker {
                            tr.when(busy.clone().ge(1))
                        } else {
                            tr
                        });
                    }
                }
            }
            // The setter's `wake_specific_thread(owner)`: it waits for the
            // owner's lock, wakes it if blocked, and otherwise does nothing.
            if f == Flag::SetWakeOwed {
                for p in Phase::ALL {
                    let name = format!(
                        "notify_worker_latch_is_set: wake_specific_thread [{}, {cls}]",
                        p.short()
                    );
                    if p == Blocked {
                        self.push(
                            Tr::new(name)
                                .mv(&c(p), &w(Woken, fr, Flag::Set, b))
                                .add(S, -1),
                        );
                    } else if !p.holds_lock() || self.unlocked_read() {
                        self.push(
                            Tr::new(format!("{name}: not blocked"))
                                .mv(&c(p), &w(p, fr, Flag::Set, b)),
                        );
                    }
                }
            }
            // The broadcaster's `notify_worker_latch_is_set(index)` for this
            // worker, the same `wake_specific_thread`.
            if b == Bcast::Owed {
                for p in Phase::ALL {
                    let name = format!(
                        "Registry::inject_broadcast: notify_worker_latch_is_set: wake_specific_thread [{}, {cls}]",
                        p.short()
                    );
                    if p == Blocked {
                        self.push(
                            Tr::new(name)
                                .mv(&c(p), &w(Woken, fr, after_wake(f), Bcast::Done))
                                .add(S, -1),
                        );
                    } else if !p.holds_lock() || self.unlocked_read() {
                        self.push(
                            Tr::new(format!("{name}: not blocked"))
                                .mv(&c(p), &w(p, fr, f, Bcast::Done)),
                        );
                    }
                }
            }
        }

        // A broadcast: one job into every worker's broadcast queue, under
        // the broadcasts lock (one step), and a wake-up owed to each.
        let groups: Vec<(Phase, Frame, Flag)> = Phase::ALL
            .into_iter()
            .flat_map(|p| {
                Frame::ALL
                    .into_iter()
                    .flat_map(move |fr| Flag::ALL.into_iter().map(move |f| (p, fr, f)))
            })
            .collect();
        let broadcast = |name: String, skipped: Option<(Phase, Frame, Flag)>| {
            let mut tr = Tr::new(name);
            for &(p, fr, f) in &groups {
                let [n, q, d] = Bcast::ALL.map(|b| w(p, fr, f, b));
                let skip = skipped == Some((p, fr, f));
                tr = tr
                    .set(&n, 0)
                    .set(&d, if skip { 1 } else { 0 })
                    .add(&q, var(&n) + var(&d) - if skip { 1 } else { 0 });
            }
            tr
        };
        if self.is(Mutant::BroadcastWakeLoopOffByOne) {
            // The loop stops one short: the last worker (any worker: they
            // are symmetric) is owed no wake-up by this broadcast. It is
            // taken among the workers owed none from an earlier one (one
            // still owed is woken by that), and ends with its job queued and
            // nothing owed (`d`).
            for &(p, fr, f) in &groups {
                let [n, _, d] = Bcast::ALL.map(|b| w(p, fr, f, b));
                let tr = broadcast(
                    format!(
                        "Registry::inject_broadcast [one job per worker; the wake loop skips the last, a {}_{}{} worker]",
                        p.short(),
                        fr.short(),
                        f.short()
                    ),
                    Some((p, fr, f)),
                )
                .when((var(&n) + var(&d)).ge(1));
                self.push(tr);
            }
        } else {
            self.push(broadcast(
                "Registry::inject_broadcast [one job per worker, each worker's wake-up owed]"
                    .to_string(),
                None,
            ));
        }

        // Outside threads (`in_worker_cold`, a scope owned outside the pool)
        // wait on a `LockLatch`: a flag under a mutex, and a condvar.
        self.push(
            Tr::new("in_worker_cold or a scope's CountLatch::wait: inject, then LockLatch::wait_and_reset")
                .mv(OUT_BUSY, OUT_CHECKING_U),
        );
        self.push(
            Tr::new("LockLatch::wait_and_reset [not set: wait on the condvar]")
                .mv(OUT_CHECKING_U, OUT_BLOCKED_U),
        );
        self.push(
            Tr::new("LockLatch::wait_and_reset [set: reset it, return]")
                .mv(OUT_CHECKING_S, OUT_BUSY),
        );
        for (blocked, checking) in [
            (OUT_BLOCKED_U, OUT_CHECKING_U),
            (OUT_BLOCKED_S, OUT_CHECKING_S),
        ] {
            self.push(
                Tr::new(format!(
                    "LockLatch::wait_and_reset [a spurious wake-up, {blocked}]"
                ))
                .mv(blocked, checking),
            );
        }
        self.push(
            Tr::new("LockLatch::set [the owner does not wait on the condvar]")
                .mv(OUT_CHECKING_U, OUT_CHECKING_S),
        );
        if self.is(Mutant::LockLatchSetNoNotify) {
            self.push(
                Tr::new("LockLatch::set [the owner waits on the condvar: no notify]")
                    .mv(OUT_BLOCKED_U, OUT_BLOCKED_S),
            );
        } else {
            self.push(
                Tr::new("LockLatch::set [the owner waits on the condvar: notify_all]")
                    .mv(OUT_BLOCKED_U, OUT_CHECKING_S),
            );
        }
    }
}

/// The latch model (`mutant`: one of `Mutant::in_latch_model`, or none).
pub fn model(mutant: Option<Mutant>) -> Model {
    let mut vars: Vec<String> = [N, S, I, EXITED, M].iter().map(|s| s.to_string()).collect();
    vars.extend(classes().map(|(p, fr, f, b)| w(p, fr, f, b)));
    vars.extend(OUTSIDE.iter().map(|s| s.to_string()));
    let mut b = Builder {
        mutant,
        vars: vars.clone(),
        out: Vec::new(),
    };
    b.build();
    let start = w(Phase::Busy, Frame::Main, Flag::Unset, Bcast::None);
    // Every worker busy in its main loop, every outside thread busy.
    let mut init = vec![
        var(N).ge(1),
        var(M).ge(0),
        var(&start).eq(var(N)),
        var(OUT_BUSY).eq(var(M)),
    ];
    for v in &vars {
        if ![N, M, OUT_BUSY, start.as_str()].contains(&v.as_str()) {
            init.push(var(v).eq(0));
        }
    }
    let mut bounded: Vec<String> = vars.clone();
    bounded.retain(|v| v != M);
    Model {
        vars,
        init,
        transitions: b.out,
        properties: properties(),
        // A search has one outside thread: the lock latch is its own.
        start: |n| {
            vec![
                (N.to_string(), n),
                (w(Phase::Busy, Frame::Main, Flag::Unset, Bcast::None), n),
                (M.to_string(), 1),
                (OUT_BUSY.to_string(), 1),
            ]
        },
        bounded,
    }
}

fn blocked_set(frame: Frame) -> Lin {
    count(|p, fr, f, _| p == Phase::Blocked && fr == frame && f == Flag::Set)
}

fn counted() -> Lin {
    count(|p, _, _, _| matches!(p, Phase::Pending | Phase::Blocked))
}

fn inactive() -> Lin {
    count(|p, _, _, _| p != Phase::Busy)
}

fn properties() -> Vec<Property> {
    vec![
        Property {
            name: "wait_latch_wakes_blocked_owner",
            statement: "a worker blocked in sleep whose join, scope or cross-pool latch is set has the setter's wake-up owed",
            bad: vec![vec![blocked_set(Frame::Wait).ge(1)]],
        },
        Property {
            name: "terminate_latch_wakes_blocked_owner_between_waits",
            statement: "a worker blocked in sleep in its main loop whose terminate latch is set has the setter's wake-up owed, with jobs that wait on latches of their own",
            bad: vec![vec![blocked_set(Frame::Main).ge(1)]],
        },
        Property {
            name: "set_latch_never_slept_on_in_any_frame",
            statement: "a worker whose latch (of either frame) is set with nothing owed never holds its sleep lock to sleep",
            bad: vec![vec![count(|p, _, f, _| {
                matches!(p, Phase::Locked | Phase::Pending) && f == Flag::Set
            })
            .ge(1)]],
        },
        Property {
            name: "queued_broadcast_wakes_blocked_worker",
            statement: "a worker blocked in sleep with a broadcast job queued has the broadcaster's wake-up owed",
            bad: vec![vec![count(|p, _, _, b| p == Phase::Blocked && b == Bcast::Done).ge(1)]],
        },
        Property {
            name: "lock_latch_wakes_outside_thread",
            statement: "an outside thread waiting on the condvar of a set LockLatch has been notified",
            bad: vec![vec![var(OUT_BLOCKED_S).ge(1)]],
        },
        Property {
            name: "counts_exact_with_nested_waits",
            statement: "S is the number of workers counted asleep and I of the inactive ones, in whatever frame they sleep, S <= I <= N",
            bad: vec![
                vec![var(S).ge(counted() + 1)],
                vec![var(S).le(counted() - 1)],
                vec![var(S).le(-1)],
                vec![var(I).ge(inactive() + 1)],
                vec![var(I).le(inactive() - 1)],
                vec![var(S).ge(var(I) + 1)],
                vec![var(I).ge(var(N) + 1)],
            ],
        },
    ]
}

/// The properties a mutant's counterexample is searched for: the state in
/// which the code hangs (an owner blocked, not the earlier one holding its
/// lock on a set latch).
pub fn target(m: Mutant) -> &'static [&'static str] {
    match m {
        Mutant::SpinLatchSetNeverWakes
        | Mutant::CountLatchSetNeverWakes
        | Mutant::CrossLatchSetNeverWakes => &["wait_latch_wakes_blocked_owner"],
        Mutant::OnceLatchSetNeverWakes => &["terminate_latch_wakes_blocked_owner_between_waits"],
        Mutant::LockLatchSetNoNotify => &["lock_latch_wakes_outside_thread"],
        Mutant::FinalLookSkipsBroadcasts | Mutant::BroadcastWakeLoopOffByOne => {
            &["queued_broadcast_wakes_blocked_worker"]
        }
        // The mutants of every latch's wake-up: shown on a wait latch, the
        // main model shows them on the terminate latch.
        _ => &["wait_latch_wakes_blocked_owner"],
    }
}

/// The latch model's inductive invariant (docs/every-n.md, "The latches").
pub fn invariant() -> Vec<Clause> {
    let workers = count(|_, _, _, _| true) + var(EXITED);
    vec![
        Clause {
            name: "pool_size",
            dnf: vec![vec![var(N).eq(workers), var(N).ge(1)]],
        },
        Clause {
            name: "outside_threads",
            dnf: vec![vec![var(M).eq(sum(OUTSIDE))]],
        },
        Clause {
            name: "sleeping_count",
            dnf: vec![vec![var(S).eq(counted())]],
        },
        Clause {
            name: "inactive_count",
            dnf: vec![vec![var(I).eq(inactive())]],
        },
        Clause {
            name: "set_latch_outside_the_lock",
            dnf: vec![classes()
                .filter(|&(p, _, f, _)| {
                    f == Flag::Set && matches!(p, Phase::Locked | Phase::Pending | Phase::Blocked)
                })
                .map(|(p, fr, f, b)| var(&w(p, fr, f, b)).eq(0))
                .collect()],
        },
        Clause {
            name: "queued_broadcast_beside_a_block_is_owed",
            dnf: vec![classes()
                .filter(|&(p, _, _, b)| p == Phase::Blocked && b == Bcast::Done)
                .map(|(p, fr, f, b)| var(&w(p, fr, f, b)).eq(0))
                .collect()],
        },
        Clause {
            name: "lock_latch_set_only_outside_the_wait",
            dnf: vec![vec![var(OUT_BLOCKED_S).eq(0)]],
        },
    ]
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::explicit::{search, Outcome};

    fn total(t: &Transition, names: &[String]) -> Lin {
        names.iter().fold(Lin::default(), |acc, v| {
            let next = t
                .update
                .iter()
                .find(|(n, _)| n == v)
                .map_or_else(|| var(v), |(_, l)| l.clone());
            acc + next - var(v)
        })
    }

    /// Every transition keeps the number of workers and of outside threads,
    /// in the model and in each of its mutants (this runs without z3).
    #[test]
    fn transitions_keep_the_pool_and_the_outside_threads() {
        let mut workers: Vec<String> = classes().map(|(p, fr, f, b)| w(p, fr, f, b)).collect();
        workers.push(EXITED.to_string());
        let outside: Vec<String> = OUTSIDE.iter().map(|s| s.to_string()).collect();
        let mutants = Mutant::ALL.into_iter().filter(|m| m.in_latch_model());
        for mutant in std::iter::once(None).chain(mutants.map(Some)) {
            for t in &model(mutant).transitions {
                assert_eq!(total(t, &workers), Lin::default(), "{mutant:?}: {}", t.name);
                assert_eq!(total(t, &outside), Lin::default(), "{mutant:?}: {}", t.name);
            }
        }
    }

    /// The search finds no bad state without a mutant at two workers, and
    /// finds the join latch's lost wake-up only from two workers on: its
    /// setter is another worker of the pool, busy.
    #[test]
    fn join_latch_mutant_needs_a_second_worker() {
        let unmutated = model(None);
        let all: Vec<&Property> = unmutated.properties.iter().collect();
        assert!(matches!(
            search(&unmutated, &all, 2, 2, 1_000_000),
            Outcome::Safe { states, .. } if states > 1000
        ));
        let m = model(Some(Mutant::SpinLatchSetNeverWakes));
        let target: Vec<&Property> = m
            .properties
            .iter()
            .filter(|p| p.name == "wait_latch_wakes_blocked_owner")
            .collect();
        assert!(matches!(
            search(&m, &target, 1, 2, 1_000_000),
            Outcome::Safe { .. }
        ));
        let Outcome::Found(trace) = search(&m, &target, 2, 2, 1_000_000) else {
            panic!("no run found at two workers");
        };
        crate::smt::replay(&m, &trace).unwrap();
    }
}
