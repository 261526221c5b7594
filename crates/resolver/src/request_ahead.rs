//! Registry requests started ahead of the walk. The walk names a
//! package's dependencies as soon as it picks the package; their documents
//! are requested at once, on a thread of their own, instead of when the walk
//! reaches the next level. The walk then waits for each document only when
//! it picks that dependency, so one slow answer holds up one package, not
//! the whole level.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

pub(crate) struct RequestAhead {
    sender: Mutex<Option<UnboundedSender<String>>>,
    /// Shared by the workers: the one holding it waits for the next name,
    /// the others for it (each name goes to one worker).
    receiver: tokio::sync::Mutex<UnboundedReceiver<String>>,
    /// Every name taken by a worker.
    seen: Mutex<HashSet<String>>,
}

impl Default for RequestAhead {
    fn default() -> Self {
        let (sender, receiver) = unbounded_channel();
        RequestAhead {
            sender: Mutex::new(Some(sender)),
            receiver: tokio::sync::Mutex::new(receiver),
            seen: Mutex::default(),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl RequestAhead {
    /// Queues a request for `name`; nothing once closed.
    pub fn push(&self, name: &str) {
        if let Some(sender) = lock(&self.sender).as_ref() {
            // Fails only when the worker is gone: then nobody asks ahead.
            let _ = sender.send(name.to_owned());
        }
    }

    /// Runs `request` for every name queued, each name once, all at once,
    /// until [`RequestAhead::close`]; requests still running then are
    /// dropped. Callers on several threads share the names, so what a
    /// request does after its answer (parsing the document) runs on
    /// several cores.
    pub async fn work<F, Fut>(&self, request: F)
    where
        F: Fn(String) -> Fut,
        Fut: Future<Output = ()>,
    {
        let mut running = FuturesUnordered::new();
        loop {
            let next = async { self.receiver.lock().await.recv().await };
            tokio::select! {
                Some(()) = running.next(), if !running.is_empty() => {}
                name = next => match name {
                    Some(name) => {
                        if lock(&self.seen).insert(name.clone()) {
                            running.push(request(name));
                        }
                    }
                    None => return,
                },
            }
        }
    }

    /// Ends [`RequestAhead::work`].
    pub fn close(&self) {
        lock(&self.sender).take();
    }

    /// The names queued and not taken by [`RequestAhead::work`].
    #[cfg(test)]
    pub fn waiting(&self) -> Vec<String> {
        let mut names = Vec::new();
        if let Ok(mut receiver) = self.receiver.try_lock() {
            while let Ok(name) = receiver.try_recv() {
                names.push(name);
            }
        }
        names
    }
}

#[cfg(test)]
mod tests;
