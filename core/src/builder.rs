//! `ThreadPoolBuilder`, the deprecated `Configuration` and `initialize`, and
//! the errors a build can end with.

use crate::registry;
use crate::sleep::JecWidth;
use crate::thread_builder::{CustomSpawn, DefaultSpawn, ThreadBuilder, ThreadSpawn};
use crate::ThreadPool;
use std::any::Any;
use std::error::Error;
use std::fmt;
use std::io;
use std::str::FromStr;

/// Builds a [`ThreadPool`] or configures the global pool.
///
/// ```
/// let pool = drowse::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
/// assert_eq!(pool.current_num_threads(), 3);
/// ```
///
/// The type parameter says how worker threads are started: by default with
/// a thread builder of the current world, or by the closure given to
/// [`spawn_handler`](Self::spawn_handler).
pub struct ThreadPoolBuilder<S = DefaultSpawn> {
    pub(crate) num_threads: usize,
    pub(crate) use_current_thread: bool,
    pub(crate) thread_name: Option<Box<dyn FnMut(usize) -> String>>,
    pub(crate) stack_size: Option<usize>,
    pub(crate) panic_handler: Option<Box<PanicHandler>>,
    pub(crate) start_handler: Option<Box<ThreadHandler>>,
    pub(crate) exit_handler: Option<Box<ThreadHandler>>,
    pub(crate) spawn_handler: S,
    pub(crate) breadth_first: bool,
    /// The jobs event counter's width (`internals` only; `None`: the full
    /// width).
    #[cfg(feature = "internals")]
    pub(crate) jec_bits: Option<u32>,
    pub(crate) search_rounds_before_sleep: u32,
}

/// Receives the payload of a spawned job's panic.
pub(crate) type PanicHandler = dyn Fn(Box<dyn Any + Send>) + Send + Sync;
/// Runs on a worker thread with its index, at start or exit.
pub(crate) type ThreadHandler = dyn Fn(usize) + Send + Sync;

impl Default for ThreadPoolBuilder {
    fn default() -> Self {
        ThreadPoolBuilder {
            num_threads: 0,
            use_current_thread: false,
            thread_name: None,
            stack_size: None,
            panic_handler: None,
            start_handler: None,
            exit_handler: None,
            spawn_handler: DefaultSpawn,
            breadth_first: false,
            #[cfg(feature = "internals")]
            jec_bits: None,
            search_rounds_before_sleep: crate::sync::DEFAULT_SEARCH_ROUNDS_BEFORE_SLEEP,
        }
    }
}

impl ThreadPoolBuilder {
    /// A builder with default settings: one thread per available CPU (see
    /// [`num_threads`](Self::num_threads)), no names, default stack size, no
    /// handlers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds a pool whose threads are scoped threads of the current world
    /// (`std::thread::scope` in a normal build), runs `with_pool` with it,
    /// and returns after the pool has been dropped and every one of its
    /// threads has exited. The threads may therefore borrow from the
    /// caller's stack.
    ///
    /// Each thread runs `wrapper` with its [`ThreadBuilder`]; `wrapper` may
    /// set things up around the worker and must call
    /// [`ThreadBuilder::run`], which returns when the pool has ended.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let started = AtomicUsize::new(0); // borrowed by the pool's threads
    /// let sum = drowse::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .build_scoped(
    ///         |thread| {
    ///             started.fetch_add(1, Ordering::Relaxed);
    ///             thread.run()
    ///         },
    ///         |pool| pool.install(|| drowse::join(|| 1, || 2)),
    ///     )
    ///     .unwrap();
    /// assert_eq!(sum, (1, 2));
    /// assert_eq!(started.into_inner(), 2);
    /// ```
    ///
    /// # Errors
    /// As [`build`](Self::build).
    ///
    /// # Panics
    /// Under loom, which has no scoped threads.
    pub fn build_scoped<W, F, R>(self, wrapper: W, with_pool: F) -> Result<R, ThreadPoolBuildError>
    where
        W: Fn(ThreadBuilder) + Sync,
        F: FnOnce(&ThreadPool) -> R,
    {
        crate::sync::thread::scope(|scope| {
            let wrapper = &wrapper;
            let pool = self
                .spawn_handler(|thread| {
                    let name = thread.name().map(str::to_owned);
                    let stack_size = thread.stack_size();
                    crate::sync::thread::spawn_scoped(scope, name, stack_size, move || {
                        wrapper(thread)
                    })
                })
                .build()?;
            Ok(with_pool(&pool))
        })
    }
}

