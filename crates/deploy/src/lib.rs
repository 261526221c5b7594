//! `pacquet deploy`: one workspace project with its dependencies in a
//! directory of its own, as `pnpm deploy` builds it for a container image
//! (docs/deploy.md). Owns the checks on the target directory, the copy of
//! the project's files, the deploy files (a lockfile, `package.json` and
//! `pnpm-workspace.yaml` derived from the workspace's) and the settings of
//! the install that follows; the install itself is `pacquet_installer`'s.

mod copy;
mod error;
mod files;
mod local_ref;
mod run;
mod target;
mod workspace_yaml;

pub use error::DeployError;
pub use files::{DeployFiles, DeployInput, WorkspaceProjectInfo, create_deploy_files};
pub use run::{DeployRequest, deploy};
pub use workspace_yaml::{DeploySettings, render_workspace_yaml};
