//! Jobs that must run one at a time, handed over instead of waited for: a
//! thread that finds one running queues its job and goes back to other
//! work; the running thread takes the queued ones before it leaves.
//!
//! Cold installs use it for tarballs that inflate into the one large
//! buffer (`pacquet_tarball::needs_large_buffer`). Extraction threads that
//! waited for that buffer left the CPU idle: a cold alotta install spent
//! 850 ms of thread time blocked there and ran on one core for 300 ms
//! (`perf sched`, samples per 100 ms). Queued instead: 2.94 → 2.70 CPU-s,
//! 1.73 → 1.66 s (`perf stat`, 5 interleaved pairs after dropped caches).
//! Streaming those archives instead of waiting cost 0.1–0.2 s more CPU.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(test)]
mod tests;

pub(crate) struct OneAtATime<T> {
    queued: Mutex<VecDeque<T>>,
    running: AtomicBool,
}

impl<T> OneAtATime<T> {
    pub(crate) fn new() -> Self {
        OneAtATime {
            queued: Mutex::new(VecDeque::new()),
            running: AtomicBool::new(false),
        }
    }

    /// Runs `job` with `run` now, or leaves it to the thread running one
    /// (which then runs it before returning). The first error stops this
    /// thread's turn and is returned; jobs still queued stay for the next
    /// `submit` (the caller abandons them when it fails).
    pub(crate) fn submit<E>(&self, job: T, run: impl Fn(T) -> Result<(), E>) -> Result<(), E> {
        self.lock().push_back(job);
        // Whoever clears `running` looks at the queue again afterwards, so
        // a job queued while it was finishing is never left behind.
        while !self.running.swap(true, Ordering::AcqRel) {
            let turn = self.drain(&run);
            self.running.store(false, Ordering::Release);
            turn?;
            if self.lock().is_empty() {
                break;
            }
        }
        Ok(())
    }

    fn drain<E>(&self, run: &impl Fn(T) -> Result<(), E>) -> Result<(), E> {
        loop {
            // Jobs run in the order they came.
            let next = self.lock().pop_front();
            match next {
                Some(job) => run(job)?,
                None => return Ok(()),
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<T>> {
        self.queued.lock().unwrap_or_else(|e| e.into_inner())
    }
}
