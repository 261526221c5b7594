//! `pacquet install` without a lockfile (or with one the manifest no longer
//! matches) resolves like pnpm 12.21: both tools, against the same loopback
//! registry, write the same `pnpm-lock.yaml` and the same tree.

mod support;

use std::path::{Path, PathBuf};

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, stderr};

/// A copy of fixture `name` per tool, lockfile removed, then `edit`ed.
fn sides(
    registry: &Registry,
    tmp: &Path,
    name: &str,
    edit: &dyn Fn(&Path),
) -> [(PathBuf, PnpmEnv); 2] {
    ["pnpm", "pacquet"].map(|side| {
        let project = tmp.join(side).join("project");
        prepare_project(name, &project, &registry.url());
        std::fs::remove_file(project.join("pnpm-lock.yaml")).unwrap();
        edit(&project);
        let env = PnpmEnv::new(&tmp.join(side).join("env"), &registry.url());
        (project, env)
    })
}

/// Fixture `basic` without its lockfile, for pacquet alone: the project
/// and its environment under `tmp`.
fn unlocked_basic(registry: &Registry, tmp: &Path) -> (PathBuf, PnpmEnv) {
    let project = tmp.join("project");
    prepare_project("basic", &project, &registry.url());
    std::fs::remove_file(project.join("pnpm-lock.yaml")).unwrap();
    (project, PnpmEnv::new(&tmp.join("env"), &registry.url()))
}

fn pacquet_ok(env: &PnpmEnv, project: &Path, args: &[&str]) {
    let out = pacquet(env, project, args);
    assert!(out.status.success(), "pacquet {args:?}: {}", stderr(&out));
}

fn lockfile(project: &Path) -> String {
    std::fs::read_to_string(project.join("pnpm-lock.yaml")).expect("a lockfile was written")
}

/// Both tools install `name` without a lockfile; lockfiles and trees match.
/// Returns the lockfile.
fn resolves_like_pnpm(name: &str, edit: &dyn Fn(&Path)) -> String {
    resolves_like_pnpm_on(&Registry::start_fixtures(), name, edit)
}

/// [`resolves_like_pnpm`] against `registry`.
fn resolves_like_pnpm_on(registry: &Registry, name: &str, edit: &dyn Fn(&Path)) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let [(pnpm_project, pnpm_env), (project, env)] = sides(registry, tmp.path(), name, edit);
    pnpm_env.run_ok(
        &pnpm_project,
        &["install", "--no-frozen-lockfile", "--reporter=append-only"],
    );
    pacquet_ok(&env, &project, &["install"]);
    pretty_assertions::assert_eq!(lockfile(&project), lockfile(&pnpm_project), "{name}");
    let opts =
        DiffOptions::for_installs(&pnpm_project, &pnpm_env.store_dir, &project, &env.store_dir);
    assert_trees_equal(&pnpm_project, &project, &opts);
    lockfile(&project)
}

fn unchanged(_: &Path) {}

#[test]
fn projects_without_a_lockfile_resolve_like_pnpm() {
    for name in [
        "basic",
        "aliases",
        "peers",
        "optional-peers",
        "optional-platform",
        "peer-bins",
    ] {
        resolves_like_pnpm(name, &unchanged);
    }
}

/// Workspaces: `workspace:` and `link:` dependencies, peers bound to the
/// root's dependencies and to workspace projects.
#[test]
fn workspaces_resolve_like_pnpm() {
    for name in ["workspace", "workspace-peers", "peer-links", "groups"] {
        resolves_like_pnpm(name, &unchanged);
    }
}

/// `resolvePeersFromWorkspaceRoot: false`: the root's dependencies do not
/// provide the other projects' peers, which are then installed for each
/// project (`autoInstallPeers`) or left missing.
#[test]
fn peers_not_from_the_workspace_root_resolve_like_pnpm() {
    // peer-links sets `autoInstallPeers: false` itself.
    for (name, autos) in [
        ("workspace-peers", &["true", "false"][..]),
        ("peer-links", &[][..]),
    ] {
        if autos.is_empty() {
            resolves_like_pnpm(name, &|project| {
                with_settings(project, "resolvePeersFromWorkspaceRoot: false\n");
            });
        }
        for auto in autos {
            let settings = |from_root: bool| {
                format!("resolvePeersFromWorkspaceRoot: {from_root}\nautoInstallPeers: {auto}\n")
            };
            let written = resolves_like_pnpm(name, &|project| {
                with_settings(project, &settings(false));
            });
            if name == "workspace-peers" {
                // The setting changes this workspace's lockfile.
                let from_root = resolves_like_pnpm(name, &|project| {
                    with_settings(project, &settings(true));
                });
                assert_ne!(written, from_root);
                // Without dedupePeerDependents the project's peer stays
                // missing when nothing installs peers.
                let undeduped = resolves_like_pnpm(name, &|project| {
                    with_settings(
                        project,
                        &format!("{}dedupePeerDependents: false\n", settings(false)),
                    );
                });
                assert_eq!(undeduped != written, *auto == "false");
            }
        }
    }
}

/// `overrides` in every form pnpm 12 has (bare, ranged, `parent>child`
/// with a published and a workspace parent, `-`, a peer's range, a
/// `catalog:` value) and `catalog:` specifiers of the default and a named
/// catalog: the same specifiers, versions and `overrides`/`catalogs`
/// blocks as pnpm 12.
#[test]
fn overrides_and_catalogs_resolve_like_pnpm() {
    let lockfile = resolves_like_pnpm("workspace", &|project| {
        let root = project.join("package.json");
        let text = std::fs::read_to_string(&root).unwrap();
        let text = text.replace(
            "\"pq-plain\": \"1.0.0\",",
            "\"pq-plain\": \"catalog:\", \"pq-deep-1\": \"1.0.0\", \"pq-dup-parent-a\": \"1.0.0\", \"pq-peer-user\": \"1.0.0\",",
        );
        std::fs::write(&root, text).unwrap();
        with_dependency(&project.join("packages/app"), "pq-dup", "catalog:old");
        with_settings(
            project,
            "catalog:\n  pq-plain: ^1.0.0\n  pq-deep-2: 1.0.0\ncatalogs:\n  old:\n    pq-dup: ^1.0.0\n\
                 overrides:\n  pq-dup-parent-a>pq-dup: 2.0.0\n  pq-util>pq-dup: 1.0.0\n  \
                 pq-deep-3: \"-\"\n  pq-bin-string@<2: 1.0.0\n  \"@pq/peer-host\": ^2.0.0\n  \
                 pq-deep-2: \"catalog:\"\n",
        );
    });
    for expected in [
        "catalogs:\n  default:\n    pq-plain:\n      specifier: ^1.0.0\n      version: 1.1.0\n  old:",
        "\n  old:\n    pq-dup:\n      specifier: ^1.0.0\n      version: 1.0.0",
        "overrides:\n  pq-dup-parent-a>pq-dup: 2.0.0",
        "  pq-deep-2: 1.0.0\n\nimporters:",
        "pq-dup-parent-a@1.0.0:\n    dependencies:\n      pq-dup: 2.0.0",
    ] {
        assert!(lockfile.contains(expected), "{expected}");
    }
    assert!(!lockfile.contains("pq-deep-3@"), "removed by `-`");
}

/// A dependency that is also an optional peer (`pq-sh-formats`: `pq-plain`
/// both ways) keeps its edge unless the name is in scope where its
/// package's children are resolved. pnpm 12.21 puts in a project's scope,
/// for the subtrees of the peers it hoists, every package that provided a
/// peer in the tree (`pq-sh-schema` gives `pq-plain` to `pq-sh-keywords`),
/// and lets a package's shallowest occurrence resolve its children even
/// when it is met later: `pq-sh-core`, hoisted for `pq-sh-host`, takes
/// over from `pq-sh-deepcore > pq-sh-core`.
#[test]
fn peer_providers_and_hoisted_occurrences_resolve_like_pnpm() {
    for deps in [
        serde_json::json!({"pq-sh-host": "1.0.0"}),
        serde_json::json!({"pq-sh-core": "1.0.0"}),
        serde_json::json!({"pq-sh-host": "1.0.0", "pq-sh-schema": "1.0.0"}),
        serde_json::json!({"pq-sh-host": "1.0.0", "pq-sh-schema": "1.0.0", "pq-sh-deepcore": "1.0.0"}),
        serde_json::json!({"pq-sh-schema": "1.0.0", "pq-sh-deepcore": "1.0.0"}),
    ] {
        let lockfile = resolves_like_pnpm("basic", &|project| {
            let path = project.join("package.json");
            let mut manifest: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            manifest["dependencies"] = deps.clone();
            if let Some(m) = manifest.as_object_mut() {
                m.remove("devDependencies");
                m.remove("optionalDependencies");
            }
            std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
        });
        assert!(lockfile.contains("pq-sh-formats@1.0.0"), "{deps}");
    }
    // Across projects too: `packages/util` meets `pq-sh-formats` at depth
    // 1 with `pq-plain` beside it, after the root met it at depth 3.
    let lockfile = resolves_like_pnpm("workspace", &|project| {
        with_dependency(project, "pq-sh-deepcore", "1.0.0");
        let util = project.join("packages/util");
        with_dependency(&util, "pq-sh-formats", "1.0.0");
        with_dependency(&util, "pq-plain", "1.0.0");
    });
    assert!(lockfile.contains("pq-sh-formats@1.0.0(pq-plain@1.0.0)"));
}

/// `dedupePeers: true`: peers are named `name@version` in suffixes,
/// without their own peers, and the setting is recorded.
#[test]
fn dedupe_peers_resolves_like_pnpm() {
    let dedupe = |project: &Path| {
        with_settings(project, "dedupePeers: true\n");
    };
    for name in ["peers", "workspace-peers"] {
        let lockfile = resolves_like_pnpm(name, &dedupe);
        assert!(lockfile.contains("  dedupePeers: true\n"), "{name}");
    }
    // A peer with a peer of its own.
    let lockfile = resolves_like_pnpm("basic", &|project| {
        dedupe(project);
        for (name, spec) in [("pq-sh-keywords", "1.0.0"), ("pq-sh-plugin", "1.0.0")] {
            with_dependency(project, name, spec);
        }
    });
    assert!(lockfile.contains("pq-sh-plugin@1.0.0(pq-sh-keywords@1.0.0):"));
}

