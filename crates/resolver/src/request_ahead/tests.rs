use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::Barrier;

use super::RequestAhead;

/// Fails instead of hanging when `work` does not return.
async fn within<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), future)
        .await
        .expect("timed out")
}

#[tokio::test]
async fn each_name_is_requested_once_and_all_run_at_once() {
    let ahead = RequestAhead::default();
    for name in ["a", "b", "a", "c", "b"] {
        ahead.push(name);
    }
    // Every request waits for the other two to start: run one after the
    // other, none would finish.
    let barrier = Arc::new(Barrier::new(3));
    let asked = Arc::new(Mutex::new(Vec::new()));
    let work = ahead.work(|name| {
        let barrier = Arc::clone(&barrier);
        let asked = Arc::clone(&asked);
        async move {
            asked.lock().unwrap().push(name);
            barrier.wait().await;
        }
    });
    let finished = async {
        while asked.lock().unwrap().len() < 3 {
            tokio::task::yield_now().await;
        }
        // Let the requests pass the barrier, then stop the worker.
        tokio::time::sleep(Duration::from_millis(20)).await;
        ahead.close();
    };
    within(async { tokio::join!(work, finished) }).await;
    let mut asked = asked.lock().unwrap().clone();
    asked.sort();
    assert_eq!(asked, ["a", "b", "c"]);
}

#[tokio::test]
async fn closing_ends_the_work_with_requests_still_running() {
    let ahead = RequestAhead::default();
    ahead.push("never-answers");
    let work = ahead.work(|_| std::future::pending::<()>());
    let close = async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        ahead.close();
    };
    within(async { tokio::join!(work, close) }).await;
    // Closed: later names are not queued.
    ahead.push("late");
}

/// Two workers on two threads share the names, each requested once: while
/// one worker's thread is blocked inside a request, the other takes the
/// names queued meanwhile.
#[test]
fn two_workers_share_the_names() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ahead = RequestAhead::default();
    let asked = Mutex::new(Vec::new());
    let others_asked = std::sync::Condvar::new();
    std::thread::scope(|s| {
        let worker = || {
            runtime.block_on(within(ahead.work(|name| {
                let mut names = asked.lock().unwrap();
                names.push(name.clone());
                others_asked.notify_all();
                if name == "blocks" {
                    // Returns only once `a` and `b` were asked, which the
                    // other worker alone can do now.
                    let (names, timeout) = others_asked
                        .wait_timeout_while(names, Duration::from_secs(10), |n| n.len() < 3)
                        .unwrap();
                    assert!(!timeout.timed_out(), "asked only {names:?}");
                }
                std::future::ready(())
            })))
        };
        let first = s.spawn(worker);
        let second = s.spawn(worker);
        ahead.push("blocks");
        while asked.lock().unwrap().is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
        for name in ["a", "b", "a", "blocks"] {
            ahead.push(name);
        }
        while asked.lock().unwrap().len() < 3 {
            std::thread::sleep(Duration::from_millis(1));
        }
        ahead.close();
        first.join().unwrap();
        second.join().unwrap();
    });
    let mut all = asked.into_inner().unwrap();
    all.sort();
    assert_eq!(all, ["a", "b", "blocks"]);
}
