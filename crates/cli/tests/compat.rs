//! pacquet against pnpm 12: the same lockfile installed by both gives the
//! same tree (paths, contents, modes, symlink targets, `.bin` shims, state
//! files), and each tool installs offline from the other's store.

mod support;

use std::path::Path;

use pacquet_testing::{
    DiffOptions, PnpmEnv, Registry, assert_trees_equal, pnpm_install_fixture, prepare_project,
};
use support::{pacquet_install_ok, stdout};

/// Installs fixture `name` with pnpm and with pacquet (separate stores) and
/// compares the trees.
fn same_tree_as_pnpm(name: &str) {
    same_tree_as_pnpm_with(name, "");
}

/// [`same_tree_as_pnpm`] with `settings` appended to both copies'
/// `pnpm-workspace.yaml`.
fn same_tree_as_pnpm_with(name: &str, settings: &str) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let prepare = |side: &str| {
        let project = tmp.path().join(side).join("project");
        prepare_project(name, &project, &registry.url());
        if !settings.is_empty() {
            let path = project.join("pnpm-workspace.yaml");
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            std::fs::write(&path, format!("{}\n{settings}", text.trim_end())).unwrap();
        }
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &registry.url());
        (project, env)
    };
    let (pnpm_project, pnpm_env) = prepare("pnpm");
    pnpm_env.install_frozen(&pnpm_project);
    let (project, env) = prepare("pacquet");
    pacquet_install_ok(&env, &project, &[]);

    let opts =
        DiffOptions::for_installs(&pnpm_project, &pnpm_env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm_project, &project, &opts);
}

/// `minimumReleaseAgeStrict` in the workspace state: `true` when
/// `minimumReleaseAge` is set, as set otherwise, absent by default.
#[test]
fn minimum_release_age_strict_is_recorded_like_pnpm() {
    same_tree_as_pnpm_with("basic", "minimumReleaseAge: 0\n");
    same_tree_as_pnpm_with(
        "basic",
        "minimumReleaseAge: 0\nminimumReleaseAgeStrict: false\n",
    );
}

/// Resolution settings a frozen install does not act on are still recorded
/// in the workspace state as set (`linkWorkspacePackages` may be `deep`).
#[test]
fn resolution_settings_are_recorded_like_pnpm() {
    same_tree_as_pnpm_with(
        "workspace",
        "dedupeDirectDeps: true\ndedupeInjectedDeps: false\ndedupePeerDependents: false\n\
         linkWorkspacePackages: deep\npreferWorkspacePackages: true\n",
    );
}

/// `extendNodePath: false`: shims without `NODE_PATH`.
#[test]
fn extend_node_path_false_matches_pnpm() {
    same_tree_as_pnpm_with("peer-bins", "extendNodePath: false\n");
    same_tree_as_pnpm_with("workspace", "extendNodePath: false\n");
}

/// `preferSymlinkedExecutables`: `.bin` entries as symlinks to the bin
/// files, except those of linked projects; in the hoisted layout, where it
/// is the default, `false` gives shims. (Not `injected` in the isolated
/// layout: there pnpm 12 races between a shim and a symlink.)
#[test]
fn prefer_symlinked_executables_matches_pnpm() {
    for fixture in ["peer-bins", "workspace"] {
        same_tree_as_pnpm_with(fixture, "preferSymlinkedExecutables: true\n");
    }
    for fixture in ["peer-bins", "workspace", "injected"] {
        same_tree_as_pnpm_with(
            fixture,
            "nodeLinker: hoisted\npreferSymlinkedExecutables: false\n",
        );
    }
}

/// Nothing to install: pnpm 12 writes the state files but no virtual store
/// and no `lock.yaml`.
#[test]
fn a_project_without_dependencies_matches_pnpm() {
    same_tree_as_pnpm("empty");
}

#[test]
fn basic_matches_pnpm() {
    same_tree_as_pnpm("basic");
}

