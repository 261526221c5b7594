//! Regenerating the committed fixture lockfiles with pnpm 12.
//!
//! Run after changing a fixture package or project:
//!
//! ```sh
//! cargo run -p pacquet-testing --bin pacquet-test-registry -- regenerate [PROJECT…]
//! ```
//!
//! For each project it starts the loopback registry, copies the project into
//! a tempdir with a `.npmrc` pointing at it, runs
//! `pnpm install --lockfile-only` with an isolated HOME and store, and copies
//! the resulting `pnpm-lock.yaml` back into `crates/testing/projects/<name>/`.
//! Lockfiles hold no registry URL for registry packages, so they stay valid
//! whatever port a later run gets.

use std::path::PathBuf;

use crate::paths::REGISTRY_PLACEHOLDER;
use crate::pnpm::PnpmEnv;
use crate::registry::Registry;

/// Regenerates the lockfiles of `names` (all projects when empty) and
/// returns the paths written.
pub fn regenerate_lockfiles(names: &[String]) -> Vec<PathBuf> {
    let names: Vec<String> = if names.is_empty() {
        crate::paths::project_names()
    } else {
        names.to_vec()
    };
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().expect("tempdir");
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let mut written = Vec::new();
    for name in names {
        let work = tmp.path().join("work").join(&name);
        crate::paths::prepare_project(&name, &work, &registry.url());
        let _ = std::fs::remove_file(work.join("pnpm-lock.yaml"));
        env.lockfile_only(&work);
        let dest = crate::paths::project_dir(&name).join("pnpm-lock.yaml");
        let text = std::fs::read_to_string(work.join("pnpm-lock.yaml")).expect("read lockfile");
        let text = mark_git_hosted(&text.replace(&registry.url(), REGISTRY_PLACEHOLDER));
        std::fs::write(&dest, text).expect("write lockfile back");
        written.push(dest);
    }
    written
}

/// pnpm records archives from GitHub-like hosts as git-hosted; the loopback
/// registry's `codeload/` route stands for such a host, so its entries get
/// the `gitHosted: true` pnpm writes for real ones (keys stay sorted).
fn mark_git_hosted(lockfile: &str) -> String {
    let codeload = format!("tarball: {REGISTRY_PLACEHOLDER}codeload/");
    lockfile
        .lines()
        .map(|line| match line.split_once("resolution: {") {
            Some((indent, rest)) if rest.contains(&codeload) && !rest.contains("gitHosted") => {
                format!("{indent}resolution: {{gitHosted: true, {rest}")
            }
            _ => line.to_owned(),
        })
        .map(|line| line + "\n")
        .collect()
}
