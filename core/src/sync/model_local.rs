//! The checker worlds' thread-locals: every facade `thread_local!` of a model
//! thread lives in one checker thread-local, [`ThreadLocals`], and is dropped
//! in a fixed order when the thread exits.
//!
//! Why one slot and not one checker thread-local per key: a checker must
//! replay the same operations for the same schedule, and some of Drowse's
//! thread-locals run checker operations when dropped (a lease on the global
//! pool ends the pool; a thread's reused `LockLatch` drops an `Arc`; an
//! adopted worker frees its registry reference). Loom keeps a thread's
//! locals in a `HashMap` with a fresh random hasher for each execution and
//! drops them in that map's order, so two such destructors run in a
//! different order from one execution to the next, and loom stops with
//! "Reached unexpected exploration state". Here the order is the reverse of
//! first use on the thread (a stack, as for values made one on another),
//! which the schedule alone decides.
//!
//! While the slot is dropped, the checker reports it as destroyed, so every
//! facade thread-local of the thread reads as destroyed (`try_with` fails,
//! `with` panics), as loom already did for all of a thread's locals. A
//! thread whose panic failed the execution leaks its locals: loom drops them
//! outside its scheduler, where no checker object can be touched.

use super::world;
use std::any::Any;
use std::cell::RefCell;

/// A facade thread-local key of a checker world (see the module docs).
pub struct ModelLocalKey<T: 'static> {
    init: fn() -> T,
}

impl<T: 'static> std::fmt::Debug for ModelLocalKey<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelLocalKey").finish_non_exhaustive()
    }
}

impl<T: 'static> ModelLocalKey<T> {
    /// A key whose value on each thread is made by `init` at its first use.
    pub const fn new(init: fn() -> T) -> Self {
        ModelLocalKey { init }
    }

    /// This thread's value, made if this is its first use; the facade's
    /// panic outside a model, and a panic while the thread's locals are
    /// being destroyed (as std's `LocalKey::with`).
    pub fn with<F: FnOnce(&T) -> R, R>(&'static self, f: F) -> R {
        let value = world::local_with(&THREAD_LOCALS, |locals| locals.get_or_init(self));
        // SAFETY: see `ThreadLocals::get_or_init`: the value stays where it
        // is until the thread's locals are dropped, after its function has
        // returned, so never during `f` on this thread.
        f(unsafe { &*value })
    }

    /// As [`with`](Self::with), but `Err` while the thread's locals are
    /// being destroyed. Unchecked: it serves drops at a thread's exit, inside
    /// the model by construction.
    pub fn try_with<F: FnOnce(&T) -> R, R>(&'static self, f: F) -> Result<R, impl std::fmt::Debug> {
        match THREAD_LOCALS.try_with(|locals| locals.get_or_init(self)) {
            // SAFETY: as in `with`.
            Ok(value) => Ok(f(unsafe { &*value })),
            Err(destroyed) => Err(destroyed),
        }
    }

    /// The key's identity: the address of its `static`.
    fn id(&'static self) -> usize {
        self as *const Self as usize
    }
}

world::thread_local! {
    static THREAD_LOCALS: ThreadLocals = ThreadLocals {
        values: RefCell::new(Vec::new()),
    };
}

/// One model thread's facade thread-locals, in the order of first use, each
/// with its key's identity.
struct ThreadLocals {
    values: RefCell<Vec<(usize, Box<dyn Any>)>>,
}

