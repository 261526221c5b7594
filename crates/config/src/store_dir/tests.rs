use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use super::same_filesystem_root;

/// `/` and `/home/...` on device 1, `/mnt/data/...` on device 2.
fn device(path: &Path) -> Option<u64> {
    let text = path.to_string_lossy();
    if text.starts_with("/mnt/data") {
        Some(2)
    } else if text.starts_with("/mnt/proj") {
        Some(3)
    } else {
        Some(1)
    }
}

#[test]
fn same_device_keeps_the_home_store() {
    assert_eq!(
        same_filesystem_root(
            Path::new("/home/u/p"),
            Path::new("/home/u/.local/share/pnpm"),
            device
        ),
        None
    );
}

#[test]
fn other_device_uses_the_mount_point() {
    assert_eq!(
        same_filesystem_root(
            Path::new("/mnt/data/work/p"),
            Path::new("/home/u/.local/share/pnpm"),
            device
        ),
        Some(PathBuf::from("/mnt/data/.pnpm-store"))
    );
}

#[test]
fn project_that_is_the_mount_point_uses_node_modules() {
    assert_eq!(
        same_filesystem_root(
            Path::new("/mnt/proj"),
            Path::new("/home/u/.local/share/pnpm"),
            device
        ),
        Some(PathBuf::from("/mnt/proj/node_modules/.pnpm-store"))
    );
}

#[test]
fn unknown_devices_keep_the_home_store() {
    assert_eq!(
        same_filesystem_root(Path::new("/x"), Path::new("/y"), |_| None),
        None
    );
}
