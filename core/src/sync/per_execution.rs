//! [`ExecutionOnceLock`]: a one-time cell that lives for the process in the
//! std world and for one execution of the model under the checkers.
//!
//! The global pool is the one thing in Drowse held in a `static`. A std
//! `OnceLock` would keep the first execution's pool (its checker atomics,
//! locks and threads) for every later execution of a model, and a pool's
//! sleeping workers would still be blocked when the execution ends, which
//! both checkers report as a deadlock. Under the checkers the cell therefore
//! gives each execution its own value, and ends that value (through the
//! `end_of_execution` function given to [`ExecutionOnceLock::new`]) once
//! every thread of the execution that used it has exited:
//!
//! - the value sits in a per-execution static of the checker
//!   (`loom::lazy_static`, `shuttle::lazy_static`), behind a lock of the
//!   checker, so that concurrent first uses build it once;
//! - each thread that gets the value holds a lease on it, kept in a
//!   facade thread-local (in the thread's one checker thread-local, see
//!   `model_local`); both checkers drop a thread's locals when
//!   the thread's function returns (the model's main thread included), while
//!   the execution still runs, so the last lease can end the value there and
//!   the threads that this wakes still run to their end (a checker's static
//!   is dropped too late for that: shuttle drops it after its deadlock
//!   check);
//! - the references handed out point into the lease's allocation, which the
//!   thread keeps until it exits, not into the static, which loom drops as
//!   soon as the model's closure returns;
//! - a thread that comes to the cell after the value has ended (every thread
//!   that held it has exited, though the execution goes on) gets a fresh
//!   value, made as at the start of an execution;
//! - when an execution fails (a panic), leases and slots dropped while the
//!   thread panics are leaked instead: loom drops them outside its
//!   scheduler, where they cannot be touched, and nothing waits for the end.
//!
//! In the std world none of this exists: the cell is a `std::sync::OnceLock`
//! and the end function is never called.

#[cfg(not(any(loom, shuttle)))]
mod imp {
    use std::sync::OnceLock;

    /// A `OnceLock` whose value lives for the whole process (see the module
    /// docs for the checker worlds).
    #[derive(Debug)]
    pub struct ExecutionOnceLock<T> {
        cell: OnceLock<T>,
    }

    impl<T: Send + Sync + 'static> ExecutionOnceLock<T> {
        /// An empty cell. `end_of_execution` is called only under the
        /// checkers; the std world's value is never ended.
        pub const fn new(_end_of_execution: fn(&T)) -> Self {
            ExecutionOnceLock {
                cell: OnceLock::new(),
            }
        }

        /// The value, made by `init` if the cell is empty (exactly
        /// `OnceLock::get_or_init`).
        #[inline]
        pub fn get_or_init(&'static self, init: impl FnOnce() -> T) -> &'static T {
            self.cell.get_or_init(init)
        }

        /// Whether the cell holds a value.
        #[inline]
        pub fn is_initialized(&'static self) -> bool {
            self.cell.get().is_some()
        }
    }
}

#[cfg(any(loom, shuttle))]
mod imp {
    use super::super::world::{Arc, Mutex};
    use std::any::Any;
    use std::cell::RefCell;
    use std::sync::PoisonError;

    #[cfg(loom)]
    type Lazy<T> = loom::lazy_static::Lazy<T>;
    #[cfg(shuttle)]
    type Lazy<T> = shuttle::lazy_static::Lazy<T>;

    /// One execution's slot: empty until the first use, then the current
    /// value (live or ended).
    type Slot<T> = Mutex<SlotValue<T>>;

    /// What a slot holds; leaked when dropped by a panicking thread (see
    /// `Lease`'s `Drop`: loom drops a failed execution's statics outside its
    /// scheduler, where even an `Arc`'s count cannot be touched).
    struct SlotValue<T>(Option<Arc<Shared<T>>>);

