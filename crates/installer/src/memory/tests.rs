use super::without_huge_pages;

fn disabled() -> rustix::io::Result<bool> {
    rustix::thread::transparent_huge_pages_are_disabled()
}

/// The process-wide flag is off while a guard lives and back after; a
/// guard taken while it is off leaves it off (the download guard inside a
/// resolution's).
#[test]
fn huge_pages_are_off_while_a_guard_lives() {
    if disabled() != Ok(false) {
        // No transparent huge pages here, or the process runs without.
        return;
    }
    {
        let _outer = without_huge_pages();
        assert_eq!(disabled(), Ok(true));
        {
            let _inner = without_huge_pages();
        }
        assert_eq!(disabled(), Ok(true), "the inner guard turned them back on");
    }
    assert_eq!(disabled(), Ok(false));
}
