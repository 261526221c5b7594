//! Backoff for running out of file descriptors (docs/store.md §4.2).

use std::io;
use std::time::Duration;

const MAX_RETRIES: u32 = 32;
const FIRST_DELAY: Duration = Duration::from_millis(2);
const MAX_DELAY: Duration = Duration::from_millis(200);

/// Runs `op`, sleeping 2 ms doubling to 200 ms between attempts while it
/// fails with `EMFILE`/`ENFILE`: other threads will close descriptors soon.
pub(crate) fn on_fd_exhaustion<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let mut delay = FIRST_DELAY;
    let mut retries = 0;
    loop {
        match op() {
            Err(e) if is_fd_exhaustion(&e) && retries < MAX_RETRIES => {
                retries += 1;
                std::thread::sleep(delay);
                delay = (delay * 2).min(MAX_DELAY);
            }
            other => return other,
        }
    }
}

#[cfg(unix)]
fn is_fd_exhaustion(e: &io::Error) -> bool {
    use rustix::io::Errno;
    matches!(
        Errno::from_io_error(e),
        Some(Errno::MFILE) | Some(Errno::NFILE)
    )
}

/// Windows' `ERROR_TOO_MANY_OPEN_FILES`.
#[cfg(not(unix))]
fn is_fd_exhaustion(e: &io::Error) -> bool {
    const ERROR_TOO_MANY_OPEN_FILES: i32 = 4;
    e.raw_os_error() == Some(ERROR_TOO_MANY_OPEN_FILES)
}
