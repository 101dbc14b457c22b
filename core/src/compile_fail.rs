//! Programs the type system must reject. Each example below is a doctest
//! that passes only if it fails to compile, so a change that loosened a
//! bound of `join`, `scope` or `spawn` (a missing `Send`, a lifetime too
//! long) would fail `cargo test --doc`. Nightly rustdoc also checks that the
//! error has the code given (`ci/run` does that when a nightly toolchain is
//! installed), and most examples have a twin that compiles, so that the
//! error is the one the example is about.
//!
//! Compiled only while rustdoc collects doctests.

/// `join` cannot give both closures the same `&mut`:
///
/// ```compile_fail,E0499
/// let mut total = 0;
/// drowse::join(|| total += 1, || total += 2);
/// ```
///
/// Splitting the borrow first is fine:
///
/// ```
/// let mut totals = [0, 0];
/// let (left, right) = totals.split_at_mut(1);
/// drowse::join(|| left[0] += 1, || right[0] += 2);
/// assert_eq!(totals, [1, 2]);
/// ```
pub struct JoinClosuresCannotAliasMutably;

/// A closure given to `join` may run on another thread, so what it captures
/// must be `Send`; an `Rc` is not:
///
/// ```compile_fail,E0277
/// use std::rc::Rc;
/// let shared = Rc::new(1);
/// drowse::join(|| *shared + 1, || 2);
/// ```
///
/// An `Arc` is:
///
/// ```
/// use std::sync::Arc;
/// let shared = Arc::new(1);
/// assert_eq!(drowse::join(|| *shared + 1, || 2), (2, 2));
/// ```
pub struct JoinClosuresMustBeSend;

/// What a `join` closure returns crosses threads too:
///
/// ```compile_fail,E0277
/// use std::rc::Rc;
/// drowse::join(|| Rc::new(1), || ());
/// ```
///
/// ```
/// use std::sync::Arc;
/// let (value, ()) = drowse::join(|| Arc::new(1), || ());
/// assert_eq!(*value, 1);
/// ```
pub struct JoinResultsMustBeSend;

/// A job spawned in a scope may only borrow what outlives the scope, not a
/// local of the scope's body:
///
/// ```compile_fail,E0373
/// drowse::scope(|s| {
///     let local = 5;
///     s.spawn(|_| println!("{local}"));
/// });
/// ```
///
/// Borrowing from outside the scope is what scopes are for:
///
/// ```
/// let outer = 5;
/// drowse::scope(|s| s.spawn(|_| assert_eq!(outer, 5)));
/// ```
pub struct ScopeJobsBorrowOnlyWhatOutlivesTheScope;

/// The `&Scope` handed to the body cannot escape it:
///
/// ```compile_fail,E0521
/// let mut escaped = None;
/// drowse::scope(|s| escaped = Some(s));
/// ```
pub struct ScopeCannotEscape;

/// A job spawned in a scope must be `Send`:
///
/// ```compile_fail,E0277
/// use std::rc::Rc;
/// let shared = Rc::new(1);
/// drowse::scope(|s| s.spawn(move |_| drop(shared)));
/// ```
pub struct ScopeJobsMustBeSend;

/// `spawn` does not wait, so its job may not borrow from the caller:
///
/// ```compile_fail,E0373
/// let local = vec![1, 2, 3];
/// drowse::spawn(|| println!("{local:?}"));
/// ```
///
/// Moving into it is fine:
///
/// ```
/// let local = vec![1, 2, 3];
/// let (sender, receiver) = std::sync::mpsc::channel();
/// drowse::spawn(move || sender.send(local.len()).unwrap());
/// assert_eq!(receiver.recv().unwrap(), 3);
/// ```
pub struct SpawnedJobsMustBeStatic;

/// A `join_context` context belongs to the thread it was made for:
///
/// ```compile_fail,E0277
/// fn needs_send<T: Send>(_: T) {}
/// drowse::join_context(|context| needs_send(context), |_| ());
/// ```
pub struct FnContextStaysOnItsThread;
