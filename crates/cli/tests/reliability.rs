//! Reliability and security end to end: installs killed at any point,
//! concurrent installs into one store (pacquet and pnpm 12), self-repair of
//! a damaged store, hostile packages, and credentials that never leak.
// Unix inodes, modes, signals and symlinks; the Linux CI job runs these
// against pnpm 12.
#![cfg(unix)]

mod support;

mod reliability {
    mod concurrent;
    pub mod helpers;
    mod hostile;
    mod interrupted;
    mod kill_point;
    mod network;
    mod repair;
    mod secrets;
    mod tampered;
}
