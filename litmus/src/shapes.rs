//! The sleep protocol's weak-memory shapes as litmus programs.
//!
//! Each shape takes its memory orders from the shipped code, named in
//! `source`; its `bad` predicate is the outcome that would strand a job or
//! lose a wake-up, and `expect` says which verdict the design needs:
//! `Forbidden` where Drowse relies on C++20 forbidding it, `Allowed` where
//! the shape is a weakened variant (a fence removed, an ordering relaxed)
//! that shows the ordering is needed, or an outcome the design accepts.
//!
//! Simplifications, the same for every shape: a queue's emptiness is the
//! one index (or length) its check reads, with the other index constant
//! where nobody else moves it; a job's payload is one relaxed location; each
//! compare-and-swap loop runs once, and where the shipped loop's retry would
//! change the answer, `bad` leaves out the executions whose CAS failed; the
//! packed counters word `C` uses the shipped layout (sleeping count in bits
//! 0-15, inactive count in bits 16-31, the JEC from bit 32).

use crate::program::{cas, fence, load, rmw, store, Cond, Expr, Instr, Mo, Pred, Program, RmwOp};
use Mo::{AcqRel, Acquire, Relaxed, Release, SeqCst};

/// The verdict a shape expects from C++20.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    Forbidden,
}

pub struct Shape {
    pub name: &'static str,
    pub program: Program,
    /// The outcome the question is about.
    pub bad: Pred,
    pub expect: Verdict,
    /// Whether the shipped code relies on `bad` being forbidden (as opposed
    /// to a weakened variant, or an outcome the design accepts).
    pub relied_on: bool,
    /// Where the orderings come from, and what the shape stands for.
    pub source: &'static str,
}

// The counters word (core/src/sleep/counters.rs).
const C: &str = "C";
const ONE_SLEEPING: u64 = 1;
const ONE_INACTIVE: u64 = 1 << 16;
const JEC_ONE: u64 = 1 << 32;

/// `Sleep::new_jobs`' and `announce_sleepy`'s `bump_jobs_counter_if`: a
/// `SeqCst` load of the counters, then, if the JEC has the parity `parity`
/// (0: even, the post's `is_sleepy`; 1: odd, the announcement's
/// `is_active`), a `SeqCst` CAS (failure `Relaxed`) that adds one to it.
fn bump_jec_if(parity: u64, read: &'static str, cas_reg: &'static str) -> Vec<Instr> {
    bump_jec_if_with(parity, read, cas_reg, SeqCst, SeqCst)
}

/// `bump_jec_if` with the load's and the CAS's orders given (for weakened
/// variants).
fn bump_jec_if_with(
    parity: u64,
    read: &'static str,
    cas_reg: &'static str,
    load_mo: Mo,
    cas_mo: Mo,
) -> Vec<Instr> {
    load_then_cas_if(
        read,
        cas_reg,
        (JEC_ONE, parity * JEC_ONE),
        JEC_ONE,
        load_mo,
        cas_mo,
    )
}

/// `Sleep::sleep`'s join of the sleeping count: `AtomicCounters::load`, then
/// `try_add_sleeping_thread`'s CAS, if the JEC equals the announcement's.
fn inc_sleepers(expected_jec: u64, read: &'static str, cas_reg: &'static str) -> Vec<Instr> {
    load_then_cas_if(
        read,
        cas_reg,
        (!0xffff_ffff, expected_jec * JEC_ONE),
        ONE_SLEEPING,
        SeqCst,
        SeqCst,
    )
}

/// The counters' read-then-update shape: load `C` into `read`; if its bits
/// under `mask` equal `want`, CAS it (failure `Relaxed`) from the value read
/// to that value plus `add`, the value seen going to `cas_reg`.
fn load_then_cas_if(
    read: &'static str,
    cas_reg: &'static str,
    (mask, want): (u64, u64),
    add: u64,
    load_mo: Mo,
    cas_mo: Mo,
) -> Vec<Instr> {
    vec![
        load(C, load_mo, read),
        Instr::If(
            Cond::masked(read, mask, want),
            vec![cas(
                C,
                Expr::RegPlus(read, 0),
                Expr::RegPlus(read, add),
                cas_mo,
                Relaxed,
                cas_reg,
            )],
        ),
    ]
}

