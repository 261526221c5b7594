//! `pacquet store path|status|prune|add` against pnpm 12 running the same
//! command on the same (or an identically built) store.
// Unix inodes, modes, signals and symlinks; the Linux CI job runs these
// against pnpm 12.
#![cfg(unix)]

mod support;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use pacquet_testing::{PnpmEnv, Registry, prepare_project};
use support::{blobs, index_keys, pacquet, pacquet_bin, pacquet_install_ok, stderr, stdout};

/// `pacquet <args>` in `dir` with `env`'s isolation but no implicit
/// `--store-dir`.
fn pacquet_bare(env: &PnpmEnv, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(pacquet_bin());
    env.apply_env(&mut cmd);
    cmd.current_dir(dir)
        .args(args)
        .output()
        .expect("spawn pacquet")
}

fn pnpm_bare(env: &PnpmEnv, dir: &Path, args: &[&str]) -> Output {
    env.bare_command(dir, args).output().expect("spawn pnpm")
}

#[test]
fn store_path_matches_pnpm() {
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), "http://127.0.0.1:9/");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let abs = tmp.path().join("abs-store");
    let abs_v11 = tmp.path().join("other/v11");
    let cases: Vec<Vec<String>> = vec![
        vec![],
        vec![format!("--store-dir={}", abs.display())],
        vec![format!("--store-dir={}", abs_v11.display())],
        vec!["--store-dir=relative/store".into()],
    ];
    for extra in &cases {
        let mut args = vec!["store", "path"];
        args.extend(extra.iter().map(String::as_str));
        let ours = pacquet_bare(&env, &project, &args);
        let theirs = pnpm_bare(&env, &project, &args);
        assert!(ours.status.success(), "{}", stderr(&ours));
        assert!(theirs.status.success(), "{}", stderr(&theirs));
        assert_eq!(stdout(&ours), stdout(&theirs), "store path {extra:?}");
    }
    // The workspace manifest's storeDir, seen from a nested project.
    std::fs::write(
        project.join("pnpm-workspace.yaml"),
        "packages:\n  - packages/*\nstoreDir: ../ws-store\n",
    )
    .unwrap();
    let nested = project.join("packages/app");
    std::fs::create_dir_all(&nested).unwrap();
    let ours = pacquet_bare(&env, &nested, &["store", "path"]);
    let theirs = pnpm_bare(&env, &nested, &["store", "path"]);
    assert_eq!(stdout(&ours), stdout(&theirs));
    assert_eq!(
        stdout(&ours),
        // Joined, not normalized, exactly as pnpm prints it.
        format!("{}\n", project.join("../ws-store/v11").display())
    );
}

/// The packages listed under "These packages are modified:".
fn modified_list(err: &str) -> Vec<String> {
    err.lines()
        .skip_while(|l| !l.contains("These packages are modified:"))
        .skip(1)
        .map_while(|l| l.trim_start().strip_prefix("│ "))
        .map(|l| l.trim().to_owned())
        .collect()
}

/// Replaces `path` with a new file (a new inode, so the store's hard link
/// keeps the original content).
fn rewrite(path: &Path, content: &str) {
    std::fs::remove_file(path).unwrap();
    std::fs::write(path, content).unwrap();
}

#[test]
fn status_reports_the_packages_pnpm_reports() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let project = tmp.path().join("project");
    prepare_project("peers", &project, &registry.url());
    pacquet_install_ok(&env, &project, &[]);

    let clean = pacquet(&env, &project, &["store", "status"]);
    assert!(clean.status.success(), "{}", stderr(&clean));
    assert_eq!(stderr(&clean), "Packages in the store are untouched\n");

    let vsd = project.join("node_modules/.pnpm");
    rewrite(
        &vsd.join("pq-plain@1.1.0/node_modules/pq-plain/index.js"),
        "changed",
    );
    std::fs::remove_file(vsd.join("@pq+plain@1.0.0/node_modules/@pq/plain/index.js")).unwrap();
    let peer_user = vsd.join("pq-peer-user@1.0.0_@pq+peer-host@2.0.0/node_modules/pq-peer-user");
    rewrite(&peer_user.join("index.js"), "changed");
    // Neither an extra file nor a mode change counts as a modification.
    let host = vsd.join("@pq+peer-host@2.0.0/node_modules/@pq/peer-host");
    std::fs::write(host.join("extra.js"), "extra").unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(host.join("package.json"), mode).unwrap();

    let ours = pacquet(&env, &project, &["store", "status"]);
    let theirs = env.run(&project, &["store", "status"]);
    assert_eq!(ours.status.code(), Some(1));
    assert_eq!(theirs.status.code(), Some(1));
    assert!(
        stderr(&ours).starts_with(
            "Error: ERR_PNPM_MODIFIED_DEPENDENCY\n\n  × Packages in the store have been mutated\n"
        ),
        "{}",
        stderr(&ours)
    );
    let listed = modified_list(&stderr(&ours));
    assert_eq!(
        listed,
        [
            "@pq/plain@1.0.0",
            "pq-peer-user@1.0.0(@pq/peer-host@2.0.0)",
            "pq-plain@1.1.0"
        ]
    );
    assert_eq!(listed, modified_list(&stderr(&theirs)));
}