/// `resolutionMode`: the projects' own ranges get their lowest versions
/// (`*` the lowest of all), hoisted peers and everything below the
/// highest; with `time-based`, only what was published by an hour after
/// the newest direct pick, dated under `time:`.
#[test]
fn resolution_modes_resolve_like_pnpm() {
    let manifest = |project: &Path| {
        std::fs::write(
            project.join("package.json"),
            r#"{"name": "m", "version": "1.0.0",
                "dependencies": {"pq-dup": ">=1.0.0", "pq-peer-user": "*", "pq-dup-parent-a": "^1.0.0"},
                "devDependencies": {"pq-deprecated": "*"}}"#,
        )
        .unwrap();
    };
    let lockfile = resolves_like_pnpm("basic", &|project| {
        manifest(project);
        with_settings(project, "resolutionMode: lowest-direct\n");
    });
    assert!(lockfile.contains("pq-dup@1.0.0:"), "{lockfile}");

    let registry = Registry::start_fixtures();
    for (name, version, date) in [
        ("pq-dup", "2.0.0", "2021-01-01T00:00:00.000Z"),
        ("pq-dup-parent-a", "1.0.0", "2020-06-01T00:00:00.000Z"),
        ("pq-plain", "1.1.0", "2020-06-01T00:30:00.000Z"),
        ("@pq/peer-host", "2.0.0", "2020-06-01T01:30:00.000Z"),
    ] {
        registry.patch_packument(name, serde_json::json!({"time": {version: date}}));
    }
    let lockfile = resolves_like_pnpm_on(&registry, "basic", &|project| {
        manifest(project);
        with_settings(project, "resolutionMode: time-based\n");
    });
    // Published half an hour after the newest direct pick: kept; an hour
    // and a half after: the older peer.
    for wanted in [
        "\n  pq-plain@1.1.0:",
        "\n  '@pq/peer-host@1.0.0':",
        "\ntime:\n  pq-deprecated@1.0.0: '2020-01-01T00:00:00.000Z'\n  pq-dup-parent-a@1.0.0: '2020-06-01T00:00:00.000Z'\n",
    ] {
        assert!(lockfile.contains(wanted), "{wanted} in {lockfile}");
    }
}

/// `file:` tarballs: the manifest and integrity read from the archive; in
/// a workspace project, the path relative to it.
#[test]
fn tarball_dependencies_resolve_like_pnpm() {
    // One archive, copied to both sides: the integrity must be the same.
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("dp.tgz");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testing/packages/pq-dup-parent-a");
    let status = std::process::Command::new("tar")
        .arg("czf")
        .arg(&archive)
        .arg("-C")
        .arg(&fixture)
        .args(["--transform", "s,^1\\.0\\.0,package,", "1.0.0"])
        .status()
        .unwrap();
    assert!(status.success());
    let place = |dir: &Path| {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::copy(&archive, dir.join("dp.tgz")).unwrap();
    };
    let lockfile = resolves_like_pnpm("basic", &|project| {
        place(&project.join("vendor"));
        with_dependency(project, "dp", "file:vendor/dp.tgz");
    });
    assert!(
        lockfile.contains("tarball: file:vendor/dp.tgz}") && lockfile.contains("pq-dup: 1.0.0"),
        "{lockfile}"
    );
    resolves_like_pnpm("workspace", &|project| {
        let app = project.join("packages/app");
        place(&app);
        with_dependency(&app, "dp", "file:./dp.tgz");
    });
}

/// A `file:` tarball that is missing or not a gzip archive fails the
/// resolution with the reason, as pnpm 12.21 does, and writes nothing.
#[test]
fn a_broken_tarball_dependency_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (project, env) = unlocked_basic(&registry, tmp.path());
    with_dependency(&project, "dp", "file:vendor/dp.tgz");
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(
        &out,
        "ERR_PNPM_LINKED_PKG_DIR_NOT_FOUND",
        "as it does not exist",
    );
    std::fs::create_dir_all(project.join("vendor")).unwrap();
    std::fs::write(project.join("vendor/dp.tgz"), b"\x1f\x8bbroken").unwrap();
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(&out, "ERR_PNPM_LINKED_PKG_DIR_NOT_FOUND", "dp.tgz");
    assert!(!project.join("pnpm-lock.yaml").exists());
    assert!(!project.join("node_modules").exists());
}

/// `file:` directories: a package with dependencies, a bin and a peer
/// (under another alias), and a directory without a package.json, named
/// after itself; in a workspace project, relative to that project.
#[test]
fn directory_dependencies_resolve_like_pnpm() {
    let lockfile = resolves_like_pnpm("basic", &|project| {
        let dir = project.join("vendor/tool");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("package.json"),
            r#"{"name": "pq-tool", "version": "0.1.0", "bin": {"pq-tool": "cli.js"},
               "dependencies": {"pq-dup": "^1.0.0"}, "peerDependencies": {"pq-plain": "^1.0.0"}}"#,
        )
        .unwrap();
        std::fs::write(dir.join("cli.js"), "#!/usr/bin/env node\n").unwrap();
        std::fs::create_dir_all(project.join("bare")).unwrap();
        std::fs::write(project.join("bare/index.js"), "").unwrap();
        with_dependency(project, "tool", "file:./vendor/tool");
        with_dependency(project, "bare", "file:bare");
    });
    assert!(lockfile.contains("pq-tool@file:vendor/tool("), "{lockfile}");
    assert!(lockfile.contains("resolution: {directory: bare, type: directory}"));

    resolves_like_pnpm("workspace", &|project| {
        with_dependency(
            &project.join("packages/app"),
            "local-dir",
            "file:../../local",
        );
    });
}

/// `ignoredOptionalDependencies`: the named optional dependencies (globs)
/// are left out of the projects' and the packages' manifests, and the list
/// is recorded.
#[test]
fn ignored_optional_dependencies_resolve_like_pnpm() {
    let lockfile = resolves_like_pnpm("optional-platform", &|project| {
        with_settings(
            project,
            "ignoredOptionalDependencies:\n  - pq-zz-none\n  - '@pq/native-linux-*'\n  - '@pq/native-darwin-arm64'\n",
        );
    });
    assert!(lockfile.contains("ignoredOptionalDependencies:"));
    assert!(!lockfile.contains("native-linux-x64-gnu@"));
}

/// Injected workspace projects (`dependenciesMeta.injected`,
/// `injectWorkspacePackages`): installed like `file:` directories, their
/// peers bound where they are used, and linked instead when
/// `dedupeInjectedDeps` (the default) finds nothing would differ. The
/// fixture's `packageExtensions` (a dependency added to `pq-plain`) are
/// applied and their checksum recorded.
#[test]
fn injected_projects_resolve_like_pnpm() {
    let prepare = |project: &Path, dedupe: bool, inject_all: bool| {
        let workspace = project.join("pnpm-workspace.yaml");
        let text = std::fs::read_to_string(&workspace).unwrap();
        let text = text.replace(
            "dedupeInjectedDeps: false\n",
            if dedupe {
                ""
            } else {
                "dedupeInjectedDeps: false\n"
            },
        );
        let text = if inject_all {
            format!("{text}injectWorkspacePackages: true\n")
        } else {
            text
        };
        std::fs::write(&workspace, text).unwrap();
    };
    for (dedupe, inject_all) in [(false, false), (true, false), (true, true)] {
        resolves_like_pnpm("injected", &|project| prepare(project, dedupe, inject_all));
    }
    // A project with a peer and a dependency of its own, injected where
    // the peer has another version than its own devDependency.
    for dedupe in [true, false] {
        let lockfile = resolves_like_pnpm("injected", &|project| {
            prepare(project, dedupe, false);
            let b = project.join("packages/b/package.json");
            std::fs::write(
                &b,
                r#"{"name": "@pq-inj/b", "version": "1.0.0", "bin": {"b-bin": "b.js"},
                   "dependencies": {"pq-dup": "^1.0.0"}, "peerDependencies": {"pq-plain": "^1.0.0"},
                   "devDependencies": {"pq-plain": "1.1.0"}}"#,
            )
            .unwrap();
            with_dependency(&project.join("packages/c"), "pq-plain", "1.0.0");
        });
        assert!(lockfile.contains("'@pq-inj/b@file:packages/b(pq-plain@1.0.0)':"));
    }
}

/// `packageExtensions`: a ranged selector adding a dependency, another
/// adding an optional peer; applied after the built-in set, the checksum
/// recorded.
#[test]
fn package_extensions_resolve_like_pnpm() {
    let lockfile = resolves_like_pnpm("basic", &|project| {
        with_dependency(project, "pq-dup", "1.0.0");
        with_settings(
            project,
            "packageExtensions:\n  pq-dup@1:\n    dependencies:\n      pq-deep-3: 1.0.0\n  \
                 pq-bin-string:\n    peerDependencies:\n      pq-plain: ^1.0.0\n    \
                 peerDependenciesMeta:\n      pq-plain:\n        optional: true\n",
        );
    });
    assert!(lockfile.contains("packageExtensionsChecksum: sha256-"));
    assert!(lockfile.contains("pq-dup@1.0.0:\n    dependencies:\n      pq-deep-3: 1.0.0"));
}

/// `patchedDependencies`: the patch hash in the keys of what each
/// selector (exact, range, bare name) patches, the hashes recorded.
#[test]
fn patched_dependencies_resolve_like_pnpm() {
    for name in ["patched", "patched-bins"] {
        let lockfile = resolves_like_pnpm(name, &unchanged);
        assert!(lockfile.contains("(patch_hash="), "{name}");
    }
}

/// A patch nothing uses fails as in pnpm 12.21, and nothing is written.
#[test]
fn an_unused_patch_is_refused_like_pnpm() {
    patches_refused_like_pnpm(
        (
            "patchedDependencies:\n",
            "patchedDependencies:\n  pq-deep-3@9.9.9: patches/pq-dup.patch\n",
        ),
        "pq-deep-3@9.9.9",
        "ERR_PNPM_UNUSED_PATCH",
        "pq-deep-3@9.9.9",
    );
}

/// The `patched` fixture with its `pnpm-workspace.yaml` edited (`from` →
/// `to`), resolved by both tools: pnpm 12.21 fails saying `pnpm_says`,
/// pacquet fails with `code` saying `text`, and writes no lockfile.
fn patches_refused_like_pnpm((from, to): (&str, &str), pnpm_says: &str, code: &str, text: &str) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, tmp.path(), "patched", &|p| {
            let workspace = p.join("pnpm-workspace.yaml");
            let text = std::fs::read_to_string(&workspace).unwrap();
            assert!(text.contains(from), "{text}");
            std::fs::write(&workspace, text.replace(from, to)).unwrap();
        });
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    assert!(!theirs.status.success());
    assert!(
        all_output(&theirs).contains(pnpm_says),
        "{}",
        all_output(&theirs)
    );
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(&out, code, text);
    assert!(!project.join("pnpm-lock.yaml").exists());
}