/// Which queue implementation's orderings a shape uses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// core/src/sync/model_queue.rs, the checkers' queue: `push` stores
    /// `published_len` with `Release`, `is_empty`/`take` load it `Acquire`.
    Model,
    /// crossbeam-deque 0.8.8 as shipped (release builds).
    Crossbeam,
}

/// A push that makes a queue non-empty. Crossbeam: `Worker::push` is a
/// `Release` fence and a `Relaxed` store of `back` (its earlier loads of its
/// own indices are left out); `Injector::push` claims the slot with a
/// `SeqCst` CAS of `tail.index` (failure `Acquire`).
fn push(queue: Queue, injector: bool) -> Vec<Instr> {
    match (queue, injector) {
        (Queue::Model, _) => vec![store("len", 1, Release)],
        (Queue::Crossbeam, false) => vec![fence(Release), store("back", 1, Relaxed)],
        (Queue::Crossbeam, true) => vec![cas(
            "tail",
            Expr::Const(0),
            Expr::Const(2),
            SeqCst,
            Acquire,
            "push_tail",
        )],
    }
}

/// A look that finds the queue empty when `reg == 0`. Crossbeam:
/// `Stealer::steal` loads `front` `Acquire`, runs a `SeqCst` fence (the
/// source's; on x86 `epoch::pin` issues a `SeqCst` CAS of the thread's own
/// epoch instead, see `steal_x86`), then loads `back` `Acquire`;
/// `Injector::is_empty` loads `head.index` and `tail.index`, both `SeqCst`.
fn look(queue: Queue, injector: bool, reg: &'static str) -> Vec<Instr> {
    match (queue, injector) {
        (Queue::Model, _) => vec![load("len", Acquire, reg)],
        (Queue::Crossbeam, false) => vec![
            load("front", Acquire, "front_seen"),
            fence(SeqCst),
            load("back", Acquire, reg),
        ],
        (Queue::Crossbeam, true) => {
            vec![load("head", SeqCst, "head_seen"), load("tail", SeqCst, reg)]
        }
    }
}

fn cat(parts: Vec<Vec<Instr>>) -> Vec<Instr> {
    parts.into_iter().flatten().collect()
}

/// Lemma 1: a counted sleeper and an injected job always meet. The poster
/// pushes into the injector, runs PostFence (`Sleep::new_injected_jobs`) and
/// reads the counters (PostRead, `new_jobs`' load); the sleeper joins the
/// sleeping count (IncSleepers), runs SleepFence (`Sleep::sleep`) and looks
/// at the injector (FinalCheck, `Registry::has_injected_job`). Bad: the
/// sleeper is counted, PostRead does not count it, FinalCheck finds the
/// injector empty.
fn lemma1(
    name: &'static str,
    queue: Queue,
    post_fence: bool,
    sleep_fence: bool,
    expect: Verdict,
) -> Shape {
    let sc_fence = |on: bool| if on { vec![fence(SeqCst)] } else { vec![] };
    let poster = cat(vec![
        push(queue, true),
        sc_fence(post_fence),
        vec![load(C, SeqCst, "post")],
    ]);
    let sleeper = cat(vec![
        inc_sleepers(0, "seen", "inc"),
        sc_fence(sleep_fence),
        look(queue, true, "final"),
    ]);
    let bad = Pred::And(vec![
        Pred::reg_eq("inc", 0),
        Pred::reg_masked("post", 0xffff, 0),
        Pred::reg_eq("final", 0),
    ]);
    Shape {
        name,
        program: Program::new(name, vec![poster, sleeper]),
        bad,
        expect,
        relied_on: post_fence && sleep_fence,
        source: "Sleep::new_injected_jobs (PostFence), Sleep::sleep (IncSleepers via AtomicCounters::try_add_sleeping_thread, SleepFence), new_jobs' AtomicCounters::load (PostRead), Registry::has_injected_job (FinalCheck)",
    }
}

