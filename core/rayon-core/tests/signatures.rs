//! rayon-core 1.13's public signatures, checked by the compiler.
//!
//! Each `*_signature` function below states one item's signature as
//! rayon-core 1.13 declares it (generic parameters in the same order, with
//! the same bounds) and coerces the item to a function pointer of exactly
//! that type. Rust type-checks generic functions where they are defined, so
//! an item that is missing, takes its arguments in another order, returns
//! something else or demands a bound that rayon-core does not demand stops
//! this file from compiling. (A looser bound still compiles: code written
//! for rayon-core keeps working.) The same file compiles against the real
//! rayon-core 1.13, which is how it was checked.
//!
//! The `#[test]` functions hold what needs a value: trait implementations,
//! the `Yield` variants, and builders with a custom spawn handler, whose type
//! (`ThreadPoolBuilder<CustomSpawn<F>>`) cannot be named outside rayon-core.

#![allow(dead_code)]

use rayon_core::{
    BroadcastContext, FnContext, Scope, ScopeFifo, ThreadBuilder, ThreadPool, ThreadPoolBuildError,
    ThreadPoolBuilder, Yield,
};
use std::any::Any;
use std::error::Error;
use std::fmt::{Debug, Display};
use std::io;
use std::panic::{RefUnwindSafe, UnwindSafe};

// ---- Free functions.

fn plain_functions() {
    let _: fn() -> usize = rayon_core::current_num_threads;
    let _: fn() -> usize = rayon_core::max_num_threads;
    let _: fn() -> Option<usize> = rayon_core::current_thread_index;
    let _: fn() -> Option<bool> = rayon_core::current_thread_has_pending_tasks;
    let _: fn() -> Option<Yield> = rayon_core::yield_now;
    let _: fn() -> Option<Yield> = rayon_core::yield_local;
}

#[allow(deprecated)]
fn initialize_signature() {
    let _: fn(rayon_core::Configuration) -> Result<(), Box<dyn Error>> = rayon_core::initialize;
}

fn join_signature<A, B, RA, RB>()
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let _: fn(A, B) -> (RA, RB) = rayon_core::join::<A, B, RA, RB>;
}

fn join_context_signature<A, B, RA, RB>()
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let _: fn(A, B) -> (RA, RB) = rayon_core::join_context::<A, B, RA, RB>;
}

fn scope_signature<'scope, OP, R>()
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    let _: fn(OP) -> R = rayon_core::scope::<OP, R>;
}

fn scope_fifo_signature<'scope, OP, R>()
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    let _: fn(OP) -> R = rayon_core::scope_fifo::<OP, R>;
}

fn in_place_scope_signature<'scope, OP, R>()
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    let _: fn(OP) -> R = rayon_core::in_place_scope::<OP, R>;
}

fn in_place_scope_fifo_signature<'scope, OP, R>()
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    let _: fn(OP) -> R = rayon_core::in_place_scope_fifo::<OP, R>;
}

fn spawn_signature<F>()
where
    F: FnOnce() + Send + 'static,
{
    let _: fn(F) = rayon_core::spawn::<F>;
    let _: fn(F) = rayon_core::spawn_fifo::<F>;
}

fn broadcast_signature<OP, R>()
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    let _: fn(OP) -> Vec<R> = rayon_core::broadcast::<OP, R>;
}

fn spawn_broadcast_signature<OP>()
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    let _: fn(OP) = rayon_core::spawn_broadcast::<OP>;
}

// ---- ThreadPool.

fn thread_pool_plain_methods() {
    let _: fn(&ThreadPool) -> usize = ThreadPool::current_num_threads;
    let _: fn(&ThreadPool) -> Option<usize> = ThreadPool::current_thread_index;
    let _: fn(&ThreadPool) -> Option<bool> = ThreadPool::current_thread_has_pending_tasks;
    let _: fn(&ThreadPool) -> Option<Yield> = ThreadPool::yield_now;
    let _: fn(&ThreadPool) -> Option<Yield> = ThreadPool::yield_local;
}

#[allow(deprecated)]
fn thread_pool_new_signature() {
    let _: fn(rayon_core::Configuration) -> Result<ThreadPool, Box<dyn Error>> = ThreadPool::new;
}

fn thread_pool_install_signature<OP, R>()
where
    OP: FnOnce() -> R + Send,
    R: Send,
{
    let _: fn(&ThreadPool, OP) -> R = ThreadPool::install::<OP, R>;
}

fn thread_pool_join_signature<A, B, RA, RB>()
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let _: fn(&ThreadPool, A, B) -> (RA, RB) = ThreadPool::join::<A, B, RA, RB>;
}

fn thread_pool_scope_signatures<'scope, OP, OPF, R>()
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    OPF: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    let _: fn(&ThreadPool, OP) -> R = ThreadPool::scope::<OP, R>;
    let _: fn(&ThreadPool, OPF) -> R = ThreadPool::scope_fifo::<OPF, R>;
}

