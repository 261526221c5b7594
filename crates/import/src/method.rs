//! `packageImportMethod` and the per-install downgrade state.

use std::{
    io::ErrorKind,
    path::Path,
    sync::atomic::{AtomicU8, Ordering},
};

use super::file::{clone_file, copy_file, link_file};

/// `packageImportMethod` (docs/layout.md §10), as the settings read it.
pub use pacquet_config::PackageImportMethod as ImportMethod;

/// The method that actually placed a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsedMethod {
    Hardlink,
    Clone,
    Copy,
}

impl UsedMethod {
    /// The name pnpm reports (`hardlink`, `clone`, `copy`).
    pub fn as_str(self) -> &'static str {
        match self {
            UsedMethod::Hardlink => "hardlink",
            UsedMethod::Clone => "clone",
            UsedMethod::Copy => "copy",
        }
    }
}

const HARDLINK: u8 = 0;
const CLONE: u8 = 1;
const COPY: u8 = 2;

/// Shared by every import of one install: once a method proves unusable
/// (cross-device, permission, unsupported clone), later files skip it.
#[derive(Debug, Default)]
pub struct ImportState {
    /// Lowest method still worth trying under `auto`/`clone-or-copy`.
    level: AtomicU8,
    /// Bit set of [`UsedMethod`]s that placed at least one file.
    used: AtomicU8,
}

impl ImportState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Methods that placed at least one file, strongest first.
    pub fn methods_used(&self) -> Vec<UsedMethod> {
        let used = self.used.load(Ordering::Relaxed);
        [UsedMethod::Hardlink, UsedMethod::Clone, UsedMethod::Copy]
            .into_iter()
            .enumerate()
            .filter(|(i, _)| used & (1 << i) != 0)
            .map(|(_, m)| m)
            .collect()
    }

    /// Whether an import with `method` tries a hard link first now.
    pub(crate) fn links_first(&self, method: ImportMethod) -> bool {
        match method {
            ImportMethod::Hardlink => true,
            ImportMethod::Auto => self.level.load(Ordering::Relaxed) == HARDLINK,
            _ => false,
        }
    }

    pub(crate) fn record(&self, method: UsedMethod) {
        let bit = match method {
            UsedMethod::Hardlink => 1,
            UsedMethod::Clone => 2,
            UsedMethod::Copy => 4,
        };
        self.used.fetch_or(bit, Ordering::Relaxed);
    }

    fn downgrade(&self, to: u8) {
        self.level.fetch_max(to, Ordering::Relaxed);
    }

    /// Places one file at `dst` (replacing a leftover of an interrupted import).
    pub(crate) fn import_file(
        &self,
        src: &Path,
        dst: &Path,
        executable: bool,
        method: ImportMethod,
    ) -> std::io::Result<()> {
        let used = match method {
            ImportMethod::Copy => copy_file(src, dst, executable).map(|_| UsedMethod::Copy)?,
            ImportMethod::Clone => clone_file(src, dst, executable).map(|_| UsedMethod::Clone)?,
            ImportMethod::Hardlink => match link_file(src, dst) {
                Ok(()) => UsedMethod::Hardlink,
                Err(e) if is_cross_device(&e) || is_link_limit(&e) => {
                    copy_file(src, dst, executable)?;
                    UsedMethod::Copy
                }
                Err(e) => return Err(e),
            },
            ImportMethod::Auto => self.auto(src, dst, executable, HARDLINK)?,
            ImportMethod::CloneOrCopy => self.auto(src, dst, executable, CLONE)?,
        };
        self.record(used);
        Ok(())
    }

    /// Places the completion marker so that it never exists incomplete: a
    /// hard link appears atomically, so it goes straight to `dst` (saving a
    /// `rename` per package); a copy or clone is written under a temporary
    /// name and renamed.
    pub(crate) fn place_marker(
        &self,
        src: &Path,
        dst: &Path,
        executable: bool,
        method: ImportMethod,
    ) -> std::io::Result<()> {
        if self.links_first(method) {
            match link_file(src, dst) {
                Ok(()) => {
                    self.record(UsedMethod::Hardlink);
                    return Ok(());
                }
                Err(e) if is_capability_error(&e) || is_link_limit(&e) => {}
                Err(e) => return Err(e),
            }
        }
        let tmp = temp_name(dst);
        self.import_file(src, &tmp, executable, method)?;
        std::fs::rename(&tmp, dst)
    }

    fn auto(
        &self,
        src: &Path,
        dst: &Path,
        executable: bool,
        first: u8,
    ) -> std::io::Result<UsedMethod> {
        let level = self.level.load(Ordering::Relaxed).max(first);
        if level == HARDLINK {
            match link_file(src, dst) {
                Ok(()) => return Ok(UsedMethod::Hardlink),
                Err(e) if is_link_limit(&e) => {
                    copy_file(src, dst, executable)?;
                    return Ok(UsedMethod::Copy);
                }
                Err(e) if is_capability_error(&e) => self.downgrade(CLONE),
                Err(e) => return Err(e),
            }
        }
        if level <= CLONE {
            match clone_file(src, dst, executable) {
                Ok(()) => return Ok(UsedMethod::Clone),
                Err(e) if is_capability_error(&e) || is_clone_unsupported(&e) => {
                    self.downgrade(COPY)
                }
                Err(e) => return Err(e),
            }
        }
        copy_file(src, dst, executable)?;
        Ok(UsedMethod::Copy)
    }
}

fn is_cross_device(e: &std::io::Error) -> bool {
    e.kind() == ErrorKind::CrossesDevices
}

fn is_link_limit(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::EMLINK) || e.kind() == ErrorKind::TooManyLinks
}

/// Errors that mean "this method cannot work here", not "this file is bad".
fn is_capability_error(e: &std::io::Error) -> bool {
    is_cross_device(e) || matches!(e.raw_os_error(), Some(libc::EPERM) | Some(libc::EACCES))
}

fn is_clone_unsupported(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EOPNOTSUPP) | Some(libc::EINVAL) | Some(libc::ENOTTY) | Some(libc::ENOSYS)
    )
}

/// A sibling name for the marker's atomic placement.
fn temp_name(dst: &Path) -> std::path::PathBuf {
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let pid = *PID.get_or_init(std::process::id);
    let name = dst
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    dst.with_file_name(format!(".{name}.pacquet-tmp-{pid}"))
}
