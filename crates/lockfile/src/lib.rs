//! `pnpm-lock.yaml` (lockfile v9) as pnpm 12 writes it.
//!
//! This crate owns the data model ([`Lockfile`] and friends), the typed form of
//! package/snapshot keys ([`DepPath`]), reading (with pnpm's error codes),
//! deterministic writing, and the `--frozen-lockfile` gates that compare a
//! lockfile with the project manifests and the configuration. It knows
//! nothing about the filesystem layout or the store.

mod check_importers;
mod check_patches;
mod check_settings;
mod components;
mod dep_path;
mod error;
mod fast;
mod git_spec;
mod manifest;
mod model;
mod object_hash;
mod overrides;
mod patch_selectors;
mod platform;
mod read;
mod resolution_fields;
mod snapshot_refs;
mod tarball_url;
mod write;

pub use check_importers::{
    ImporterCheckOptions, check_importers, remove_ignored_optionals, without_ignored_optionals,
};
pub use check_patches::check_patch_hashes;
pub use check_settings::{
    DEFAULT_PEERS_SUFFIX_MAX_LENGTH, ExpectedSettings, check_settings, patch_hashes,
};
pub use components::strongly_connected_components;
pub use dep_path::{DepPath, DepRef};
pub use error::LockfileError;
pub use manifest::{ProjectEngines, ProjectManifest};
pub use model::*;
pub use object_hash::object_checksum;
pub use overrides::{
    Overrides, apply_overrides, resolve_override_catalogs, resolve_override_references,
};
pub use patch_selectors::{PatchSelectors, Selected};
pub use platform::platform_list_matches;
pub use read::{read_lockfile, read_lockfile_and_text, read_lockfile_lenient};
pub use resolution_fields::ResolutionValue;
pub use snapshot_refs::DependencyGroup;
pub use tarball_url::registry_tarball_url;