/// `linkWorkspacePackages: true`: a project's plain range or version that
/// a workspace project satisfies links to it; one it does not satisfy
/// comes from the registry.
#[test]
fn link_workspace_packages_resolves_like_pnpm() {
    let lockfile = resolves_like_pnpm("workspace", &|project| {
        with_settings(project, "linkWorkspacePackages: true\n");
        with_dependency(project, "pq-util", "^1.0.0");
        with_dependency(&project.join("packages/lib"), "pq-util", "1.0.0");
        // No project is named pq-dup: from the registry.
        with_dependency(&project.join("packages/lib"), "pq-dup", "^1.0.0");
    });
    assert!(lockfile.contains(
        "      pq-util:\n        specifier: ^1.0.0\n        version: link:packages/util"
    ));
    // Projects that the registry also has: one older than the registry's
    // newest (the registry wins), one newer (linked); with
    // `preferWorkspacePackages`, both linked.
    for prefer in ["", "preferWorkspacePackages: true\n"] {
        let lockfile = resolves_like_pnpm("workspace", &|project| {
            with_settings(project, &format!("linkWorkspacePackages: true\n{prefer}"));
            for (name, version) in [("pq-plain", "1.0.0"), ("pq-dup", "1.5.0")] {
                let dir = project.join("packages").join(name);
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(
                    dir.join("package.json"),
                    format!(r#"{{"name": "{name}", "version": "{version}"}}"#),
                )
                .unwrap();
                with_dependency(project, name, "^1.0.0");
            }
        });
        assert_eq!(
            lockfile.contains("version: link:packages/pq-plain"),
            !prefer.is_empty(),
            "{lockfile}"
        );
        assert!(
            lockfile.contains("version: link:packages/pq-dup"),
            "{lockfile}"
        );
    }
}

/// `strictPeerDependencies: true` fails where pnpm 12.21 finds peer
/// issues (a peer bound to a workspace project out of its range, with
/// `autoInstallPeers: false`) and passes where it finds none.
#[test]
fn strict_peer_dependencies_fails_where_pnpm_does() {
    for name in [
        "peers",
        "optional-peers",
        "workspace-peers",
        "peer-links",
        "peer-bins",
    ] {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        let [(pnpm_project, pnpm_env), (project, env)] = sides(&registry, tmp.path(), name, &|p| {
            with_settings(p, "strictPeerDependencies: true\n");
        });
        let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
        let ours = pacquet(&env, &project, &["install"]);
        assert_eq!(
            ours.status.success(),
            theirs.status.success(),
            "{name}: {}",
            stderr(&ours)
        );
        if !ours.status.success() {
            let theirs = all_output(&theirs);
            assert!(
                theirs.contains("ERR_PNPM_PEER_DEP_ISSUES"),
                "{name}: {theirs}"
            );
            fails_with(&ours, "ERR_PNPM_PEER_DEP_ISSUES");
            assert!(!project.join("pnpm-lock.yaml").exists(), "{name}");
        }
    }
}

/// `peerDependencyRules` take issues away as pnpm 12.21 does, so that
/// `strictPeerDependencies` passes: `peer-links` binds `pq-peer-bin`'s peer
/// `pq-bin-sh@1.0.0` to the project `pq-bin-sh` at 2.0.0 (unmet), and with
/// `autoInstallPeers: false`, `pq-peer-user` misses `@pq/peer-host`.
#[test]
fn peer_dependency_rules_take_issues_away_like_pnpm() {
    for (name, rules, passes) in [
        ("peer-links", "{allowAny: [pq-bin-sh]}", true),
        ("peer-links", "{allowAny: ['pq-*']}", true),
        ("peer-links", "{allowedVersions: {pq-bin-sh: '2'}}", true),
        ("peer-links", "{allowedVersions: {pq-bin-sh: '3'}}", false),
        (
            "peer-links",
            "{allowedVersions: {'pq-peer-bin>pq-bin-sh': '1 || 2'}}",
            true,
        ),
        (
            "peer-links",
            "{allowedVersions: {'pq-peer-bin@2>pq-bin-sh': '2'}}",
            false,
        ),
        (
            "peer-links",
            "{allowedVersions: {'pq-plain>pq-bin-sh': '2'}}",
            false,
        ),
        ("peer-links", "{ignoreMissing: ['*']}", false),
        ("basic", "{}", false),
        ("basic", "{ignoreMissing: ['@pq/*']}", true),
        (
            "basic",
            "{ignoreMissing: ['@pq/*', '!@pq/peer-host']}",
            false,
        ),
    ] {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        // `peer-links` says `autoInstallPeers: false` itself; on `basic`,
        // `pq-peer-user` misses its required peer `@pq/peer-host`.
        let basic = name == "basic";
        let auto = if basic {
            "autoInstallPeers: false\n"
        } else {
            ""
        };
        let settings =
            format!("strictPeerDependencies: true\n{auto}peerDependencyRules: {rules}\n");
        let [(pnpm_project, pnpm_env), (project, env)] = sides(&registry, tmp.path(), name, &|p| {
            with_settings(p, &settings);
            if basic {
                with_dependency(p, "pq-peer-user", "1.0.0");
            }
        });
        let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
        let ours = pacquet(&env, &project, &["install"]);
        assert_eq!(
            theirs.status.success(),
            passes,
            "{name} {rules}: {}",
            all_output(&theirs)
        );
        assert_eq!(
            ours.status.success(),
            passes,
            "{name} {rules}: {}",
            stderr(&ours)
        );
        if passes {
            assert_eq!(
                lockfile(&project),
                lockfile(&pnpm_project),
                "{name} {rules}"
            );
        } else {
            fails_with(&ours, "ERR_PNPM_PEER_DEP_ISSUES");
        }
    }
}

/// A tarball URL of the registry (`<registry><name>/-/<name>-<v>.tgz`),
/// under its own name or another alias, is that registry version.
#[test]
fn registry_tarball_urls_resolve_like_pnpm() {
    let lockfile = resolves_like_pnpm("basic", &|project| {
        let base = std::fs::read_to_string(project.join(".npmrc")).unwrap();
        let registry = base
            .lines()
            .find_map(|l| l.strip_prefix("registry="))
            .unwrap()
            .trim_end_matches('/')
            .to_owned();
        with_dependency(
            project,
            "pq-deep-1",
            &format!("{registry}/pq-deep-1/-/pq-deep-1-1.0.0.tgz"),
        );
        with_dependency(
            project,
            "x",
            &format!("{registry}/pq-dup/-/pq-dup-1.0.0.tgz"),
        );
        with_dependency(
            project,
            "y",
            &format!("{registry}/@pq/plain/-/plain-1.0.0.tgz"),
        );
    });
    assert!(
        lockfile.contains("        version: pq-dup@1.0.0\n"),
        "{lockfile}"
    );
    assert!(
        lockfile.contains("        version: '@pq/plain@1.0.0'\n"),
        "{lockfile}"
    );
}

/// A tarball URL outside the registry's layout is downloaded while
/// resolving: `name@<url>` with the archive's integrity and version, for a
/// project (at the root and in a workspace) and, with `blockExoticSubdeps:
/// false`, for a published package that depends on one (refused by
/// default, as pnpm 12.21 does); a second install changes nothing.
#[test]
fn remote_tarball_urls_resolve_like_pnpm() {
    let registry = Registry::start_fixtures();
    let deep = registry.archive_url("pq-deep-1", "1.0.0");
    registry.patch_packument(
        "pq-dup-parent-b",
        serde_json::json!({"versions": {"1.0.0": {"dependencies": {"pq-deep-1": deep}}}}),
    );
    let url = registry.archive_url("pq-dup-parent-a", "1.0.0");
    let written = resolves_like_pnpm_on(&registry, "basic", &|project| {
        with_dependency(project, "dp", &url);
    });
    assert!(
        written.contains(&format!(
            "  pq-dup-parent-a@{url}:\n    resolution: {{integrity: sha512-"
        )),
        "{written}"
    );
    resolves_like_pnpm_on(&registry, "workspace", &|project| {
        with_dependency(&project.join("packages/app"), "dp", &url);
    });

    let subdep = |project: &Path| with_dependency(project, "pq-dup-parent-b", "1.0.0");
    let tmp = tempfile::tempdir().unwrap();
    let [(pnpm_project, pnpm_env), (project, env)] = sides(&registry, tmp.path(), "basic", &subdep);
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    let ours = pacquet(&env, &project, &["install"]);
    let message = "Exotic dependency \"pq-deep-1\" (resolved via url) is not allowed in subdependencies when blockExoticSubdeps is enabled";
    assert_eq!(theirs.status.code(), Some(1));
    assert!(
        flat(&all_output(&theirs)).contains(&flat(message)),
        "pnpm: {}",
        all_output(&theirs)
    );
    fails_with(&ours, "ERR_PNPM_EXOTIC_SUBDEP");
    assert!(
        flat(&stderr(&ours)).contains(&flat(message)),
        "{}",
        stderr(&ours)
    );
    assert!(!project.join("pnpm-lock.yaml").exists());

    let written = resolves_like_pnpm_on(&registry, "basic", &|project| {
        subdep(project);
        with_settings(project, "blockExoticSubdeps: false\n");
    });
    assert!(
        written.contains(&format!("      pq-deep-1: {deep}\n")),
        "{written}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let (project, env) = unlocked_basic(&registry, tmp.path());
    with_dependency(&project, "dp", &url);
    let out = pacquet(&env, &project, &["install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The version from the packages entry, as pnpm 12.21 shows it.
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("+ dp <- pq-dup-parent-a 1.0.0\n"), "{said}");
    let first = lockfile(&project);
    let out = pacquet(&env, &project, &["install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lockfile(&project), first);
}

/// Runs `git <args>` in `dir`, which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
}

/// A repository holding fixture packages: `v1.0.0` (a lightweight tag) is
/// pq-dup-parent-a 1.0.0; the next commit, `v1.1.0` (annotated) and the
/// default branch, names it 1.1.0 and adds `packages/sub` (pq-deep-1).
/// Returns its `git+file:` URL.
fn git_fixture_repo(dir: &Path) -> String {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testing/packages");
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "--quiet", "--initial-branch=main"]);
    for file in ["package.json", "index.js"] {
        std::fs::copy(
            fixtures.join("pq-dup-parent-a/1.0.0").join(file),
            dir.join(file),
        )
        .unwrap();
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "--quiet", "-m", "1.0.0"]);
    git(dir, &["tag", "v1.0.0"]);
    let manifest = std::fs::read_to_string(dir.join("package.json")).unwrap();
    std::fs::write(
        dir.join("package.json"),
        manifest.replace("\"1.0.0\"", "\"1.1.0\""),
    )
    .unwrap();
    let sub = dir.join("packages/sub");
    std::fs::create_dir_all(&sub).unwrap();
    for file in ["package.json", "index.js"] {
        let from = fixtures.join("pq-deep-1/1.0.0").join(file);
        if from.exists() {
            std::fs::copy(from, sub.join(file)).unwrap();
        }
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "--quiet", "-m", "1.1.0"]);
    git(dir, &["tag", "-a", "v1.1.0", "-m", "1.1.0"]);
    format!("git+file://{}", dir.display())
}

