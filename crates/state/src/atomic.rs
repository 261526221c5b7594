//! Writing files pnpm reads back. Each is written to a temporary name and
//! renamed, so a reader never sees half a file and an interrupted install
//! leaves the previous state intact.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically (temp file in the same directory + rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, |file| file.write_all(bytes))
}

/// [`write_atomic`] of what `write` writes, through a buffer: a file
/// written in pieces needs no copy of it whole in memory.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    replace(path, |file| {
        let mut file = io::BufWriter::with_capacity(64 << 10, file);
        write(&mut file)?;
        file.flush()
    })
}

/// Writes a temporary file next to `path` with `write`, then renames it
/// over `path`; the temporary file is removed on failure.
fn replace(path: &Path, write: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    File::create(&tmp)
        .and_then(|mut file| write(&mut file))
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

/// Removes temporary files [`write_atomic`] left next to `names` in `dir`
/// when a process was killed between write and rename: a rerun must leave
/// the tree a clean install leaves. Files of a process still running (a
/// concurrent install) are left alone.
pub fn sweep_stale_temps(dir: &Path, names: &[&str]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let pid = names.iter().find_map(|name| {
            let rest = file_name.strip_prefix(name)?.strip_prefix('.')?;
            let pid = rest.strip_suffix(".tmp")?;
            pid.parse::<u32>().ok()
        });
        if let Some(pid) = pid
            && pid != std::process::id()
            && !is_running(pid)
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(target_os = "linux")]
fn is_running(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// No `/proc` (macOS): signal 0 tells whether the process exists (`EPERM`:
/// it does, owned by someone else).
#[cfg(all(unix, not(target_os = "linux")))]
fn is_running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Windows: not looked up; another process's temp file is left alone.
#[cfg(not(unix))]
fn is_running(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests;