/// Lemma 10, the hand-off: the last searcher to leave its search while
/// someone sleeps reads the queues after its decrement of the inactive
/// count (`Sleep::hand_off`), against a post that counted it as the idle
/// worker that takes the job and so woke nobody. The poster pushes (into
/// the injector, or onto its own deque when `injector` is false), runs
/// PostFence when `post_fence` (injected jobs only, `Sleep::new_injected_jobs`)
/// and reads the counters (PostRead; the JEC starts odd, so the post writes
/// nothing); the leaver's `fetch_sub` of one inactive worker
/// (`Sleep::leave_inactive`) is followed by the HandOffFence when
/// `hand_off_fence`, then its look at the queue (`Registry::has_stealable_job`).
/// The counters start with two inactive workers, the leaver awake and one
/// asleep. Bad: PostRead still counts the leaver inactive (so the post woke
/// nobody: `A = 1` covered the job) and the look finds the queue empty, so
/// the leaver hands off to nobody either.
fn hand_off(
    name: &'static str,
    queue: Queue,
    injector: bool,
    (post_fence, hand_off_fence): (bool, bool),
    expect: Verdict,
) -> Shape {
    let sc_fence = |on: bool| if on { vec![fence(SeqCst)] } else { vec![] };
    let poster = cat(vec![
        push(queue, injector),
        sc_fence(post_fence),
        vec![load(C, SeqCst, "post")],
    ]);
    let leaver = cat(vec![
        vec![rmw(C, RmwOp::FetchSub(ONE_INACTIVE), SeqCst, "leave")],
        sc_fence(hand_off_fence),
        look(queue, injector, "look"),
    ]);
    let bad = Pred::And(vec![
        Pred::reg_masked("post", 0xffff * ONE_INACTIVE, 2 * ONE_INACTIVE),
        Pred::reg_eq("look", 0),
    ]);
    Shape {
        name,
        program: Program::new(name, vec![poster, leaver])
            .with_init(C, JEC_ONE + 2 * ONE_INACTIVE + ONE_SLEEPING),
        bad,
        expect,
        relied_on: injector && post_fence && hand_off_fence,
        source: if injector {
            "Registry::inject (push), Sleep::new_injected_jobs (PostFence), new_jobs' AtomicCounters::load (PostRead), Sleep::leave_inactive (AtomicCounters::sub_inactive_thread), Sleep::hand_off (HandOffFence), Registry::has_stealable_job (the injector's is_empty)"
        } else {
            "WorkerThread::push (deque push, then Sleep::new_internal_jobs: no fence), new_jobs' AtomicCounters::load (PostRead), Sleep::leave_inactive, Sleep::hand_off (HandOffFence), Registry::has_stealable_job (a Stealer's is_empty, modelled as steal's loads). Lemma 5 (c) accepts this overlook"
        },
    }
}

/// The post of an internal job against a sleepy announcement and the last
/// search (the accepted overlook's shape): the pusher pushes onto its own deque and posts
/// (`WorkerThread::push` -> `Sleep::new_internal_jobs`, no fence unless
/// `pusher_fence`); the other worker announces (`announce_sleepy`), searches
/// the pusher's deque once more (a steal) and joins the sleeping count. The
/// JEC starts odd (the scenario's earlier inject made it 1), so a post that
/// reads it before the announcement writes nothing. Bad: the announcement
/// bumps 1 -> 2, the search misses the job and the sleeper joins the
/// sleeping count with JEC 2: it sleeps beside the job, and the post, which
/// read the JEC before the announcement, saw no sleeper.
fn post_vs_announcement(
    name: &'static str,
    queue: Queue,
    pusher_fence: bool,
    steal: Option<Vec<Instr>>,
    expect: Verdict,
) -> Shape {
    let pusher = cat(vec![
        push(queue, false),
        if pusher_fence {
            vec![fence(SeqCst)]
        } else {
            vec![]
        },
        bump_jec_if(0, "post", "post_cas"),
    ]);
    let sleeper = cat(vec![
        bump_jec_if(1, "ann", "ann_cas"),
        steal.unwrap_or_else(|| look(queue, false, "search")),
        inc_sleepers(2, "seen", "inc"),
    ]);
    // The post reads an odd JEC and writes nothing (an even read leads to a
    // bump, or to a failed CAS that the shipped loop would retry, and a
    // retry reads the sleeper's count and wakes it).
    let bad = Pred::And(vec![
        Pred::reg_masked("post", JEC_ONE, JEC_ONE),
        Pred::reg_eq("ann_cas", JEC_ONE),
        Pred::reg_eq("search", 0),
        Pred::reg_eq("inc", 2 * JEC_ONE),
    ]);
    Shape {
        name,
        program: Program::new(name, vec![pusher, sleeper]).with_init(C, JEC_ONE),
        bad,
        expect,
        relied_on: false,
        source: "WorkerThread::push (deque push, then Sleep::new_internal_jobs: no fence), new_jobs' and announce_sleepy's bump_jobs_counter_if, Sleep::sleep's try_add_sleeping_thread; the deque: model_queue::Worker::push/Stealer or crossbeam-deque 0.8.8 Worker::push/Stealer::steal. Lemma 5 (c) accepts this overlook",
    }
}

