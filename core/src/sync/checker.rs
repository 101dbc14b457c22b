//! What the two checker worlds, loom and shuttle, share: the check that
//! the checker's feature is on, the thread-locals that live in a model,
//! the panic of a call outside a model, and the parallelism of a pool
//! built with default settings.

// The checkers are optional dependencies, so that a normal build (and a
// user's lock file) never resolves them; a checker world needs its feature.
#[cfg(any(
    all(loom, not(feature = "loom")),
    all(shuttle, not(feature = "shuttle"))
))]
macro_rules! checker_feature_missing {
    ($checker:literal) => {
        compile_error!(concat!(
            "drowse is built with `--cfg ",
            $checker,
            "` but without its `",
            $checker,
            "` feature, which brings in ",
            $checker,
            ". Enable it where you depend on Drowse, ",
            "for that world only: `[target.'cfg(",
            $checker,
            ")'.dependencies] drowse = ",
            "{ path = \"...\", features = [\"",
            $checker,
            "\"] }`, or, through the compat ",
            "package, `rayon-core = { version = \"1.13\", features = [\"",
            $checker,
            "\"] }` ",
            "(docs/checking.md, \"Model-checking rayon code\")"
        ));
    };
}
#[cfg(all(loom, not(feature = "loom")))]
checker_feature_missing!("loom");
#[cfg(all(shuttle, not(feature = "shuttle")))]
checker_feature_missing!("shuttle");

/// The checker worlds' `thread_local!`: a [`ModelLocalKey`], whose value
/// lives in the thread's one checker thread-local (see `model_local`): a
/// use outside a model (or from a model of another version of the checker)
/// gives [`outside_model`]'s message instead of the checker's own, and a
/// thread's values are dropped in an order the schedule alone decides. The
/// thread-locals of the pool are what any call into Drowse touches first
/// (`WorkerThread::current`).
///
/// [`ModelLocalKey`]: super::ModelLocalKey
macro_rules! model_thread_local {
    // std's `const { .. }` initialiser (which only spares std's first-use
    // check): a model's thread-local is created on first use either way.
    ($($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = const $init:block;)+) => {
        $crate::sync::thread_local! {$($(#[$attr])* $vis static $name: $t = $init;)+}
    };
    ($($(#[$attr:meta])* $vis:vis static $name:ident: $t:ty = $init:expr;)+) => {$(
        $(#[$attr])* $vis static $name: $crate::sync::ModelLocalKey<$t> =
            $crate::sync::ModelLocalKey::new({
                fn init() -> $t {
                    $init
                }
                init
            });
    )+};
}
pub(crate) use model_thread_local as thread_local;

/// The panic of a checker build used outside a model of the checker it was
/// built against: the checker's own message (shuttle's "ExecutionState is
/// not set", loom's "cannot access Loom execution state") names neither
/// Drowse nor versions.
#[cold]
#[track_caller]
pub(super) fn outside_model() -> ! {
    let (world, version, entry) = (
        super::WORLD,
        super::world::CHECKER_VERSION,
        super::world::MODEL_ENTRY,
    );
    panic!(
        "drowse was built with `--cfg {world}` against {world} {version}, and was called \
         outside a {world} {version} model. Under `--cfg {world}`, every use of Drowse (and of \
         rayon over Drowse's rayon-core) must run inside {entry} of {world} {version}. If the \
         call is inside one, your crate depends on another version of {world}: cargo treats \
         each minor version as another crate, and Drowse cannot see its models; depend on \
         {world} = \"{version}\" (`cargo tree -i {world}` must show one {world} {version}.x). \
         Doctests run outside any model: under `--cfg {world}`, test with `cargo test --tests`. \
         See docs/checking.md, \"Model-checking rayon code\"."
    )
}

/// The machine's parallelism as a model sees it: a pool built with default
/// settings (the global pool, say) under loom or shuttle gets 2 workers,
/// whatever the machine running the checker has (`RAYON_NUM_THREADS` still
/// overrides it). Two is the smallest pool in which workers steal from each
/// other and wake each other, which is what the protocol is about; loom runs
/// at most 5 threads, so two workers leave the model's main thread room for
/// two more; and each extra worker multiplies the executions to explore. A
/// count taken from the machine would also make a model's search depend on
/// where it runs.
pub(super) const CHECKER_PARALLELISM: std::num::NonZeroUsize = match std::num::NonZeroUsize::new(2)
{
    Some(two) => two,
    None => unreachable!(),
};
