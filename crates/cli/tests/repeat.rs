//! Installs over an existing `node_modules`: a lockfile that changed
//! (packages added, removed, upgraded, a peer changed) leaves the tree pnpm
//! 12 leaves after the same step, and equal to a clean install; nothing
//! changed answers from the state files.
// Unix inodes, modes, signals and symlinks; the Linux CI job runs these
// against pnpm 12.
#![cfg(unix)]

mod support;

use std::path::Path;

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, pacquet_install_ok, stderr, stdout};

/// Replaces the project files in `dir` with those of fixture `name`,
/// keeping `node_modules`.
fn switch_to(name: &str, dir: &Path, registry: &Registry) {
    for file in [
        "package.json",
        "pnpm-lock.yaml",
        "pnpm-workspace.yaml",
        ".npmrc",
    ] {
        let _ = std::fs::remove_file(dir.join(file));
    }
    prepare_project(name, dir, &registry.url());
}

/// What [`transition`] leaves for further checks.
struct Transition {
    tmp: tempfile::TempDir,
    project: std::path::PathBuf,
    env: PnpmEnv,
    registry: Registry,
    /// stdout of the second install, pnpm's and pacquet's.
    pnpm_out: String,
    pacquet_out: String,
}

/// Installs fixture `from`, switches the project to fixture `to` (with
/// `extra_settings` appended to its `pnpm-workspace.yaml`) and installs
/// again, with pnpm 12 and with pacquet; pacquet's result must equal
/// pnpm's.
fn transition(from: &str, to: &str, extra_settings: &str) -> Transition {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let step = |project: &Path, install: &dyn Fn(&Path) -> String| -> String {
        prepare_project(from, project, &registry.url());
        install(project);
        switch_to(to, project, &registry);
        if !extra_settings.is_empty() {
            support::add_settings(project, extra_settings);
        }
        install(project)
    };

    let pnpm_project = tmp.path().join("pnpm/project");
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
    let pnpm_out = step(&pnpm_project, &|p| stdout(&pnpm_env.install_frozen(p)));

    let project = tmp.path().join("pacquet/project");
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    let pacquet_out = step(&project, &|p| stdout(&pacquet_install_ok(&env, p, &[])));

    let opts =
        DiffOptions::for_installs(&pnpm_project, &pnpm_env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm_project, &project, &opts);
    Transition {
        tmp,
        project,
        env,
        registry,
        pnpm_out,
        pacquet_out,
    }
}

/// The `+ name version` lines of an install summary.
fn added_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("+ ")).collect()
}

/// With `modulesCacheMaxAge: 0` orphaned package directories go at once
/// (by default pnpm 12 keeps them for a week: see the other transitions).
#[test]
fn orphans_are_pruned_when_the_cache_age_is_zero() {
    let Transition {
        tmp,
        project,
        env,
        registry,
        ..
    } = transition("combined", "basic", "modulesCacheMaxAge: 0\n");
    let clean = tmp.path().join("clean/project");
    prepare_project("basic", &clean, &registry.url());
    pacquet_install_ok(&env, &clean, &[]);
    let slot_dirs = |root: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root.join("node_modules/.pnpm"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains('@'))
            .collect();
        names.sort();
        names
    };
    assert_eq!(slot_dirs(&project), slot_dirs(&clean));
    assert!(!project.join("node_modules/.pnpm/pq-deep-1@1.0.0").exists());
}

#[test]
fn packages_added_and_bins_kept() {
    let t = transition("basic", "combined", "");
    // The summary lists what the step added, not the whole project.
    let added = added_lines(&t.pacquet_out);
    assert!(!added.is_empty(), "{}", t.pacquet_out);
    assert_eq!(added, added_lines(&t.pnpm_out), "{}", t.pacquet_out);
}

#[test]
fn packages_removed_with_their_bins() {
    let t = transition("combined", "basic", "");
    let project = &t.project;
    // Orphaned package directories stay for `modulesCacheMaxAge`.
    assert!(project.join("node_modules/.pnpm/pq-deep-1@1.0.0").exists());
    assert!(!project.join("node_modules/pq-deep-1").exists());
}

#[test]
fn peer_versions_changed() {
    transition("peers", "peers-hashed", "");
}

/// Every scoped link goes, so the scope directory goes; the new links of
/// that scope need it made again.
#[test]
fn a_scope_emptied_and_refilled() {
    transition("basic", "aliases", "");
}

#[test]
fn aliases_replace_packages() {
    transition("hoisting", "aliases", "");
}