impl<S: ThreadSpawn> ThreadPoolBuilder<S> {
    /// Builds a new pool. Returns once every worker thread has been started
    /// (or handed to the spawn handler).
    ///
    /// # Errors
    /// A thread that could not be started (the spawn handler's error), an
    /// invalid jobs event counter width (`internals` only), or
    /// [`use_current_thread`](Self::use_current_thread) on a thread that is
    /// already a worker of a pool. On any error, and on a panic (of a
    /// [`thread_name`](Self::thread_name) closure, say), the workers that
    /// had been started are ended and waited for before `build` returns or
    /// unwinds; the [`ThreadBuilder`]s already given to a spawn handler must
    /// have run or been dropped by then.
    pub fn build(self) -> Result<ThreadPool, ThreadPoolBuildError> {
        ThreadPool::build(self)
    }

    /// Builds the global pool, which `join`, `scope` and `spawn` use outside
    /// any pool. Returns once every worker thread has started running.
    ///
    /// The global pool is built once per process: by the first successful or
    /// failed call of `build_global`, or with default settings on first use.
    /// After that, `build_global` returns an error. If the build itself
    /// fails, the global pool stays unbuilt for good, and using it panics.
    /// (Under loom and shuttle: once per execution of the model; see the
    /// [crate documentation](crate#under-loom-and-shuttle).)
    ///
    /// # Errors
    /// As [`build`](Self::build), and an error if the global pool was built
    /// (or its build was attempted) already.
    pub fn build_global(self) -> Result<(), ThreadPoolBuildError> {
        registry::init_global_registry(self)
    }
}

