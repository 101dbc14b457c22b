//! Drowse: rayon's worker sleep/wake protocol, model-checked, and a
//! work-stealing thread pool built on it.
//!
//! The pool's public API has rayon-core 1.13's names and signatures
//! ([`join`], [`join_context`], [`scope()`], [`spawn()`], [`ThreadPool`],
//! [`ThreadPoolBuilder`], ...), so code written against rayon-core runs on it.
//! What Drowse adds is the evidence: the sleep protocol (`sleep`), the
//! latches and the pool are written once over the [`sync`] facade and
//! compiled three ways:
//!
//! - a normal build uses `std` and `crossbeam-deque`;
//! - `RUSTFLAGS="--cfg loom"` runs the same code under loom, which explores
//!   every interleaving and C11 weak-memory behaviour of small pools;
//! - `RUSTFLAGS="--cfg shuttle"` runs it under shuttle's randomized and PCT
//!   schedulers for larger pools.
//!
//! ```
//! # // The checker worlds' primitives only work inside a model; the example
//! # // needs real threads.
//! # if drowse::sync::IS_CHECKER { return; }
//! fn fib(n: u64) -> u64 {
//!     if n < 2 {
//!         return n;
//!     }
//!     let (a, b) = drowse::join(|| fib(n - 1), || fib(n - 2));
//!     a + b
//! }
//!
//! let pool = drowse::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! assert_eq!(pool.install(|| fib(20)), 6765);
//! ```
//!
//! `docs/protocol.md` describes the protocol and `docs/proof.md` links each
//! step of its correctness argument to the test that checks it.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, missing_debug_implementations)]

mod broadcast;
mod job;
mod join;
mod latch;
#[doc(hidden)]
pub mod model_api;
pub mod mutant;
mod registry;
mod scope;
mod sleep;
mod spawn;
pub mod sync;
mod thread_pool;
mod unwind;
mod yielding;

pub use crate::broadcast::{broadcast, spawn_broadcast, BroadcastContext};
pub use crate::join::{join, join_context};
pub use crate::scope::{in_place_scope, in_place_scope_fifo, scope, scope_fifo, Scope, ScopeFifo};
pub use crate::sleep::{JecWidth, SleepSnapshot};
pub use crate::spawn::{spawn, spawn_fifo};
pub use crate::thread_pool::{current_thread_index, ThreadPool};
pub use crate::yielding::{current_thread_has_pending_tasks, yield_local, yield_now, Yield};

use std::any::Any;
use std::error::Error;
use std::fmt;
use std::io;
use std::marker::PhantomData;

/// The most threads a pool can have: what the sleep counters can count
/// (65,535 on 64-bit targets, 255 on 32-bit ones).
pub fn max_num_threads() -> usize {
    sleep::THREADS_MAX
}

/// The number of threads in the current pool: the pool of the current worker
/// thread, or the global pool (built with defaults if needed).
pub fn current_num_threads() -> usize {
    registry::current_registry().num_threads()
}

/// Builds a [`ThreadPool`] or configures the global pool.
pub struct ThreadPoolBuilder {
    num_threads: usize,
    thread_name: Option<Box<dyn FnMut(usize) -> String>>,
    stack_size: Option<usize>,
    panic_handler: Option<Box<PanicHandler>>,
    start_handler: Option<Box<ThreadHandler>>,
    exit_handler: Option<Box<ThreadHandler>>,
    jec_bits: Option<u32>,
}

/// Receives the payload of a spawned job's panic.
type PanicHandler = dyn Fn(Box<dyn Any + Send>) + Send + Sync;
/// Runs on a worker thread with its index, at start or exit.
type ThreadHandler = dyn Fn(usize) + Send + Sync;

impl Default for ThreadPoolBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ThreadPoolBuilder {
    /// A builder with default settings: one thread per available CPU, no
    /// names, default stack size, no handlers.
    pub fn new() -> Self {
        ThreadPoolBuilder {
            num_threads: 0,
            thread_name: None,
            stack_size: None,
            panic_handler: None,
            start_handler: None,
            exit_handler: None,
            jec_bits: None,
        }
    }

    /// Builds a new pool.
    ///
    /// # Errors
    /// More threads than [`max_num_threads`], an invalid
    /// [`jobs_event_counter_bits`](Self::jobs_event_counter_bits), or a
    /// thread that the OS would not start.
    pub fn build(self) -> Result<ThreadPool, ThreadPoolBuildError> {
        ThreadPool::build(self)
    }

