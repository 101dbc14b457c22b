//! Records of the sleep protocol's abstract steps, for checking the
//! checkers' runs against the every-N model (`docs/every-n.md`, "Trace
//! validation").
//!
//! The protocol calls `counters` with the counters word each
//! read-modify-write stored (and the word the JEC bump read when it wrote
//! nothing), and `step` where a step of the model takes effect. In the std
//! world both are empty and inlined away: their arguments are values the
//! code already holds, so nothing is computed or stored. In the checker
//! worlds each call hands a [`Record`] to the observer the running test
//! installed (`install`, checker worlds only). The observer lives in a std
//! thread-local, which both checkers share among all threads of an
//! execution (they run them on the test's own OS thread), and a call is no
//! checker operation: no thread
//! switch falls between a protocol step and its record, so the records come
//! in the order the steps took effect.
//!
//! Each step record names the checker thread that made it (`thread`, a
//! key that is equal for the records of one thread of an execution): a
//! wake loop's records (`WakeLoop`, then one `Woken` or `NotBlocked` per
//! worker it looks at) are told apart from another thread's by it, and
//! the validator knows a loop has ended when its thread records anything
//! else. Reading the checker's current thread is no scheduling point
//! either, and it is read only while an observer is installed.

/// A step of the every-N model, named after the code that takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `Sleep::start_looking`'s increment of the inactive count.
    StartLooking,
    /// `Sleep::work_found`'s (or `Sleep::stop_looking`'s) decrement of the
    /// inactive count.
    WorkFound,
    /// `Sleep::announce_sleepy`'s JEC bump (or its read of an even JEC).
    Announce,
    /// `Sleep::new_jobs`'s JEC bump (or its read of an odd JEC).
    Post,
    /// `Sleep::sleep`: `CoreLatch::get_sleepy` succeeded, so the worker's
    /// last round (the search round after its announcement) found nothing.
    GetSleepy,
    /// `Sleep::sleep`: the compare-and-swap that joins the sleeping count.
    JoinSleeping,
    /// `Sleep::sleep`: the JEC moved since the announcement; give up.
    Abandon,
    /// `Sleep::sleep`: the final look found an injected job; the sleeper
    /// took itself off the sleeping count.
    FinalLookFound,
    /// `Sleep::sleep`: the final look found nothing; `is_blocked` is set.
    Block,
    /// `Sleep::wake_specific_thread` cleared the worker's `is_blocked` and
    /// took it off the sleeping count (the worker is the one woken).
    Woken,
    /// `Sleep::wake_specific_thread` found the worker not blocked, under
    /// its lock (the worker is the one looked at).
    NotBlocked,
    /// `Sleep::work_found` returns: the finder's wake-ups before its job
    /// (helpers, the hand-off), decided from its reads of the queues, are
    /// made; it owes none if no `WakeLoop` of its came since its
    /// `WorkFound`.
    FinderDone,
    /// `Sleep::wake_successor`: worker `worker` has run the job it found
    /// and, by the counters it just read, still owes a successor; its
    /// `WakeLoop { owed: 1 }` follows.
    Successor,
    /// `Sleep::hand_off`: worker `worker`, the last searcher to leave (with
    /// or without a job), read a job still queued after the hand-off fence
    /// and wakes one sleeper; its `WakeLoop { owed: 1 }` follows.
    HandOff,
    /// `Sleep::wake_any_threads` starts: the wake-ups that the post
    /// (`Sleep::new_jobs`), the finder (`Sleep::work_found`) or the
    /// successor's check (`Sleep::wake_successor`) that calls it decided to
    /// owe, from the counters its read-modify-write returned
    /// (no scheduling point between that decision and this record). The
    /// loop's `Woken` and `NotBlocked` records follow, by the same thread.
    WakeLoop { owed: usize },
    /// `Sleep::notify_worker_latch_is_set`: the next `wake_specific_thread`
    /// of this thread is a latch's wake-up of its owner (`worker`), not a
    /// wake loop's.
    LatchWake,
    /// `Registry::inject` pushed one job into the injector; `was_empty`
    /// is what it read before the push and hands to the post.
    InjectPush { was_empty: bool },
    /// `WorkerThread::push` pushed one job onto the worker's deque;
    /// `was_empty` as for `InjectPush`.
    Push { was_empty: bool },
    /// `Registry::pop_injected_job` took a job from the injector.
    TakeInjected,
    /// `WorkerThread::take_local_job` popped a job from the worker's own
    /// deque.
    TakeOwn,
    /// `WorkerThread::steal` took a job from the deque of worker `worker`.
    Steal,
    /// The last `Registry::terminate` starts setting the terminate latches.
    Terminate,
    /// `OnceLatch::set_and_wake` set worker `worker`'s terminate latch;
    /// `was_sleeping`: the latch was `SLEEPING`, so a wake-up follows.
    LatchSet { was_sleeping: bool },
    /// Worker `worker` left its main loop (its terminate latch was set).
    Exit,
}

