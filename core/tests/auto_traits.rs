//! The auto traits of the public types, as rayon-core 1.13 has them: a pool
//! handle and a scope are shared across threads; a builder holds a `FnMut`
//! name closure and a `FnContext` describes one thread, so neither moves.
//! (The negative cases are compile-fail doctests in `core/src/compile_fail.rs`
//! where they matter for soundness.)
#![cfg(not(any(loom, shuttle)))]

fn send_sync<T: Send + Sync>() {}
fn unpin<T: Unpin>() {}

#[test]
fn pool_handles_and_scopes_are_send_and_sync() {
    send_sync::<drowse::ThreadPool>();
    send_sync::<drowse::Scope<'static>>();
    send_sync::<drowse::ThreadPoolBuildError>();
    unpin::<drowse::ThreadPool>();
    unpin::<drowse::ThreadPoolBuilder>();
    unpin::<drowse::FnContext>();
}
