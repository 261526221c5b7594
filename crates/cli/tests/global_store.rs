//! `enableGlobalVirtualStore: true` against pnpm 12: the same lockfile
//! installed by both gives the same project tree and the same slots under
//! `<store>/links` (store paths inside shims mapped to one placeholder);
//! each tool reuses the other's slots offline without touching them; slots
//! appear whole or not at all, with concurrent installs and when an install
//! is killed.

// Inodes, modes and `cp -a`: the comparisons here are Unix ones.
#![cfg(unix)]

mod support;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Duration,
};

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{add_settings, blobs, index_keys, pacquet, pacquet_install_ok, stderr};

const GLOBAL: &str = "enableGlobalVirtualStore: true\n";

/// Fixture `fixture` copied to `dir` with the global virtual store on.
fn global_project(registry: &Registry, dir: &Path, fixture: &str) {
    prepare_project(fixture, dir, &registry.url());
    add_settings(dir, &format!("\n{GLOBAL}"));
}

/// A copy of `fixture` with the global virtual store for pnpm and one for
/// pacquet under `root`, each with its own environment and store.
fn global_sides(registry: &Registry, root: &Path, fixture: &str) -> [(PathBuf, PnpmEnv); 2] {
    ["pnpm", "pacquet"].map(|side| {
        let project = root.join(side).join("project");
        global_project(registry, &project, fixture);
        let env = PnpmEnv::new(&root.join(side).join("env"), &registry.url());
        (project, env)
    })
}

fn links(env: &PnpmEnv) -> PathBuf {
    env.store_dir.join("v11/links")
}

/// Where the slots are: `globalVirtualStoreDir` when `settings` set it
/// (relative to the project), else the store's `links`.
fn slots_dir(env: &PnpmEnv, project: &Path, settings: &str) -> PathBuf {
    match settings
        .lines()
        .find_map(|l| l.strip_prefix("globalVirtualStoreDir: "))
    {
        Some(dir) => project.join(dir.trim()),
        None => links(env),
    }
}

/// Tree comparison of two installs with shims' store paths mapped alike.
fn opts(a: (&Path, &PnpmEnv), b: (&Path, &PnpmEnv)) -> DiffOptions {
    let mut opts = DiffOptions::for_installs(a.0, &a.1.store_dir, b.0, &b.1.store_dir);
    opts.substitute_contents = true;
    opts
}

/// Installs fixture `name` with the global virtual store by pnpm and by
/// pacquet, each with its own store, and compares projects and slots.
fn same_as_pnpm(name: &str, settings: &str) {
    same_as_pnpm_edited(name, settings, &|yaml| yaml.to_owned());
}

/// [`same_as_pnpm`] with the fixture's `pnpm-workspace.yaml` edited first.
fn same_as_pnpm_edited(name: &str, settings: &str, edit: &dyn Fn(&str) -> String) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let prepare = |side: &str| {
        let project = tmp.path().join(side).join("project");
        prepare_project(name, &project, &registry.url());
        let yaml = project.join("pnpm-workspace.yaml");
        let text = std::fs::read_to_string(&yaml).unwrap_or_default();
        std::fs::write(&yaml, edit(&text)).unwrap();
        add_settings(&project, &format!("\n{GLOBAL}{settings}"));
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &registry.url());
        (project, env)
    };
    let (pnpm_project, pnpm_env) = prepare("pnpm");
    pnpm_env.install_frozen(&pnpm_project);
    let (project, env) = prepare("pacquet");
    pacquet_install_ok(&env, &project, &[]);

    let (theirs, ours) = (
        slots_dir(&pnpm_env, &pnpm_project, settings),
        slots_dir(&env, &project, settings),
    );
    let mut opts = opts((&pnpm_project, &pnpm_env), (&project, &env));
    for dir in [&theirs, &ours] {
        // As recorded and in shims' markers: without `..`.
        let normalized: PathBuf = dir.components().fold(PathBuf::new(), |mut p, c| {
            match c {
                std::path::Component::ParentDir => {
                    p.pop();
                }
                c => p.push(c),
            }
            p
        });
        opts = opts.substitute(normalized.display().to_string(), "<SLOTS>");
    }
    assert_trees_equal(&pnpm_project, &project, &opts);
    assert!(ours.is_dir(), "no slots were made");
    assert_trees_equal(&theirs, &ours, &opts);
    // Both registered their project, under the same kind of name.
    for (env, project) in [(&pnpm_env, &pnpm_project), (&env, &project)] {
        let registered = registrations(env);
        assert_eq!(registered.len(), 1, "{registered:?}");
        assert_eq!(registered.values().next().unwrap(), project);
    }
}