impl<S> ThreadPoolBuilder<S> {
    /// Replaces the way worker threads are started: `spawn` is called once
    /// per thread (except the current thread under
    /// [`use_current_thread`](Self::use_current_thread)), in index order,
    /// and must arrange for [`ThreadBuilder::run`] to be called on a thread
    /// of its choosing. An error from `spawn` fails the build.
    ///
    /// The threads stay in the pool until it ends; waiting for them to exit
    /// is up to `spawn`'s caller ([`ThreadPool::shutdown_and_wait`] waits
    /// for their `run` calls to return).
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .spawn_handler(|thread| {
    ///         std::thread::Builder::new()
    ///             .name(format!("my-worker-{}", thread.index()))
    ///             .spawn(|| thread.run())?;
    ///         Ok(())
    ///     })
    ///     .build()
    ///     .unwrap();
    /// let name = pool.install(|| std::thread::current().name().map(str::to_owned));
    /// assert!(name.unwrap().starts_with("my-worker-"));
    /// ```
    pub fn spawn_handler<F>(self, spawn: F) -> ThreadPoolBuilder<CustomSpawn<F>>
    where
        F: FnMut(ThreadBuilder) -> io::Result<()>,
    {
        ThreadPoolBuilder {
            num_threads: self.num_threads,
            use_current_thread: self.use_current_thread,
            thread_name: self.thread_name,
            stack_size: self.stack_size,
            panic_handler: self.panic_handler,
            start_handler: self.start_handler,
            exit_handler: self.exit_handler,
            spawn_handler: CustomSpawn::new(spawn),
            breadth_first: self.breadth_first,
            #[cfg(feature = "internals")]
            jec_bits: self.jec_bits,
            search_rounds_before_sleep: self.search_rounds_before_sleep,
        }
    }

    /// The number of worker threads. Zero (the default) means: the value of
    /// the `RAYON_NUM_THREADS` environment variable when it is a number
    /// (written exactly as a `usize`, without spaces) greater than zero;
    /// otherwise, when `RAYON_NUM_THREADS` is not such a number and not
    /// `0`, the value of the older `RAYON_RS_NUM_CPUS` when it is one;
    /// otherwise the machine's available parallelism (under loom and
    /// shuttle: 2, the model's).
    ///
    /// More threads than [`max_num_threads`](crate::max_num_threads) are
    /// reduced to that maximum.
    pub fn num_threads(mut self, num_threads: usize) -> Self {
        self.num_threads = num_threads;
        self
    }

    /// Makes the thread that calls `build` worker 0 of the new pool, instead
    /// of starting a thread for it. The start and exit handlers do not run
    /// for it, and it runs the pool's jobs only while it waits inside the
    /// pool (in `join`, `scope`, `install` of this pool, ...), not on its
    /// own: the other workers pick up the pool's jobs meanwhile.
    ///
    /// The thread stays worker 0 for the rest of its life. When it exits,
    /// its worker is dropped with its thread-locals, and the pool's shared
    /// state is freed once nothing else holds it (a pool handle, another
    /// worker, a latch, a waiter). Where thread-local destructors do not run
    /// (the main thread on some platforms), worker 0 and the shared state
    /// stay allocated until the process ends, as in rayon-core, which never
    /// frees them. Building fails if the thread is already a worker of a
    /// pool.
    pub fn use_current_thread(mut self) -> Self {
        self.use_current_thread = true;
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

    /// Makes each worker run the jobs on its own deque oldest first instead
    /// of newest first. (Stealing takes the oldest job either way.)
    #[deprecated(note = "use `scope_fifo` and `spawn_fifo` for similar effect")]
    pub fn breadth_first(mut self) -> Self {
        self.breadth_first = true;
        self
    }

    /// Receives the panics of spawned jobs and of the start and exit
    /// handlers. Without one, such a panic aborts the process. A panic in
    /// the handler itself aborts too.
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
    /// most `JecWidth::MAX_BITS`, the default). Narrow counters roll over
    /// quickly: the model checkers use 1 to 3 bits to show that the protocol
    /// stays correct through rollover. Only the `internals` feature has it.
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn jobs_event_counter_bits(mut self, bits: u32) -> Self {
        self.jec_bits = Some(bits);
        self
    }

    /// How long a worker that has run out of work keeps looking before it
    /// goes to sleep: it searches every queue up to `rounds` times, yielding
    /// its time slice after each fruitless search, then announces that it is
    /// about to sleep, searches once more, and sleeps. The default is 32, as
    /// in rayon-core. Each worker starts with the full `rounds` and adapts:
    /// after a sleep that lasted much longer than a full search (four times
    /// as long) it searches half as long next time (down to one round);
    /// after a sleep shorter than the search before it, twice as long (up to
    /// four times `rounds`, while such a search lasts under 50 us); after
    /// any other sleep, or a sleep attempt that met new work, at least the
    /// full `rounds` again. So a pool that gets work now and then sleeps
    /// after a round or two, and one that gets a job just after each of its
    /// searches gives up searches a little longer and meets it awake.
    /// Drowse's own; rayon-core has no such setting.
    ///
    /// The number is a tuning knob, not part of the protocol's correctness:
    /// the proof holds for every value of at least 1, and every execution
    /// with more rounds has a counterpart with one round that does the same
    /// to shared state (`docs/proof.md`, lemma 0). That is why the default is
    /// 1 when built under loom or shuttle (`--cfg loom`, `--cfg shuttle`):
    /// each round is a search the checker would otherwise explore, and a
    /// pool with 32 rounds, the global pool included, is more than loom can
    /// explore.
    ///
    /// Zero is rejected by [`build`](Self::build) with an error: a worker
    /// always searches once before it announces that it is sleepy.
    ///
    /// ```
    /// let pool = drowse::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .search_rounds_before_sleep(4)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pool.install(|| 6 * 7), 42);
    ///
    /// let error = drowse::ThreadPoolBuilder::new()
    ///     .search_rounds_before_sleep(0)
    ///     .build()
    ///     .unwrap_err();
    /// assert!(error.to_string().contains("at least 1"));
    /// ```
    #[cfg(feature = "extensions")]
    pub fn search_rounds_before_sleep(mut self, rounds: u32) -> Self {
        self.search_rounds_before_sleep = rounds;
        self
    }

    /// The number of workers the pool gets: the requested or default number,
    /// reduced to the most the sleep counters can count.
    pub(crate) fn resolved_num_threads(&self) -> usize {
        Ord::min(self.requested_num_threads(), crate::max_num_threads())
    }

    fn requested_num_threads(&self) -> usize {
        if self.num_threads > 0 {
            return self.num_threads;
        }
        let available = || {
            crate::sync::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        };
        // Parsed exactly, as rayon-core parses them: " 4" is not a number.
        let from_env = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|text| usize::from_str(&text).ok())
        };
        match from_env("RAYON_NUM_THREADS") {
            Some(0) => available(),
            Some(count) => count,
            None => match from_env("RAYON_RS_NUM_CPUS") {
                Some(count) if count > 0 => count,
                _ => available(),
            },
        }
    }

    #[cfg(not(feature = "internals"))]
    pub(crate) fn jec_width(&self) -> Result<JecWidth, ThreadPoolBuildError> {
        Ok(JecWidth::FULL)
    }

    #[cfg(feature = "internals")]
    pub(crate) fn jec_width(&self) -> Result<JecWidth, ThreadPoolBuildError> {
        match self.jec_bits {
            None => Ok(JecWidth::FULL),
            Some(bits) => JecWidth::new(bits).ok_or_else(|| {
                ThreadPoolBuildError::new(ErrorKind::InvalidJecBits {
                    requested: bits,
                    max: JecWidth::MAX_BITS,
                })
            }),
        }
    }

    pub(crate) fn checked_search_rounds_before_sleep(&self) -> Result<u32, ThreadPoolBuildError> {
        if self.search_rounds_before_sleep == 0 {
            return Err(ThreadPoolBuildError::new(ErrorKind::NoSearchRounds));
        }
        Ok(self.search_rounds_before_sleep)
    }

    pub(crate) fn name_for_thread(&mut self, index: usize) -> Option<String> {
        self.thread_name.as_mut().map(|name| name(index))
    }
}

#[cfg(test)]
impl ThreadPoolBuilder {
    /// `num_threads` workers that search once before getting sleepy: the
    /// builder of the in-crate tests that run under `crate::sync::model`,
    /// where every extra search round multiplies the schedules to explore
    /// and adds no protocol state (docs/proof.md, lemma 0).
    pub(crate) fn for_model(num_threads: usize) -> Self {
        ThreadPoolBuilder::new()
            .num_threads(num_threads)
            .search_rounds_before_sleep(1)
    }
}

impl<S> fmt::Debug for ThreadPoolBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Shown for a closure that was set.
        struct Closure;
        impl fmt::Debug for Closure {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("<closure>")
            }
        }
        let closure = |set: bool| set.then_some(Closure);
        let mut debug = f.debug_struct("ThreadPoolBuilder");
        debug
            .field("num_threads", &self.num_threads)
            .field("use_current_thread", &self.use_current_thread)
            .field("get_thread_name", &closure(self.thread_name.is_some()))
            .field("panic_handler", &closure(self.panic_handler.is_some()))
            .field("stack_size", &self.stack_size)
            .field("start_handler", &closure(self.start_handler.is_some()))
            .field("exit_handler", &closure(self.exit_handler.is_some()))
            .field("breadth_first", &self.breadth_first)
            // Drowse's own public setting, beyond rayon-core's fields.
            .field(
                "search_rounds_before_sleep",
                &self.search_rounds_before_sleep,
            );
        #[cfg(feature = "internals")]
        debug.field("jobs_event_counter_bits", &self.jec_bits);
        debug.finish()
    }
}