/// Git repositories (`git+file:` here, resolved with `git ls-remote` and a
/// clone as any git URL is): the default branch, a tag, a `semver:` range
/// and a `path:` inside the repository, keyed `name@git+<repo>#<commit>`
/// with `{commit, repo, type: git}`, as pnpm 12.21 writes them; in a
/// workspace project too. Below a published package they are exotic
/// (`blockExoticSubdeps`), and a ref the repository lacks fails.
#[test]
fn git_repositories_resolve_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let repo = git_fixture_repo(&tmp.path().join("repo"));
    let written = resolves_like_pnpm_on(&registry, "basic", &|project| {
        with_dependency(project, "a", &repo);
        with_dependency(project, "b", &format!("{repo}#v1.0.0"));
        with_dependency(project, "c", &format!("{repo}#semver:~1.0.0"));
        with_dependency(project, "d", &format!("{repo}#path:packages/sub"));
    });
    assert!(
        written.contains("type: git}\n    version: 1.1.0\n")
            && written.contains("type: git}\n    version: 1.0.0\n")
            && written.contains("&path:packages/sub"),
        "{written}"
    );
    resolves_like_pnpm_on(&registry, "workspace", &|project| {
        with_dependency(
            &project.join("packages/app"),
            "b",
            &format!("{repo}#v1.1.0"),
        );
    });

    registry.patch_packument(
        "pq-dup-parent-b",
        serde_json::json!({"versions": {"1.0.0": {"dependencies": {"pq-deep-1": repo}}}}),
    );
    let sides_tmp = tempfile::tempdir().unwrap();
    let subdep = |project: &Path| with_dependency(project, "pq-dup-parent-b", "1.0.0");
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, sides_tmp.path(), "basic", &subdep);
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    let ours = pacquet(&env, &project, &["install"]);
    let message = "Exotic dependency \"pq-deep-1\" (resolved via git-repository) is not allowed in subdependencies when blockExoticSubdeps is enabled";
    assert!(
        flat(&all_output(&theirs)).contains(&flat(message)),
        "pnpm: {}",
        all_output(&theirs)
    );
    fails_with(&ours, "ERR_PNPM_EXOTIC_SUBDEP");
    assert!(
        flat(&stderr(&ours)).contains(&flat(message)),
        "{}",
        stderr(&ours)
    );

    // A branch that moves on: the lockfile keeps the commit it has while
    // the specifier stays, through `update <alias>` too, in both tools.
    let moving = tempfile::tempdir().unwrap();
    let moving_repo = git_fixture_repo(&moving.path().join("repo"));
    let pinned = tempfile::tempdir().unwrap();
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, pinned.path(), "basic", &|p: &Path| {
            with_dependency(p, "a", &moving_repo)
        });
    pnpm_env.run_ok(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    pacquet_ok(&env, &project, &["install"]);
    let before = lockfile(&project);
    let work = moving.path().join("repo");
    std::fs::write(work.join("CHANGES.md"), "more\n").unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "--quiet", "-m", "more"]);
    for dir in [&pnpm_project, &project] {
        with_dependency(dir, "pq-plain", "1.0.0");
    }
    pnpm_env.run_ok(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    pacquet_ok(&env, &project, &["install", "--no-frozen-lockfile"]);
    pretty_assertions::assert_eq!(lockfile(&project), lockfile(&pnpm_project));
    let kept = |text: &str| {
        text.lines()
            .find(|l| l.contains("version: pq-dup-parent-a@git+"))
            .map(str::to_owned)
    };
    assert_eq!(kept(&lockfile(&project)), kept(&before));
    pnpm_env.run_ok(&pnpm_project, &["update", "a"]);
    pacquet_ok(&env, &project, &["update", "a"]);
    pretty_assertions::assert_eq!(lockfile(&project), lockfile(&pnpm_project));
    assert_eq!(kept(&lockfile(&project)), kept(&before));

    let (project, env) = unlocked_basic(&registry, &tmp.path().join("missing-ref"));
    with_dependency(&project, "a", &format!("{repo}#nope"));
    let out = pacquet(&env, &project, &["install"]);
    fails_with(&out, "ERR_PACQUET_GIT_REF_NOT_FOUND");
    let message = format!(
        "Could not resolve nope to a commit of {}.",
        repo.trim_start_matches("git+")
    );
    assert!(
        flat(&stderr(&out)).contains(&flat(&message)),
        "{}",
        stderr(&out)
    );
    with_dependency(&project, "a", &format!("{repo}-missing"));
    let out = pacquet(&env, &project, &["install"]);
    fails_with(&out, "ERR_PNPM_GIT_RESOLVE_FAILED");
    assert!(!project.join("pnpm-lock.yaml").exists());
    assert!(!project.join("node_modules").exists());
}

/// The pnpmfile of the pnpmfile tests: adds a dependency to a published
/// package, makes one of its dependencies a peer, changes a project's
/// range and logs what it changed.
const READ_PACKAGE_HOOK: &str = r#"
module.exports = {
  hooks: {
    readPackage(pkg, context) {
      if (pkg.name === 'pq-dup-parent-a') {
        pkg.dependencies['pq-deep-1'] = '^1.0.0'
        context.log('pq-deep-1 added to ' + pkg.name)
      }
      if (pkg.name === 'pq-dup-parent-b') {
        pkg.peerDependencies['pq-dup'] = pkg.dependencies['pq-dup']
        delete pkg.dependencies['pq-dup']
      }
      if (pkg.dependencies['pq-plain'] === '^1.0.0' && pkg.name.startsWith('pq-project')) {
        pkg.dependencies['pq-plain'] = '1.0.0'
      }
      return pkg
    }
  }
}
"#;

/// A pnpmfile's `readPackage` runs on the projects' and the packages'
/// manifests while resolving, and `pnpmfileChecksum` is recorded: the
/// same lockfile and tree as pnpm 12.21, and the hook's log shown as pnpm
/// shows it; a hook that throws fails the install with pnpm's code.
#[test]
fn pnpmfile_read_package_hooks_resolve_like_pnpm() {
    let registry = Registry::start_fixtures();
    let written = resolves_like_pnpm_on(&registry, "basic", &|project| {
        std::fs::write(project.join(".pnpmfile.cjs"), READ_PACKAGE_HOOK).unwrap();
        with_dependency(project, "pq-dup-parent-a", "1.0.0");
        with_dependency(project, "pq-dup-parent-b", "1.0.0");
    });
    assert!(
        written.contains("pnpmfileChecksum: sha256-")
            && written.contains("pq-deep-1: 1.0.0")
            && written.contains("specifier: 1.0.0\n        version: 1.0.0\n"),
        "{written}"
    );
    resolves_like_pnpm_on(&registry, "workspace", &|project| {
        std::fs::write(project.join(".pnpmfile.cjs"), READ_PACKAGE_HOOK).unwrap();
        with_dependency(&project.join("packages/app"), "pq-dup-parent-a", "1.0.0");
    });

    let tmp = tempfile::tempdir().unwrap();
    let (project, env) = unlocked_basic(&registry, tmp.path());
    std::fs::write(project.join(".pnpmfile.cjs"), READ_PACKAGE_HOOK).unwrap();
    with_dependency(&project, "pq-dup-parent-a", "1.0.0");
    let out = pacquet(&env, &project, &["install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("readPackage: pq-deep-1 added to pq-dup-parent-a\n"),
        "{said}"
    );
    // The lockfile checks see the projects through the hook too (the
    // importer says `1.0.0` where package.json says `^1.0.0`).
    std::fs::remove_dir_all(project.join("node_modules")).unwrap();
    pacquet_ok(&env, &project, &["install", "--frozen-lockfile"]);
    assert!(project.join("node_modules/pq-plain").exists());

    // `--ignore-pnpmfile`: no hook, no checksum, in both tools.
    let tmp = tempfile::tempdir().unwrap();
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, tmp.path(), "basic", &|project: &Path| {
            std::fs::write(project.join(".pnpmfile.cjs"), READ_PACKAGE_HOOK).unwrap();
            with_dependency(project, "pq-dup-parent-a", "1.0.0");
        });
    let args = ["install", "--ignore-pnpmfile", "--lockfile-only"];
    pnpm_env.run_ok(&pnpm_project, &args);
    pacquet_ok(&env, &project, &args);
    let ignored = lockfile(&project);
    pretty_assertions::assert_eq!(ignored, lockfile(&pnpm_project));
    assert!(
        !ignored.contains("pnpmfileChecksum") && !ignored.contains("pq-deep-1"),
        "{ignored}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let throwing = |project: &Path| {
        std::fs::write(
            project.join(".pnpmfile.cjs"),
            "module.exports = { hooks: { readPackage(pkg) { if (pkg.name === 'pq-plain') throw new Error('no pq-plain here'); return pkg } } }",
        )
        .unwrap();
    };
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, tmp.path(), "basic", &throwing);
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    assert_eq!(theirs.status.code(), Some(1));
    assert!(
        all_output(&theirs).contains("no pq-plain here"),
        "pnpm: {}",
        all_output(&theirs)
    );
    let ours = pacquet(&env, &project, &["install"]);
    fails_saying(&ours, "ERR_PNPM_PNPMFILE_FAIL", "no pq-plain here");
    assert!(!project.join("pnpm-lock.yaml").exists());
}

/// A remote tarball that cannot be had, or is not a package tarball, fails
/// the resolution with the reason (pnpm 12.21 gives the same reason for a
/// 404), and writes nothing.
#[test]
fn a_missing_remote_tarball_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (project, env) = unlocked_basic(&registry, tmp.path());
    let missing = format!("{}archive/nope-1.0.0.tgz", registry.url());
    with_dependency(&project, "dp", &missing);
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(&out, "ERR_PACQUET_REMOTE_TARBALL_FETCH", "HTTP 404");
    assert!(!project.join("pnpm-lock.yaml").exists());
    assert!(!project.join("node_modules").exists());

    // A response that is not a package tarball.
    registry.serve_json(
        "files/not-a-tarball.tgz",
        &serde_json::json!({"not": "a tarball"}),
    );
    let bad = format!("{}files/not-a-tarball.tgz", registry.url());
    with_dependency(&project, "dp", &bad);
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(
        &out,
        "ERR_PACQUET_REMOTE_TARBALL_CONTENTS",
        "not a package tarball",
    );
    assert!(!project.join("pnpm-lock.yaml").exists());
}

/// Two range selectors patching one version fail as in pnpm 12.21, and
/// nothing is written.
#[test]
fn conflicting_patch_ranges_are_refused_like_pnpm() {
    patches_refused_like_pnpm(
        (
            "  pq-dup: patches/pq-dup.patch\n",
            "  pq-dup@>=1.0.0: patches/pq-dup.patch\n  pq-dup@^2.0.0: patches/pq-dup.patch\n",
        ),
        "PATCH_KEY_CONFLICT",
        "ERR_PNPM_PATCH_KEY_CONFLICT",
        "ERR_PNPM_PATCH_KEY_CONFLICT",
    );
}