/// `<store>/v11/projects`: entry name → the project it points at.
fn registrations(env: &PnpmEnv) -> BTreeMap<String, PathBuf> {
    let dir = env.store_dir.join("v11/projects");
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            assert_eq!(name.len(), 32, "{name}");
            (name, std::fs::read_link(e.path()).unwrap())
        })
        .collect()
}

/// Every entry under `links` with, for files, the inode: a slot touched by
/// an install (re-imported, rewritten) shows up as a change.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    use std::os::unix::fs::MetadataExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let meta = path.symlink_metadata().unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("-> {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path);
                "dir".to_owned()
            } else {
                format!("ino {} mode {:o}", meta.ino(), meta.mode())
            };
            out.insert(rel, what);
        }
    }
    out
}

/// A single project with `enableGlobalVirtualStore: true`: its tree and
/// its slots.
#[test]
fn a_project_matches_pnpm() {
    same_as_pnpm("basic", "");
    same_as_pnpm("peer-bins", "");
}

/// Dependency cycles (`pq-cycle-a` ↔ `pq-cycle-b`): hashed as one
/// component, named as pnpm 12.21 names them.
#[test]
fn cycles_match_pnpm() {
    same_as_pnpm("hoisting", "");
}

/// A patched package with a command, hoisted into the hidden hoisting
/// directory: pnpm 12.21 links no command of it there when the install
/// makes its slot, and links it when the slot is found made (`node_modules`
/// removed, the store kept).
#[test]
fn patched_hoisted_commands_match_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let sides = global_sides(&registry, tmp.path(), "patched-bins");
    let [(theirs, pnpm_env), (ours, env)] = &sides;
    let command = |p: &Path| {
        p.join("node_modules/.pnpm/node_modules/.bin/deep-leaf")
            .exists()
    };
    for slots_made_here in [true, false] {
        if !slots_made_here {
            for project in [theirs, ours] {
                std::fs::remove_dir_all(project.join("node_modules")).unwrap();
            }
        }
        pnpm_env.install_frozen(theirs);
        pacquet_install_ok(env, ours, &[]);
        assert_trees_equal(theirs, ours, &opts((theirs, pnpm_env), (ours, env)));
        assert_eq!(command(ours), !slots_made_here);
    }
}

/// Peer variants and aliases: one slot per graph hash.
#[test]
fn peers_and_aliases_match_pnpm() {
    same_as_pnpm("peers", "");
    same_as_pnpm("aliases", "");
}

/// A workspace: every project links into the same slots.
#[test]
fn a_workspace_matches_pnpm() {
    same_as_pnpm("workspace", "");
}

/// Installs `fixture` with the global virtual store by pnpm, then by
/// pacquet, at the same path with a store at the same place (slots of
/// packages depending on workspace directories are named after their
/// absolute paths), and compares projects and slots.
fn same_place_as_pnpm(fixture: &str) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let env_dir = tmp.path().join("env");
    global_project(&registry, &project, fixture);
    let env = PnpmEnv::new(&env_dir, &registry.url());
    env.install_frozen(&project);
    let theirs = tmp.path().join("by-pnpm");
    copy_tree(&project, &theirs);
    std::fs::rename(&env_dir, tmp.path().join("pnpm-env")).unwrap();
    std::fs::remove_dir_all(&project).unwrap();
    global_project(&registry, &project, fixture);
    let env = PnpmEnv::new(&env_dir, &registry.url());
    pacquet_install_ok(&env, &project, &[]);

    let opts = DiffOptions {
        substitute_contents: true,
        ..DiffOptions::default()
    }
    .substitute(
        tmp.path().join("pnpm-env/store").display().to_string(),
        "<STORE>",
    )
    .substitute(env.store_dir.display().to_string(), "<STORE>");
    assert_trees_equal(&theirs, &project, &opts);
    let their_links = tmp.path().join("pnpm-env/store/v11/links");
    assert_trees_equal(&their_links, &links(&env), &opts);
}

/// Injected workspace projects and `file:` directories: slots of their own
/// per workspace (`directory` in place of the version, the workspace's path
/// in the hash), so both tools install at the same path, one after the
/// other, each with a store at the same place.
#[test]
fn local_directories_match_pnpm() {
    same_place_as_pnpm("injected");
}

