use std::rc::Rc;

use super::*;

// One test: the flag is process-wide, so the two cases run in order.
#[test]
fn values_are_dropped_until_the_exit_frees_them() {
    let value = Rc::new(());
    discard(Rc::clone(&value));
    assert_eq!(Rc::strong_count(&value), 1, "dropped before exit_frees");
    assert!(!left_to_exit());

    exit_frees();
    assert!(left_to_exit());
    discard(Rc::clone(&value));
    assert_eq!(Rc::strong_count(&value), 2, "left for the exit afterwards");
}
