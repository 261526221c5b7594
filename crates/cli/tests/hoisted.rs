//! `nodeLinker: hoisted` against pnpm 12: every fixture project installed a
//! second time in the hoisted layout by both tools gives the same tree
//! (paths, contents, modes, symlinks, `.bin`, state files); repeat installs
//! and switching the linker end where pnpm's do.
// Unix inodes, modes, signals and symlinks; the Linux CI job runs these
// against pnpm 12.
#![cfg(unix)]

mod support;

use std::path::Path;

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{add_settings, pacquet_install_ok};

/// Both tools' copies of fixture `name` with `settings` added.
struct Pair {
    _tmp: tempfile::TempDir,
    pnpm_project: std::path::PathBuf,
    pnpm_env: PnpmEnv,
    project: std::path::PathBuf,
    env: PnpmEnv,
}

impl Pair {
    fn new(registry: &Registry, name: &str, settings: &str) -> Pair {
        let tmp = tempfile::tempdir().unwrap();
        let pnpm_project = tmp.path().join("pnpm/project");
        prepare_project(name, &pnpm_project, &registry.url());
        add_settings(&pnpm_project, settings);
        let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
        let project = tmp.path().join("pacquet/project");
        prepare_project(name, &project, &registry.url());
        add_settings(&project, settings);
        let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
        Pair {
            _tmp: tmp,
            pnpm_project,
            pnpm_env,
            project,
            env,
        }
    }

    fn install_both(&self) {
        self.pnpm_env.install_frozen(&self.pnpm_project);
        pacquet_install_ok(&self.env, &self.project, &[]);
    }

    fn assert_same(&self) {
        let opts = DiffOptions::for_installs(
            &self.pnpm_project,
            &self.pnpm_env.store_dir,
            &self.project,
            &self.env.store_dir,
        );
        assert_trees_equal(&self.pnpm_project, &self.project, &opts);
    }

    /// Applies `f` to both projects.
    fn edit(&self, f: impl Fn(&Path)) {
        f(&self.pnpm_project);
        f(&self.project);
    }
}

fn hoisted_matches_pnpm(name: &str) {
    let registry = Registry::start_fixtures();
    let pair = Pair::new(&registry, name, "nodeLinker: hoisted\n");
    pair.install_both();
    pair.assert_same();
}

#[test]
fn basic_hoisted_matches_pnpm() {
    hoisted_matches_pnpm("basic");
}

/// The commands of a package's bundled dependencies are symlinked into
/// its own `node_modules/.bin` (pq-bundler); a command whose shebang line
/// ends in CRLF gets a shim, not a symlink (pq-bin-crlf).
#[test]
fn bundled_dependencies_hoisted_match_pnpm() {
    hoisted_matches_pnpm("bundled");
}

/// A linked workspace project whose command is executable by everybody
/// (`packages/tools/cli.js`, 755) gets a symlink, not a shim
/// (docs/hoisted.md §5); `workspace-peers` has the 644 case.
#[test]
fn executable_linked_commands_hoisted_match_pnpm() {
    hoisted_matches_pnpm("filter");
}

#[test]
fn peers_hoisted_match_pnpm() {
    hoisted_matches_pnpm("peers");
}

#[test]
fn hashed_peers_hoisted_match_pnpm() {
    hoisted_matches_pnpm("peers-hashed");
}

#[test]
fn aliases_hoisted_match_pnpm() {
    hoisted_matches_pnpm("aliases");
}

#[test]
fn optional_platform_hoisted_matches_pnpm() {
    hoisted_matches_pnpm("optional-platform");
}

#[test]
fn engines_hoisted_match_pnpm() {
    hoisted_matches_pnpm("engines");
}

#[test]
fn engines_strict_hoisted_match_pnpm() {
    hoisted_matches_pnpm("engines-strict");
}

/// Two versions of one package: nested under each dependent of the other.
#[test]
fn conflicting_versions_hoisted_match_pnpm() {
    hoisted_matches_pnpm("hoisting");
}

/// A workspace whose projects want two majors of one package.
#[test]
fn workspace_hoisted_matches_pnpm() {
    hoisted_matches_pnpm("workspace");
}

/// Projects pinning different majors of a peer host (and of `pq-dup`): the
/// peer variants of one package cannot share a directory, so each project's
/// variant nests in its own `node_modules`.
#[test]
fn workspace_peer_conflicts_hoisted_match_pnpm() {
    hoisted_matches_pnpm("workspace-peers");
}

/// A project injected into one project and linked into another: its copy
/// takes the root slot, and the project linking it gets its commands as
/// symlinks, not shims, as pnpm 12 writes them. The root's `pq-bin-clash`
/// wins the `pq-bin-string` command over the hoisted `pq-bin-string`.
#[test]
fn injected_project_hoisted_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let pair = Pair::new(&registry, "injected", "nodeLinker: hoisted\n");
    pair.install_both();
    pair.assert_same();
    let bin = pair.project.join("packages/a/node_modules/.bin/b-bin");
    assert!(bin.symlink_metadata().unwrap().file_type().is_symlink());
}

