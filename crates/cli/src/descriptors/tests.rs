/// The table's size as the kernel reports it.
#[cfg(target_os = "linux")]
fn fd_size() -> i32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("FDSize:"))
        .expect("FDSize in /proc/self/status");
    line.trim().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn the_table_holds_the_reserved_entries() {
    super::reserve();
    assert!(fd_size() >= super::SLOTS, "FDSize {}", fd_size());
    // Nothing is left open: the next descriptor is a low one.
    let file = std::fs::File::open("/proc/self/status").unwrap();
    use std::os::fd::AsRawFd;
    assert!(file.as_raw_fd() < super::SLOTS - 1);
}