/// Project `a` (combined: workspace, a built package copied out of the
/// store) and project `b` (hoisting) installed by pacquet into one store,
/// then `b` deleted. Returns the environment and `a`.
fn two_projects_one_removed(root: &Path, registry: &Registry) -> (PnpmEnv, PathBuf) {
    let env = PnpmEnv::new(&root.join("env"), &registry.url());
    let a = root.join("a");
    let b = root.join("b");
    prepare_project("combined", &a, &registry.url());
    prepare_project("hoisting", &b, &registry.url());
    pacquet_install_ok(&env, &a, &[]);
    pacquet_install_ok(&env, &b, &[]);
    std::fs::remove_dir_all(&b).unwrap();
    (env, a)
}

#[test]
fn prune_removes_what_pnpm_removes_and_keeps_what_projects_need() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (ours_env, a) = two_projects_one_removed(&tmp.path().join("ours"), &registry);
    let (theirs_env, _) = two_projects_one_removed(&tmp.path().join("theirs"), &registry);
    let ours_store = ours_env.store_dir.join("v11");
    let theirs_store = theirs_env.store_dir.join("v11");
    let keys_before = index_keys(&ours_store);
    assert_eq!(keys_before, index_keys(&theirs_store));

    let ours = pacquet(&ours_env, &a, &["store", "prune"]);
    assert!(ours.status.success(), "{}", stderr(&ours));
    let theirs = theirs_env.run_ok(tmp.path(), &["store", "prune"]);

    let ours_keys = index_keys(&ours_store);
    assert_eq!(ours_keys, index_keys(&theirs_store));
    assert_eq!(blobs(&ours_store), blobs(&theirs_store));
    assert_eq!(stderr(&ours), stderr(&theirs));
    assert!(
        ours_keys.len() < keys_before.len(),
        "b's packages were pruned"
    );
    // Only b used pq-dup-parent-a; a's pq-scripts was copied (one link per
    // blob) and survives because a's lockfile marks it.
    assert!(
        !ours_keys
            .iter()
            .any(|k| k.ends_with("\tpq-dup-parent-a@1.0.0"))
    );
    assert!(ours_keys.iter().any(|k| k.ends_with("\tpq-scripts@1.0.0")));
    assert_eq!(
        std::fs::read_dir(ours_store.join("projects"))
            .unwrap()
            .count(),
        1
    );

    // Everything a still needs is there: both tools install it offline.
    let url = registry.url();
    drop(registry);
    std::fs::remove_dir_all(a.join("node_modules")).unwrap();
    pacquet_install_ok(&ours_env, &a, &["--offline"]);
    let by_pnpm = tmp.path().join("a-by-pnpm");
    prepare_project("combined", &by_pnpm, &url);
    ours_env.run_ok(&by_pnpm, &["install", "--frozen-lockfile", "--offline"]);
}

#[test]
fn store_add_records_tarballs_as_pnpm_does() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let fixture = registry
        .packages()
        .unwrap()
        .get("pq-plain", "1.0.0")
        .unwrap();
    let tarballs = tmp.path().join("tarballs");
    std::fs::create_dir_all(&tarballs).unwrap();
    std::fs::write(tarballs.join("pq-plain-1.0.0.tgz"), &fixture.tarball).unwrap();
    std::fs::write(tmp.path().join("broken.tgz"), "not a tarball").unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();

    for arg in ["../tarballs/pq-plain-1.0.0.tgz", "../tarballs"] {
        let ours_env = PnpmEnv::new(
            &tmp.path().join(format!("ours{}", arg.len())),
            &registry.url(),
        );
        let theirs_env = PnpmEnv::new(
            &tmp.path().join(format!("theirs{}", arg.len())),
            &registry.url(),
        );
        let ours = pacquet(&ours_env, &work, &["store", "add", arg]);
        assert!(ours.status.success(), "{}", stderr(&ours));
        assert!(stderr(&ours).contains("+ file:../tarballs/pq-plain-1.0.0.tgz"));
        theirs_env.run_ok(&work, &["store", "add", arg]);
        let ours_store = ours_env.store_dir.join("v11");
        let theirs_store = theirs_env.store_dir.join("v11");
        assert_eq!(index_keys(&ours_store), index_keys(&theirs_store), "{arg}");
        assert_eq!(blobs(&ours_store), blobs(&theirs_store), "{arg}");
    }

    let env = PnpmEnv::new(&tmp.path().join("broken-env"), &registry.url());
    let ours = pacquet(&env, &work, &["store", "add", "../broken.tgz"]);
    let theirs = env.run(&work, &["store", "add", "../broken.tgz"]);
    assert_eq!(ours.status.code(), Some(1));
    assert_eq!(theirs.status.code(), Some(1));
    assert!(
        stderr(&ours).contains("Error: ERR_PNPM_STORE_ADD_FAILURE"),
        "{}",
        stderr(&ours)
    );
    assert!(stderr(&theirs).contains("Error: ERR_PNPM_STORE_ADD_FAILURE"));
}