#[test]
fn peers_match_pnpm() {
    same_tree_as_pnpm("peers");
}

#[test]
fn hashed_peer_dirs_match_pnpm() {
    same_tree_as_pnpm("peers-hashed");
}

#[test]
fn aliases_match_pnpm() {
    same_tree_as_pnpm("aliases");
}

#[test]
fn optional_platform_packages_match_pnpm() {
    same_tree_as_pnpm("optional-platform");
}

/// An optional package whose `engines.node` excludes the running Node.js is
/// skipped with everything only it needs, and listed in `skipped`.
#[test]
fn engine_skipped_optional_packages_match_pnpm() {
    same_tree_as_pnpm("engines");
}

/// A non-optional one is installed with a warning.
#[test]
fn engine_mismatched_dependencies_match_pnpm() {
    same_tree_as_pnpm("engines-strict");
}

#[test]
fn hoisting_matches_pnpm() {
    same_tree_as_pnpm("hoisting");
}

#[test]
fn workspace_matches_pnpm() {
    same_tree_as_pnpm("workspace");
}

/// Projects pinning different majors of a peer host: one peer variant of
/// the same packages per project.
#[test]
fn workspace_peer_conflicts_match_pnpm() {
    same_tree_as_pnpm("workspace-peers");
}

/// Projects injected into one project (`file:` copies, written to
/// `injectedDeps` sorted by directory) and linked into another, with
/// `packageExtensions` recorded in the workspace state.
#[test]
fn injected_project_matches_pnpm() {
    same_tree_as_pnpm("injected");
}

/// `autoInstallPeers: false`: a peer found at the workspace root gets no
/// command in the project, and a package whose peer is a workspace project
/// gets none of the project's commands in its own `node_modules/.bin`.
#[test]
fn peers_on_links_match_pnpm() {
    same_tree_as_pnpm("peer-links");
}

/// The bins of auto-installed peers of direct dependencies go into the
/// project's `.bin`, though the peers are not linked in its `node_modules`.
#[test]
fn auto_installed_peer_bins_match_pnpm() {
    same_tree_as_pnpm("peer-bins");
}

/// Details real projects showed: optional peers satisfied from the graph
/// get no bin in the project's `.bin`, optional packages below a skipped one
/// are listed as skipped, overrides (ranged and `$` references) apply to
/// the projects' own manifests, a project's dev deps hoist before its prod
/// deps, and `allowBuilds`/catalogs/overrides are recorded sorted.
#[test]
fn pnpm_details_match_pnpm() {
    same_tree_as_pnpm("pnpm-details");
}

#[test]
fn combined_matches_pnpm() {
    same_tree_as_pnpm("combined");
}

