//! `link-floor`: the filesystem floor of a warm install.
//!
//! A warm frozen install (store filled, lockfile present, no `node_modules`)
//! ends up doing little more than creating directories, hard-linking files
//! out of the store and creating symlinks. This tool measures how fast the
//! filesystem alone can do exactly that for a given finished tree:
//!
//! ```text
//! link-floor record SRC --plan FILE            # walk SRC once, write a plan
//! link-floor replay --plan FILE DEST [-j N]    # recreate the tree at DEST
//! link-floor clone SRC DEST [-j N]             # both, timing each step
//! ```
//!
//! `record` notes every directory, regular file and symlink below SRC.
//! `replay` then makes DEST with only `mkdir(2)`, `link(2)` (from the file at
//! the same relative path in SRC) and `symlink(2)`, on N threads: directories
//! level by level, then files and symlinks in parallel. In a tree installed
//! by pnpm the files are hard links into the store, so linking from SRC is
//! the same work as linking from the store. SRC must stay in place and be on
//! the same filesystem as DEST.

#[cfg(unix)]
mod floor;

#[cfg(unix)]
fn main() {
    floor::main()
}

/// The floor is measured in `link(2)` and `symlink(2)`: Unix only.
#[cfg(not(unix))]
fn main() -> std::process::ExitCode {
    eprintln!("link-floor replays trees with Unix link(2) and symlink(2); it does not run here");
    std::process::ExitCode::FAILURE
}
