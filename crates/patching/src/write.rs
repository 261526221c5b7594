//! Replacing a package file without writing through it: package files are
//! usually hard links into the content-addressable store, so a changed file
//! is written as a new file beside it and renamed over it (docs/patches.md
//! §6).

use std::{
    fs::{self, OpenOptions, Permissions},
    io::{self, Write},
    os::unix::fs::PermissionsExt,
    path::Path,
    sync::atomic::{AtomicU64, Ordering},
};

/// Writes `content` with `mode` to a new file next to `target` and renames
/// it over `target`.
pub(crate) fn replace(target: &Path, content: &[u8], mode: u32) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.{}-{n}.pacquet-patch", std::process::id()));
        // `create_new`: never follow a symlink or reuse a file left there.
        let mut file = match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        };
        let written = file
            .write_all(content)
            .and_then(|()| file.set_permissions(Permissions::from_mode(mode)));
        drop(file);
        return written
            .and_then(|()| fs::rename(&temp, target))
            .inspect_err(|_| {
                let _ = fs::remove_file(&temp);
            });
    }
}

/// The permission bits of `path`.
pub(crate) fn mode_of(path: &Path) -> io::Result<u32> {
    Ok(fs::metadata(path)?.permissions().mode() & 0o7777)
}