/// pacquet fills a store; pnpm 12 then installs offline from it, and the
/// reverse; both trees equal a normal install.
#[test]
fn store_is_shared_with_pnpm_both_ways() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let name = "combined";

    // pacquet writes the store, pnpm reads it offline.
    let env = PnpmEnv::new(&tmp.path().join("env-a"), &registry.url());
    let by_pacquet = tmp.path().join("a/pacquet");
    prepare_project(name, &by_pacquet, &registry.url());
    pacquet_install_ok(&env, &by_pacquet, &[]);
    let by_pnpm = tmp.path().join("a/pnpm");
    prepare_project(name, &by_pnpm, &registry.url());
    registry.reset_requests();
    env.run_ok(
        &by_pnpm,
        &[
            "install",
            "--frozen-lockfile",
            "--offline",
            "--reporter=append-only",
        ],
    );
    assert_eq!(
        registry.total_requests(),
        0,
        "pnpm fetched: {:?}",
        registry.requests()
    );
    // pnpm restored pq-scripts from the side-effects entry pacquet uploaded
    // instead of running its scripts, so it has no script temp dir; the
    // built files themselves are compared.
    let scripts_tmp = "node_modules/.pnpm/pq-scripts@1.0.0/node_modules/pq-scripts/node_modules";
    assert!(by_pacquet.join(scripts_tmp).join(".tmp").is_dir());
    assert!(
        !by_pnpm.join(scripts_tmp).exists(),
        "pnpm ran the scripts again"
    );
    let opts = DiffOptions::for_installs(&by_pnpm, &env.store_dir, &by_pacquet, &env.store_dir)
        .ignore_path(scripts_tmp);
    assert_trees_equal(&by_pnpm, &by_pacquet, &opts);

    // pnpm writes the store, pacquet reads it offline.
    let env = PnpmEnv::new(&tmp.path().join("env-b"), &registry.url());
    let by_pnpm = tmp.path().join("b/pnpm");
    prepare_project(name, &by_pnpm, &registry.url());
    env.install_frozen(&by_pnpm);
    let by_pacquet = tmp.path().join("b/pacquet");
    prepare_project(name, &by_pacquet, &registry.url());
    registry.reset_requests();
    pacquet_install_ok(&env, &by_pacquet, &["--offline"]);
    assert_eq!(
        registry.total_requests(),
        0,
        "pacquet fetched: {:?}",
        registry.requests()
    );
    // The reverse: pacquet restores pnpm's side-effects entry (same cache
    // key) and runs nothing.
    assert!(by_pnpm.join(scripts_tmp).join(".tmp").is_dir());
    assert!(
        !by_pacquet.join(scripts_tmp).exists(),
        "pacquet ran the scripts again"
    );
    let opts = DiffOptions::for_installs(&by_pnpm, &env.store_dir, &by_pacquet, &env.store_dir)
        .ignore_path(scripts_tmp);
    assert_trees_equal(&by_pnpm, &by_pacquet, &opts);
}

/// A warm install (store filled, no node_modules) downloads nothing and
/// reports every package as reused.
#[test]
fn warm_install_downloads_nothing() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let first = tmp.path().join("first");
    prepare_project("basic", &first, &registry.url());
    pacquet_install_ok(&env, &first, &[]);
    assert!(registry.total_requests() > 0);

    let second = tmp.path().join("second");
    prepare_project("basic", &second, &registry.url());
    registry.reset_requests();
    let out = pacquet_install_ok(&env, &second, &[]);
    assert_eq!(registry.total_requests(), 0, "{:?}", registry.requests());
    assert!(stdout(&out).contains("downloaded 0"), "{}", stdout(&out));
    let opts = DiffOptions::for_installs(&first, &env.store_dir, &second, &env.store_dir);
    assert_trees_equal(&first, &second, &opts);
}

/// Running the install again over a complete tree changes nothing.
#[test]
fn repeat_install_keeps_the_tree() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let installed = Installed::combined(&registry, tmp.path());
    pacquet_install_ok(&installed.env, &installed.project, &[]);
    assert_eq!(registry.total_requests(), 0);
    installed.assert_unchanged();
}

