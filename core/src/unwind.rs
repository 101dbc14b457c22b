//! Carrying panics across threads.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// Runs `func`, turning a panic into an `Err` with its payload. Callers
/// resume the payload on the thread that is owed the result, so no state is
/// observed after the panic by anyone who did not ask for it.
pub(crate) fn halt_unwinding<F: FnOnce() -> R, R>(func: F) -> Result<R, Box<dyn Any + Send>> {
    panic::catch_unwind(AssertUnwindSafe(func))
}

/// Continues a panic caught by `halt_unwinding` on this thread.
pub(crate) fn resume_unwinding(payload: Box<dyn Any + Send>) -> ! {
    panic::resume_unwind(payload)
}

/// Aborts the process if dropped during unwinding: guards code that must not
/// unwind because other threads still point into the current stack.
/// Forget it (`mem::forget`) on the normal path.
pub(crate) struct AbortIfPanic;

impl Drop for AbortIfPanic {
    fn drop(&mut self) {
        eprintln!(
            "drowse: a panic escaped where unwinding would free memory other threads use; aborting"
        );
        std::process::abort();
    }
}