#[test]
fn a_different_store_relinks_everything() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    let first = PnpmEnv::new(&tmp.path().join("env-a"), &registry.url());
    pacquet_install_ok(&first, &project, &[]);

    let second = PnpmEnv::new(&tmp.path().join("env-b"), &registry.url());
    pacquet_install_ok(&second, &project, &[]);
    let file = project.join("node_modules/.pnpm/pq-plain@1.1.0/node_modules/pq-plain/index.js");
    let blob_links = std::fs::metadata(&file).unwrap();
    // Linked from the second store: its blob is the same inode.
    let in_second_store = walk_files(&second.store_dir.join("v11/files"))
        .into_iter()
        .any(|p| same_inode(&p, &blob_links));
    assert!(in_second_store, "index.js is not linked from the new store");

    let clean = tmp.path().join("clean");
    prepare_project("basic", &clean, &registry.url());
    pacquet_install_ok(&second, &clean, &[]);
    let opts = DiffOptions::for_installs(&clean, &second.store_dir, &project, &second.store_dir);
    assert_trees_equal(&clean, &project, &opts);
}

#[test]
fn nothing_changed_is_already_up_to_date() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);

    // A package directory removed behind pacquet's back is not noticed:
    // the repeat install trusts the state files, as pnpm 12 does.
    let victim = project.join("node_modules/.pnpm/pq-deprecated@1.0.0");
    std::fs::remove_dir_all(&victim).unwrap();
    registry.reset_requests();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("Already up to date"),
        "{}",
        stdout(&out)
    );
    assert!(!victim.exists());
    assert_eq!(registry.total_requests(), 0);

    // Rewriting the lockfile unchanged is no change: its digest is
    // compared (docs/layout.md §9.1).
    let lockfile = project.join("pnpm-lock.yaml");
    let text = std::fs::read(&lockfile).unwrap();
    std::fs::write(&lockfile, &text).unwrap();
    support::mark_modified(&lockfile);
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert!(
        stdout(&out).contains("Already up to date"),
        "{}",
        stdout(&out)
    );
    // The state file then records the new `stat`, as pnpm 12 rewrites it:
    // the next repeat install needs no hashing.
    let state: serde_json::Value = serde_json::from_slice(
        &std::fs::read(project.join("node_modules/.pnpm-workspace-state-v1.json")).unwrap(),
    )
    .unwrap();
    let recorded = &state["validation"]["files"][lockfile.to_str().unwrap()]["mtimeNs"];
    let modified = std::fs::metadata(&lockfile).unwrap().modified().unwrap();
    let modified = modified.duration_since(std::time::UNIX_EPOCH).unwrap();
    assert_eq!(
        recorded.as_i64(),
        Some(modified.as_nanos() as i64),
        "{state}"
    );

    // Changed bytes make the next install check everything.
    std::fs::write(&lockfile, [text.as_slice(), b"\n"].concat()).unwrap();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert!(out.status.success());
    assert!(!stdout(&out).contains("Already up to date"));
    assert!(
        victim
            .join("node_modules/pq-deprecated/package.json")
            .exists()
    );
}

/// The state file's `validation` block as pnpm 12 reads it: after
/// pacquet's install pnpm 12 answers from it without rewriting the file
/// (its fast path), and after pnpm's install pacquet does the same, also
/// when every input was touched without changing.
#[test]
fn the_fast_path_works_across_tools() {
    // Bins in a workspace, injected projects, patch files.
    for fixture in ["workspace", "injected", "patched"] {
        fast_path_across_tools(fixture);
    }
}

fn fast_path_across_tools(fixture: &str) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project(fixture, &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let state_path = project.join("node_modules/.pnpm-workspace-state-v1.json");

    pacquet_install_ok(&env, &project, &[]);
    let written = std::fs::read(&state_path).unwrap();
    let block: serde_json::Value = serde_json::from_slice(&written).unwrap();
    assert!(block["validation"]["manifests"]["."].is_string(), "{block}");
    // `--frozen-lockfile` given explicitly makes pnpm 12 skip its fast path.
    let out = env.run_ok(&project, &["install", "--reporter=append-only"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Already up to date"),
        "{fixture}: {}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read(&state_path).unwrap(),
        written,
        "{fixture}: pnpm 12 rewrote the state file: it did not trust pacquet's record"
    );

    // The other way round, with every manifest and the lockfile touched.
    std::fs::remove_dir_all(project.join("node_modules")).unwrap();
    let out = env.install_frozen(&project);
    assert!(out.status.success(), "{}", stderr(&out));
    let block: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&state_path).unwrap()).unwrap();
    for path in block["validation"]["files"].as_object().unwrap().keys() {
        let path = Path::new(path);
        std::fs::write(path, std::fs::read(path).unwrap()).unwrap();
        support::mark_modified(path);
    }
    for dir in block["validation"]["manifests"].as_object().unwrap().keys() {
        let path = project.join(dir).join("package.json");
        std::fs::write(&path, std::fs::read(&path).unwrap()).unwrap();
        support::mark_modified(&path);
    }
    registry.reset_requests();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Already up to date"),
        "{fixture}: {}",
        stdout(&out)
    );
    assert_eq!(registry.total_requests(), 0);

    // An edited manifest is a change.
    let manifest = project.join("package.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    doc["description"] = "edited".into();
    std::fs::write(&manifest, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stdout(&out).contains("Already up to date"),
        "{}",
        stdout(&out)
    );
}