/// crossbeam-epoch 0.9's `pin` on x86: a `SeqCst` CAS of the thread's own
/// epoch word where other targets run `fence(SeqCst)`.
fn steal_x86() -> Vec<Instr> {
    vec![
        load("front", Acquire, "front_seen"),
        cas(
            "epoch",
            Expr::Const(0),
            Expr::Const(1),
            SeqCst,
            SeqCst,
            "pin",
        ),
        load("back", Acquire, "search"),
    ]
}

/// Lemma 5 (b) and the guarantee of (iii): a post that bumps the JEC heads
/// a release sequence that every later RMW of `C` continues (here another
/// worker's announcement, which makes the JEC even again, and a third
/// worker's `add_inactive_thread`), so a sleepy worker whose announcement
/// reads a value at or after the bump synchronises with the push, and its
/// search sees the job: with its CAS when it finds the JEC odd, with its
/// load alone when another announcement already made it even. Bad: the
/// announcement reads the bump's odd JEC and its CAS succeeds, or it reads
/// the even JEC that the other announcement wrote after the bump; and the
/// search misses the job. `announce_load` is the order of the
/// announcement's load, `rmw_mo` that of every RMW of `C` (shipped: both
/// `SeqCst`).
fn lemma5(
    name: &'static str,
    queue: Queue,
    announce_load: Mo,
    rmw_mo: Mo,
    expect: Verdict,
) -> Shape {
    let pusher = cat(vec![
        push(queue, false),
        bump_jec_if_with(0, "post", "post_cas", SeqCst, rmw_mo),
    ]);
    let other = bump_jec_if_with(1, "other", "other_cas", SeqCst, rmw_mo);
    let idle = vec![rmw(C, RmwOp::FetchAdd(ONE_INACTIVE), rmw_mo, "idle")];
    let sleeper = cat(vec![
        bump_jec_if_with(1, "ann", "ann_cas", announce_load, rmw_mo),
        look(queue, false, "search"),
    ]);
    // The CAS succeeded: it read exactly what the load read (with or
    // without `idle`'s increment). The even JEC 2 is written only by a CAS
    // that read the bump's 1.
    let cas_ok = |v| Pred::And(vec![Pred::reg_eq("ann", v), Pred::reg_eq("ann_cas", v)]);
    let bad = Pred::And(vec![
        Pred::Or(vec![
            cas_ok(JEC_ONE),
            cas_ok(JEC_ONE + ONE_INACTIVE),
            Pred::reg_masked("ann", !0xffff_ffff, 2 * JEC_ONE),
        ]),
        Pred::reg_eq("search", 0),
    ]);
    Shape {
        name,
        program: Program::new(name, vec![pusher, other, idle, sleeper]),
        bad,
        expect,
        relied_on: announce_load == SeqCst && rmw_mo == SeqCst,
        source: "new_jobs' bump (SeqCst CAS), announce_sleepy's SeqCst load and SeqCst CAS (two workers), AtomicCounters::add_inactive_thread (SeqCst fetch_add), then the last search's steal",
    }
}

// CoreLatch's states (core/src/latch.rs).
const UNSET: u64 = 0;
const SLEEPY: u64 = 1;
const SLEEPING: u64 = 2;
const SET: u64 = 3;