/// A peer resolved to a workspace project: the slot links back into the
/// workspace by a path through the workspace's own directory.
#[test]
fn links_from_slots_into_the_workspace_match_pnpm() {
    same_place_as_pnpm("peer-links");
}

/// `globalVirtualStoreDir` moves the slots.
#[test]
fn global_virtual_store_dir_matches_pnpm() {
    same_as_pnpm("basic", "globalVirtualStoreDir: ../slots\n");
}

/// Fills a store with one tool, then installs a second copy of the project
/// with the other, offline: no request, no slot touched, the same tree.
fn reused_offline(pacquet_first: bool) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let first = tmp.path().join("first");
    let second = tmp.path().join("second");
    for project in [&first, &second] {
        global_project(&registry, project, "workspace");
    }
    if pacquet_first {
        pacquet_install_ok(&env, &first, &[]);
    } else {
        env.install_frozen(&first);
    }
    let before = snapshot(&links(&env));
    registry.reset_requests();
    if pacquet_first {
        env.run_ok(
            &second,
            &[
                "install",
                "--frozen-lockfile",
                "--offline",
                "--reporter=append-only",
            ],
        );
    } else {
        pacquet_install_ok(&env, &second, &["--offline"]);
    }
    assert_eq!(registry.total_requests(), 0, "{:?}", registry.requests());
    assert_eq!(snapshot(&links(&env)), before, "the slots changed");
    let mut opts = opts((&first, &env), (&second, &env));
    opts = opts
        .substitute(first.display().to_string(), "<PROJECT>")
        .substitute(second.display().to_string(), "<PROJECT>");
    assert_trees_equal(&first, &second, &opts);
    assert_eq!(registrations(&env).len(), 2);
}

#[test]
fn pnpm_reuses_the_slots_pacquet_made() {
    reused_offline(true);
}

#[test]
fn pacquet_reuses_the_slots_pnpm_made() {
    reused_offline(false);
}

/// A repeat install with the slots in place and `node_modules` gone makes
/// only the project's links.
#[test]
fn a_repeat_install_leaves_the_slots_alone() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let project = tmp.path().join("project");
    global_project(&registry, &project, "workspace");
    pacquet_install_ok(&env, &project, &[]);
    let reference = tmp.path().join("reference");
    copy_tree(&project, &reference);
    let before = snapshot(&links(&env));
    for dir in [
        "node_modules",
        "packages/a/node_modules",
        "packages/b/node_modules",
    ] {
        let _ = std::fs::remove_dir_all(project.join(dir));
    }
    pacquet_install_ok(&env, &project, &["--offline"]);
    assert_eq!(snapshot(&links(&env)), before);
    let opts = opts((&reference, &env), (&project, &env))
        .substitute(reference.display().to_string(), "<PROJECT>");
    assert_trees_equal(&reference, &project, &opts);
}

fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Leftover staging directories (`.<hash>.<pid>.tmp`) under `links`.
fn staging_dirs(links: &Path) -> Vec<String> {
    snapshot(links)
        .into_keys()
        .filter(|p| {
            p.split('/').count() == 4
                && p.rsplit('/')
                    .next()
                    .is_some_and(|n| n.starts_with('.') && n.ends_with(".tmp"))
        })
        .collect()
}

/// Installs of the same project by both tools at once, into one store:
/// every install succeeds and the slots are those of a lone install.
#[test]
fn concurrent_installs_of_both_tools_share_the_slots() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let alone_env = PnpmEnv::new(&tmp.path().join("alone-env"), &registry.url());
    let alone = tmp.path().join("alone");
    global_project(&registry, &alone, "workspace");
    pacquet_install_ok(&alone_env, &alone, &[]);

    for round in 0..3 {
        let env = PnpmEnv::new(&tmp.path().join(format!("env{round}")), &registry.url());
        let mut children = Vec::new();
        for i in 0..4 {
            let project = tmp.path().join(format!("r{round}-p{i}"));
            global_project(&registry, &project, "workspace");
            let mut cmd = if i == 3 {
                env.command(&project, &["install", "--frozen-lockfile"])
            } else {
                let mut cmd = Command::new(support::pacquet_bin());
                env.apply_env(&mut cmd);
                cmd.current_dir(&project).args([
                    "install",
                    "--frozen-lockfile",
                    &format!("--store-dir={}", env.store_dir.display()),
                ]);
                cmd
            };
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
            children.push((project, cmd.spawn().unwrap()));
        }
        for (project, child) in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                project.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(staging_dirs(&links(&env)).is_empty());
        let opts = opts((&alone, &alone_env), (&alone, &env));
        assert_trees_equal(&links(&alone_env), &links(&env), &opts);
    }
}

