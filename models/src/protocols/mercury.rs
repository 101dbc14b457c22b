//! Mercury's engine sleep protocol, as seed 002 proposes it.
//!
//! The seed is a design note from Mercury's parallel runtime. It gives each
//! engine (a worker here) a state word with five values (working, idle,
//! stealing, sleeping, notified), a sleep semaphore, and a wake lock; and
//! the pool a count of idle engines. It says which transitions an engine
//! makes with a plain store, which with a compare-and-swap, and which a
//! notifier makes under the wake lock. It names notifications that may be
//! ignored, and one (handing a context to an engine) that may not.
//!
//! This is a model of that text, not of Mercury's runtime source. The
//! mapping onto the harness:
//!
//! - An engine is a worker. "A context to resume or a local spark" is the
//!   worker's search in the *idle* state (the first round after
//!   [`start_looking`](SleepModel::start_looking), or after a
//!   notification); "work stealing" is the round after the engine moved to
//!   *stealing*. The harness's search round always looks at every queue;
//!   the model decides only what happens between rounds.
//! - The run queue of contexts is the injector; a context that any engine
//!   may run is an injected job. A latch set is a context that only its
//!   owner may run (Rayon's latch owner is the one thread that continues
//!   after it), placed on the run queue. A spark is a job pushed onto the
//!   pusher's own deque.
//! - The seed's run queue is protected by a lock ("before the engine
//!   acquires the runqueue lock"). The harness's injector is lock-free, so
//!   the model adds that lock's ordering explicitly: a poster of a context
//!   (injected job or latch) passes through `runqueue_lock` after placing
//!   it and before looking at engine states, and an engine passes through
//!   it after storing *idle* and before its idle search. Spark deques have
//!   no such lock in the seed, and none here.
//! - The per-engine sleep semaphore is a counting semaphore built from a
//!   mutex and a condition variable (`Semaphore` below). The idle engine count
//!   is an atomic.
//!
//! The transitions, as the seed lists them:
//!
//! | transition | by | how (model) |
//! |------------|----|-------------|
//! | working -> idle, idle -> working, stealing -> working, notified -> idle | the engine | plain store with `Release` (written `swap`, see below) |
//! | idle -> stealing, stealing -> sleeping | the engine | `compare_exchange(AcqRel, Acquire)`; failure means notified |
//! | idle -> notified, stealing -> notified | a notifier | `compare_exchange(AcqRel, Acquire)` |
//! | sleeping -> notified | a notifier | under the engine's wake lock: check sleeping, decrement the idle count, store notified, post the semaphore |
//! | sleeping -> working (polling only) | the engine, after a timed wait timed out | under its wake lock: check still sleeping, store working, decrement the idle count |
//!
//! The notifications (each one moves the target to *notified*; whatever the
//! kind, a notified engine goes back to *idle* and searches again, because
//! the harness cannot hand a job to a worker, only tell it to look):
//!
//! - **context** (an injected job): sent only to a *sleeping* engine, the
//!   only state in which the seed says every notification is acted upon,
//!   this one included (it is the one that "cannot be dropped"). Posted
//!   only when the idle engine count is non-zero; one pass over the
//!   engines; the first sleeping engine that is woken gets it.
//! - **spark advice** (a job pushed onto a deque): sent to a *stealing* or
//!   *sleeping* engine (the seed: "a good idea to notify an engine of a
//!   spark if it is in the stealing or sleeping states"), other than the
//!   pusher; only when the idle count is non-zero; one pass. It may be
//!   dropped: an engine that was told while stealing and then finds other
//!   work overwrites *notified* with *working* by a plain store.
//! - **context advice** (a set latch: a context only its owner may run):
//!   sent to the owner if it is *idle*, *stealing* or *sleeping*, the
//!   three states the seed gives for it. It may be dropped by an idle engine that then finds
//!   work ("only notify an idle engine with notifications that may be
//!   ignored"): that engine comes back to idle and looks at the run queue
//!   again, which is why dropping it is safe.
//!
//! Termination: the harness sets each worker's terminate latch. Mercury
//! tells engines to shut down with a notification; here that is the context
//! advice of the terminate latch, delivered to its owner by the same rule
//! as any other latch, after which the owner's next round sees the latch
//! set and leaves.
//!
//! Literal readings (each marked `LITERAL:` below):
//!
//! - Context advice is sent "currently only for cases where the context may
//!   only be executed by a single engine". Injected jobs can run on any
//!   worker, so posting one sends no advice: only the context notification
//!   to a sleeping engine. (Finding M1.)
//! - What a notifier does when its compare-and-swap fails is not stated.
//!   The names `try_wake_engine` and `try_notify_engine` say they may fail;
//!   for the context and spark notifications the model tries each engine
//!   once and moves on. For context advice, which the seed says "is given"
//!   to an engine in its three states, the poster re-reads the owner's state and
//!   tries again until the owner is *working* or *notified* (either way it
//!   will look at the run queue again before it sleeps).
//! - The seed orders nothing else. The idle count is read and updated with
//!   `Relaxed`; engine states are written with `Release` ("write ordering")
//!   and read with `Acquire`; compare-and-swaps are `AcqRel`. There is no
//!   fence anywhere, and no final look at the queues after the engine
//!   advertises *sleeping* (it "MUST call sem_wait" next).
//! - The engine decrements the idle count itself when it leaves *stealing*
//!   (finding work, or finding itself notified); the notifier does so only
//!   for *sleeping -> notified*, as the seed states.
//! - "The wake_lock" and "the lock in its sleep structure" are read as one
//!   lock per engine, in that engine's sleep structure.
//! - Polling: on a timeout the engine takes its wake lock: if it is still
//!   *sleeping* it moves itself to *working* ("from the sleeping to working
//!   states itself") and decrements the idle count; if it was notified
//!   meanwhile, the notifier has posted, so it takes the post. Having no
//!   work, it then moves working -> idle at once (a plain store, as after
//!   any work) and searches from the idle state. (A search in the working
//!   state first would look at the same queues; the model leaves that round
//!   out to keep loom's search finite in time.) A timed wait that timed
//!   out counts as [`Round::Slept`]: the engine blocked for the timeout.
//!
//! The timer of the polling variant is not a clock (loom's and shuttle's
//! `wait_timeout` never time out, and a wait that polls with yields makes
//! loom explore every interleaving of the spinning engines, which does not
//! finish). A timed wait times out once something has happened in the pool
//! since its last timeout: every push lets each engine's timer fire once
//! (the pusher's own excepted), and a latch set lets its owner's timer fire
//! (no other engine can run the owner's context). Between two
//! events the queues and latches do not change, so a timeout with no event
//! since the last one would find nothing; the model leaves those out.
//! What the model keeps is what polling guarantees: after any event, every
//! sleeping engine looks at the queues again within one timeout, whether or
//! not it was notified. The wake statistics of `mercury-polling` therefore
//! count only the timeouts that follow an event; a real polling engine also
//! wakes once per period while the pool is idle.
//!
//! Plain stores to the state word are written as `swap(_, Release)` whose
//! result is ignored. The word is also updated by compare-and-swaps, and
//! loom mis-models a plain store racing a read-modify-write on one word
//! (`shared/checker-facts.md`, loom issue #254): with `store`, loom reported
//! an engine left *notified* after it had exited, an outcome C11 forbids
//! (the exiting engine's last write is *working*, and every notifier
//! either compare-and-swaps from idle or stealing, or stores under the wake
//! lock after reading sleeping). A swap whose result is ignored writes the
//! same value with the same ordering; it can only add synchronisation
//! (it continues a release sequence), never remove it. Shuttle is
//! sequentially consistent and sees no difference.
//!
//! The seed has no sleeping or inactive counts, so
//! [`SleepModel::snapshot`] is `None`. [`SleepModel::check_at_rest`] checks
//! the model's own state once every worker has exited: the idle engine
//! count is 0, every engine is *working* (the state `work_found` leaves),
//! and no semaphore holds an unconsumed post.