/// The latch/sleep handshake (Lemma 4): the owner gets sleepy and falls
/// asleep (`CoreLatch::get_sleepy`, `fall_asleep`: `SeqCst` CASes, failure
/// `Relaxed`); the setter swaps in SET (`CoreLatch::set`, `AcqRel`) and
/// wakes the owner only if it swapped out SLEEPING. Bad: the owner fell
/// asleep and the setter does not wake it. `relaxed` weakens every order
/// to `Relaxed` (then only the RMWs' atomicity is left).
fn latch_wakeup(name: &'static str, relaxed: bool) -> Shape {
    let (cas_mo, swap_mo) = if relaxed {
        (Relaxed, Relaxed)
    } else {
        (SeqCst, AcqRel)
    };
    let owner = vec![
        cas(
            "state",
            Expr::Const(UNSET),
            Expr::Const(SLEEPY),
            cas_mo,
            Relaxed,
            "sleepy",
        ),
        Instr::If(
            Cond::eq("sleepy", UNSET),
            vec![cas(
                "state",
                Expr::Const(SLEEPY),
                Expr::Const(SLEEPING),
                cas_mo,
                Relaxed,
                "asleep",
            )],
        ),
    ];
    let setter = vec![rmw("state", RmwOp::Swap(SET), swap_mo, "before")];
    Shape {
        name,
        program: Program::new(name, vec![owner, setter]),
        bad: Pred::And(vec![
            Pred::reg_eq("asleep", SLEEPY),
            Pred::reg_ne("before", SLEEPING),
        ]),
        expect: Verdict::Forbidden,
        relied_on: !relaxed,
        source: "CoreLatch::get_sleepy, fall_asleep (SeqCst CAS), CoreLatch::set (swap AcqRel)",
    }
}

/// The latch's probe (Lemma 4, and every join): the setter writes the job's
/// result, then sets (`CoreLatch::set`, `AcqRel` swap); the owner probes
/// (`CoreLatch::probe`, `probe_mo`; shipped `Acquire`) and reads the
/// result. Bad: the probe sees SET and the result is not there.
fn latch_probe(name: &'static str, probe_mo: Mo, expect: Verdict) -> Shape {
    let setter = vec![
        store("result", 1, Relaxed),
        rmw("state", RmwOp::Swap(SET), AcqRel, "before"),
    ];
    let owner = vec![
        load("state", probe_mo, "probe"),
        Instr::If(Cond::eq("probe", SET), vec![load("result", Relaxed, "res")]),
    ];
    Shape {
        name,
        program: Program::new(name, vec![setter, owner]),
        bad: Pred::And(vec![Pred::reg_eq("probe", SET), Pred::reg_eq("res", 0)]),
        expect,
        relied_on: probe_mo == Acquire,
        source: "CoreLatch::set (swap AcqRel), CoreLatch::probe (load Acquire)",
    }
}

const WAITER_REGISTERED: u64 = 1 << 63;

/// `WorkerCountdown` (core/src/lifecycle.rs) with two workers: each writes
/// its data and counts down (`count_down`, `fetch_sub` with `count_mo`,
/// shipped `AcqRel`), and the one that sees the count reach zero with the
/// waiter registered reads the waiter's slot; the waiter writes its slot and
/// registers (`register`, `fetch_or` `AcqRel`), and if the count was already
/// zero reads both workers' data without waiting. Bad: nobody learns that
/// both happened (a lost wake-up), or the last worker misses the slot, or
/// the waiter that does not wait misses a worker's data.
fn countdown(name: &'static str, count_mo: Mo, expect: Verdict) -> Shape {
    let worker = |data, b, s| {
        vec![
            store(data, 1, Relaxed),
            rmw("count", RmwOp::FetchSub(1), count_mo, b),
            Instr::If(
                Cond::eq(b, WAITER_REGISTERED | 1),
                vec![load("slot", Relaxed, s)],
            ),
        ]
    };
    let waiter = vec![
        store("slot", 1, Relaxed),
        rmw("count", RmwOp::FetchOr(WAITER_REGISTERED), AcqRel, "bw"),
        Instr::If(
            Cond::eq("bw", 0),
            vec![load("d1", Relaxed, "w1"), load("d2", Relaxed, "w2")],
        ),
    ];
    let last = |b| Pred::reg_eq(b, WAITER_REGISTERED | 1);
    let bad = Pred::Or(vec![
        Pred::Not(Box::new(Pred::Or(vec![
            last("b1"),
            last("b2"),
            Pred::reg_eq("bw", 0),
        ]))),
        Pred::And(vec![last("b1"), Pred::reg_eq("s1", 0)]),
        Pred::And(vec![last("b2"), Pred::reg_eq("s2", 0)]),
        Pred::And(vec![
            Pred::reg_eq("bw", 0),
            Pred::Or(vec![Pred::reg_eq("w1", 0), Pred::reg_eq("w2", 0)]),
        ]),
    ]);
    Shape {
        name,
        program: Program::new(
            name,
            vec![worker("d1", "b1", "s1"), worker("d2", "b2", "s2"), waiter],
        )
        .with_init("count", 2),
        bad,
        expect,
        relied_on: count_mo == AcqRel,
        source: "WorkerCountdown::count_down (fetch_sub AcqRel), WorkerCountdown::register (fetch_or AcqRel)",
    }
}

