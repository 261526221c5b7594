//! Mirror files written on one thread of their own, behind the requests
//! that fetched them.
//!
//! A document's file is written through a temporary file and a rename,
//! both of which lock the mirror's directory. Written from the blocking
//! pool as each document arrived, alotta's cold resolution spent 12 % of
//! all CPU samples spinning on that lock (`perf record -a`), and every
//! document reached the walk only after its file was on disk. One writer
//! never contends, and a document is used as soon as it is encoded.

use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use crate::mirror;

type Job = (PathBuf, Arc<Vec<u8>>);

/// Writes mirror files in the order given, on a thread started by the
/// first one; [`MirrorWriter::finish`] (or dropping it) waits for all.
#[derive(Default)]
pub struct MirrorWriter {
    state: Mutex<Option<Running>>,
}

struct Running {
    queue: Sender<Job>,
    thread: JoinHandle<()>,
}

impl MirrorWriter {
    fn lock(&self) -> MutexGuard<'_, Option<Running>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `bytes` to be written to `path` (see [`mirror::write`]).
    pub fn write(&self, path: PathBuf, bytes: Arc<Vec<u8>>) {
        let mut state = self.lock();
        let running = state.get_or_insert_with(|| {
            let (queue, jobs) = channel::<Job>();
            let thread = std::thread::spawn(move || {
                for (path, bytes) in jobs {
                    if let Err(e) = mirror::write(&path, &bytes) {
                        tracing::debug!("could not keep {}: {e}", path.display());
                    }
                }
            });
            Running { queue, thread }
        });
        if let Err(std::sync::mpsc::SendError((path, bytes))) = running.queue.send((path, bytes)) {
            // The writer thread is gone (it panicked): write here.
            drop(state);
            if let Err(e) = mirror::write(&path, &bytes) {
                tracing::debug!("could not keep {}: {e}", path.display());
            }
        }
    }

    /// Waits until every queued file is written.
    pub fn finish(&self) {
        let Some(Running { queue, thread }) = self.lock().take() else {
            return;
        };
        drop(queue);
        if let Err(panic) = thread.join() {
            std::panic::resume_unwind(panic);
        }
    }
}

impl Drop for MirrorWriter {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // Not a second panic while unwinding: leave the thread be.
            self.lock().take();
            return;
        }
        self.finish();
    }
}

#[cfg(test)]
mod tests;