use super::{QueueView, Round, SleepModel};
use drowse::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use drowse::sync::{thread, Condvar, Mutex};

/// Engine states (the seed's `es_state` values).
const WORKING: usize = 0;
const IDLE: usize = 1;
const STEALING: usize = 2;
const SLEEPING: usize = 3;
const NOTIFIED: usize = 4;

fn state_name(state: usize) -> &'static str {
    match state {
        WORKING => "working",
        IDLE => "idle",
        STEALING => "stealing",
        SLEEPING => "sleeping",
        NOTIFIED => "notified",
        _ => "invalid",
    }
}

/// A counting semaphore (the seed's per-engine sleep semaphore), with the
/// model's stand-in for a timer (see [`Semaphore::timed_wait`]).
#[derive(Debug, Default)]
struct Semaphore {
    state: Mutex<SemaphoreState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct SemaphoreState {
    /// Posts not yet taken.
    posts: usize,
    /// Time has passed since the last timed wait timed out (polling only).
    timer_fired: bool,
}

impl Semaphore {
    /// `sem_post`.
    fn post(&self) {
        self.state.lock().unwrap().posts += 1;
        self.changed.notify_one();
    }

    /// `sem_wait`.
    fn wait(&self) {
        let mut state = self.state.lock().unwrap();
        while state.posts == 0 {
            state = self.changed.wait(state).unwrap();
        }
        state.posts -= 1;
    }