/// A project pnpm installed with `modulesDir: nm` and copied files (one
/// link per blob) is still in use: prune must find its current lockfile.
#[test]
fn prune_keeps_a_pnpm_project_with_copied_files_and_its_own_modules_dir() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    let manifest = project.join("pnpm-workspace.yaml");
    let mut settings = std::fs::read_to_string(&manifest).unwrap();
    settings.push_str("\nmodulesDir: nm\npackageImportMethod: copy\n");
    std::fs::write(&manifest, settings).unwrap();
    env.install_frozen(&project);
    assert!(project.join("nm/.pnpm/lock.yaml").is_file());
    let store = env.store_dir.join("v11");
    let (keys, files) = (index_keys(&store), blobs(&store));

    let out = pacquet(&env, &project, &["store", "prune"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "Removed 0 files (0 bytes)\nRemoved 0 packages\n"
    );
    assert_eq!(index_keys(&store), keys);
    assert_eq!(blobs(&store), files);
}

/// The lock files pnpm 12's prune takes (its own lock directory under a
/// private `$XDG_RUNTIME_DIR`): pacquet takes the same ones.
#[test]
fn prune_takes_pnpms_store_locks() {
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), "http://127.0.0.1:9/");
    let lock_names = |runtime_dir: &Path| -> BTreeSet<String> {
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        let dir = runtime_dir.join(format!("pnpm-store-operation-locks-{uid}"));
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let mut runs = Vec::new();
    for tool in ["pacquet", "pnpm"] {
        let runtime_dir = tmp.path().join(format!("run-{tool}"));
        std::fs::create_dir_all(&runtime_dir).unwrap();
        let mode = std::os::unix::fs::PermissionsExt::from_mode(0o700);
        std::fs::set_permissions(&runtime_dir, mode).unwrap();
        let mut cmd = match tool {
            "pacquet" => {
                let mut cmd = Command::new(pacquet_bin());
                env.apply_env(&mut cmd);
                cmd
            }
            _ => env.bare_command(tmp.path(), &[]),
        };
        let out = cmd
            .current_dir(tmp.path())
            .env("XDG_RUNTIME_DIR", &runtime_dir)
            .args(["store", "prune"])
            .arg(format!("--store-dir={}", env.store_dir.display()))
            .output()
            .unwrap();
        assert!(out.status.success(), "{tool}: {}", stderr(&out));
        runs.push(lock_names(&runtime_dir));
    }
    let (ours, theirs) = (&runs[0], &runs[1]);
    assert!(ours.contains("all-stores.lock"), "{ours:?}");
    assert_eq!(ours.len(), 2, "{ours:?}");
    assert!(ours.is_subset(theirs), "ours {ours:?}, pnpm's {theirs:?}");
}

/// With a cache directory, `store prune` removes its `metadata*`
/// directories (only those) and says so, in pnpm 12.21's words.
#[test]
fn prune_removes_the_metadata_caches_pnpm_removes() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let run = |side: &str, with_pnpm: bool| -> (String, Vec<String>) {
        let root = tmp.path().join(side);
        let env = PnpmEnv::new(&root.join("env"), &registry.url());
        let project = root.join("project");
        prepare_project("basic", &project, &registry.url());
        pacquet_install_ok(&env, &project, &[]);
        let cache = env.cache_dir();
        std::fs::create_dir_all(cache.join("metadata-v1.3/registry")).unwrap();
        std::fs::write(cache.join("metadata-v1.3/registry/x.json"), "{}").unwrap();
        std::fs::create_dir_all(cache.join("metadata-full/registry")).unwrap();
        std::fs::create_dir_all(cache.join("other")).unwrap();
        let err = if with_pnpm {
            stderr(&env.run_ok(&project, &["store", "prune"]))
        } else {
            let out = pacquet(&env, &project, &["store", "prune"]);
            assert!(out.status.success(), "{}", stderr(&out));
            stderr(&out)
        };
        let mut left: Vec<String> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        (err, left)
    };
    let ours = run("ours", false);
    assert!(
        ours.0.contains("Removed all cached metadata files"),
        "{}",
        ours.0
    );
    assert!(
        !ours.1.iter().any(|d| d.starts_with("metadata")),
        "{:?}",
        ours.1
    );
    assert_eq!(ours, run("theirs", true));
}
