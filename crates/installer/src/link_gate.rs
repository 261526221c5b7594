//! What holds every write into the project until the lockfile has passed
//! its verification and the previous tree has been cleared for this plan
//! (docs/supply-chain.md §8). Downloads and extraction into the store run
//! while it is closed; imports wait for it.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Condvar, Mutex};

use crate::InstallError;

const CLOSED: u8 = 0;
const OPEN: u8 = 1;
const OPEN_FRESH: u8 = 2;
const FAILED: u8 = 3;

pub(crate) struct LinkGate {
    state: AtomicU8,
    lock: Mutex<()>,
    changed: Condvar,
}

impl LinkGate {
    pub(crate) fn new() -> LinkGate {
        LinkGate {
            state: AtomicU8::new(CLOSED),
            lock: Mutex::new(()),
            changed: Condvar::new(),
        }
    }

    /// Lets imports proceed; `fresh`: the virtual store did not exist, so
    /// no package directory holds an earlier import.
    pub(crate) fn open(&self, fresh: bool) {
        self.set(if fresh { OPEN_FRESH } else { OPEN });
    }

    /// Stops every waiting and later import with an error (the caller
    /// reports the reason).
    pub(crate) fn fail(&self) {
        self.set(FAILED);
    }

    fn set(&self, state: u8) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.state.store(state, Ordering::Release);
        self.changed.notify_all();
    }

    /// Whether imports may proceed now, without waiting.
    pub(crate) fn is_open(&self) -> bool {
        matches!(self.state.load(Ordering::Acquire), OPEN | OPEN_FRESH)
    }

    /// Waits until the gate opens; returns whether the tree is fresh.
    pub(crate) fn wait(&self) -> Result<bool, InstallError> {
        let mut state = self.state.load(Ordering::Acquire);
        if state == CLOSED {
            let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                state = self.state.load(Ordering::Acquire);
                if state != CLOSED {
                    break;
                }
                guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
        }
        match state {
            OPEN => Ok(false),
            OPEN_FRESH => Ok(true),
            _ => Err(InstallError::Internal {
                what: "the install was stopped before linking".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests;