    /// `sem_timedwait`: true if it took a post, false if it timed out.
    /// It times out only once [`time_passes`](Self::time_passes) was called
    /// since the last timeout (see the module documentation).
    fn timed_wait(&self) -> bool {
        let mut state = self.state.lock().unwrap();
        loop {
            if state.posts > 0 {
                state.posts -= 1;
                return true;
            }
            if state.timer_fired {
                state.timer_fired = false;
                return false;
            }
            state = self.changed.wait(state).unwrap();
        }
    }

    /// Lets a timed wait (now or the next one) time out.
    fn time_passes(&self) {
        self.state.lock().unwrap().timer_fired = true;
        self.changed.notify_one();
    }

    fn posts(&self) -> usize {
        self.state.lock().unwrap().posts
    }
}

/// One engine's sleep structure.
#[derive(Debug)]
struct Engine {
    state: AtomicUsize,
    wake_lock: Mutex<()>,
    sleep: Semaphore,
}

/// What a notifier tells an engine; each kind may be sent to some states
/// only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notification {
    /// A context for the engine (an injected job); cannot be dropped, so
    /// only a sleeping engine gets it.
    Context,
    /// A new spark (a job on a deque); for stealing or sleeping engines.
    SparkAdvice,
    /// A context on the run queue that only this engine may run (a latch);
    /// for idle, stealing or sleeping engines.
    ContextAdvice,
}

impl Notification {
    fn may_send_to(self, state: usize) -> bool {
        match self {
            Notification::Context => state == SLEEPING,
            Notification::SparkAdvice => state == STEALING || state == SLEEPING,
            Notification::ContextAdvice => state == IDLE || state == STEALING || state == SLEEPING,
        }
    }
}

/// The Mercury engine protocol; `POLLING` selects the polling variant
/// (`sem_timedwait` instead of `sem_wait`).
#[derive(Debug)]
pub struct MercuryModel<const POLLING: bool> {
    engines: Vec<Engine>,
    idle_engines: AtomicUsize,
    /// The run queue's lock (see the module documentation).
    runqueue_lock: Mutex<()>,
}

/// The protocol as seed 002 proposes it (engines block in `sem_wait`).
pub type Mercury = MercuryModel<false>;

/// The polling variant the seed describes (`MR_WORKSTEAL_POLLING`:
/// `sem_timedwait`, and an engine may leave *sleeping* by itself).
pub type MercuryPolling = MercuryModel<true>;

/// Where the engine is in its search, as the engine itself knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// State idle (or notified by a notifier since): the next fruitless
    /// round moves it to stealing.
    Idle,
    /// State stealing (or notified since); the engine has counted itself
    /// in the idle engine count.
    Stealing,
}

/// An engine's own view of its search.
#[derive(Debug)]
pub struct MercuryIdle {
    engine: usize,
    phase: Phase,
}

/// A latch: a flag. Setting it places a context that only the owner may
/// run, and advises the owner.
#[derive(Debug)]
pub struct MercuryLatch {
    set: AtomicBool,
}

impl<const POLLING: bool> MercuryModel<POLLING> {
    /// The engine passes through the run queue's lock, as it does when it
    /// looks for a context in the idle state.
    fn through_runqueue_lock(&self) {
        drop(self.runqueue_lock.lock().unwrap());
    }

    /// An engine's own plain store to idle (working -> idle, notified ->
    /// idle), then the idle state's look at the run queue.
    fn become_idle(&self, idle: &mut MercuryIdle) {
        // LITERAL: "write ordering" before the run queue lock: Release.
        // A plain store (a swap only for loom; see the module docs).
        let _ = self.engines[idle.engine]
            .state
            .swap(IDLE, Ordering::Release);
        self.through_runqueue_lock();
        idle.phase = Phase::Idle;
    }

