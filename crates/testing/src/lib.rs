//! Hermetic test infrastructure for pacquet.
//!
//! Tests never reach the public registry. They use:
//!
//! * [`Registry`]: an npm-style registry on `127.0.0.1` serving the fixture
//!   packages of `crates/testing/packages` (packed deterministically, see
//!   [`pack`]) or a directory mirror of real tarballs, with request counting
//!   and fault injection ([`Fault`]).
//! * Fixture projects in `crates/testing/projects/<name>/` with committed
//!   `pnpm-lock.yaml` files made by pnpm 12 against that registry
//!   ([`project_dir`], [`copy_project`], [`prepare_project`]; regenerate with
//!   `cargo run -p pacquet-testing --bin pacquet-test-registry -- regenerate`).
//! * [`pnpm_bin`] and [`PnpmEnv`]: pnpm 12.21 (installed by
//!   `tasks/install-tools.sh`) run with an isolated HOME, XDG dirs, store and
//!   registry.
//! * [`Verdaccio`]: a real private registry (installed by
//!   `tasks/install-tools.sh`) for the end-to-end test of authenticated
//!   scoped registries.
//! * [`diff_trees`] / [`assert_trees_equal`]: compare the trees pnpm and
//!   pacquet produce, state files included.

pub mod diff;
pub mod fixtures;
mod gzip;
pub mod merge_patch;
pub mod pack;
mod packument;
pub mod paths;
pub mod pnpm;
pub mod regenerate;
pub mod registry;
mod semver_order;
pub mod verdaccio;

pub use diff::{DiffOptions, Difference, EntryKind, assert_trees_equal, diff_trees, format_report};
pub use fixtures::{FixturePackage, PackageSet, sri_sha512, tarball_path};
pub use pack::{pack_dir, pack_files};
pub use paths::{
    REGISTRY_PLACEHOLDER, copy_dir, copy_project, packages_dir, prepare_project, project_dir,
    project_names, projects_dir, substitute_registry, workspace_root, write_npmrc,
};
pub use pnpm::{InstalledFixture, PNPM_VERSION, PnpmEnv, pnpm_bin, pnpm_install_fixture};
pub use registry::{Fault, Registry};
pub use verdaccio::{Verdaccio, verdaccio_bin};
