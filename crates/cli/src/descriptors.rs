//! The process's table of open files, grown before any thread starts.
//!
//! Linux grows the table by doubling (64, 128, 256, 512 entries) and, once
//! threads share it, each growth waits for an RCU grace period
//! (`expand_files` → `synchronize_rcu`). A cold install holds the store's
//! 256 shard directories open besides its sockets and files: three growths,
//! ~5 ms each of the opening thread blocked (`perf sched`, cold alotta after
//! dropped caches). With one thread the growth does not wait.

/// Entries reserved: above what a cold install holds at once.
#[cfg(target_os = "linux")]
const SLOTS: i32 = 512;

/// Grows the table to [`SLOTS`] entries. Call before starting threads; a
/// descriptor limit below it leaves the table as it is.
#[cfg(target_os = "linux")]
pub fn reserve() {
    // SAFETY: `/` is opened as a path only, so that there is a descriptor
    // to copy (stdin, stdout and stderr may be closed); `F_DUPFD_CLOEXEC`
    // copies it to a number of at least `SLOTS - 1`, growing the table to
    // hold it, or fails. Both are closed at once and nothing else sees them.
    unsafe {
        let root = libc::open(c"/".as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
        if root < 0 {
            return;
        }
        let high = libc::fcntl(root, libc::F_DUPFD_CLOEXEC, SLOTS - 1);
        if high >= 0 {
            libc::close(high);
        }
        libc::close(root);
    }
}

#[cfg(not(target_os = "linux"))]
pub fn reserve() {}

#[cfg(test)]
mod tests;