    /// `try_wake_engine`: sleeping -> notified under the wake lock.
    fn try_wake_engine(&self, index: usize) -> bool {
        let engine = &self.engines[index];
        let _guard = engine.wake_lock.lock().unwrap();
        if engine.state.load(Ordering::Acquire) != SLEEPING {
            return false;
        }
        // LITERAL: no ordering given for the count.
        self.idle_engines.fetch_sub(1, Ordering::Relaxed);
        let _ = engine.state.swap(NOTIFIED, Ordering::Release);
        engine.sleep.post();
        true
    }

    /// `try_notify_engine`: idle or stealing -> notified by CAS.
    fn try_notify_engine(&self, index: usize, expected: usize) -> bool {
        self.engines[index]
            .state
            .compare_exchange(expected, NOTIFIED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// One attempt to send `kind` to engine `index`.
    fn try_send(&self, index: usize, kind: Notification) -> bool {
        let state = self.engines[index].state.load(Ordering::Acquire);
        if !kind.may_send_to(state) {
            false
        } else if state == SLEEPING {
            self.try_wake_engine(index)
        } else {
            self.try_notify_engine(index, state)
        }
    }

    /// Sends `kind` to the first engine (in order from `first`, skipping
    /// `skip`) that takes it, if the idle count says some engine may.
    /// LITERAL: one pass, each engine tried once.
    fn send_to_any(&self, kind: Notification, first: usize, skip: Option<usize>) {
        // LITERAL: a plain read of the count.
        if self.idle_engines.load(Ordering::Relaxed) == 0 {
            return;
        }
        let count = self.engines.len();
        for offset in 0..count {
            let index = (first + offset) % count;
            if Some(index) != skip && self.try_send(index, kind) {
                return;
            }
        }
    }

    /// Context advice to `owner`, repeated while the owner is in a state
    /// that must get it (idle, stealing, sleeping). LITERAL: the seed says
    /// the advice "is given"; a failed attempt means the state changed, so
    /// the poster looks again.
    fn advise_owner(&self, owner: usize) {
        loop {
            let state = self.engines[owner].state.load(Ordering::Acquire);
            if !Notification::ContextAdvice.may_send_to(state) {
                // Working or already notified: it will look at the run
                // queue before it can sleep again.
                return;
            }
            if self.try_send(owner, Notification::ContextAdvice) {
                return;
            }
            thread::yield_now();
        }
    }

    /// Polling only: an event happened (a push or a latch set), so every
    /// engine's timer may fire; `skip` is the engine that caused it.
    fn time_passes(&self, skip: Option<usize>) {
        if POLLING {
            for (index, engine) in self.engines.iter().enumerate() {
                if Some(index) != skip {
                    engine.sleep.time_passes();
                }
            }
        }
    }

    /// Polling only: a latch of `owner` was set; only the owner's timer may
    /// fire for it (no other engine can run the owner's context).
    fn time_passes_for(&self, owner: usize) {
        if POLLING {
            self.engines[owner].sleep.time_passes();
        }
    }

    /// After a wake-up: the engine is notified (the waker stored it before
    /// posting); notified -> idle, and search again.
    fn woken(&self, idle: &mut MercuryIdle) -> Round {
        self.become_idle(idle);
        Round::Slept
    }

    /// stealing -> sleeping succeeded: block on the semaphore (or, polling,
    /// wait with a timeout).
    fn sleep(&self, idle: &mut MercuryIdle) -> Round {
        let engine = &self.engines[idle.engine];
        if !POLLING {
            engine.sleep.wait();
            return self.woken(idle);
        }
        if engine.sleep.timed_wait() {
            return self.woken(idle);
        }
        // Timed out: leave sleeping by ourselves, under our wake lock.
        let guard = engine.wake_lock.lock().unwrap();
        if engine.state.load(Ordering::Acquire) == SLEEPING {
            // LITERAL: "from the sleeping to working states itself".
            let _ = engine.state.swap(WORKING, Ordering::Release);
            self.idle_engines.fetch_sub(1, Ordering::Relaxed);
            drop(guard);
            // It has no work: working -> idle, and search from there.
            self.become_idle(idle);
            Round::Slept
        } else {
            // Woken meanwhile: the waker posted under this lock; take it.
            drop(guard);
            engine.sleep.wait();
            self.woken(idle)
        }
    }
}

impl<const POLLING: bool> SleepModel for MercuryModel<POLLING> {
    const NAME: &'static str = if POLLING {
        "mercury-polling"
    } else {
        "mercury"
    };
    type Idle = MercuryIdle;
    type Latch = MercuryLatch;

    fn new(workers: usize, _jec_bits: Option<u32>) -> Self {
        MercuryModel {
            engines: (0..workers)
                .map(|_| Engine {
                    state: AtomicUsize::new(WORKING),
                    wake_lock: Mutex::new(()),
                    sleep: Semaphore::default(),
                })
                .collect(),
            idle_engines: AtomicUsize::new(0),
            runqueue_lock: Mutex::new(()),
        }
    }

    fn new_latch(&self) -> MercuryLatch {
        MercuryLatch {
            set: AtomicBool::new(false),
        }
    }

    fn probe(&self, latch: &MercuryLatch) -> bool {
        latch.set.load(Ordering::Acquire)
    }

    fn set_latch(&self, latch: &MercuryLatch, owner: usize) {
        // Place the owner's context on the run queue (under its lock), then
        // advise the owner.
        {
            let _guard = self.runqueue_lock.lock().unwrap();
            latch.set.store(true, Ordering::Release);
        }
        self.advise_owner(owner);
        self.time_passes_for(owner);
    }

    fn start_looking(&self, worker: usize) -> MercuryIdle {
        let mut idle = MercuryIdle {
            engine: worker,
            phase: Phase::Idle,
        };
        // working -> idle.
        self.become_idle(&mut idle);
        idle
    }

    fn work_found(&self, idle: MercuryIdle, _more_work_queued: bool, _queues: &dyn QueueView) {
        let engine = &self.engines[idle.engine];
        if idle.phase == Phase::Stealing {
            self.idle_engines.fetch_sub(1, Ordering::Relaxed);
        }
        // idle -> working, stealing -> working (plain stores: a
        // notification that arrived meanwhile is dropped).
        let _ = engine.state.swap(WORKING, Ordering::Release);
    }

    fn no_work_found(
        &self,
        idle: &mut MercuryIdle,
        _latch: &MercuryLatch,
        _queues: &dyn QueueView,
    ) -> Round {
        let engine = &self.engines[idle.engine];
        match idle.phase {
            Phase::Idle => {
                // Nothing local: idle -> stealing by CAS (fails if notified).
                if engine
                    .state
                    .compare_exchange(IDLE, STEALING, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    self.idle_engines.fetch_add(1, Ordering::Relaxed);
                    idle.phase = Phase::Stealing;
                } else {
                    // Notified while idle: notified -> idle, look again.
                    self.become_idle(idle);
                }
                Round::Searched
            }
            Phase::Stealing => {
                // Nothing to steal: stealing -> sleeping by CAS.
                if engine
                    .state
                    .compare_exchange(STEALING, SLEEPING, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    self.sleep(idle)
                } else {
                    // Notified while stealing: we counted ourselves idle, so
                    // we uncount ourselves; notified -> idle.
                    self.idle_engines.fetch_sub(1, Ordering::Relaxed);
                    self.become_idle(idle);
                    Round::Searched
                }
            }
        }
    }

    fn new_injected_jobs(&self, _jobs: u32, _queue_was_empty: bool) {
        // The harness has placed the context on the run queue; pass through
        // its lock as the placing would.
        self.through_runqueue_lock();
        // Give it to a sleeping engine if the count says there may be one.
        self.send_to_any(Notification::Context, 0, None);
        // LITERAL: no context advice, since any engine may run this context
        // ("currently only for cases where the context may only be executed
        // by a single engine").
        self.time_passes(None);
    }

    fn new_internal_jobs(&self, pusher: usize, _jobs: u32, _queue_was_empty: bool) {
        self.send_to_any(Notification::SparkAdvice, pusher + 1, Some(pusher));
        self.time_passes(Some(pusher));
    }

    fn check_at_rest(&self) -> Result<(), String> {
        let mut problems = Vec::new();
        let idle = self.idle_engines.load(Ordering::SeqCst);
        if idle != 0 {
            problems.push(format!("idle engine count is {idle}"));
        }
        for (index, engine) in self.engines.iter().enumerate() {
            let state = engine.state.load(Ordering::SeqCst);
            if state != WORKING {
                problems.push(format!("engine {index} is {}", state_name(state)));
            }
            let posts = engine.sleep.posts();
            if posts != 0 {
                problems.push(format!("engine {index}'s semaphore holds {posts} post(s)"));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join(", "))
        }
    }
}
