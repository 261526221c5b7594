use std::sync::mpsc;
use std::time::Duration;

use super::Budget;

#[test]
fn grants_within_the_limit_do_not_wait() {
    let budget = Budget::new(100);
    let a = budget.acquire(60);
    let b = budget.acquire(40);
    assert_eq!(budget.held(), 100);
    drop(a);
    assert_eq!(budget.held(), 40);
    drop(b);
    assert_eq!(budget.held(), 0);
}

#[test]
fn a_request_larger_than_the_budget_is_granted_when_nothing_is_held() {
    let budget = Budget::new(10);
    let grant = budget.acquire(1_000);
    assert_eq!(budget.held(), 1_000);
    drop(grant);
    assert_eq!(budget.held(), 0);
}

#[test]
fn a_request_over_the_limit_waits_for_a_release() {
    let budget = Budget::new(100);
    let first = budget.acquire(70);
    let (acquired, waiting) = mpsc::channel();
    std::thread::scope(|s| {
        s.spawn(|| {
            let _second = budget.acquire(50);
            acquired.send(()).unwrap();
        });
        // Still held: the second request must not have been granted.
        assert!(waiting.recv_timeout(Duration::from_millis(200)).is_err());
        drop(first);
        waiting
            .recv_timeout(Duration::from_secs(10))
            .expect("granted once the first grant was released");
    });
    assert_eq!(budget.held(), 0);
}