/// An install killed at any moment leaves no slot that is there but
/// incomplete: every slot present is identical to a finished one, and the
/// next install completes the rest.
#[test]
fn a_killed_install_leaves_no_partial_slot() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let done_env = PnpmEnv::new(&tmp.path().join("done-env"), &registry.url());
    let done = tmp.path().join("done");
    global_project(&registry, &done, "workspace");
    pacquet_install_ok(&done_env, &done, &[]);
    let complete = links(&done_env);

    for (round, delay_ms) in [2u64, 5, 10, 20, 40, 80].into_iter().enumerate() {
        let env = PnpmEnv::new(&tmp.path().join(format!("env{round}")), &registry.url());
        let project = tmp.path().join(format!("p{round}"));
        global_project(&registry, &project, "workspace");
        let mut cmd = Command::new(support::pacquet_bin());
        env.apply_env(&mut cmd);
        cmd.current_dir(&project)
            .args([
                "install",
                "--frozen-lockfile",
                &format!("--store-dir={}", env.store_dir.display()),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        // Every slot directory present is a finished one.
        let slots = links(&env);
        if slots.is_dir() {
            let made = snapshot(&slots);
            for slot in made.keys().filter(|p| p.split('/').count() == 4) {
                if slot.rsplit('/').next().is_some_and(|n| n.ends_with(".tmp")) {
                    continue;
                }
                let opts = opts((&done, &done_env), (&project, &env));
                assert_trees_equal(&complete.join(slot), &slots.join(slot), &opts);
            }
        }
        pacquet_install_ok(&env, &project, &[]);
        let opts = opts((&done, &done_env), (&project, &env));
        assert_trees_equal(&complete, &links(&env), &opts);
    }
}

/// A patched package is patched in its slot, named by its patch hash (the
/// one that may build is not built: pnpm 12.21 names such slots otherwise,
/// docs/layout.md §16.2).
#[test]
fn patched_packages_match_pnpm() {
    same_as_pnpm_edited("patched", "", &|yaml| {
        yaml.replace("pq-scripts: true", "pq-scripts: false")
    });
}

/// Turning `enableGlobalVirtualStore` on in an installed project, then off
/// again: each step leaves the tree pnpm 12 leaves.
#[test]
fn switching_the_setting_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let prepare = |side: &str| {
        let project = tmp.path().join(side).join("project");
        prepare_project("workspace", &project, &registry.url());
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &registry.url());
        (project, env)
    };
    let (theirs, pnpm_env) = prepare("pnpm");
    let (ours, env) = prepare("pacquet");
    let install_both = || {
        pnpm_env.install_frozen(&theirs);
        pacquet_install_ok(&env, &ours, &[]);
        let opts = opts((&theirs, &pnpm_env), (&ours, &env));
        assert_trees_equal(&theirs, &ours, &opts);
    };
    install_both();
    for project in [&theirs, &ours] {
        add_settings(project, GLOBAL);
    }
    install_both();
    for project in [&theirs, &ours] {
        let path = project.join("pnpm-workspace.yaml");
        let text = std::fs::read_to_string(&path).unwrap().replace(GLOBAL, "");
        std::fs::write(&path, text).unwrap();
    }
    install_both();
}

