//! `node_modules/.bin` for pacquet, byte-compatible with pnpm 12.21.
//!
//! This crate owns everything between "these packages offer bins to this
//! directory" and the shim files on disk (docs/layout.md §5, §6):
//!
//! * [`bin_commands`]: the commands a package exposes (`bin` string or map,
//!   else `directories.bin`), with invalid names skipped and targets kept
//!   inside the package.
//! * [`shim_script`]: the pnpm 12 `sh` shim text for one command, pure.
//! * [`cmd_shim`], [`pwsh_shim`]: the `.cmd` and `.ps1` shims written next
//!   to it on Windows, pure (and tested) everywhere.
//! * [`link_bins`]: writes one `.bin` directory: resolves conflicts between
//!   packages offering the same command, writes shims (mode `0755`, left
//!   alone when already current) and makes targets executable.
//!
//! Deciding which packages offer bins to which directory, and their
//! `NODE_PATH` entries, is the caller's job (the install executor).

mod commands;
mod conflict;
mod error;
mod link;
mod name;
mod runtime;
mod shim;
mod windows_shim;

pub use commands::{BinCommand, bin_commands};
pub use conflict::owns_command;
pub use error::BinError;
pub use link::{BinSource, LinkedBin, link_bins, link_bins_at};
pub use name::is_valid_bin_name;
pub use runtime::{Runtime, detect_runtime};
pub use shim::{SHIM_TARGET_MARKER, shim_script, shim_script_within};
pub use windows_shim::{WindowsShim, cmd_extension, cmd_shim, pwsh_shim, win32_relative};
