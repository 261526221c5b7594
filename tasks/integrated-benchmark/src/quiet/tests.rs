use std::time::{Duration, SystemTime};

use super::{FREED_INODE_WINDOW, some_avg10, window_left};

#[test]
fn reads_the_some_line() {
    let text = "some avg10=37.48 avg60=45.29 avg300=28.17 total=705755658\n\
                full avg10=14.04 avg60=9.82 avg300=3.55 total=321254070\n";
    assert_eq!(some_avg10(text), Some(37.48));
}

#[test]
fn anything_else_is_no_reading() {
    assert_eq!(some_avg10(""), None);
    assert_eq!(
        some_avg10("full avg10=1.00 avg60=0 avg300=0 total=0\n"),
        None
    );
    assert_eq!(some_avg10("some avg10=x avg60=0\n"), None);
}

#[test]
fn the_freed_inode_window_counts_from_the_deletion() {
    let deleted = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
    assert_eq!(window_left(deleted, deleted), FREED_INODE_WINDOW);
    assert_eq!(
        window_left(deleted, deleted + Duration::from_secs(100)),
        FREED_INODE_WINDOW - Duration::from_secs(100)
    );
    assert_eq!(
        window_left(deleted, deleted + FREED_INODE_WINDOW),
        Duration::ZERO
    );
    assert_eq!(
        window_left(deleted, deleted + Duration::from_secs(3600)),
        Duration::ZERO
    );
    // A clock set back: as if just deleted.
    assert_eq!(
        window_left(deleted, deleted - Duration::from_secs(5)),
        FREED_INODE_WINDOW
    );
}