#[test]
fn peer_bins_hoisted_match_pnpm() {
    hoisted_matches_pnpm("peer-bins");
}

#[test]
fn pnpm_details_hoisted_match_pnpm() {
    hoisted_matches_pnpm("pnpm-details");
}

#[test]
fn combined_hoisted_matches_pnpm() {
    hoisted_matches_pnpm("combined");
}

#[test]
fn dependency_kinds_hoisted_match_pnpm() {
    hoisted_matches_pnpm("dep-kinds");
}

#[test]
fn groups_hoisted_match_pnpm() {
    hoisted_matches_pnpm("groups");
}

/// `hoistingLimits: workspaces` keeps each project's dependencies in the
/// project's own `node_modules`.
#[test]
fn hoisting_limits_match_pnpm() {
    let registry = Registry::start_fixtures();
    for limits in ["workspaces", "dependencies"] {
        let settings = format!("nodeLinker: hoisted\nhoistingLimits: {limits}\n");
        let pair = Pair::new(&registry, "workspace", &settings);
        pair.install_both();
        pair.assert_same();
    }
}

/// `externalDependencies`: the root's own `pq-dup` (2.0.0) is left to
/// another tool, so it is installed nowhere; 1.0.0 still nests under its
/// dependents.
#[test]
fn external_dependencies_match_pnpm() {
    let registry = Registry::start_fixtures();
    let settings = "nodeLinker: hoisted\nexternalDependencies:\n  - pq-dup\n";
    let pair = Pair::new(&registry, "hoisting", settings);
    pair.install_both();
    pair.assert_same();
    assert!(!pair.project.join("node_modules/pq-dup").exists());
    assert!(
        pair.project
            .join("node_modules/pq-dup-parent-a/node_modules/pq-dup")
            .is_dir()
    );
}

/// A name the root does not depend on: the placeholder keeps every
/// version of it out of the root slot.
#[test]
fn external_dependency_placeholder_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let settings = "nodeLinker: hoisted\nexternalDependencies:\n  - pq-deep-2\n";
    let pair = Pair::new(&registry, "hoisting", settings);
    pair.install_both();
    pair.assert_same();
    assert!(!pair.project.join("node_modules/pq-deep-2").exists());
}

/// Isolated → hoisted → isolated: each switch rebuilds `node_modules` as
/// pnpm 12 does.
#[test]
fn switching_the_linker_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let pair = Pair::new(&registry, "hoisting", "");
    pair.install_both();
    pair.edit(|p| add_settings(p, "nodeLinker: hoisted\n"));
    pair.install_both();
    pair.assert_same();
    pair.edit(|p| {
        let path = p.join("pnpm-workspace.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("nodeLinker: hoisted\n", "")).unwrap();
    });
    pair.install_both();
    pair.assert_same();
}

/// A changed lockfile: a package whose version changed at a place is
/// replaced, one no longer needed is removed with its commands, the rest
/// stays; the tree ends as pnpm's after the same two installs.
#[test]
fn a_changed_lockfile_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let pair = Pair::new(&registry, "hoisting", "nodeLinker: hoisted\n");
    pair.install_both();
    let gone = pair.project.join("node_modules/pq-cycle-a");
    let kept = pair.project.join("node_modules/pq-bin-sh/package.json");
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let before = inode(&kept);
    // The `basic` fixture's lockfile: other packages, pq-plain 1.1.0 where
    // 1.0.0 was, pq-bin-sh 1.0.0 where it was.
    pair.edit(|p| {
        let basic = tempfile::tempdir().unwrap();
        prepare_project("basic", basic.path(), &registry.url());
        for file in ["package.json", "pnpm-lock.yaml"] {
            std::fs::copy(basic.path().join(file), p.join(file)).unwrap();
        }
    });
    pair.install_both();
    pair.assert_same();
    assert!(!gone.exists(), "a package no longer needed is removed");
    assert_eq!(inode(&kept), before, "an unchanged package is left alone");
}

/// Patches apply to every hoisted copy of a patched package.
#[test]
fn patches_hoisted_match_pnpm() {
    hoisted_matches_pnpm("patched");
}

/// An unknown `hoistingLimits` is refused while loading the settings, by
/// both tools, before anything is written.
#[test]
fn an_unknown_hoisting_limit_is_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    let pair = Pair::new(
        &registry,
        "workspace",
        "nodeLinker: hoisted\nhoistingLimits: bogus\n",
    );
    let by_pnpm = pair.pnpm_env.run(
        &pair.pnpm_project,
        &["install", "--frozen-lockfile", "--reporter=append-only"],
    );
    let by_pacquet = support::pacquet(&pair.env, &pair.project, &["install", "--frozen-lockfile"]);
    for out in [&by_pnpm, &by_pacquet] {
        let text = format!("{}{}", support::stdout(out), support::stderr(out));
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains("ERR_PNPM_INVALID_SETTING"), "{text}");
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("expected one of none, workspaces, dependencies"),
            "{text}"
        );
    }
    assert!(!pair.project.join("node_modules").exists());
}