/// The settings of a pool, from before [`ThreadPoolBuilder`] existed.
#[deprecated(note = "Use `ThreadPoolBuilder`")]
#[derive(Default)]
pub struct Configuration {
    builder: ThreadPoolBuilder,
}

#[allow(deprecated)]
impl Configuration {
    /// Default settings, as [`ThreadPoolBuilder::new`].
    pub fn new() -> Configuration {
        Configuration::default()
    }

    /// [`ThreadPoolBuilder::build`], with the error boxed.
    pub fn build(self) -> Result<ThreadPool, Box<dyn Error + 'static>> {
        self.builder.build().map_err(Box::from)
    }

    /// [`ThreadPoolBuilder::thread_name`].
    pub fn thread_name<F>(mut self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.builder = self.builder.thread_name(closure);
        self
    }

    /// [`ThreadPoolBuilder::num_threads`].
    pub fn num_threads(mut self, num_threads: usize) -> Configuration {
        self.builder = self.builder.num_threads(num_threads);
        self
    }

    /// [`ThreadPoolBuilder::panic_handler`].
    pub fn panic_handler<H>(mut self, panic_handler: H) -> Configuration
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.builder = self.builder.panic_handler(panic_handler);
        self
    }

    /// [`ThreadPoolBuilder::stack_size`].
    pub fn stack_size(mut self, stack_size: usize) -> Self {
        self.builder = self.builder.stack_size(stack_size);
        self
    }

    /// [`ThreadPoolBuilder::breadth_first`].
    pub fn breadth_first(mut self) -> Self {
        self.builder = self.builder.breadth_first();
        self
    }

    /// [`ThreadPoolBuilder::start_handler`].
    pub fn start_handler<H>(mut self, start_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.builder = self.builder.start_handler(start_handler);
        self
    }

    /// [`ThreadPoolBuilder::exit_handler`].
    pub fn exit_handler<H>(mut self, exit_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.builder = self.builder.exit_handler(exit_handler);
        self
    }

    pub(crate) fn into_builder(self) -> ThreadPoolBuilder {
        self.builder
    }
}