/// Two projects with the global virtual store in one store, then one of
/// them deleted: `store prune` by pacquet removes the same slots, blobs and
/// index rows as pnpm 12's, and says so in the same words; the remaining
/// project still installs offline from what is left.
#[test]
fn store_prune_removes_the_slots_pnpm_removes() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let setup = |side: &str| {
        let root = tmp.path().join(side);
        let env = PnpmEnv::new(&root.join("env"), &registry.url());
        let (gone, kept) = (root.join("gone"), root.join("kept"));
        prepare_project("hoisting", &gone, &registry.url());
        prepare_project("workspace", &kept, &registry.url());
        for project in [&gone, &kept] {
            add_settings(project, &format!("\n{GLOBAL}"));
            pacquet_install_ok(&env, project, &[]);
        }
        std::fs::remove_dir_all(&gone).unwrap();
        (env, kept)
    };
    let (ours_env, ours) = setup("ours");
    let (theirs_env, theirs) = setup("theirs");
    let slots = |env: &PnpmEnv| -> Vec<String> {
        snapshot(&links(env))
            .into_keys()
            .filter(|p| p.split('/').count() <= 4)
            .collect()
    };
    let before = slots(&ours_env);
    assert_eq!(before, slots(&theirs_env));

    let out = pacquet(&ours_env, &ours, &["store", "prune"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let their_out = theirs_env.run_ok(&theirs, &["store", "prune"]);
    assert_eq!(stderr(&out), stderr(&their_out));
    assert!(
        stderr(&out).contains("Checking 1 registered project(s) for global virtual store usage"),
        "{}",
        stderr(&out)
    );
    let after = slots(&ours_env);
    assert_eq!(after, slots(&theirs_env));
    assert!(after.len() < before.len(), "nothing was pruned");
    let store = |env: &PnpmEnv| env.store_dir.join("v11");
    assert_eq!(blobs(&store(&ours_env)), blobs(&store(&theirs_env)));
    assert_eq!(
        index_keys(&store(&ours_env)),
        index_keys(&store(&theirs_env))
    );

    let reference = tmp.path().join("reference");
    copy_tree(&ours, &reference);
    let _ = std::fs::remove_dir_all(ours.join("node_modules"));
    drop(registry);
    pacquet_install_ok(&ours_env, &ours, &["--offline"]);
    let opts = opts((&reference, &ours_env), (&ours, &ours_env))
        .substitute(reference.display().to_string(), "<PROJECT>");
    assert_trees_equal(&reference, &ours, &opts);
}

/// A package whose build is not approved, first made and then found in the
/// store (`node_modules` gone): both times recorded in `ignoredBuilds` as
/// pnpm 12 records it.
#[test]
fn ignored_builds_are_recorded_for_slots_made_and_found() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let prepare = |side: &str| {
        let project = tmp.path().join(side).join("project");
        prepare_project("lifecycle", &project, &registry.url());
        let path = project.join("pnpm-workspace.yaml");
        let text = std::fs::read_to_string(&path).unwrap().replace(
            "allowBuilds:\n  pq-lc-leaf: true\n  pq-lc-mid: true\n  pq-lc-optional: true\n",
            "",
        );
        std::fs::write(&path, text).unwrap();
        add_settings(&project, &format!("{GLOBAL}strictDepBuilds: false\n"));
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &registry.url());
        (project, env)
    };
    let (theirs, pnpm_env) = prepare("pnpm");
    let (ours, env) = prepare("pacquet");
    for _ in 0..2 {
        for project in [&theirs, &ours] {
            let _ = std::fs::remove_dir_all(project.join("node_modules"));
        }
        pnpm_env.install_frozen(&theirs);
        pacquet_install_ok(&env, &ours, &[]);
        let modules = std::fs::read_to_string(ours.join("node_modules/.modules.yaml")).unwrap();
        assert!(modules.contains("pq-lc-leaf"), "{modules}");
        // The scripts' environments: cli/tests/lifecycle/env.rs.
        let opts = opts((&theirs, &pnpm_env), (&ours, &env))
            .ignore_path("lifecycle-env")
            .ignore_path("lifecycle.log");
        assert_trees_equal(&theirs, &ours, &opts);
    }
}

/// `<package> <event>` lines of dependency scripts in `project`'s log.
fn dependency_builds(project: &Path) -> Vec<String> {
    std::fs::read_to_string(project.join("lifecycle.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| {
            l.starts_with("pq-lc-") && !l.starts_with("pq-lc-app") && !l.starts_with("pq-lc-lib")
        })
        .map(str::to_owned)
        .collect()
}

/// Every store row's side-effects entries (cache key and diff), by row key.
fn side_effects(
    env: &PnpmEnv,
) -> BTreeMap<String, Vec<(String, pacquet_store_index::SideEffectsDiff)>> {
    let db = rusqlite::Connection::open(env.store_dir.join("v11/index.db")).unwrap();
    let mut query = db.prepare("SELECT key, data FROM package_index").unwrap();
    let rows = query
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
        })
        .unwrap();
    let mut out = BTreeMap::new();
    for row in rows {
        let (key, data) = row.unwrap();
        let row = pacquet_store_index::decode(&data).unwrap();
        if let Some(entries) = row.side_effects {
            out.insert(key, entries);
        }
    }
    assert!(!out.is_empty());
    out
}

