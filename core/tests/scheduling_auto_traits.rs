//! The scheduling API's types have rayon-core 1.13's auto traits (measured
//! on rayon-core 1.13.0 with the same probe).
#![cfg(not(any(loom, shuttle)))]

use std::marker::PhantomData;
use std::panic::{RefUnwindSafe, UnwindSafe};

/// Answers "does `T` implement this trait?" at run time: the inherent
/// `implements` exists only when `T` does, and otherwise method lookup falls
/// back to the trait's `false`.
macro_rules! probe {
    ($($probe:ident $fallback:ident: $trait:path;)*) => {$(
        struct $probe<T: ?Sized>(PhantomData<T>);
        #[allow(dead_code)]
        trait $fallback {
            fn implements(&self) -> bool {
                false
            }
        }
        impl<T: ?Sized> $fallback for $probe<T> {}
        impl<T: ?Sized + $trait> $probe<T> {
            fn implements(&self) -> bool {
                true
            }
        }
    )*};
}

probe! {
    IsSend NotSend: Send;
    IsSync NotSync: Sync;
    IsUnpin NotUnpin: Unpin;
    IsUnwindSafe NotUnwindSafe: UnwindSafe;
    IsRefUnwindSafe NotRefUnwindSafe: RefUnwindSafe;
}

macro_rules! auto_traits {
    ($t:ty) => {
        [
            IsSend::<$t>(PhantomData).implements(),
            IsSync::<$t>(PhantomData).implements(),
            IsUnpin::<$t>(PhantomData).implements(),
            IsUnwindSafe::<$t>(PhantomData).implements(),
            IsRefUnwindSafe::<$t>(PhantomData).implements(),
        ]
    };
}

//                 Send   Sync   Unpin UnwindSafe RefUnwindSafe
const SCOPE: [bool; 5] = [true, true, true, false, false];
const CONTEXT: [bool; 5] = [false, false, true, false, false];
const PLAIN: [bool; 5] = [true, true, true, true, true];

#[test]
fn scopes_are_send_sync_unpin_and_not_unwind_safe() {
    assert_eq!(auto_traits!(drowse::Scope<'static>), SCOPE);
    assert_eq!(auto_traits!(drowse::ScopeFifo<'static>), SCOPE);
}

#[test]
fn a_broadcast_context_stays_on_its_worker() {
    assert_eq!(auto_traits!(drowse::BroadcastContext<'static>), CONTEXT);
}

#[test]
fn yield_is_a_plain_value() {
    assert_eq!(auto_traits!(drowse::Yield), PLAIN);
}

#[test]
fn the_probe_tells_traits_apart() {
    assert_eq!(auto_traits!(u8), PLAIN);
    assert_eq!(
        auto_traits!(std::rc::Rc<u8>),
        [false, false, true, true, true]
    );
    assert_eq!(
        auto_traits!(std::cell::Cell<u8>),
        [true, false, true, true, false]
    );
}