    impl<T> Drop for SlotValue<T> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                std::mem::forget(self.0.take());
            }
        }
    }

    /// A one-time cell whose value lives for one execution of the model and
    /// is ended when the last thread that used it exits (see the module
    /// docs).
    pub struct ExecutionOnceLock<T: Send + Sync + 'static> {
        slot: Lazy<Slot<T>>,
        end_of_execution: fn(&T),
    }

    /// A value and the count of threads that hold it.
    struct Shared<T> {
        value: T,
        /// Threads holding a lease; `None` once the last one let go and the
        /// value was ended.
        leases: Mutex<Option<usize>>,
        end_of_execution: fn(&T),
    }

    /// One thread's hold on a value (`None` only while it is dropped).
    struct Lease<T: Send + Sync + 'static>(Option<Arc<Shared<T>>>);

    impl<T: Send + Sync + 'static> Drop for Lease<T> {
        fn drop(&mut self) {
            let Some(shared) = self.0.take() else { return };
            if std::thread::panicking() {
                // The execution failed and is being abandoned: nothing waits
                // for the value to end, and the checker may be gone already
                // (loom drops a panicking thread's locals outside its
                // scheduler, where its locks and even its `Arc`'s count
                // cannot be touched), so the hold is leaked.
                std::mem::forget(shared);
                return;
            }
            let last = {
                let mut leases = shared.leases.lock().unwrap_or_else(PoisonError::into_inner);
                let held = leases.expect("a value ended while a lease on it was held") - 1;
                *leases = (held > 0).then_some(held);
                held == 0
            };
            if last {
                (shared.end_of_execution)(&shared.value);
            }
        }
    }

    crate::sync::thread_local! {
        /// The leases this thread holds, each with the address of its
        /// `Shared`. Dropped when the thread exits.
        static LEASES: RefCell<Vec<(usize, Box<dyn Any>)>> = RefCell::new(Vec::new());
    }

    impl<T: Send + Sync + 'static> std::fmt::Debug for ExecutionOnceLock<T> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("ExecutionOnceLock").finish_non_exhaustive()
        }
    }

    impl<T: Send + Sync + 'static> ExecutionOnceLock<T> {
        /// An empty cell; each execution starts with one. `end_of_execution`
        /// is called once for each value made, by the last thread holding
        /// it, as that thread exits.
        pub const fn new(end_of_execution: fn(&T)) -> Self {
            ExecutionOnceLock {
                slot: Self::lazy_slot(),
                end_of_execution,
            }
        }

        #[cfg(loom)]
        const fn lazy_slot() -> Lazy<Slot<T>> {
            loom::lazy_static::Lazy {
                init: Self::empty_slot,
                _p: std::marker::PhantomData,
            }
        }

        #[cfg(shuttle)]
        const fn lazy_slot() -> Lazy<Slot<T>> {
            shuttle::lazy_static::Lazy::new(Self::empty_slot)
        }

        fn empty_slot() -> Slot<T> {
            Mutex::new(SlotValue(None))
        }

        /// This execution's value, made by `init` if this execution has
        /// none yet, or if every thread that held the last one has exited
        /// (a fresh value then, as at the start of an execution). The
        /// calling thread holds the value until it exits.
        pub fn get_or_init(&'static self, init: impl FnOnce() -> T) -> &'static T {
            // The lease is taken holding the slot's lock, so that the value
            // found live cannot end before this thread holds it: a value
            // ends only when its last lease goes.
            let mut slot = self
                .slot
                .get()
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let shared = match slot.0.as_ref().filter(|shared| Self::try_lease(shared)) {
                Some(shared) => Arc::clone(shared),
                None => {
                    // Made holding the lock, as `OnceLock` does: another
                    // first use waits for this one.
                    let shared = Arc::new(Shared {
                        value: init(),
                        leases: Mutex::new(Some(1)),
                        end_of_execution: self.end_of_execution,
                    });
                    slot.0 = Some(Arc::clone(&shared));
                    Self::keep_lease(Lease(Some(Arc::clone(&shared))));
                    shared
                }
            };
            drop(slot);
            let value: *const T = &shared.value;
            // SAFETY: the value lives in the allocation of `Shared`, which
            // this thread's lease (in `LEASES`) keeps alive until the thread
            // exits, longer than any use of the reference on this thread.
            // The value is never written after it was made.
            unsafe { &*value }
        }

        /// Makes sure this thread holds a lease on `shared`; false when
        /// `shared` has ended.
        fn try_lease(shared: &Arc<Shared<T>>) -> bool {
            let key = Self::key(shared);
            if LEASES.with(|leases| leases.borrow().iter().any(|&(held, _)| held == key)) {
                return true;
            }
            {
                let mut count = shared.leases.lock().unwrap_or_else(PoisonError::into_inner);
                match *count {
                    Some(held) => *count = Some(held + 1),
                    None => return false,
                }
            }
            Self::keep_lease(Lease(Some(Arc::clone(shared))));
            true
        }

        fn keep_lease(lease: Lease<T>) {
            let key = Self::key(
                lease
                    .0
                    .as_ref()
                    .expect("a lease being kept holds its value"),
            );
            LEASES.with(|leases| leases.borrow_mut().push((key, Box::new(lease))));
        }

        fn key(shared: &Arc<Shared<T>>) -> usize {
            &**shared as *const Shared<T> as usize
        }

        /// Whether this execution has a live value (without taking a lease).
        pub fn is_initialized(&'static self) -> bool {
            let slot = self
                .slot
                .get()
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            slot.0.as_ref().is_some_and(|shared| {
                shared
                    .leases
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .is_some()
            })
        }
    }
}

pub use imp::ExecutionOnceLock;