/// A `file:` directory dependency is brought up to date with its source by
/// every install, files added and removed, as pnpm 12 does: never answered
/// from the state files.
#[test]
fn a_local_directory_is_copied_again_on_every_install() {
    local_directory_resynced("");
    // The copy's own `node_modules` is not the source's: left in place.
    local_directory_resynced("nodeLinker: hoisted\n");
}

fn local_directory_resynced(settings: &str) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    // `lib/` is packed (`files`): one file added, one removed.
    let edit = |project: &Path| {
        let lib = project.join("local-dir/lib");
        std::fs::write(lib.join("added.js"), "module.exports = 1\n").unwrap();
        std::fs::remove_file(lib.join("index.js")).unwrap();
    };
    let run = |tool: &str, install: &dyn Fn(&Path) -> std::process::Output| {
        let project = tmp.path().join(tool).join("project");
        prepare_project("dep-kinds", &project, &registry.url());
        support::add_settings(&project, settings);
        assert!(install(&project).status.success());
        edit(&project);
        let out = install(&project);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            !stdout(&out).contains("Already up to date"),
            "{}",
            stdout(&out)
        );
        project
    };
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
    let pnpm_project = run("pnpm", &|p| pnpm_env.install_frozen(p));
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    let project = run("pacquet", &|p| {
        pacquet(&env, p, &["install", "--frozen-lockfile"])
    });

    let copy = project.join("node_modules/local-dir/lib");
    assert!(copy.join("added.js").exists());
    assert!(!copy.join("index.js").exists());
    let opts =
        DiffOptions::for_installs(&pnpm_project, &pnpm_env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm_project, &project, &opts);
}

fn walk_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            out.extend(walk_files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn same_inode(path: &Path, meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).is_ok_and(|m| m.ino() == meta.ino() && m.dev() == meta.dev())
}

/// `optimisticRepeatInstall: false`: a repeat install is not answered from
/// the state files, so the root's `postinstall` runs again, as with pnpm 12.
#[test]
fn a_repeat_install_without_the_optimistic_check_runs_the_root_scripts() {
    let registry = Registry::start_fixtures();
    for (optimistic, runs_again) in [("true", false), ("false", true)] {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        prepare_project("basic", &project, &registry.url());
        let manifest_path = project.join("package.json");
        let mut manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
        manifest["scripts"] = serde_json::json!({ "postinstall": "echo ROOT-POSTINSTALL-RAN" });
        std::fs::write(&manifest_path, manifest.to_string()).unwrap();
        support::add_settings(
            &project,
            &format!("\noptimisticRepeatInstall: {optimistic}\n"),
        );
        let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
        pacquet_install_ok(&env, &project, &[]);
        let again = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
        assert!(again.status.success());
        assert_eq!(
            stdout(&again).contains("ROOT-POSTINSTALL-RAN"),
            runs_again,
            "optimisticRepeatInstall: {optimistic}: {}",
            stdout(&again)
        );
    }
}

/// `name@version` of each entry under `packages:` in fixture `name`'s
/// lockfile.
fn fixture_packages(name: &str) -> Vec<(String, String)> {
    let path = pacquet_testing::project_dir(name).join("pnpm-lock.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    let section = text.split("\npackages:\n").nth(1).unwrap();
    let section = section.split("\nsnapshots:\n").next().unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && l.ends_with(':'))
        .map(|l| {
            let key = l.trim().trim_end_matches(':').trim_matches('\'');
            let at = key[1..].find('@').unwrap() + 1;
            (key[..at].to_owned(), key[at + 1..].to_owned())
        })
        .collect()
}

/// Installs `basic`, runs `between` on the project's environment, then
/// installs `combined` over it; the result must equal a clean install of
/// `combined`. Returns the tarball paths the second install requested.
fn basic_then_combined(between: &dyn Fn(&PnpmEnv)) -> Vec<String> {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    prepare_project("basic", &project, &registry.url());
    pacquet_install_ok(&env, &project, &[]);
    between(&env);
    switch_to("combined", &project, &registry);
    // Orphans go at once, as in the clean install compared with.
    support::add_settings(&project, "modulesCacheMaxAge: 0\n");
    registry.reset_requests();
    pacquet_install_ok(&env, &project, &[]);
    let downloads: Vec<String> = registry
        .requests()
        .into_iter()
        .filter(|p| p.ends_with(".tgz"))
        .collect();

    let clean = tmp.path().join("clean");
    let clean_env = PnpmEnv::new(&tmp.path().join("clean-env"), &registry.url());
    prepare_project("combined", &clean, &registry.url());
    support::add_settings(&clean, "modulesCacheMaxAge: 0\n");
    pacquet_install_ok(&clean_env, &clean, &[]);
    let opts = DiffOptions::for_installs(&clean, &clean_env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&clean, &project, &opts);
    downloads
}

