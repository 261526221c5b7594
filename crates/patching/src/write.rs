//! Replacing a package file without writing through it: package files are
//! usually hard links into the content-addressable store, so a changed file
//! is written as a new file beside it and renamed over it (docs/patches.md
//! §6).

use std::{
    fs::{self, File, OpenOptions},
    io::{self, Write},
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
        let written = file.write_all(content).and_then(|()| set_mode(&file, mode));
        drop(file);
        return written
            .and_then(|()| fs::rename(&temp, target))
            .inspect_err(|_| {
                let _ = fs::remove_file(&temp);
            });
    }
}

/// The permission bits of `path`.
#[cfg(unix)]
pub(crate) fn mode_of(path: &Path) -> io::Result<u32> {
    use std::os::unix::fs::PermissionsExt;
    Ok(fs::metadata(path)?.permissions().mode() & 0o7777)
}

/// Windows: the read-only bit only, as Node reports it (`0o444`/`0o666`).
#[cfg(not(unix))]
pub(crate) fn mode_of(path: &Path) -> io::Result<u32> {
    Ok(if fs::metadata(path)?.permissions().readonly() {
        0o444
    } else {
        0o666
    })
}

#[cfg(unix)]
fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(mode))
}

/// Windows: a new file is writable, which a patched file should stay; a
/// read-only one could not be renamed over later.
#[cfg(not(unix))]
fn set_mode(_file: &File, _mode: u32) -> io::Result<()> {
    Ok(())
}