/// What the protocol records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// The packed counters after a read-modify-write, or as the JEC bump
    /// read them when it wrote nothing, unpacked by the code that packs
    /// them (`sleep::counters`).
    Counters {
        sleeping: usize,
        inactive: usize,
        jobs_event_counter: usize,
    },
    /// A step of worker `worker` (`None`: a thread outside the pool, or a
    /// step of the whole pool); for `Woken` and `NotBlocked`, the worker
    /// looked at, for `LatchWake` the latch's owner. `thread` is the
    /// checker thread that took the step (see the module documentation).
    Step {
        step: Step,
        worker: Option<usize>,
        thread: u64,
    },
    /// The pool's injector is the model queue `queue` (recorded once, when
    /// the pool is built).
    Injector { queue: usize },
    /// A model queue's length after a push or a take, recorded by the queue
    /// (`sync::model_queue`) right after it published the length, before
    /// it unlocks: at the point where the push or take took effect.
    /// `thread` is the checker thread that pushed or took, as for `Step`:
    /// its push or take record (`InjectPush`, `Push`, `TakeInjected`,
    /// `TakeOwn`, `Steal`) is that thread's next step record.
    QueueLen {
        queue: usize,
        len: usize,
        thread: u64,
    },
}

#[cfg(not(any(loom, shuttle)))]
mod imp {
    use super::Step;

    #[inline(always)]
    pub(crate) fn counters(_sleeping: usize, _inactive: usize, _jobs_event_counter: usize) {}

    #[inline(always)]
    pub(crate) fn step(_step: Step, _worker: Option<usize>) {}

    #[inline(always)]
    pub(crate) fn injector<T>(_injector: &crate::sync::deque::Injector<T>) {}
}

#[cfg(any(loom, shuttle))]
mod imp {
    use super::{Record, Step};
    use std::cell::RefCell;

    type Observer = Box<dyn FnMut(Record)>;

    std::thread_local! {
        // A std thread-local on purpose: shared by every thread of the
        // execution, and no scheduling point of the checker.
        static OBSERVER: RefCell<Option<Observer>> = const { RefCell::new(None) };
    }

    fn emit(record: Record) {
        // `take` while the observer runs: a record made while it runs (it
        // makes none) or after it panicked finds no observer.
        let observer = OBSERVER.try_with(|o| o.borrow_mut().take()).ok().flatten();
        if let Some(mut observer) = observer {
            observer(record);
            let _ = OBSERVER.try_with(|o| {
                let mut slot = o.borrow_mut();
                if slot.is_none() {
                    *slot = Some(observer);
                }
            });
        }
    }

    pub(crate) fn counters(sleeping: usize, inactive: usize, jobs_event_counter: usize) {
        emit(Record::Counters {
            sleeping,
            inactive,
            jobs_event_counter,
        });
    }

    pub(crate) fn step(step: Step, worker: Option<usize>) {
        if OBSERVER.try_with(|o| o.borrow().is_some()).unwrap_or(false) {
            emit(Record::Step {
                step,
                worker,
                thread: thread_key(),
            });
        }
    }

    pub(crate) fn injector<T>(injector: &crate::sync::deque::Injector<T>) {
        emit(Record::Injector {
            queue: injector.id(),
        });
    }

    pub(crate) fn queue_len(queue: usize, len: usize) {
        if OBSERVER.try_with(|o| o.borrow().is_some()).unwrap_or(false) {
            emit(Record::QueueLen {
                queue,
                len,
                thread: thread_key(),
            });
        }
    }

    /// The current checker thread, as a number (loom's thread ids are
    /// only `Eq` and `Hash`): equal for the records of one thread.
    fn thread_key() -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        crate::sync::thread::current().id().hash(&mut hasher);
        hasher.finish()
    }

    /// Removes the observer when dropped.
    #[derive(Debug)]
    #[must_use = "the observer is removed when the guard is dropped"]
    pub struct Installed(());

    impl Drop for Installed {
        fn drop(&mut self) {
            let _ = OBSERVER.try_with(|o| o.borrow_mut().take());
        }
    }

    /// Hands every record, until the guard is dropped, to `observer`
    /// (replacing any observer installed before). Install it inside the
    /// model, once per execution.
    pub fn install(observer: impl FnMut(Record) + 'static) -> Installed {
        OBSERVER.with(|o| *o.borrow_mut() = Some(Box::new(observer)));
        Installed(())
    }
}

#[cfg(any(loom, shuttle))]
pub(crate) use imp::queue_len;
pub(crate) use imp::{counters, injector, step};
#[cfg(any(loom, shuttle))]
pub use imp::{install, Installed};
