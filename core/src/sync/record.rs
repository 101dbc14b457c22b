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

/// A step of the every-N model, named after the code that takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `Sleep::start_looking`'s increment of the inactive count.
    StartLooking,
    /// `Sleep::work_found`'s decrement of the inactive count.
    WorkFound,
    /// `Sleep::announce_sleepy`'s JEC bump (or its read of an even JEC).
    Announce,
    /// `Sleep::new_jobs`'s JEC bump (or its read of an odd JEC).
    Post,
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
    /// The last `Registry::terminate` starts setting the terminate latches.
    Terminate,
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
    /// step of the whole pool); for `Woken`, the worker woken.
    Step { step: Step, worker: Option<usize> },
}

#[cfg(not(any(loom, shuttle)))]
mod imp {
    use super::Step;

    #[inline(always)]
    pub(crate) fn counters(_sleeping: usize, _inactive: usize, _jobs_event_counter: usize) {}

    #[inline(always)]
    pub(crate) fn step(_step: Step, _worker: Option<usize>) {}
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
        emit(Record::Step { step, worker });
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

pub(crate) use imp::{counters, step};
#[cfg(any(loom, shuttle))]
pub use imp::{install, Installed};