#[test]
fn hashed_peer_suffixes_resolve_like_pnpm() {
    resolves_like_pnpm("peers-hashed", &unchanged);
}

/// An edited manifest: ranges, a dist-tag, a new alias and a project peer.
#[test]
fn an_edited_manifest_resolves_like_pnpm() {
    resolves_like_pnpm("basic", &|project| {
        let path = project.join("package.json");
        let mut manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let deps = manifest["dependencies"].as_object_mut().unwrap();
        deps.insert("pq-plain".into(), "*".into());
        deps.insert("pq-dup".into(), "latest".into());
        deps.insert("wrapped".into(), "npm:pq-peer-wrapper@^1.0.0".into());
        deps.remove("pq-deprecated");
        manifest["peerDependencies"] = serde_json::json!({"@pq/peer-host": "^1.0.0"});
        std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    });
}

/// An edited manifest over an existing lockfile: what the lockfile has is
/// kept where it still fits, as pnpm 12 keeps it. In `optional-peers`,
/// `pq-peer-user`'s `pq-plain@^1.0.0` is locked at 1.0.0 (the project's
/// own devDependency pinned it); with that devDependency gone, a fresh
/// resolution would take 1.1.0, pnpm keeps 1.0.0.
#[test]
fn an_edit_keeps_what_the_lockfile_has() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let sides = ["pnpm", "pacquet"].map(|side| {
        let project = tmp.path().join(side).join("project");
        prepare_project("optional-peers", &project, &registry.url());
        let path = project.join("package.json");
        let mut manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        manifest["devDependencies"]
            .as_object_mut()
            .unwrap()
            .remove("pq-plain");
        std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &registry.url());
        (project, env)
    });
    let ours = both_run_alike(&sides, ".", &["install", "--no-frozen-lockfile"], &[]);
    assert!(ours.contains("pq-plain: 1.0.0"), "{ours}");
}

/// A lockfile the manifest no longer matches is resolved again; the
/// result is what pnpm writes from scratch.
#[test]
fn an_outdated_lockfile_is_resolved_again() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let path = project.join("package.json");
    let manifest = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, manifest.replace("\"pq-exec-file\": \"1.0.0\",", "")).unwrap();
    // In CI (the tests' environment) a lockfile makes the install frozen.
    let out = pacquet(&env, &project, &["install"]);
    fails_with(&out, "ERR_PNPM_OUTDATED_LOCKFILE");
    pacquet_ok(&env, &project, &["install", "--no-frozen-lockfile"]);
    let written = lockfile(&project);
    assert!(!written.contains("pq-exec-file"), "{written}");
    assert!(!project.join("node_modules/pq-exec-file").exists());
    assert!(project.join("node_modules/pq-plain/package.json").exists());

    let reference = tmp.path().join("reference");
    prepare_project("basic", &reference, &registry.url());
    std::fs::remove_file(reference.join("pnpm-lock.yaml")).unwrap();
    std::fs::copy(&path, reference.join("package.json")).unwrap();
    env.lockfile_only(&reference);
    pretty_assertions::assert_eq!(written, lockfile(&reference));
}

/// `--lockfile-only` writes the lockfile pnpm writes and installs nothing.
#[test]
fn lockfile_only_writes_just_the_lockfile() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, tmp.path(), "peers", &unchanged);
    pnpm_env.lockfile_only(&pnpm_project);
    pacquet_ok(&env, &project, &["install", "--lockfile-only"]);
    pretty_assertions::assert_eq!(lockfile(&project), lockfile(&pnpm_project));
    assert!(!project.join("node_modules").exists());
    assert!(
        !env.store_dir.join("index.db").exists(),
        "nothing was fetched into the store"
    );
}

fn fails_with(out: &std::process::Output, code: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    assert!(
        stderr(out).contains(code),
        "expected {code} in:\n{}",
        stderr(out)
    );
}

/// Everything a command printed, stdout then stderr.
fn all_output(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(out))
}

/// `s` without whitespace and box drawing: both tools wrap long lines in
/// a box, so messages are compared without the wrapping.
fn flat(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !"│╰─▶├".contains(*c))
        .collect()
}

/// [`fails_with`] `code`, saying `text`.
fn fails_saying(out: &std::process::Output, code: &str, text: &str) {
    fails_with(out, code);
    assert!(
        stderr(out).contains(text),
        "expected {text:?} in:\n{}",
        stderr(out)
    );
}

/// Appends `yaml` to the project's `pnpm-workspace.yaml`.
fn with_settings(project: &Path, yaml: &str) {
    let workspace = project.join("pnpm-workspace.yaml");
    let text = std::fs::read_to_string(&workspace).unwrap_or_default();
    std::fs::write(&workspace, format!("{text}\n{yaml}")).unwrap();
}

fn with_dependency(project: &Path, name: &str, spec: &str) {
    let path = project.join("package.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    manifest["dependencies"][name] = spec.into();
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
}

/// No version satisfies: pnpm's code and message, the published versions
/// in the help, and nothing written.
#[test]
fn no_matching_version_is_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let edit = |p: &Path| with_dependency(p, "pq-plain", "^9.0.0");
    let [(pnpm_project, pnpm_env), (project, env)] = sides(&registry, tmp.path(), "basic", &edit);
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    let ours = pacquet(&env, &project, &["install"]);
    fails_with(&ours, "ERR_PNPM_NO_MATCHING_VERSION");
    assert_eq!(theirs.status.code(), Some(1));
    let message = format!(
        "No matching version found for pq-plain@^9.0.0 while fetching it from {}",
        registry.url()
    );
    let pnpm_says = all_output(&theirs);
    // Both wrap long lines in a box; compare without the wrapping.
    assert!(
        flat(&pnpm_says).contains(&flat(&message)),
        "pnpm: {pnpm_says}"
    );
    assert!(
        flat(&stderr(&ours)).contains(&flat(&message)),
        "{}",
        stderr(&ours)
    );
    let help = "The latest release of pq-plain is \"1.1.0\". Published at 1/1/2020";
    assert!(flat(&pnpm_says).contains(&flat(help)), "pnpm: {pnpm_says}");
    assert!(
        flat(&stderr(&ours)).contains(&flat(help)),
        "{}",
        stderr(&ours)
    );
    assert!(!project.join("pnpm-lock.yaml").exists());
    assert!(!project.join("node_modules").exists());
}

/// A package the registry does not have: `ERR_PNPM_FETCH_404`.
#[test]
fn a_missing_package_is_fetch_404() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let edit = |p: &Path| with_dependency(p, "pq-no-such-package", "^1.0.0");
    let [(pnpm_project, pnpm_env), (project, env)] = sides(&registry, tmp.path(), "basic", &edit);
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    let pnpm_says = all_output(&theirs);
    assert!(
        pnpm_says.contains("ERR_PNPM_FETCH_404"),
        "pnpm: {pnpm_says}"
    );
    let ours = pacquet(&env, &project, &["install"]);
    fails_with(&ours, "ERR_PNPM_FETCH_404");
    assert!(
        stderr(&ours).contains("pq-no-such-package is not in the npm registry"),
        "{}",
        stderr(&ours)
    );
    assert!(!project.join("pnpm-lock.yaml").exists());
}

/// What resolution does not do yet is refused by name, before anything
/// is written: other protocols, and settings that change resolution.
#[test]
fn what_resolution_cannot_do_is_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (project, env) = unlocked_basic(&registry, tmp.path());
    // A hosted repository: pnpm asks the host whether it is public.
    with_dependency(&project, "local", "github:pnpm-example/x");
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(
        &out,
        "ERR_PACQUET_RESOLUTION_NOT_SUPPORTED",
        "github:pnpm-example/x",
    );
    assert!(!project.join("pnpm-lock.yaml").exists());

    // A directory that is not there.
    with_dependency(&project, "local", "file:./local");
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(
        &out,
        "ERR_PNPM_LINKED_PKG_DIR_NOT_FOUND",
        "as it does not exist",
    );
    assert!(!project.join("pnpm-lock.yaml").exists());

    let path = project.join("package.json");
    let manifest = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        manifest.replace("\"local\": \"file:./local\"", "\"x\": \"1.0.0\""),
    )
    .unwrap();
    let workspace = project.join("pnpm-workspace.yaml");
    let text = std::fs::read_to_string(&workspace).unwrap_or_default();
    std::fs::write(&workspace, format!("{text}\nresolutionMode: newest\n")).unwrap();
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(&out, "ERR_PACQUET_UNSUPPORTED_SETTING", "resolutionMode");
    assert!(!project.join("pnpm-lock.yaml").exists());

    // pnpmfile hooks other than readPackage.
    std::fs::write(&workspace, &text).unwrap();
    std::fs::write(
        project.join(".pnpmfile.cjs"),
        "module.exports = { hooks: { afterAllResolved: (lockfile) => lockfile } }",
    )
    .unwrap();
    let out = pacquet(&env, &project, &["install"]);
    fails_saying(
        &out,
        "ERR_PACQUET_UNSUPPORTED_PNPMFILE_HOOK",
        "afterAllResolved",
    );
    assert!(!project.join("pnpm-lock.yaml").exists());
}

/// A `workspace:` dependency on a project the workspace does not have.
#[test]
fn a_missing_workspace_project_is_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let edit = |p: &Path| with_dependency(&p.join("packages/app"), "pq-nowhere", "workspace:*");
    let [(pnpm_project, pnpm_env), (project, env)] =
        sides(&registry, tmp.path(), "workspace", &edit);
    let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
    let pnpm_says = all_output(&theirs);
    // pnpm 12.21 prints no code for it; pnpm 9's was this one.
    let message = "\"pq-nowhere@workspace:*\" is in the dependencies but no package named \"pq-nowhere\" is present in the workspace";
    assert_eq!(theirs.status.code(), Some(1));
    assert!(
        flat(&pnpm_says).contains(&flat(message)),
        "pnpm: {pnpm_says}"
    );
    let ours = pacquet(&env, &project, &["install"]);
    fails_with(&ours, "ERR_PNPM_WORKSPACE_PKG_NOT_FOUND");
    assert!(
        flat(&stderr(&ours)).contains(&flat(message)),
        "{}",
        stderr(&ours)
    );
    assert!(!project.join("pnpm-lock.yaml").exists());
    assert!(!project.join("node_modules").exists());
}

/// Runs the same command with both tools on copies of `name` (with its
/// lockfile) and compares package.json, the lockfile and the trees.
fn edits_like_pnpm(name: &str, dir: &str, args: &[&str]) {
    edits_like_pnpm_in(name, dir, None, args);
}

/// [`edits_like_pnpm`] in the root, after `prepare` (then a lockfile for
/// it, written by pnpm, on both sides).
fn edits_like_pnpm_from(name: &str, prepare: &dyn Fn(&Path), args: &[&str]) {
    edits_like_pnpm_in(name, ".", Some(prepare), args);
}

