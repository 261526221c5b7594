//! A queue of package names whose registry documents are read ahead of
//! the walk. The walk names a package's dependencies as it picks and
//! records the package; reader threads read their kept documents while it goes on
//! with the rest of the level, and the walker helps empty the queue when
//! it needs the next level's documents.

use std::collections::{HashSet, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

#[derive(Default)]
pub(crate) struct ReadAhead {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    queue: VecDeque<String>,
    /// Every name ever queued: each is read once.
    queued: HashSet<String>,
    /// Names taken from the queue and not read yet.
    reading: usize,
    /// Threads waiting on `changed`: a notification with none is a wasted
    /// system call (one per name queued, 2,508 on alotta).
    waiting: usize,
    closed: bool,
}

impl ReadAhead {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `name` unless it was queued before.
    pub fn push(&self, name: &str) {
        let mut state = self.lock();
        if state.closed || state.queued.contains(name) {
            return;
        }
        state.queued.insert(name.to_owned());
        state.queue.push_back(name.to_owned());
        let waiting = state.waiting > 0;
        drop(state);
        if waiting {
            self.changed.notify_one();
        }
    }

    /// Waits on `changed`, counted in `waiting`.
    fn wait<'s>(&'s self, mut state: MutexGuard<'s, State>) -> MutexGuard<'s, State> {
        state.waiting += 1;
        let mut state = self
            .changed
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner);
        state.waiting -= 1;
        state
    }

    /// Reads queued names with `read` until the queue is empty, then waits
    /// until no reader thread is still reading one: afterwards every name
    /// queued so far has been read.
    pub fn drain(&self, read: impl Fn(&str)) {
        let mut state = self.lock();
        loop {
            let (relocked, read_one) = self.read_next(state, &read);
            state = relocked;
            if !read_one {
                break;
            }
        }
        while state.reading > 0 {
            state = self.wait(state);
        }
    }

    /// A reader thread: reads names with `read` as they are queued, until
    /// [`ReadAhead::close`].
    pub fn work(&self, read: impl Fn(&str)) {
        let mut state = self.lock();
        loop {
            let (relocked, read_one) = self.read_next(state, &read);
            state = relocked;
            if read_one {
                continue;
            }
            if state.closed {
                return;
            }
            state = self.wait(state);
        }
    }

    /// Takes the next queued name and reads it with `read`, unlocked
    /// meanwhile and counted in `reading` until the read ends (also by a
    /// panic). Returns the lock, and whether a name was read (none when
    /// the queue is empty).
    fn read_next<'s>(
        &'s self,
        mut state: MutexGuard<'s, State>,
        read: &impl Fn(&str),
    ) -> (MutexGuard<'s, State>, bool) {
        let Some(name) = state.queue.pop_front() else {
            return (state, false);
        };
        state.reading += 1;
        drop(state);
        let reading = Reading(self);
        read(&name);
        drop(reading);
        (self.lock(), true)
    }

    /// The names queued and not read yet.
    #[cfg(test)]
    pub fn waiting(&self) -> Vec<String> {
        self.lock().queue.iter().cloned().collect()
    }

    /// Ends the reader threads once the queue is empty; names queued later
    /// are not read ahead.
    pub fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }
}

/// A name being read: counted off when the read ends, also by a panic,
/// so a `drain` waiting for it does not wait forever.
struct Reading<'r>(&'r ReadAhead);

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.reading -= 1;
        let waiting = state.waiting > 0;
        drop(state);
        // `drain` may be waiting for the last one.
        if waiting {
            self.0.changed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests;
