use super::*;

#[test]
fn waiters_are_released_with_the_outcome() {
    let gate = LinkGate::new();
    assert!(!gate.is_open());
    std::thread::scope(|s| {
        let waiters: Vec<_> = (0..4).map(|_| s.spawn(|| gate.wait())).collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        gate.open(true);
        for w in waiters {
            assert!(w.join().unwrap().unwrap());
        }
    });
    assert!(gate.is_open());
    let stale = LinkGate::new();
    stale.open(false);
    assert!(stale.wait().is_ok_and(|fresh| !fresh));
}

#[test]
fn a_failed_gate_stops_every_waiter() {
    let gate = LinkGate::new();
    std::thread::scope(|s| {
        let waiter = s.spawn(|| gate.wait());
        std::thread::sleep(std::time::Duration::from_millis(20));
        gate.fail();
        assert!(waiter.join().unwrap().is_err());
    });
    assert!(!gate.is_open());
    assert!(gate.wait().is_err());
}
