//! `packageImportMethod` and the per-install downgrade state.

use std::{
    path::Path,
    sync::atomic::{AtomicBool, AtomicU8, Ordering},
};

use super::file::{clone_file, copy_file, link_file};
use super::os_error::{is_capability_error, is_clone_unsupported, is_cross_device, is_link_limit};

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

/// pnpm on macOS tries a clone first under `auto` (`clonefile` on APFS),
/// then the Linux order (docs/layout.md §10).
const AUTO_CLONES_FIRST: bool = cfg!(target_os = "macos");

/// Shared by every import of one install: once a method proves unusable
/// (cross-device, permission, unsupported clone), later files skip it.
#[derive(Debug, Default)]
pub struct ImportState {
    /// Lowest method still worth trying under `auto`/`clone-or-copy`.
    level: AtomicU8,
    /// Bit set of [`UsedMethod`]s that placed at least one file.
    used: AtomicU8,
    /// A clone-first `auto` found clones unusable here.
    clone_failed: AtomicBool,
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
            ImportMethod::Auto => {
                !self.clones_first() && self.level.load(Ordering::Relaxed) == HARDLINK
            }
            _ => false,
        }
    }

    /// Whether `auto` still starts with a clone.
    fn clones_first(&self) -> bool {
        AUTO_CLONES_FIRST && !self.clone_failed.load(Ordering::Relaxed)
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
            ImportMethod::Auto if self.clones_first() => {
                self.clone_then_auto(src, dst, executable)?
            }
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

    /// A clone, else (once clones proved unusable, for good) the Linux
    /// order.
    fn clone_then_auto(
        &self,
        src: &Path,
        dst: &Path,
        executable: bool,
    ) -> std::io::Result<UsedMethod> {
        match clone_file(src, dst, executable) {
            Ok(()) => Ok(UsedMethod::Clone),
            Err(e) if is_capability_error(&e) || is_clone_unsupported(&e) => {
                self.clone_failed.store(true, Ordering::Relaxed);
                self.auto(src, dst, executable, HARDLINK)
            }
            Err(e) => Err(e),
        }
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