fn thread_pool_in_place_scope_signatures<'scope, OP, OPF, R>()
where
    OP: FnOnce(&Scope<'scope>) -> R,
    OPF: FnOnce(&ScopeFifo<'scope>) -> R,
{
    let _: fn(&ThreadPool, OP) -> R = ThreadPool::in_place_scope::<OP, R>;
    let _: fn(&ThreadPool, OPF) -> R = ThreadPool::in_place_scope_fifo::<OPF, R>;
}

fn thread_pool_spawn_signatures<OP>()
where
    OP: FnOnce() + Send + 'static,
{
    let _: fn(&ThreadPool, OP) = ThreadPool::spawn::<OP>;
    let _: fn(&ThreadPool, OP) = ThreadPool::spawn_fifo::<OP>;
}

fn thread_pool_broadcast_signature<OP, R>()
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    let _: fn(&ThreadPool, OP) -> Vec<R> = ThreadPool::broadcast::<OP, R>;
}

fn thread_pool_spawn_broadcast_signature<OP>()
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    let _: fn(&ThreadPool, OP) = ThreadPool::spawn_broadcast::<OP>;
}

// ---- Scopes.

fn scope_spawn_signatures<'scope, BODY, BROADCAST>()
where
    BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    BROADCAST: Fn(&Scope<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
{
    let _: fn(&Scope<'scope>, BODY) = Scope::spawn::<BODY>;
    let _: fn(&Scope<'scope>, BROADCAST) = Scope::spawn_broadcast::<BROADCAST>;
}

fn scope_fifo_spawn_signatures<'scope, BODY, BROADCAST>()
where
    BODY: FnOnce(&ScopeFifo<'scope>) + Send + 'scope,
    BROADCAST: Fn(&ScopeFifo<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
{
    let _: fn(&ScopeFifo<'scope>, BODY) = ScopeFifo::spawn_fifo::<BODY>;
    let _: fn(&ScopeFifo<'scope>, BROADCAST) = ScopeFifo::spawn_broadcast::<BROADCAST>;
}

// ---- Contexts and ThreadBuilder.

// (The argument only names the context's lifetime.)
fn broadcast_context_methods<'a>(_: &BroadcastContext<'a>) {
    let _: fn(&BroadcastContext<'a>) -> usize = BroadcastContext::<'a>::index;
    let _: fn(&BroadcastContext<'a>) -> usize = BroadcastContext::<'a>::num_threads;
}

fn context_methods() {
    let _: fn(&FnContext) -> bool = FnContext::migrated;
    let _: fn(&ThreadBuilder) -> usize = ThreadBuilder::index;
    let _: for<'b> fn(&'b ThreadBuilder) -> Option<&'b str> = ThreadBuilder::name;
    let _: fn(&ThreadBuilder) -> Option<usize> = ThreadBuilder::stack_size;
    let _: fn(ThreadBuilder) = ThreadBuilder::run;
}

// ---- ThreadPoolBuilder: `new` and `build_scoped` are on the default
// builder only; `build` and `build_global` on every builder whose spawn
// handler can spawn (checked here on the default one, and on a custom one
// by `custom_spawn_builder_has_every_setting`); `spawn_handler` and the
// settings on every `ThreadPoolBuilder<S>`.

fn default_builder_methods() {
    let _: fn() -> ThreadPoolBuilder = ThreadPoolBuilder::new;
    let _: fn(ThreadPoolBuilder) -> Result<ThreadPool, ThreadPoolBuildError> =
        ThreadPoolBuilder::build;
    let _: fn(ThreadPoolBuilder) -> Result<(), ThreadPoolBuildError> =
        ThreadPoolBuilder::build_global;
}

fn build_scoped_signature<W, F, R>()
where
    W: Fn(ThreadBuilder) + Sync,
    F: FnOnce(&ThreadPool) -> R,
{
    let _: fn(ThreadPoolBuilder, W, F) -> Result<R, ThreadPoolBuildError> =
        ThreadPoolBuilder::build_scoped::<W, F, R>;
}

#[allow(deprecated)]
fn settings_on_every_builder<S, SPAWN, NAME, PANIC, START, EXIT>()
where
    SPAWN: FnMut(ThreadBuilder) -> io::Result<()>,
    NAME: FnMut(usize) -> String + 'static,
    PANIC: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    START: Fn(usize) + Send + Sync + 'static,
    EXIT: Fn(usize) + Send + Sync + 'static,
{
    type B<S> = ThreadPoolBuilder<S>;
    // `spawn_handler` returns a builder whose type cannot be named outside
    // rayon-core; `custom_spawn_builder_has_every_setting` uses it.
    let _ = B::<S>::spawn_handler::<SPAWN>;
    let _: fn(B<S>, NAME) -> B<S> = B::<S>::thread_name::<NAME>;
    let _: fn(B<S>, usize) -> B<S> = B::<S>::num_threads;
    let _: fn(B<S>) -> B<S> = B::<S>::use_current_thread;
    let _: fn(B<S>, PANIC) -> B<S> = B::<S>::panic_handler::<PANIC>;
    let _: fn(B<S>, usize) -> B<S> = B::<S>::stack_size;
    let _: fn(B<S>) -> B<S> = B::<S>::breadth_first;
    let _: fn(B<S>, START) -> B<S> = B::<S>::start_handler::<START>;
    let _: fn(B<S>, EXIT) -> B<S> = B::<S>::exit_handler::<EXIT>;
}

#[allow(deprecated)]
fn configuration_methods<NAME, PANIC, START, EXIT>()
where
    NAME: FnMut(usize) -> String + 'static,
    PANIC: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    START: Fn(usize) + Send + Sync + 'static,
    EXIT: Fn(usize) + Send + Sync + 'static,
{
    use rayon_core::Configuration as C;
    let _: fn() -> C = C::new;
    let _: fn(C) -> Result<ThreadPool, Box<dyn Error + 'static>> = C::build;
    let _: fn(C, NAME) -> C = C::thread_name::<NAME>;
    let _: fn(C, usize) -> C = C::num_threads;
    let _: fn(C, PANIC) -> C = C::panic_handler::<PANIC>;
    let _: fn(C, usize) -> C = C::stack_size;
    let _: fn(C) -> C = C::breadth_first;
    let _: fn(C, START) -> C = C::start_handler::<START>;
    let _: fn(C, EXIT) -> C = C::exit_handler::<EXIT>;
}

// ---- Values.

fn implements<T: ?Sized>(_: &T) {}

#[test]
fn trait_implementations_match_rayon_core() {
    fn send_sync_debug<T: Send + Sync + Debug>() {}
    fn error<T: Error + Display + Debug + Send + Sync + 'static>() {}
    fn copy_eq<
        T: Copy + Clone + Debug + PartialEq + Eq + Send + Sync + UnwindSafe + RefUnwindSafe,
    >() {
    }
    fn default_debug<T: Default + Debug>() {}
    fn debug_unwind_safe<T: Debug + Unpin + UnwindSafe + RefUnwindSafe>() {}
    send_sync_debug::<ThreadPool>();
    send_sync_debug::<Scope<'static>>();
    send_sync_debug::<ScopeFifo<'static>>();
    error::<ThreadPoolBuildError>();
    copy_eq::<Yield>();
    default_debug::<ThreadPoolBuilder>();
    #[allow(deprecated)]
    default_debug::<rayon_core::Configuration>();
    debug_unwind_safe::<FnContext>();
    fn send_debug<T: Send + Debug>() {}
    send_debug::<ThreadBuilder>();
    fn debug<T: Debug>() {}
    debug::<BroadcastContext<'static>>();
    // A pool joins its threads when it is dropped.
    assert!(std::mem::needs_drop::<ThreadPool>());
    // A build error converts to `Box<dyn Error>`, as `?` in user code needs:
    // the second `build_global` of a process is one on every implementation.
    let _ = ThreadPoolBuilder::new().num_threads(1).build_global();
    let again = ThreadPoolBuilder::new().num_threads(1).build_global();
    let boxed: Box<dyn Error> = Box::new(again.expect_err("the global pool exists already"));
    assert!(!boxed.to_string().is_empty());
}

#[test]
fn yield_has_exactly_rayon_cores_variants() {
    // Exhaustive: a variant added or removed stops this from compiling.
    fn describe(outcome: Yield) -> &'static str {
        match outcome {
            Yield::Executed => "executed",
            Yield::Idle => "idle",
        }
    }
    assert_ne!(describe(Yield::Executed), describe(Yield::Idle));
    // Outside any pool there is nothing to yield to.
    assert_eq!(rayon_core::yield_now(), None);
    assert_eq!(rayon_core::yield_local(), None);
}

#[test]
fn custom_spawn_builder_has_every_setting() {
    let builder = ThreadPoolBuilder::new()
        .spawn_handler(|thread: ThreadBuilder| -> io::Result<()> {
            // The handler names the thread: rayon-core leaves that to it.
            let mut spawner = std::thread::Builder::new();
            if let Some(name) = thread.name() {
                spawner = spawner.name(name.to_owned());
            }
            spawner.spawn(move || thread.run())?;
            Ok(())
        })
        .thread_name(|index| format!("custom-{index}"))
        .num_threads(2)
        .panic_handler(|_payload| {})
        .stack_size(1 << 20)
        .start_handler(|_index| {})
        .exit_handler(|_index| {});
    implements::<dyn Debug>(&builder);
    let pool = builder.build().expect("a 2-thread pool starts");
    assert_eq!(pool.current_num_threads(), 2);
    let (index, name) = pool.install(|| {
        (
            rayon_core::current_thread_index(),
            std::thread::current().name().map(str::to_owned),
        )
    });
    assert!(matches!(index, Some(0 | 1)), "install ran on {index:?}");
    assert!(
        name.as_deref().is_some_and(|n| n.starts_with("custom-")),
        "the spawn handler's thread has the builder's name: {name:?}"
    );
}