impl ThreadLocals {
    /// The value of `key` on this thread, made by its `init` if absent. The
    /// value is boxed and never moved or dropped before `self` is, so the
    /// pointer stays valid until the thread's locals are dropped.
    fn get_or_init<T: 'static>(&self, key: &'static ModelLocalKey<T>) -> *const T {
        if let Some(value) = self.find(key) {
            return value;
        }
        // Made with no borrow held: `init` may use other thread-locals.
        let made: Box<T> = Box::new((key.init)());
        if let Some(value) = self.find(key) {
            // `init` itself used this key, which made it already; keep that
            // value (as std does) and drop this one, outside the borrow.
            drop(made);
            return value;
        }
        let value: *const T = &*made;
        self.values.borrow_mut().push((key.id(), made));
        value
    }

    fn find<T: 'static>(&self, key: &'static ModelLocalKey<T>) -> Option<*const T> {
        let values = self.values.borrow();
        let (_, value) = values.iter().find(|(id, _)| *id == key.id())?;
        let value = value.downcast_ref::<T>().expect("one key, one value type");
        Some(value as *const T)
    }
}

impl Drop for ThreadLocals {
    fn drop(&mut self) {
        let values = self.values.get_mut();
        if std::thread::panicking() {
            // A failed execution is being abandoned (see the module docs).
            values.drain(..).for_each(std::mem::forget);
            return;
        }
        // Latest first; each value is dropped after it has left the vector.
        while let Some(value) = values.pop() {
            drop(value);
        }
    }
}

#[cfg(test)]
mod test {
    use crate::sync::{model, thread, Arc};
    use std::cell::Cell;
    use std::sync::Mutex as StdMutex;

    /// Every drop of a `DropRecorder` in this test's models, in order: the
    /// owning thread's tag and the thread-local's name. A std lock, outside
    /// the model: it only collects what the executions did.
    static DROPS: StdMutex<Vec<(usize, usize)>> = StdMutex::new(Vec::new());

    /// A thread-local whose drop is a checker operation, as the pool's are
    /// (a lease's end, an `Arc`'s release).
    struct DropRecorder {
        name: usize,
        owner: Cell<Option<(usize, Arc<()>)>>,
    }

    impl Drop for DropRecorder {
        fn drop(&mut self) {
            if let Some((owner, shared)) = self.owner.take() {
                // A checker operation: the release of a checker `Arc`.
                drop(shared);
                DROPS.lock().unwrap().push((owner, self.name));
            }
        }
    }

    crate::sync::thread_local! {
        static FIRST: DropRecorder = DropRecorder { name: 1, owner: Cell::new(None) };
        static SECOND: DropRecorder = DropRecorder { name: 2, owner: Cell::new(None) };
    }

    fn use_both(owner: usize, shared: &Arc<()>) {
        FIRST.with(|first| first.owner.set(Some((owner, Arc::clone(shared)))));
        SECOND.with(|second| second.owner.set(Some((owner, Arc::clone(shared)))));
    }

    /// Two thread-locals whose drops are checker operations are dropped in
    /// the reverse order of first use, on every thread of every execution.
    /// With one checker thread-local per key, loom dropped them in a hash
    /// order drawn anew for each execution, and stopped with "Reached
    /// unexpected exploration state" (as the global pool's lease and a
    /// thread's `LockLatch` did in loom-tests/tests/global_pool.rs).
    #[test]
    #[cfg_attr(
        not(any(loom, shuttle)),
        ignore = "the std world's thread-locals are std's"
    )]
    fn a_threads_locals_drop_in_reverse_order_of_first_use() {
        DROPS.lock().unwrap().clear();
        model(|| {
            let shared = Arc::new(());
            let in_thread = Arc::clone(&shared);
            let spawned = thread::spawn(move || use_both(1, &in_thread));
            use_both(0, &shared);
            spawned.join().unwrap();
        });
        let drops = DROPS.lock().unwrap();
        for owner in [0, 1] {
            let names: Vec<usize> = drops
                .iter()
                .filter(|(of, _)| *of == owner)
                .map(|&(_, name)| name)
                .collect();
            // Each execution drops both of the thread's locals (its function
            // returned normally), SECOND, used last, first.
            assert!(!names.is_empty(), "thread {owner} dropped nothing");
            assert!(
                names.chunks(2).all(|pair| pair == [2, 1]),
                "thread {owner} dropped in the order {names:?}"
            );
        }
    }
}
