//! What a command is done with: freed now, or left to the process's exit.
//!
//! An install or a resolution ends by freeing what it built (lockfiles,
//! plans, registry documents, graphs): millions of small allocations, one
//! at a time, on the thread that still has the state files or the lockfile
//! to write. Profiled on alotta (`perf`, six runs each), that freeing was
//! ~8 % of a warm resolution's CPU and ~6 % of a lockfile-change install's,
//! all of it after the other core had nothing left to do. The exit returns
//! the memory to the kernel in one piece instead.
//!
//! Only the CLI says the process exits after the command
//! ([`exit_frees`]); a library caller (the tests, which install many times
//! in one process) gets every value dropped as usual. Only plain data goes
//! through [`discard`]: a value whose drop does something (a writer that
//! flushes, a lock file that is removed, a thread that is joined) is
//! finished by its owner first.

use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(test)]
mod tests;

static EXIT_FREES: AtomicBool = AtomicBool::new(false);

/// Declares that the process exits once its command is done, so what the
/// command discards need not be freed before.
pub fn exit_frees() {
    EXIT_FREES.store(true, Ordering::Relaxed);
}

/// Whether [`exit_frees`] was called.
pub fn left_to_exit() -> bool {
    EXIT_FREES.load(Ordering::Relaxed)
}

/// Drops `value`, or leaves it for the process's exit (see [`exit_frees`]).
pub fn discard<T>(value: T) {
    if left_to_exit() {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}
