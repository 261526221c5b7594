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

#[tokio::test]
async fn only_the_first_worker_works() {
    let ahead = RequestAhead::default();
    let first = ahead.work(|_| async {});
    let second = async {
        ahead
            .work(|_| async { panic!("a second worker asked") })
            .await;
        ahead.push("a");
        ahead.close();
    };
    // `biased`: the first is polled first, so it takes the queue.
    within(async { tokio::join!(biased; first, second) }).await;
}