/// Every shape, in the order `ci/litmus` prints them.
pub fn all() -> Vec<Shape> {
    use Verdict::{Allowed, Forbidden};
    vec![
        lemma1("lemma1_model_queue", Queue::Model, true, true, Forbidden),
        lemma1(
            "lemma1_model_queue_no_post_fence",
            Queue::Model,
            false,
            true,
            Allowed,
        ),
        lemma1(
            "lemma1_model_queue_no_sleep_fence",
            Queue::Model,
            true,
            false,
            Allowed,
        ),
        lemma1("lemma1_crossbeam", Queue::Crossbeam, true, true, Forbidden),
        lemma1(
            "lemma1_crossbeam_no_post_fence",
            Queue::Crossbeam,
            false,
            true,
            Forbidden,
        ),
        lemma1(
            "lemma1_crossbeam_no_sleep_fence",
            Queue::Crossbeam,
            true,
            false,
            Forbidden,
        ),
        lemma1(
            "lemma1_crossbeam_no_fences",
            Queue::Crossbeam,
            false,
            false,
            Forbidden,
        ),
        hand_off(
            "hand_off_model_queue",
            Queue::Model,
            true,
            (true, true),
            Forbidden,
        ),
        hand_off(
            "hand_off_model_queue_no_hand_off_fence",
            Queue::Model,
            true,
            (true, false),
            Allowed,
        ),
        hand_off(
            "hand_off_model_queue_no_post_fence",
            Queue::Model,
            true,
            (false, true),
            Allowed,
        ),
        hand_off(
            "hand_off_crossbeam",
            Queue::Crossbeam,
            true,
            (true, true),
            Forbidden,
        ),
        hand_off(
            "hand_off_model_deque_internal_post",
            Queue::Model,
            false,
            (false, true),
            Allowed,
        ),
        hand_off(
            "hand_off_crossbeam_deque_internal_post",
            Queue::Crossbeam,
            false,
            (false, true),
            Allowed,
        ),
        post_vs_announcement("post_model_queue", Queue::Model, false, None, Allowed),
        post_vs_announcement(
            "post_model_queue_pusher_fence",
            Queue::Model,
            true,
            None,
            Allowed,
        ),
        post_vs_announcement("post_crossbeam", Queue::Crossbeam, false, None, Allowed),
        post_vs_announcement(
            "post_crossbeam_pusher_fence",
            Queue::Crossbeam,
            true,
            None,
            Forbidden,
        ),
        post_vs_announcement(
            "post_crossbeam_x86_pin_pusher_fence",
            Queue::Crossbeam,
            true,
            Some(steal_x86()),
            Allowed,
        ),
        lemma5(
            "lemma5_model_queue",
            Queue::Model,
            SeqCst,
            SeqCst,
            Forbidden,
        ),
        lemma5(
            "lemma5_crossbeam",
            Queue::Crossbeam,
            SeqCst,
            SeqCst,
            Forbidden,
        ),
        lemma5(
            "lemma5_model_queue_release_acquire",
            Queue::Model,
            Acquire,
            AcqRel,
            Forbidden,
        ),
        lemma5(
            "lemma5_model_queue_relaxed_announcement",
            Queue::Model,
            Relaxed,
            SeqCst,
            Allowed,
        ),
        latch_wakeup("latch_set_wakes_sleeper", false),
        latch_wakeup("latch_set_wakes_sleeper_all_relaxed", true),
        latch_probe("latch_probe", Acquire, Forbidden),
        latch_probe("latch_probe_relaxed", Relaxed, Allowed),
        countdown("countdown", AcqRel, Forbidden),
        countdown("countdown_release_only", Release, Allowed),
    ]
}
