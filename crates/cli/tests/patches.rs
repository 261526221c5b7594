//! `patchedDependencies` against pnpm 12: the same patched workspace
//! installed by both gives the same tree, the store keeps its blobs intact,
//! each tool reuses the other's patched side-effects entries, and bad patch
//! configurations fail with pnpm's codes.
// Unix link counts and inodes; the Linux CI job runs these against pnpm 12.
#![cfg(unix)]

mod support;

use std::{os::unix::fs::MetadataExt, path::Path, process::Output};

use pacquet_testing::{
    DiffOptions, PnpmEnv, Registry, assert_trees_equal, pnpm_install_fixture, prepare_project,
};
use sha2::{Digest, Sha512};
use support::{pacquet, pacquet_install_ok, stderr};

const PROJECT: &str = "patched";

fn pnpm_dir(key: &str) -> String {
    format!("node_modules/.pnpm/{key}")
}

/// `node_modules/.pnpm/<dir>/node_modules/<name>` of the `.pnpm` directory
/// starting with `prefix`, relative to the project.
fn package_dir(project: &Path, prefix: &str, name: &str) -> String {
    let dir = std::fs::read_dir(project.join("node_modules/.pnpm"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix}* directory"));
    format!("{}/node_modules/{name}", pnpm_dir(&dir))
}

/// The patched `pq-plain@1.0.0`'s own directory in a tree.
fn plain_1_0(project: &Path) -> std::path::PathBuf {
    project.join(package_dir(
        project,
        "pq-plain@1.0.0_patch_hash=",
        "pq-plain",
    ))
}

/// pq-scripts' script temp dir, which only exists where its scripts ran.
fn scripts_tmp(project: &Path) -> String {
    package_dir(project, "pq-scripts@1.0.0_patch_hash=", "pq-scripts") + "/node_modules"
}

/// Every blob under `<store>/files` still hashes to its name.
fn assert_store_blobs_intact(store_dir: &Path) {
    let files = [store_dir.join("files"), store_dir.join("v11/files")]
        .into_iter()
        .find(|dir| dir.is_dir())
        .expect("a files directory in the store");
    let mut checked = 0;
    for bucket in std::fs::read_dir(&files).unwrap().filter_map(Result::ok) {
        for blob in std::fs::read_dir(bucket.path())
            .unwrap()
            .filter_map(Result::ok)
        {
            let name = blob.file_name().to_string_lossy().into_owned();
            let hex = name.strip_suffix("-exec").unwrap_or(&name);
            let expected = format!("{}{hex}", bucket.file_name().to_string_lossy());
            let digest = Sha512::digest(std::fs::read(blob.path()).unwrap());
            assert_eq!(
                format!("{digest:x}"),
                expected,
                "store blob {} was modified",
                blob.path().display()
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no blobs under {}", files.display());
}

/// The `patched` workspace, whose `patchedDependencies` patch a package
/// by name, by exact version and by range.
#[test]
fn patched_workspace_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let pnpm = pnpm_install_fixture(&registry, PROJECT, &tmp.path().join("pnpm"));

    let project = tmp.path().join("pacquet/project");
    prepare_project(PROJECT, &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);

    // What the patches did, so that equal trees mean patched trees.
    let plain = plain_1_0(&project);
    let index = std::fs::read_to_string(plain.join("index.js")).unwrap();
    assert!(index.contains("(patched)"), "{index}");
    assert!(plain.join("added.txt").is_file());
    assert!(!plain.join("README.md").exists());
    // A patched package is a copy: nothing in it shares an inode with the store.
    assert_eq!(
        std::fs::metadata(plain.join("package.json"))
            .unwrap()
            .nlink(),
        1
    );

    let opts =
        DiffOptions::for_installs(&pnpm.project, &pnpm.env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm.project, &project, &opts);
    assert_store_blobs_intact(&env.store_dir);
}

/// pacquet fills a store (uploading each patched package's files as a
/// side-effects entry); pnpm 12 then installs offline from it and restores
/// those entries instead of patching again, and the reverse.
#[test]
fn patched_side_effects_are_shared_with_pnpm_both_ways() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let offline = [
        "install",
        "--frozen-lockfile",
        "--offline",
        "--reporter=append-only",
    ];

    let env = PnpmEnv::new(&tmp.path().join("env-a"), &registry.url());
    let by_pacquet = tmp.path().join("a/pacquet");
    prepare_project(PROJECT, &by_pacquet, &registry.url());
    pacquet_install_ok(&env, &by_pacquet, &[]);
    let by_pnpm = tmp.path().join("a/pnpm");
    prepare_project(PROJECT, &by_pnpm, &registry.url());
    env.run_ok(&by_pnpm, &offline);
    // Restored from the side-effects entry: linked from the store, not copied.
    let restored = plain_1_0(&by_pnpm).join("index.js");
    assert!(
        std::fs::metadata(&restored).unwrap().nlink() >= 2,
        "pnpm re-patched"
    );
    let tmp_dir = scripts_tmp(&by_pacquet);
    assert!(
        !by_pnpm.join(&tmp_dir).exists(),
        "pnpm ran the scripts again"
    );
    let opts = DiffOptions::for_installs(&by_pnpm, &env.store_dir, &by_pacquet, &env.store_dir)
        .ignore_path(&tmp_dir);
    assert_trees_equal(&by_pnpm, &by_pacquet, &opts);
    assert_store_blobs_intact(&env.store_dir);

    let env = PnpmEnv::new(&tmp.path().join("env-b"), &registry.url());
    let by_pnpm = tmp.path().join("b/pnpm");
    prepare_project(PROJECT, &by_pnpm, &registry.url());
    env.install_frozen(&by_pnpm);
    let by_pacquet = tmp.path().join("b/pacquet");
    prepare_project(PROJECT, &by_pacquet, &registry.url());
    pacquet_install_ok(&env, &by_pacquet, &["--offline"]);
    let restored = plain_1_0(&by_pacquet).join("index.js");
    assert!(
        std::fs::metadata(&restored).unwrap().nlink() >= 2,
        "pacquet re-patched"
    );
    let tmp_dir = scripts_tmp(&by_pnpm);
    assert!(
        !by_pacquet.join(&tmp_dir).exists(),
        "pacquet ran the scripts again"
    );
    let opts = DiffOptions::for_installs(&by_pnpm, &env.store_dir, &by_pacquet, &env.store_dir)
        .ignore_path(&tmp_dir);
    assert_trees_equal(&by_pnpm, &by_pacquet, &opts);
    assert_store_blobs_intact(&env.store_dir);
}

/// Both installs of [`both_install`]; the tempdir lives as long as this.
struct Outcome {
    pnpm: Output,
    ours: Output,
    /// pacquet's project.
    project: std::path::PathBuf,
    _tmp: tempfile::TempDir,
}

/// A copy of the fixture for pnpm and one for pacquet, each changed by
/// `edit`, installed with `--frozen-lockfile` by both.
fn both_install(edit: impl Fn(&Path)) -> Outcome {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let run = |tool: &str| {
        let project = tmp.path().join(tool).join("project");
        prepare_project(PROJECT, &project, &registry.url());
        edit(&project);
        let env = PnpmEnv::new(&tmp.path().join(tool).join("env"), &registry.url());
        let out = if tool == "pnpm" {
            env.run(
                &project,
                &["install", "--frozen-lockfile", "--reporter=append-only"],
            )
        } else {
            pacquet(&env, &project, &["install", "--frozen-lockfile"])
        };
        (out, project)
    };
    let (pnpm, _) = run("pnpm");
    let (ours, project) = run("pacquet");
    Outcome {
        pnpm,
        ours,
        project,
        _tmp: tmp,
    }
}

fn error_code(out: &Output) -> Option<String> {
    let text = stderr(out) + &String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Error: "))
        .map(|code| code.split_whitespace().next().unwrap_or("").to_owned())
}

fn assert_same_failure(out: &Outcome, code: &str) {
    let (pnpm, ours) = (&out.pnpm, &out.ours);
    assert_eq!(pnpm.status.code(), Some(1), "pnpm: {}", stderr(pnpm));
    assert_eq!(
        error_code(pnpm).as_deref(),
        Some(code),
        "pnpm: {}",
        stderr(pnpm)
    );
    assert_eq!(ours.status.code(), Some(1), "pacquet: {}", stderr(ours));
    assert_eq!(
        error_code(ours).as_deref(),
        Some(code),
        "pacquet: {}",
        stderr(ours)
    );
}

fn edit_file(path: &Path, f: impl Fn(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, f(text)).unwrap();
}

const PLAIN_PATCH: &str = "patches/pq-plain@1.0.0.patch";

#[test]
fn a_missing_patch_file_is_patch_not_found() {
    let out = both_install(|p| std::fs::remove_file(p.join(PLAIN_PATCH)).unwrap());
    assert_same_failure(&out, "ERR_PNPM_PATCH_NOT_FOUND");
    assert!(!out.project.join("node_modules").exists());
}

#[test]
fn an_edited_patch_file_no_longer_matches_the_lockfile() {
    let out = both_install(|p| edit_file(&p.join(PLAIN_PATCH), |t| t + "\n"));
    assert_same_failure(&out, "ERR_PNPM_LOCKFILE_CONFIG_MISMATCH");
    assert!(!out.project.join("node_modules").exists());
}

/// A patch file that is not a diff, recorded in the lockfile with its hash.
#[test]
fn a_patch_that_is_not_a_diff_is_invalid_patch() {
    let out = both_install(|p| rewrite_patch(p, "this is not a diff\n"));
    assert_same_failure(&out, "ERR_PNPM_INVALID_PATCH");
}

/// A hunk that does not apply fails the install naming the patch and the
/// file, and no state file claims the install happened.
#[test]
fn a_hunk_that_does_not_apply_is_patch_failed() {
    let failing = "diff --git a/index.js b/index.js\n--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-module.exports = \"something else\";\n+module.exports = 1;\n";
    let out = both_install(|p| rewrite_patch(p, failing));
    assert_same_failure(&out, "ERR_PNPM_PATCH_FAILED");
    let text: String = stderr(&out.ours).split_whitespace().collect();
    assert!(
        text.contains("pq-plain@1.0.0.patch"),
        "{}",
        stderr(&out.ours)
    );
    assert!(text.contains("index.js"), "{}", stderr(&out.ours));
    let modules = out.project.join("node_modules");
    assert!(!modules.join(".modules.yaml").exists());
    assert!(!modules.join(".pnpm/lock.yaml").exists());
    assert!(!modules.join(".pnpm-workspace-state-v1.json").exists());
}

#[test]
fn a_snapshot_key_disagreeing_with_the_lockfile_is_inconsistent() {
    // pq-scripts keeps its selector but its keys lose the patch hash.
    let out = both_install(|p| {
        let hash = patch_hash_in_lockfile(p, "pq-scripts@1.0.0");
        edit_file(&p.join("pnpm-lock.yaml"), |t| {
            t.replace(&format!("(patch_hash={hash})"), "")
        })
    });
    assert_same_failure(&out, "ERR_PNPM_INCONSISTENT_PATCH_HASH");
}

#[test]
fn two_ranges_matching_one_version_are_uncheckable() {
    let out = both_install(|p| {
        let hash = patch_hash_in_lockfile(p, "pq-plain@^1.1.0");
        edit_file(&p.join("pnpm-lock.yaml"), |t| {
            t.replace(
                &format!("  pq-plain@^1.1.0: {hash}\n"),
                &format!("  pq-plain@>=1.1.0: {hash}\n  pq-plain@^1.1.0: {hash}\n"),
            )
        });
        edit_file(&p.join("pnpm-workspace.yaml"), |t| {
            t.replace(
                "  pq-plain@^1.1.0: patches/pq-plain-1.x.patch\n",
                "  pq-plain@^1.1.0: patches/pq-plain-1.x.patch\n  pq-plain@>=1.1.0: patches/pq-plain-1.x.patch\n",
            )
        });
    });
    assert_same_failure(&out, "ERR_PNPM_UNCHECKABLE_PATCH_HASH");
}

/// pnpm 12 reports unused patches only while resolving; a frozen install
/// whose lockfile records the selector succeeds (docs/lockfile.md §9.6).
#[test]
fn an_unused_patch_is_accepted_by_a_frozen_install() {
    let out = both_install(|p| {
        let hash = patch_hash_in_lockfile(p, "pq-dup");
        edit_file(&p.join("pnpm-lock.yaml"), |t| {
            t.replace(
                &format!("  pq-dup: {hash}\n"),
                &format!("  pq-dup: {hash}\n  pq-nothere@1.0.0: {hash}\n"),
            )
        });
        edit_file(&p.join("pnpm-workspace.yaml"), |t| {
            t + "  pq-nothere@1.0.0: patches/pq-dup.patch\n"
        });
    });
    assert_eq!(
        out.pnpm.status.code(),
        Some(0),
        "pnpm: {}",
        stderr(&out.pnpm)
    );
    assert_eq!(
        out.ours.status.code(),
        Some(0),
        "pacquet: {}",
        stderr(&out.ours)
    );
    assert!(out.project.join("node_modules/.modules.yaml").is_file());
}

fn patch_hash_in_lockfile(project: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(project.join("pnpm-lock.yaml")).unwrap();
    let prefix = format!("  {key}: ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {key} in the lockfile"))
        .to_owned()
}

/// Replaces the pq-plain@1.0.0 patch by `text` and records its hash in the
/// lockfile, so that only applying it can fail.
fn rewrite_patch(project: &Path, text: &str) {
    let old = patch_hash_in_lockfile(project, "pq-plain@1.0.0");
    std::fs::write(project.join(PLAIN_PATCH), text).unwrap();
    let new = format!("{:x}", sha2::Sha256::digest(text.as_bytes()));
    edit_file(&project.join("pnpm-lock.yaml"), |t| t.replace(&old, &new));
}

/// Changing one patch (file and lockfile together, as `pnpm install` would
/// leave them) re-imports only the packages it patches; the tree then equals
/// pnpm 12's after the same two installs.
#[test]
fn changing_a_patch_reimports_only_its_packages() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let change = |project: &Path| {
        let old = patch_hash_in_lockfile(project, "pq-dup");
        let text = "diff --git a/PATCHED.md b/PATCHED.md\nnew file mode 100644\n--- /dev/null\n+++ b/PATCHED.md\n@@ -0,0 +1 @@\n+changed\n";
        std::fs::write(project.join("patches/pq-dup.patch"), text).unwrap();
        let new = format!("{:x}", sha2::Sha256::digest(text.as_bytes()));
        edit_file(&project.join("pnpm-lock.yaml"), |t| t.replace(&old, &new));
    };

    let pnpm = pnpm_install_fixture(&registry, PROJECT, &tmp.path().join("pnpm"));
    change(&pnpm.project);
    pnpm.env.install_frozen(&pnpm.project);

    let project = tmp.path().join("pacquet/project");
    prepare_project(PROJECT, &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("pacquet/env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);
    let untouched = plain_1_0(&project).join("index.js");
    let inode = std::fs::metadata(&untouched).unwrap().ino();
    change(&project);
    pacquet_install_ok(&env, &project, &[]);
    assert_eq!(
        std::fs::metadata(&untouched).unwrap().ino(),
        inode,
        "pq-plain was re-imported"
    );
    let opts =
        DiffOptions::for_installs(&pnpm.project, &pnpm.env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm.project, &project, &opts);
}

/// `store status` compares a patched package with its patched files (the
/// side-effects entry of its patch): untouched after an install, modified
/// once a patched file changes, for pnpm 12 and pacquet alike.
#[test]
fn store_status_compares_patched_packages_with_their_patched_files() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project(PROJECT, &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    pacquet_install_ok(&env, &project, &[]);
    let status = |expected: i32| {
        let ours = pacquet(&env, &project, &["store", "status"]);
        assert_eq!(
            ours.status.code(),
            Some(expected),
            "pacquet: {}",
            stderr(&ours)
        );
        let pnpm = env.run(&project, &["store", "status"]);
        assert_eq!(
            pnpm.status.code(),
            Some(expected),
            "pnpm: {}",
            stderr(&pnpm)
        );
    };
    status(0);
    // Replaced, not written through: the file may share the store's inode.
    let index = plain_1_0(&project).join("index.js");
    let edited = index.with_extension("edited");
    std::fs::write(&edited, "module.exports = 'edited';\n").unwrap();
    std::fs::rename(&edited, &index).unwrap();
    status(1);
}
