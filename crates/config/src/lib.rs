//! pnpm 11/12-compatible settings for pacquet: reads the CLI overrides,
//! `pnpm_config_*` env vars, `pnpm-workspace.yaml`, the global
//! `config.yaml` and the `.npmrc` chain (registry/auth/TLS/proxy keys
//! only), and resolves them into one [`Config`].
//!
//! Not implemented: `tokenHelper` credentials (the key is parsed but never
//! yields a header), `include:` in `pnpm-workspace.yaml` (12.15+; refused
//! by `install`), named
//! registry prefixes (`npmjs`/`gh`, 11.20+), per-registry
//! `networkConcurrency`, and the `ERR_PNPM_UNRECOGNIZED_WORKSPACE_SETTINGS`
//! error for pinned pnpm versions (unknown keys only warn).

mod auth;
pub mod catalog_edit;
mod config;
mod dirs;
mod enums;
mod env_replace;
mod error;
mod keys;
mod layer;
pub mod list_edit;
mod load;
pub mod name_pattern;
mod npmrc;
mod npmrc_sources;
mod options;
mod platform;
mod projects;
mod recognized;
mod registry;
mod store_dir;
mod yaml_file;
mod yaml_types;

pub use auth::{Credentials, PerRegistryKey, parse_per_registry_key};
pub use config::{Config, PeerDependencyRules, Secret, SupportedArchitectures};
pub use dirs::{cache_dir, config_dir, pnpm_home_dir, state_dir};
pub use enums::{HoistingLimits, NodeLinker, PackageImportMethod};
pub use env_replace::env_replace;
pub use error::ConfigError;
pub use keys::{flag_takes_value, known_settings};
pub use load::{default_network_concurrency, load};
pub use npmrc::parse_ini;
pub use options::{CliOverrides, LoadOptions};
pub use platform::{host_cpu, host_libc, host_os, host_platform};
pub use projects::find_workspace_projects;
pub use registry::{JSR_REGISTRY, NPM_REGISTRY, Registries, normalize_registry, scope_of};
pub use store_dir::STORE_VERSION;
pub use yaml_file::{WORKSPACE_MANIFEST, find_workspace_dir};
