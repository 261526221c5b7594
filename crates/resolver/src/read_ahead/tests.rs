use std::sync::Mutex;
use std::time::Duration;

use super::*;

#[test]
fn draining_alone_reads_each_name_once() {
    let ahead = ReadAhead::default();
    for name in ["a", "b", "a", "c"] {
        ahead.push(name);
    }
    let read = Mutex::new(Vec::new());
    ahead.drain(|name| read.lock().unwrap().push(name.to_owned()));
    assert_eq!(*read.lock().unwrap(), ["a", "b", "c"]);
    // Queued once ever: pushing a read name again does not queue it.
    ahead.push("b");
    ahead.drain(|name| read.lock().unwrap().push(name.to_owned()));
    assert_eq!(read.lock().unwrap().len(), 3);
}

#[test]
fn a_drain_returns_after_the_readers_finished_every_name() {
    let ahead = ReadAhead::default();
    let read = Mutex::new(Vec::new());
    let slow_read = |name: &str| {
        std::thread::sleep(Duration::from_millis(5));
        read.lock().unwrap().push(name.to_owned());
    };
    std::thread::scope(|s| {
        let readers: Vec<_> = (0..2).map(|_| s.spawn(|| ahead.work(slow_read))).collect();
        for round in 0..3 {
            let names: Vec<String> = (0..20).map(|i| format!("{round}-{i}")).collect();
            for name in &names {
                ahead.push(name);
            }
            ahead.drain(slow_read);
            let done = read.lock().unwrap();
            for name in &names {
                assert_eq!(
                    done.iter().filter(|n| *n == name).count(),
                    1,
                    "{name} read once before the drain returned"
                );
            }
        }
        ahead.close();
        for reader in readers {
            reader.join().unwrap();
        }
    });
    assert_eq!(read.lock().unwrap().len(), 60);
}

#[test]
fn a_reader_that_panics_does_not_hold_up_a_drain() {
    let ahead = ReadAhead::default();
    let read = Mutex::new(Vec::new());
    let (started, reading_bad) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        let reader = s.spawn(|| {
            ahead.work(|name| {
                if name == "bad" {
                    started.send(()).unwrap();
                    std::thread::sleep(Duration::from_millis(20));
                    panic!("a reader's bug");
                }
                read.lock().unwrap().push(name.to_owned());
            })
        });
        ahead.push("bad");
        reading_bad.recv().unwrap();
        ahead.push("good");
        // Returns once the reader's read of "bad" has ended, by its panic.
        ahead.drain(|name| read.lock().unwrap().push(name.to_owned()));
        ahead.close();
        assert!(reader.join().is_err(), "the reader panicked");
    });
    assert_eq!(*read.lock().unwrap(), ["good"]);
}