/// pnpm 12 run offline over pacquet's install says what it says over its
/// own install (nothing to do) and leaves the tree as it was: the state
/// files tell pnpm what it expects.
#[test]
fn pnpm_after_pacquet_changes_nothing() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let pnpm_again = |env: &PnpmEnv, project: &Path| {
        let out = env.run_ok(
            project,
            &[
                "install",
                "--frozen-lockfile",
                "--offline",
                "--reporter=append-only",
            ],
        );
        // Without the timing of the closing line.
        stdout(&out)
            .lines()
            .filter(|l| !l.starts_with("Done in "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let by_pnpm = pnpm_install_fixture(&registry, "combined", &tmp.path().join("pnpm"));
    let expected = pnpm_again(&by_pnpm.env, &by_pnpm.project);

    let installed = Installed::combined(&registry, tmp.path());

    let said = pnpm_again(&installed.env, &installed.project);

    assert_eq!(said, expected);
    assert!(said.contains("Lockfile is up to date"), "{said}");
    assert_eq!(registry.total_requests(), 0);
    installed.assert_unchanged();
}

/// The `combined` fixture installed by pacquet, with a copy of the tree
/// taken right after; the registry's request log starts afresh.
struct Installed {
    env: PnpmEnv,
    project: std::path::PathBuf,
    copy: std::path::PathBuf,
}

impl Installed {
    fn combined(registry: &Registry, tmp: &Path) -> Installed {
        let env = PnpmEnv::new(&tmp.join("env"), &registry.url());
        let project = tmp.join("project");
        prepare_project("combined", &project, &registry.url());
        pacquet_install_ok(&env, &project, &[]);
        let copy = tmp.join("copy");
        snapshot(&project, &copy);
        registry.reset_requests();
        Installed { env, project, copy }
    }

    /// The tree equals the copy taken after the install.
    fn assert_unchanged(&self) {
        let store = &self.env.store_dir;
        let opts = DiffOptions::for_installs(&self.copy, store, &self.project, store)
            .substitute(self.copy.display().to_string(), "<PROJECT>");
        assert_trees_equal(&self.copy, &self.project, &opts);
    }
}

/// `cp -a` keeps symlinks and modes.
fn snapshot(from: &Path, to: &Path) {
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// `hoist: false`: shims without `NODE_PATH`, and no `hoistPattern` in the
/// workspace state.
#[test]
fn hoisting_off_matches_pnpm() {
    same_tree_as_pnpm_with("groups", "hoist: false\n");
}

/// Hoisting patterns read as pnpm reads them: `*` is any run of characters
/// and nothing else is special, so `**/pq-deep-3` names no unscoped package
/// (it needs a `/`), while `pq-deep-*` and `*cycle*` do.
#[test]
fn hoisting_patterns_match_pnpm() {
    same_tree_as_pnpm_with(
        "hoisting",
        "publicHoistPattern:\n  - '**/pq-deep-3'\n  - '*cycle*'\nhoistPattern:\n  - '**/pq-bin-sh'\n  - 'pq-deep-*'\n",
    );
}

/// A virtual store elsewhere is recorded, absolute, in the workspace state.
#[test]
fn another_virtual_store_dir_matches_pnpm() {
    same_tree_as_pnpm_with("groups", "virtualStoreDir: node_modules/.vs\n");
}

/// Where the stores are is said on an install with no previous `lock.yaml`
/// only, as pnpm 12.21 says it: the store's `v11` directory and the virtual
/// store relative to the project; not after `add`.
#[test]
fn the_stores_are_named_on_a_first_install_only() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let said = |env: &PnpmEnv, out: &std::process::Output| -> Vec<String> {
        let store = env.store_dir.display().to_string();
        stdout(out)
            .lines()
            .filter(|l| l.contains("store"))
            .map(|l| l.replace(&store, "<STORE>"))
            .collect()
    };
    let mut sides = Vec::new();
    for side in ["pnpm", "pacquet"] {
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &registry.url());
        let project = tmp.path().join(side).join("project");
        prepare_project("basic", &project, &registry.url());
        let (first, then) = if side == "pnpm" {
            (
                env.run_ok(&project, &["install", "--frozen-lockfile"]),
                env.run_ok(&project, &["add", "pq-dup@1.0.0"]),
            )
        } else {
            (
                support::pacquet(&env, &project, &["install", "--frozen-lockfile"]),
                support::pacquet(&env, &project, &["add", "pq-dup@1.0.0"]),
            )
        };
        assert!(first.status.success() && then.status.success());
        sides.push((said(&env, &first), said(&env, &then)));
    }
    assert_eq!(sides[0], sides[1]);
    assert_eq!(sides[1].0.len(), 3, "{:?}", sides[1]);
    assert!(sides[1].1.is_empty(), "{:?}", sides[1]);
}
