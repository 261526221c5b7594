//! Every dependency kind pnpm 12 writes into a lockfile installs with the
//! tree pnpm 12 builds from the same lockfile, and lands in the store under
//! pnpm's keys so either tool reuses the other's entries.
// Unix inodes, modes, signals and symlinks; the Linux CI job runs these
// against pnpm 12.
#![cfg(unix)]

mod support;

mod dependency_kinds {
    mod git;
    pub mod helpers;
    mod local;
    mod refused;
    mod registries;
    mod remote;
}