/// A copy of fixture `name` per tool under `tmp`; after `prepare`, with a
/// lockfile for it that pnpm writes, copied to pacquet's side.
fn locked_sides(
    registry: &Registry,
    tmp: &Path,
    name: &str,
    prepare: Option<&dyn Fn(&Path)>,
) -> [(PathBuf, PnpmEnv); 2] {
    let [(pnpm_project, pnpm_env), (project, env)] = ["pnpm", "pacquet"].map(|side| {
        let project = tmp.join(side).join("project");
        prepare_project(name, &project, &registry.url());
        let env = PnpmEnv::new(&tmp.join(side).join("env"), &registry.url());
        (project, env)
    });
    if let Some(prepare) = prepare {
        for project in [&pnpm_project, &project] {
            prepare(project);
        }
        pnpm_env.lockfile_only(&pnpm_project);
        std::fs::copy(
            pnpm_project.join("pnpm-lock.yaml"),
            project.join("pnpm-lock.yaml"),
        )
        .unwrap();
    }
    [(pnpm_project, pnpm_env), (project, env)]
}

/// Runs `args` in `dir` of each side (pnpm with its append-only
/// reporter), then compares `files` (paths from each project), the
/// lockfile and the trees. Returns the lockfile.
fn both_run_alike(
    [(pnpm_project, pnpm_env), (project, env)]: &[(PathBuf, PnpmEnv); 2],
    dir: &str,
    args: &[&str],
    files: &[&str],
) -> String {
    let mut pnpm_args = args.to_vec();
    pnpm_args.push("--reporter=append-only");
    pnpm_env.run_ok(&pnpm_project.join(dir), &pnpm_args);
    pacquet_ok(env, &project.join(dir), args);
    for file in files {
        let read = |p: &Path| std::fs::read_to_string(p.join(file)).unwrap();
        pretty_assertions::assert_eq!(read(project), read(pnpm_project), "{args:?} {file}");
    }
    let ours = lockfile(project);
    pretty_assertions::assert_eq!(ours, lockfile(pnpm_project), "{args:?}");
    let opts =
        DiffOptions::for_installs(pnpm_project, &pnpm_env.store_dir, project, &env.store_dir);
    assert_trees_equal(pnpm_project, project, &opts);
    ours
}

fn edits_like_pnpm_in(name: &str, dir: &str, prepare: Option<&dyn Fn(&Path)>, args: &[&str]) {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let sides = locked_sides(&registry, tmp.path(), name, prepare);
    let manifest = format!("{dir}/package.json");
    both_run_alike(&sides, dir, args, &[&manifest]);
}

/// `add <tarball URL>` and `add <git URL>` save the specifier as given
/// under the name the package's manifest has, as pnpm 12.21 does.
#[test]
fn add_saves_urls_and_git_repositories_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let repo = git_fixture_repo(&tmp.path().join("repo"));
    let url = registry.archive_url("pq-dup-parent-a", "1.0.0");
    for spec in [url.as_str(), &format!("{repo}#v1.0.0")] {
        let sides_tmp = tempfile::tempdir().unwrap();
        let sides = locked_sides(&registry, sides_tmp.path(), "basic", None);
        both_run_alike(&sides, ".", &["add", spec], &["./package.json"]);
        let saved = std::fs::read_to_string(sides[1].0.join("package.json")).unwrap();
        assert!(
            saved.contains(&format!("\"pq-dup-parent-a\": \"{spec}\"")),
            "{saved}"
        );
    }
}

#[test]
fn add_writes_what_pnpm_writes() {
    // A bare name takes `^` + latest; a `^`/`~` range keeps its prefix;
    // -E pins; -D moves.
    edits_like_pnpm("basic", ".", &["add", "pq-dup"]);
    edits_like_pnpm("basic", ".", &["add", "pq-deep-1@^1.0.0", "-D"]);
    edits_like_pnpm(
        "basic",
        ".",
        &["add", "-E", "@pq/peer-host", "pq-deep-1@^1.0.0"],
    );
    edits_like_pnpm("basic", ".", &["add", "pq-plain@1.0.0", "-O"]);
    edits_like_pnpm("basic", ".", &["add", "my-dup@npm:pq-dup@1.0.0"]);
    edits_like_pnpm(
        "basic",
        ".",
        &["add", "--save-peer", "@pq/peer-host@^2.0.0"],
    );
    // Other ranges take `savePrefix` + the version picked.
    edits_like_pnpm("basic", ".", &["add", "pq-plain@1", "pq-dup@>=1 <3"]);
    // A range never becomes exact; `~` stays `~` in any form.
    edits_like_pnpm("basic", ".", &["add", "-E", "pq-plain@1", "pq-dup@~1"]);
    // A manifest on one line stays on one line.
    edits_like_pnpm_from(
        "basic",
        &|project| {
            let path = project.join("package.json");
            let value: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            std::fs::write(&path, format!("{value}\n")).unwrap();
        },
        &["add", "@pq/plain@~1.0.0"],
    );
    // `savePrefix` and `saveExact` as settings.
    for setting in ["savePrefix: '~'", "saveExact: true"] {
        edits_like_pnpm_from(
            "basic",
            &|project| {
                let path = project.join("pnpm-workspace.yaml");
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                std::fs::write(&path, format!("{}\n{setting}\n", text.trim_end())).unwrap();
            },
            &["add", "pq-dup", "pq-deep-1@^1.0.0"],
        );
    }
}

/// `add` prefers what the project and its lockfile have: a range the
/// locked versions (also of a dependency's dependency), a dist-tag the
/// prefix of the project's specifier, and a bare name the project already
/// has keeps its specifier.
#[test]
fn add_prefers_what_the_project_and_lockfile_have() {
    let manifest = |existing: &'static str| {
        move |project: &Path| {
            std::fs::write(
                project.join("package.json"),
                format!(
                    r#"{{"name": "x", "version": "1.0.0", "dependencies": {{"pq-dup-parent-a": "1.0.0", "pq-plain": "{existing}"}}}}"#
                ),
            )
            .unwrap();
        }
    };
    edits_like_pnpm_from(
        "basic",
        &manifest("1.0.0"),
        &["add", "pq-plain@^1.0.0", "pq-dup@>=1"],
    );
    edits_like_pnpm_from("basic", &manifest("~1.0.0"), &["add", "pq-plain@latest"]);
    edits_like_pnpm_from("basic", &manifest(">=1.0.0"), &["add", "pq-plain"]);
    // The lowest of the preferred versions with `resolutionMode:
    // lowest-direct`: pq-plain stays at the locked 1.1.0, pq-dup gets 1.0.0.
    edits_like_pnpm_from(
        "basic",
        &|project| with_settings(project, "resolutionMode: lowest-direct\n"),
        &["add", "pq-plain@1", "pq-dup@>=1 <3"],
    );
}

/// An edit keeps the dependencies each locked package has in the
/// lockfile: `pq-peer-user`'s `pq-plain@^1.0.0` stays at the locked 1.0.0
/// although 1.1.0 is locked too and now the project's own pick.
#[test]
fn an_edit_keeps_the_locked_dependencies_of_locked_packages() {
    edits_like_pnpm_from(
        "basic",
        &|project| {
            std::fs::write(
                project.join("package.json"),
                r#"{"name": "x", "version": "1.0.0", "dependencies": {"pq-plain": "1.0.0", "other-plain": "npm:pq-plain@1.1.0", "pq-peer-user": "1.0.0", "@pq/peer-host": "1.0.0"}}"#,
            )
            .unwrap();
        },
        &["add", "pq-plain@1.1.0"],
    );
}

#[test]
fn add_in_a_workspace_project_and_with_w() {
    edits_like_pnpm("workspace", "packages/lib", &["add", "pq-dup@2.0.0"]);
    edits_like_pnpm("workspace", ".", &["add", "-w", "pq-deep-1"]);
}

/// `--filter` from the workspace root: each selected project's manifest
/// is edited, the whole workspace resolved, the selected projects (and
/// the root) installed, as pnpm 12.21 does.
#[test]
fn edits_with_filter_write_what_pnpm_writes() {
    for args in [
        &["add", "--filter", "@pq-ws/lib", "pq-dup@2.0.0"][..],
        &["add", "--filter", "./packages/*", "pq-deep-1", "-D"],
        &["remove", "--filter", "pq-util", "pq-dup"],
        &["update", "--filter", "@pq-ws/app", "--latest"],
        &["add", "--filter", "nothing-is-named-so", "pq-dup"],
    ] {
        workspace_edits_like_pnpm(None, ".", args);
    }
}

