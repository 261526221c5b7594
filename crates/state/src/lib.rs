//! pnpm 12's state files: `node_modules/.modules.yaml` and
//! `node_modules/.pnpm-workspace-state-v1.json`, rendered from a plan, and
//! written so that a reader never sees half a file.

mod atomic;
mod digest;
pub mod modules_yaml;
mod time;
pub mod validation;
pub mod workspace_state;

pub use atomic::{sweep_stale_temps, write_atomic, write_atomic_with};
pub use digest::{bytes_digest, value_digest};
pub use modules_yaml::{ModulesYaml, layout_fields, modules_yaml};
pub use time::{http_date, iso_date, parse_http_date, parse_iso_date};
pub use validation::{FileSignature, FileStat, ManifestRecord, Validation};
pub use workspace_state::{
    ProjectEntry, WorkspaceState, WorkspaceStateSettings, render as render_workspace_state,
    workspace_state,
};

#[cfg(test)]
mod tests;