    /// Builds the global pool, which `join`, `scope` and `spawn` use outside
    /// any pool.
    ///
    /// # Errors
    /// As [`build`](Self::build), and an error if the global pool exists
    /// already (built by an earlier call, or on first use).
    pub fn build_global(self) -> Result<(), ThreadPoolBuildError> {
        registry::init_global_registry(self)
    }

    /// The number of worker threads. Zero (the default) means the value of
    /// the `RAYON_NUM_THREADS` environment variable when it is a positive
    /// number, and otherwise the machine's available parallelism.
    pub fn num_threads(mut self, num_threads: usize) -> Self {
        self.num_threads = num_threads;
        self
    }

    /// Names thread `index` with `closure(index)`.
    pub fn thread_name<F>(mut self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.thread_name = Some(Box::new(closure));
        self
    }

    /// The stack size of each worker thread, in bytes.
    pub fn stack_size(mut self, stack_size: usize) -> Self {
        self.stack_size = Some(stack_size);
        self
    }

    /// Receives the panics of spawned jobs. Without one, such a panic aborts
    /// the process. A panic in the handler itself aborts too.
    pub fn panic_handler<H>(mut self, panic_handler: H) -> Self
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.panic_handler = Some(Box::new(panic_handler));
        self
    }

    /// Runs on each worker thread, with its index, when it starts.
    pub fn start_handler<H>(mut self, start_handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.start_handler = Some(Box::new(start_handler));
        self
    }

    /// Runs on each worker thread, with its index, just before it exits.
    pub fn exit_handler<H>(mut self, exit_handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.exit_handler = Some(Box::new(exit_handler));
        self
    }

    /// The width of the sleep protocol's jobs event counter, in bits (at
    /// most [`JecWidth::MAX_BITS`], the default). Narrow counters roll over
    /// quickly: the model checkers use 1 to 3 bits to show that the protocol
    /// stays correct through rollover. Production code has no reason to set
    /// this.
    pub fn jobs_event_counter_bits(mut self, bits: u32) -> Self {
        self.jec_bits = Some(bits);
        self
    }

    fn resolved_num_threads(&self) -> usize {
        if self.num_threads > 0 {
            return self.num_threads;
        }
        let from_env = std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|text| text.trim().parse::<usize>().ok())
            .filter(|&n| n > 0);
        from_env.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
    }

    fn name_for_thread(&mut self, index: usize) -> Option<String> {
        self.thread_name.as_mut().map(|name| name(index))
    }
}

impl fmt::Debug for ThreadPoolBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPoolBuilder")
            .field("num_threads", &self.num_threads)
            .field("thread_name", &self.thread_name.is_some())
            .field("stack_size", &self.stack_size)
            .field("panic_handler", &self.panic_handler.is_some())
            .field("start_handler", &self.start_handler.is_some())
            .field("exit_handler", &self.exit_handler.is_some())
            .field("jec_bits", &self.jec_bits)
            .finish()
    }
}

/// Why a pool could not be built.
#[derive(Debug)]
pub struct ThreadPoolBuildError {
    kind: ErrorKind,
}

#[derive(Debug)]
enum ErrorKind {
    GlobalPoolAlreadyInitialized,
    TooManyThreads { requested: usize, max: usize },
    InvalidJecBits { requested: u32, max: u32 },
    Io(io::Error),
}

impl ThreadPoolBuildError {
    fn new(kind: ErrorKind) -> Self {
        ThreadPoolBuildError { kind }
    }
}

impl fmt::Display for ThreadPoolBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::GlobalPoolAlreadyInitialized => {
                f.write_str("the global thread pool has already been initialized")
            }
            ErrorKind::TooManyThreads { requested, max } => write!(
                f,
                "a pool of {requested} threads was requested, but the sleep counters hold at most {max}"
            ),
            ErrorKind::InvalidJecBits { requested, max } => write!(
                f,
                "a jobs event counter of {requested} bits was requested; it must have 1 to {max} bits"
            ),
            ErrorKind::Io(error) => write!(f, "a worker thread could not be started: {error}"),
        }
    }
}

impl Error for ThreadPoolBuildError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(error) => Some(error),
            _ => None,
        }
    }
}

/// Tells a closure run by [`join_context`] where it runs.
#[derive(Debug)]
pub struct FnContext {
    migrated: bool,
    /// Keeps the context on the thread it was made for.
    _not_send: PhantomData<*mut ()>,
}

impl FnContext {
    fn new(migrated: bool) -> Self {
        FnContext {
            migrated,
            _not_send: PhantomData,
        }
    }

    /// True when the closure runs on a different thread from the one that
    /// called `join_context` (it was stolen, or the call came from outside
    /// the pool).
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}