/// `-r`: `add` edits every project but the root; `remove` takes from each
/// project the names it has and fails only when none has any;
/// `update` edits every project, the root included; `-r -w` edits the root
/// alone and installs it alone (pnpm 12.21).
#[test]
fn recursive_edits_write_what_pnpm_writes() {
    let prepare = |project: &Path| {
        for dir in [".", "packages/app", "packages/lib", "packages/util"] {
            with_dependency(&project.join(dir), "pq-plain", "^1.0.0");
        }
    };
    for args in [
        &["add", "-r", "pq-deep-1"][..],
        &["remove", "-r", "pq-dup"],
        // `app` has `pq-dup` but not `pq-bin-sh`: it loses `pq-dup`.
        &["remove", "-r", "pq-dup", "pq-bin-sh"],
        &["update", "-r"],
        &["update", "-r", "--latest", "pq-dup"],
        &["add", "-r", "-w", "pq-deep-1"],
        &["update", "-r", "-w"],
        &["remove", "-r", "-w", "pq-plain"],
    ] {
        workspace_edits_like_pnpm(Some(&prepare), ".", args);
    }
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("workspace", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let theirs = env.run(&project, &["remove", "-r", "pq-nope"]);
    assert!(all_output(&theirs).contains("ERR_PNPM_CANNOT_REMOVE_MISSING_DEPS"));
    let out = pacquet(&env, &project, &["remove", "-r", "pq-nope"]);
    fails_with(&out, "ERR_PNPM_CANNOT_REMOVE_MISSING_DEPS");
}

/// `update --filter` moves only the selected projects' trees: the others
/// keep what the lockfile has, the same package included; without a
/// filter, every project's tree moves and only the current project's
/// manifest is rewritten (pnpm 12.21). Every project depends on
/// `pq-plain@^1.0.0`, locked at 1.0.0; the registry has 1.1.0.
#[test]
fn update_moves_only_the_selected_projects() {
    let prepare = |project: &Path| {
        for dir in [".", "packages/app", "packages/lib", "packages/util"] {
            with_dependency(&project.join(dir), "pq-plain", "^1.0.0");
        }
        with_dependency(&project.join("packages/app"), "pq-dup", "^1.0.0");
    };
    for (dir, args, some_kept) in [
        (".", &["update", "--filter", "pq-util"][..], true),
        (".", &["update", "--filter", "."], true),
        (".", &["update", "--filter", ".", "pq-plain"], true),
        (
            ".",
            &["update", "--filter", "./packages/*", "--latest"],
            true,
        ),
        (".", &["update"], false),
        ("packages/app", &["update", "pq-plain"], false),
    ] {
        let lockfile = workspace_edits_like_pnpm(Some(&prepare), dir, args);
        assert_eq!(
            lockfile.contains("pq-plain@1.0.0:"),
            some_kept,
            "{args:?}: {lockfile}"
        );
        assert!(lockfile.contains("pq-plain@1.1.0:"), "{args:?}: {lockfile}");
    }
}

/// `update` of a `catalog:` dependency moves the catalog entry in
/// `pnpm-workspace.yaml` (its line only) and the lockfile's `catalogs:`,
/// not the manifest (pnpm 12.21). The root and `app` use the entry
/// `pq-plain: ^1.0.0`, locked at 1.0.0; the registry has 1.1.0.
#[test]
fn update_moves_catalog_entries_like_pnpm() {
    let prepare = |project: &Path| {
        with_settings(
            project,
            "# the entry pnpm moves\ncatalog:\n  pq-plain: 1.0.0 # kept\n  unused: ^9.0.0\n",
        );
        with_dependency(project, "pq-plain", "catalog:");
        with_dependency(&project.join("packages/app"), "pq-plain", "catalog:");
    };
    // The range pnpm would keep at 1.0.0 with this lockfile.
    let relax = |project: &Path| {
        for file in ["pnpm-workspace.yaml", "pnpm-lock.yaml"] {
            let path = project.join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            let text = text
                .replacen("pq-plain: 1.0.0 # kept", "pq-plain: ^1.0.0 # kept", 1)
                .replacen(
                    "specifier: 1.0.0\n      version: 1.0.0",
                    "specifier: ^1.0.0\n      version: 1.0.0",
                    1,
                );
            std::fs::write(&path, text).unwrap();
        }
    };
    for args in [
        &["update"][..],
        &["update", "--latest"],
        &["update", "pq-plain"],
        &["update", "pq-dup"],
    ] {
        let lockfile = workspace_edits_like_pnpm_then(Some(&prepare), &relax, ".", args);
        let moved = args != ["update", "pq-dup"];
        assert_eq!(
            lockfile.contains("specifier: ^1.1.0\n      version: 1.1.0"),
            moved,
            "{args:?}: {lockfile}"
        );
    }
}

/// Runs `args` in `dir` with both tools on copies of fixture `workspace`
/// (after `prepare`, then a lockfile for it written by pnpm on both
/// sides); compares every project's package.json, the lockfile and the
/// trees. Returns the lockfile.
fn workspace_edits_like_pnpm(prepare: Option<&dyn Fn(&Path)>, dir: &str, args: &[&str]) -> String {
    workspace_edits_like_pnpm_then(prepare, &unchanged, dir, args)
}

/// [`workspace_edits_like_pnpm`], with `retouch` applied to both sides
/// once the lockfile is there; `pnpm-workspace.yaml` is compared too.
fn workspace_edits_like_pnpm_then(
    prepare: Option<&dyn Fn(&Path)>,
    retouch: &dyn Fn(&Path),
    dir: &str,
    args: &[&str],
) -> String {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let sides = locked_sides(&registry, tmp.path(), "workspace", prepare);
    for (project, _) in &sides {
        retouch(project);
    }
    let files = [
        "pnpm-workspace.yaml",
        "package.json",
        "packages/app/package.json",
        "packages/lib/package.json",
        "packages/util/package.json",
    ];
    both_run_alike(&sides, dir, args, &files)
}

#[test]
fn remove_writes_what_pnpm_writes() {
    edits_like_pnpm("basic", ".", &["remove", "pq-deprecated", "pq-many-files"]);
    edits_like_pnpm("workspace", "packages/util", &["remove", "pq-dup"]);
}

/// pnpm 12's refusal of a removal of what the project does not have:
/// nothing changes. (pnpm 12.21 adds to a workspace's root without `-w`.)
#[test]
fn edits_pnpm_refuses_are_refused() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("workspace", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let before = std::fs::read_to_string(project.join("package.json")).unwrap();
    let theirs = env.run(&project, &["remove", "pq-nope"]);
    let pnpm_says = all_output(&theirs);
    assert!(
        pnpm_says.contains("ERR_PNPM_CANNOT_REMOVE_MISSING_DEPS"),
        "pnpm: {pnpm_says}"
    );
    let out = pacquet(&env, &project, &["remove", "pq-nope"]);
    fails_with(&out, "ERR_PNPM_CANNOT_REMOVE_MISSING_DEPS");
    assert_eq!(
        std::fs::read_to_string(project.join("package.json")).unwrap(),
        before
    );
    assert!(!project.join("node_modules").exists());
}

/// `update` takes each range's newest version and rewrites `^`/`~`
/// ranges to it; `--latest` takes the `latest` tag; named packages only
/// when named. `aliases` has `pq-plain` and `pq-dup` at several versions.
#[test]
fn update_writes_what_pnpm_writes() {
    for args in [
        &["update"][..],
        &["update", "--latest"],
        &["update", "pq-dup", "--latest"],
        &["update", "plain-alias"],
        // Only package.json and the lockfile, as pnpm 12.21 writes them.
        &["update", "--latest", "--lockfile-only"],
        &["add", "--lockfile-only", "pq-deep-1"],
        &["remove", "--lockfile-only", "pq-dup"],
    ] {
        edits_like_pnpm_from(
            "aliases",
            &|project| {
                // An older pin than the registry's newest, for update to move.
                let path = project.join("package.json");
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(
                    &path,
                    text.replace("\"pq-dup\": \"2.0.0\"", "\"pq-dup\": \"^1.0.0\""),
                )
                .unwrap();
            },
            args,
        );
    }
}

/// More bad input, each refused as pnpm 12.21 refuses it, nothing
/// written: a `workspace:` range the project's version misses, a
/// resolution offline with no metadata cached, and a broken package.json
/// for `remove`. Where pnpm 12.21 prints no code, its message is compared.
#[test]
fn more_bad_input_is_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    // (fixture, edit, arguments, our code, what pnpm says too)
    type Case<'c> = (&'c str, &'c dyn Fn(&Path), &'c [&'c str], &'c str, &'c str);
    let cases: [Case; 3] = [
        (
            "workspace",
            &|p| with_dependency(&p.join("packages/app"), "@pq-ws/lib", "workspace:^9.0.0"),
            &["install"],
            "ERR_PNPM_NO_MATCHING_VERSION_INSIDE_WORKSPACE",
            "No matching version found for @pq-ws/lib@workspace:^9.0.0 inside the workspace. Available versions: 1.0.0",
        ),
        (
            "basic",
            &unchanged,
            &["install", "--offline"],
            "ERR_PNPM_NO_OFFLINE_META",
            "ERR_PNPM_NO_OFFLINE_META",
        ),
        (
            "basic",
            &|p| std::fs::write(p.join("package.json"), "{\"name\": ").unwrap(),
            &["remove", "pq-plain"],
            "ERR_PNPM_JSON_PARSE",
            // pnpm 12.21 prints no code here either.
            "EOF while parsing a value at line 1 column 9",
        ),
    ];
    for (i, (name, edit, args, code, pnpm_says)) in cases.into_iter().enumerate() {
        let [(pnpm_project, pnpm_env), (project, env)] =
            sides(&registry, &tmp.path().join(i.to_string()), name, edit);
        let mut pnpm_args = args.to_vec();
        if args[0] == "install" {
            pnpm_args.push("--no-frozen-lockfile");
        }
        let theirs = pnpm_env.run(&pnpm_project, &pnpm_args);
        let theirs_text = all_output(&theirs);
        assert_eq!(theirs.status.code(), Some(1), "pnpm {args:?}");
        assert!(
            flat(&theirs_text).contains(&flat(pnpm_says)),
            "pnpm {args:?}: {theirs_text}"
        );
        let ours = pacquet(&env, &project, args);
        fails_with(&ours, code);
        assert!(
            flat(&stderr(&ours)).contains(&flat(pnpm_says)),
            "{}",
            stderr(&ours)
        );
        assert!(!project.join("pnpm-lock.yaml").exists());
        assert!(!project.join("node_modules").exists());
    }
}

/// A document the metadata mirror got within `minimumReleaseAge` answers a
/// pick without a request; one that cannot satisfy the spec is asked for
/// again; `preferOffline` takes any kept copy; `minimumReleaseAge: 0` and
/// a name `minimumReleaseAgeExclude` exempts whole always revalidate. Both tools, same registry, same steps, same
/// lockfiles.
#[test]
fn kept_documents_answer_picks_like_pnpm() {
    let with_plain = |spec: &'static str| {
        move |project: &Path| {
            std::fs::write(
                project.join("package.json"),
                format!(r#"{{"name": "k", "version": "1.0.0", "dependencies": {{"pq-plain": "{spec}"}}}}"#),
            )
            .unwrap();
        }
    };
    for (settings, kept_answers) in [
        ("", true),
        ("minimumReleaseAge: 0\npreferOffline: true\n", true),
        ("minimumReleaseAge: 0\n", false),
        ("minimumReleaseAgeExclude: [pq-plain]\n", false),
        ("minimumReleaseAgeExclude: ['pq-plain@1.0.0']\n", true),
    ] {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        let sides = sides(&registry, tmp.path(), "basic", &|project| {
            with_plain("^1.0.0")(project);
            with_settings(project, settings);
        });
        let resolve_both = |edit: &dyn Fn(&Path)| {
            for (i, (project, env)) in sides.iter().enumerate() {
                let _ = std::fs::remove_file(project.join("pnpm-lock.yaml"));
                edit(project);
                if i == 0 {
                    env.run_ok(
                        project,
                        &[
                            "install",
                            "--lockfile-only",
                            "--no-frozen-lockfile",
                            "--reporter=append-only",
                        ],
                    );
                } else {
                    registry.reset_requests();
                    pacquet_ok(env, project, &["install", "--lockfile-only"]);
                }
            }
            let [(pnpm_project, _), (project, _)] = &sides;
            pretty_assertions::assert_eq!(lockfile(project), lockfile(pnpm_project), "{settings}");
            lockfile(project)
        };
        assert!(resolve_both(&unchanged).contains("pq-plain@1.1.0:"));
        // The registry moves `latest` back and tags `next`.
        registry.patch_packument(
            "pq-plain",
            serde_json::json!({"dist-tags": {"latest": "1.0.0", "next": "1.0.0"}}),
        );
        let again = resolve_both(&unchanged);
        let asked = registry.request_count("pq-plain");
        if kept_answers {
            assert!(again.contains("pq-plain@1.1.0:"), "{settings}: {again}");
            assert_eq!(asked, 0, "{settings}: {:?}", registry.requests());
        } else {
            assert!(again.contains("pq-plain@1.0.0:"), "{settings}: {again}");
            assert_eq!(asked, 1, "{settings}: {:?}", registry.requests());
        }
        // The kept copy has no `next`: asked again, found.
        let tagged = resolve_both(&with_plain("next"));
        assert!(tagged.contains("pq-plain@1.0.0:"), "{settings}: {tagged}");
        assert_eq!(registry.request_count("pq-plain"), 1, "{settings}");
    }
}

/// `install --fix-lockfile` resolves again keeping the lockfile's
/// versions, and what the registry says replaces a broken entry: a
/// package whose `resolution` lost its integrity gets it back, at the
/// locked version (`pq-plain@^1.0.0` stays 1.0.0 though 1.1.0 fits), and
/// so does one whose entry has no `resolution` at all. Both tools, same
/// lockfile and tree.
#[test]
fn fix_lockfile_repairs_like_pnpm() {
    let locked_old = |project: &Path| with_dependency(project, "pq-plain", "1.0.0");
    let break_integrity = |project: &Path| {
        with_dependency(project, "pq-plain", "^1.0.0");
        let path = project.join("pnpm-lock.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        let entry = "\n  pq-plain@1.0.0:\n    resolution: ";
        let start = text.find(entry).unwrap() + entry.len();
        let end = start + text[start..].find('\n').unwrap();
        let text = format!(
            "{}{{tarball: {}}}{}",
            &text[..start],
            "https://example.invalid/pq-plain-1.0.0.tgz",
            &text[end..]
        )
        .replacen(
            "pq-plain:\n        specifier: 1.0.0",
            "pq-plain:\n        specifier: ^1.0.0",
            1,
        );
        std::fs::write(&path, text).unwrap();
    };
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let sides = locked_sides(&registry, tmp.path(), "basic", Some(&locked_old));
    for (project, _) in &sides {
        break_integrity(project);
    }
    let fixed = both_run_alike(&sides, ".", &["install", "--fix-lockfile"], &[]);
    assert!(!fixed.contains("example.invalid"), "{fixed}");
    assert!(fixed.contains("pq-plain@1.0.0:"), "{fixed}");
    // An entry without `resolution` at all: a frozen install calls the
    // lockfile broken, `--fix-lockfile` keeps the version.
    let drop_resolution = |project: &Path| {
        with_dependency(project, "pq-plain", "^1.0.0");
        let path = project.join("pnpm-lock.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        let entry = "\n  pq-plain@1.0.0:\n    resolution: ";
        let start = text.find(entry).unwrap();
        let end = start + entry.len() + text[start + entry.len()..].find('\n').unwrap();
        let text = format!("{}\n  pq-plain@1.0.0: {{}}{}", &text[..start], &text[end..]).replacen(
            "pq-plain:\n        specifier: 1.0.0",
            "pq-plain:\n        specifier: ^1.0.0",
            1,
        );
        std::fs::write(&path, text).unwrap();
    };
    let tmp = tempfile::tempdir().unwrap();
    let sides = locked_sides(&registry, tmp.path(), "basic", Some(&locked_old));
    for (project, env) in &sides {
        drop_resolution(project);
        let out = pacquet(env, project, &["install", "--frozen-lockfile"]);
        fails_with(&out, "ERR_PNPM_BROKEN_LOCKFILE");
    }
    let fixed = both_run_alike(&sides, ".", &["install", "--fix-lockfile"], &[]);
    assert!(
        fixed.contains("pq-plain@1.0.0:\n    resolution: {integrity:"),
        "{fixed}"
    );
    assert!(
        fixed.contains("pq-plain:\n        specifier: ^1.0.0\n        version: 1.0.0\n"),
        "{fixed}"
    );
}

/// A package shipping dependencies in its own `node_modules`
/// (`bundledDependencies`, as npm does): they are not resolved, and their
/// commands (a plain and a scoped package's) go into the package's own
/// `node_modules/.bin` beside its dependencies' (pnpm 12.21).
#[test]
fn bundled_dependencies_resolve_and_link_like_pnpm() {
    let lockfile = resolves_like_pnpm("basic", &|project| {
        with_dependency(project, "pq-bundler", "1.0.0");
    });
    assert!(lockfile.contains("bundledDependencies"), "{lockfile}");
    assert!(!lockfile.contains("pq-bundled-tool@"), "{lockfile}");
}

/// A peer missing below one member of a dependency cycle (`a` → `b` → `a`,
/// `a` → `c` with an optional peer nothing provides): the walk leaves out
/// the edge into the member that sorts first (`b` → `a`), wherever it
/// enters the cycle, so `a` lists the peer and `b` does not, whether the
/// project depends on `a`, on both, or on `b` alone (pnpm 12.21; both
/// tools, same lockfile).
#[test]
fn missing_peers_in_dependency_cycles_resolve_like_pnpm() {
    let member = |lockfile: &str, name: &str| -> String {
        let entry = lockfile
            .split(&format!("\n  {name}@1.0.0:\n"))
            .nth(2)
            .unwrap_or_else(|| panic!("a snapshot for {name}"));
        entry.split("\n\n").next().unwrap().to_owned()
    };
    for direct in [&["a"][..], &["a", "b"], &["b"]] {
        let lockfile = resolves_like_pnpm("basic", &|project| {
            for name in direct {
                with_dependency(project, &format!("pq-cycle-peer-{name}"), "1.0.0");
            }
        });
        assert!(
            member(&lockfile, "pq-cycle-peer-a").contains("- pq-absent-peer"),
            "{lockfile}"
        );
        assert!(
            !member(&lockfile, "pq-cycle-peer-b").contains("pq-absent-peer"),
            "{lockfile}"
        );
    }
}

/// The warnings about the deprecated packages a resolution picked, as
/// pnpm 12.21 prints them: one per project dependency, naming the highest
/// release that is not deprecated (and saying when the declared range
/// leaves it out, an exact version not counting as a range), one line
/// listing the subdependencies; `allowedDeprecatedVersions` silences what
/// it allows. `pq-deprecated-some` has 1.0.0, 1.1.0 and 3.0.0 deprecated,
/// 2.0.0 not; `pq-uses-deprecated` depends on the deprecated
/// `pq-deprecated`.
#[test]
fn deprecation_warnings_match_pnpm() {
    let registry = Registry::start_fixtures();
    let allowing =
        "allowedDeprecatedVersions:\n  pq-deprecated: 1.0.0\n  pq-deprecated-some: ^1.1.0\n";
    for (spec, settings, expected) in [
        ("^1.0.0", "", 2),
        ("1.0.0", "", 2),
        ("1.0.0 || 3.0.0", "", 2),
        (">=1.0.0", "", 1),
        ("^1.0.0", allowing, 0),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let edit = |project: &Path| {
            let manifest = serde_json::json!({
                "name": "pq-project-basic",
                "version": "1.0.0",
                "dependencies": {"pq-deprecated-some": spec, "pq-uses-deprecated": "1.0.0"},
            });
            std::fs::write(project.join("package.json"), manifest.to_string()).unwrap();
            let workspace = project.join("pnpm-workspace.yaml");
            let mut yaml = std::fs::read_to_string(&workspace).unwrap_or_default();
            yaml.push_str(settings);
            std::fs::write(workspace, yaml).unwrap();
        };
        let [(pnpm_project, pnpm_env), (project, env)] =
            sides(&registry, tmp.path(), "basic", &edit);
        let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
        let ours = pacquet(&env, &project, &["install"]);
        assert!(theirs.status.success() && ours.status.success());
        let warnings = |out: &std::process::Output| -> Vec<String> {
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|line| line.contains("[WARN]"))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(warnings(&ours), warnings(&theirs), "{spec} {settings}");
        assert_eq!(warnings(&ours).len(), expected, "{spec} {settings}");
        assert_eq!(lockfile(&project), lockfile(&pnpm_project));
    }
}

/// Specs that only versions younger than `minimumReleaseAge` satisfy (here
/// every version, with an age of 190 years): the lowest satisfying version
/// is picked and, without `minimumReleaseAgeStrict`, added to
/// `minimumReleaseAgeExclude` in `pnpm-workspace.yaml`; with it (the
/// default once `minimumReleaseAge` is set) the install fails with
/// `ERR_PNPM_NO_MATURE_MATCHING_VERSION` before writing the lockfile, and
/// an `add` whose install fails so leaves `package.json` as it was (pnpm
/// 12.21).
#[test]
fn young_versions_are_picked_and_excluded_like_pnpm() {
    for (settings, passes) in [
        (
            "minimumReleaseAge: 99999999\nminimumReleaseAgeStrict: false\n",
            true,
        ),
        ("minimumReleaseAge: 99999999\n", false),
    ] {
        let registry = Registry::start_fixtures();
        let tmp = tempfile::tempdir().unwrap();
        let [(pnpm_project, pnpm_env), (project, env)] =
            sides(&registry, tmp.path(), "basic", &|p| {
                let manifest = serde_json::json!({
                    "name": "pq-project-basic",
                    "version": "1.0.0",
                    "dependencies": {"pq-plain": "^1.0.0", "pq-dup": "^1.0.0"},
                });
                std::fs::write(p.join("package.json"), manifest.to_string()).unwrap();
                with_settings(p, settings);
            });
        let theirs = pnpm_env.run(&pnpm_project, &["install", "--no-frozen-lockfile"]);
        let ours = pacquet(&env, &project, &["install"]);
        assert_eq!(theirs.status.success(), passes, "{}", all_output(&theirs));
        assert_eq!(ours.status.success(), passes, "{}", stderr(&ours));
        let workspace = |p: &Path| std::fs::read_to_string(p.join("pnpm-workspace.yaml")).unwrap();
        assert_eq!(workspace(&project), workspace(&pnpm_project));
        if passes {
            let lockfile = lockfile(&project);
            assert_eq!(lockfile, self::lockfile(&pnpm_project));
            assert!(lockfile.contains("pq-plain@1.0.0:"), "{lockfile}");
            assert!(workspace(&project).contains("  - pq-plain@1.0.0\n"));
        } else {
            fails_with(&ours, "ERR_PNPM_NO_MATURE_MATCHING_VERSION");
            assert!(stderr(&ours).contains("2 versions do not meet"));
            assert!(!project.join("pnpm-lock.yaml").exists());
            // An edit whose install fails leaves `package.json` as it was.
            let manifest = |p: &Path| std::fs::read_to_string(p.join("package.json")).unwrap();
            let before = manifest(&project);
            let theirs = pnpm_env.run(&pnpm_project, &["add", "pq-deep-1@1.0.0"]);
            let ours = pacquet(&env, &project, &["add", "pq-deep-1@1.0.0"]);
            assert!(!theirs.status.success());
            fails_with(&ours, "ERR_PNPM_NO_MATURE_MATCHING_VERSION");
            assert_eq!(manifest(&pnpm_project), before);
            assert_eq!(manifest(&project), before);
        }
    }
}