/// `downloads` misses every package of fixture `basic`, and holds some.
fn only_new_packages_downloaded(downloads: &[String]) {
    let kept = fixture_packages("basic");
    assert!(!kept.is_empty());
    for (name, version) in kept {
        let path = pacquet_testing::tarball_path(&name, &version);
        assert!(
            !downloads.contains(&path),
            "{name}@{version} was downloaded again: {downloads:?}"
        );
    }
    // What `combined` adds was not in the store.
    assert!(!downloads.is_empty());
}

/// Packages already complete are completed from the project's copy of
/// their row summaries (docs/store.md §11.1), not from the store index:
/// with the index gone, only the packages the lockfile gained are
/// downloaded.
#[test]
fn kept_packages_need_no_index_row() {
    let downloads = basic_then_combined(&|env| {
        for file in ["index.db", "index.db-wal", "index.db-shm"] {
            let _ = std::fs::remove_file(env.store_dir.join("v11").join(file));
        }
    });
    only_new_packages_downloaded(&downloads);
}

/// A damaged copy is no copy: the rows come from the index, and nothing
/// already in the store is downloaded.
#[test]
fn a_damaged_summary_copy_is_ignored() {
    let downloads = basic_then_combined(&|env| {
        let dir = env.cache_dir().join("pacquet/row-summaries");
        let copies: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(copies.len(), 1, "one copy per virtual store");
        for copy in copies {
            let path = copy.unwrap().path();
            let mut bytes = std::fs::read(&path).unwrap();
            bytes.truncate(bytes.len() / 2);
            bytes.extend_from_slice(b"\xff\xff\xff\xff");
            std::fs::write(&path, bytes).unwrap();
        }
    });
    only_new_packages_downloaded(&downloads);
}

/// The previous tree comes from the record the first install left
/// (docs/store.md §11.2), and the changed lockfile installs as cleanly as
/// from scratch.
#[test]
fn a_changed_lockfile_is_compared_with_the_recorded_tree() {
    let downloads = basic_then_combined(&|env| {
        let records = records(env);
        assert_eq!(records.len(), 1, "one record per virtual store");
        assert!(std::fs::metadata(&records[0]).unwrap().len() > 0);
    });
    only_new_packages_downloaded(&downloads);
}

/// A damaged record is no record: `lock.yaml` is planned again.
#[test]
fn a_damaged_tree_record_is_ignored() {
    let downloads = basic_then_combined(&|env| {
        for path in records(env) {
            let mut bytes = std::fs::read(&path).unwrap();
            let cut = bytes.len() - 7;
            bytes.truncate(cut);
            std::fs::write(&path, bytes).unwrap();
        }
    });
    only_new_packages_downloaded(&downloads);
}

fn records(env: &PnpmEnv) -> Vec<std::path::PathBuf> {
    let dir = env.cache_dir().join("pacquet/trees");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect()
}

/// Package directories deleted by hand before a changed lockfile is
/// installed are made again, with their dependencies' links and `.bin`,
/// as pnpm 12 makes them: the diff of the two lockfiles says they stay.
#[test]
fn package_directories_deleted_by_hand_are_made_again() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let step = |project: &Path, install: &dyn Fn(&Path)| {
        prepare_project("hoisting", project, &registry.url());
        install(project);
        // One with a scoped dependency, one whose dependency has bins.
        for dir in ["pq-deep-2@1.0.0", "pq-deep-3@1.0.0"] {
            std::fs::remove_dir_all(project.join("node_modules/.pnpm").join(dir)).unwrap();
        }
        switch_to("combined", project, &registry);
        install(project);
    };
    let pnpm_project = tmp.path().join("pnpm/project");
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &registry.url());
    step(&pnpm_project, &|p| {
        pnpm_env.install_frozen(p);
    });
    let project = tmp.path().join("pacquet/project");
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    step(&project, &|p| {
        pacquet_install_ok(&env, p, &[]);
    });
    assert!(
        project
            .join("node_modules/.pnpm/pq-deep-2@1.0.0/node_modules/@pq/deep-leaf")
            .exists()
    );
    let opts =
        DiffOptions::for_installs(&pnpm_project, &pnpm_env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm_project, &project, &opts);
}