#[allow(deprecated)]
impl fmt::Debug for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.builder.fmt(f)
    }
}

/// [`ThreadPoolBuilder::build_global`] for a [`Configuration`], with the
/// error boxed.
#[deprecated(note = "use `ThreadPoolBuilder::build_global`")]
#[allow(deprecated)]
pub fn initialize(config: Configuration) -> Result<(), Box<dyn Error>> {
    config.into_builder().build_global().map_err(Box::from)
}

/// Why a pool could not be built.
#[derive(Debug)]
pub struct ThreadPoolBuildError {
    kind: ErrorKind,
}

#[derive(Debug)]
pub(crate) enum ErrorKind {
    GlobalPoolAlreadyInitialized,
    CurrentThreadAlreadyInPool,
    /// Drowse's own: a jobs event counter width outside `1..=max`
    /// (`internals` only).
    #[cfg(feature = "internals")]
    InvalidJecBits {
        requested: u32,
        max: u32,
    },
    /// Drowse's own: `search_rounds_before_sleep(0)`.
    NoSearchRounds,
    Io(io::Error),
}

/// rayon-core's text for the same error.
const GLOBAL_POOL_ALREADY_INITIALIZED: &str =
    "The global thread pool has already been initialized.";
/// rayon-core's text for the same error.
const CURRENT_THREAD_ALREADY_IN_POOL: &str =
    "The current thread is already part of another thread pool.";

impl ThreadPoolBuildError {
    pub(crate) fn new(kind: ErrorKind) -> Self {
        ThreadPoolBuildError { kind }
    }

    /// The error says that this target cannot start threads at all.
    pub(crate) fn is_unsupported(&self) -> bool {
        matches!(&self.kind, ErrorKind::Io(error) if error.kind() == io::ErrorKind::Unsupported)
    }
}

impl fmt::Display for ThreadPoolBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::GlobalPoolAlreadyInitialized => GLOBAL_POOL_ALREADY_INITIALIZED.fmt(f),
            ErrorKind::CurrentThreadAlreadyInPool => CURRENT_THREAD_ALREADY_IN_POOL.fmt(f),
            #[cfg(feature = "internals")]
            ErrorKind::InvalidJecBits { requested, max } => write!(
                f,
                "a jobs event counter of {requested} bits was requested; it must have 1 to {max} bits"
            ),
            ErrorKind::NoSearchRounds => f.write_str(
                "search_rounds_before_sleep must be at least 1: a worker searches once before it gets sleepy",
            ),
            // As rayon-core: the I/O error's own text (it is also the source).
            ErrorKind::Io(error) => error.fmt(f),
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