/// `<scope>/<name>/<version>/<hash>` of every slot under `links`.
fn slot_names(links: &Path) -> Vec<String> {
    let mut names: Vec<String> = snapshot(links)
        .into_keys()
        .filter(|p| p.split('/').count() == 4 && !p.split('/').any(|s| s.starts_with('.')))
        .collect();
    names.sort();
    names
}

/// The package directory of the one slot of `name` under `links`.
fn slot_package(links: &Path, name: &str) -> PathBuf {
    let version = links.join("@").join(name).join("1.0.0");
    let slots: Vec<PathBuf> = std::fs::read_dir(&version)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(slots.len(), 1, "{slots:?}");
    slots[0].join("node_modules").join(name)
}

/// Dependency builds run in the published slots, the same builds pnpm 12
/// runs; a second project finds the slots built and runs none; a slot whose
/// build did not finish (its `.pnpm-needs-build` marker still there) is
/// made and built again. The slots are named as pnpm names them: the
/// engine in the hash of builders and their dependents, `built` in the
/// builders' own.
#[test]
fn builds_run_once_in_the_published_slots() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let project = |name: &str| {
        let dir = tmp.path().join(name);
        global_project(&registry, &dir, "lifecycle");
        dir
    };
    let by_pnpm = project("by-pnpm");
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm-env"), &registry.url());
    pnpm_env.install_frozen(&by_pnpm);
    let first = project("first");
    pacquet_install_ok(&env, &first, &[]);
    assert_eq!(slot_names(&links(&env)), slot_names(&links(&pnpm_env)));
    assert_eq!(side_effects(&env), side_effects(&pnpm_env));
    let mut theirs = dependency_builds(&by_pnpm);
    let mut ours = dependency_builds(&first);
    assert!(ours.iter().any(|l| l == "pq-lc-leaf install"), "{ours:?}");
    theirs.sort();
    ours.sort();
    assert_eq!(ours, theirs);
    let leaf = slot_package(&links(&env), "pq-lc-leaf");
    assert!(
        snapshot(&links(&env))
            .keys()
            .all(|p| !p.ends_with(".pnpm-needs-build"))
    );

    let second = project("second");
    pacquet_install_ok(&env, &second, &[]);
    assert_eq!(dependency_builds(&second), Vec::<String>::new());

    // Without the side-effects cache, which would restore the build.
    std::fs::write(leaf.join(".pnpm-needs-build"), b"").unwrap();
    let third = project("third");
    add_settings(&third, "sideEffectsCache: false\n");
    pacquet_install_ok(&env, &third, &[]);
    let rebuilt = dependency_builds(&third);
    assert!(
        rebuilt.iter().any(|l| l == "pq-lc-leaf install"),
        "{rebuilt:?}"
    );
    assert!(
        !rebuilt.iter().any(|l| l.starts_with("pq-lc-mid")),
        "{rebuilt:?}"
    );
    assert!(
        !slot_package(&links(&env), "pq-lc-leaf")
            .join(".pnpm-needs-build")
            .exists()
    );
    let left = staging_dirs(&links(&env));
    assert!(left.is_empty(), "{left:?}");
}

/// A project whose lockfile changes (another fixture's manifest and
/// lockfile copied over it): both tools relink the project as pnpm 12
/// does, and every slot the first install made stays in the store.
#[test]
fn a_changed_lockfile_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let sides = global_sides(&registry, tmp.path(), "basic");
    let install = |first: bool| {
        let [(theirs, pnpm_env), (ours, env)] = &sides;
        pnpm_env.install_frozen(theirs);
        pacquet_install_ok(env, ours, &[]);
        let opts = opts((theirs, pnpm_env), (ours, env));
        assert_trees_equal(theirs, ours, &opts);
        if first {
            Some(snapshot(&links(env)))
        } else {
            None
        }
    };
    let before = install(true).unwrap();
    let other = pacquet_testing::project_dir("peer-bins");
    for (project, _) in &sides {
        for file in ["package.json", "pnpm-lock.yaml"] {
            let text = std::fs::read_to_string(other.join(file))
                .unwrap()
                .replace(pacquet_testing::REGISTRY_PLACEHOLDER, &registry.url());
            std::fs::write(project.join(file), text).unwrap();
        }
    }
    install(false);
    let after = snapshot(&links(&sides[1].1));
    for (path, what) in &before {
        assert_eq!(after.get(path), Some(what), "{path} changed");
    }
}
