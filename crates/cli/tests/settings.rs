//! Settings pnpm 12 recognizes are accepted quietly; unknown ones get
//! pnpm's warning, naming pacquet (docs/settings.md §4).

mod support;

use std::path::Path;

use pacquet_testing::{PnpmEnv, Registry, prepare_project};
use support::{pacquet_install_ok, stderr};

#[test]
fn only_unrecognized_workspace_settings_are_warned_about() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    support::add_settings(
        &project,
        "\ndedupeInjectedDeps: true\nblockExoticSubdeps: true\nallowUnusedPatches: true\nzzNotASetting: true\n",
    );
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());

    let pnpm = env.run_ok(&project, &["install", "--frozen-lockfile"]);
    let pnpm_text = stderr(&pnpm) + &String::from_utf8_lossy(&pnpm.stdout);
    assert!(pnpm_text.contains("\"zzNotASetting\""), "{pnpm_text}");
    assert!(!pnpm_text.contains("dedupeInjectedDeps"), "{pnpm_text}");

    let out = pacquet_install_ok(&env, &project, &[]);
    let ours = stderr(&out);
    let unwrapped: String = ours.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        unwrapped.contains(
            "are not recognized by this version of pacquet and were ignored: \"zzNotASetting\""
        ),
        "{ours}"
    );
    for known in [
        "dedupeInjectedDeps",
        "blockExoticSubdeps",
        "allowUnusedPatches",
    ] {
        assert!(!ours.contains(known), "{known} warned about: {ours}");
    }
}

/// `install --frozen-lockfile` by `side` (`pnpm` or `pacquet`): its output
/// and everything it printed.
fn install_as(side: &str, env: &PnpmEnv, project: &Path) -> (std::process::Output, String) {
    let args = ["install", "--frozen-lockfile"];
    let out = if side == "pnpm" {
        env.run(project, &args)
    } else {
        support::pacquet(env, project, &args)
    };
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    (out, all)
}

/// A setting of the wrong type in `pnpm-workspace.yaml` is refused by both
/// tools before anything is written (unocss's `minimumReleaseAge: false`);
/// scalars that convert are accepted by both.
#[test]
fn mistyped_workspace_settings_are_refused_like_pnpm() {
    let registry = Registry::start_fixtures();
    for (line, refused) in [
        ("minimumReleaseAge: false", true),
        ("hoistPattern: '*'", true),
        ("childConcurrency: 1.5", true),
        ("minimumReleaseAge: '0'\nchildConcurrency: '+2'", false),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
        for side in ["pnpm", "pacquet"] {
            let project = tmp.path().join(side);
            prepare_project("basic", &project, &registry.url());
            support::add_settings(&project, &format!("\n{line}\n"));
            let (out, all) = install_as(side, &env, &project);
            if refused {
                assert_eq!(out.status.code(), Some(1), "{side} {line}: {all}");
                assert!(
                    all.contains("ERR_PNPM_INVALID_SETTING"),
                    "{side} {line}: {all}"
                );
                assert!(!project.join("node_modules").exists(), "{side} {line}");
            } else {
                assert_eq!(out.status.code(), Some(0), "{side} {line}: {all}");
            }
        }
    }
}

/// The project's own `engines`: a `pnpm` range 12.21.0 does not satisfy
/// refuses the install (trpc, solid), a `node` range only warns; both
/// tools word it the same.
#[test]
fn project_engines_are_checked_like_pnpm() {
    let registry = Registry::start_fixtures();
    for (engines, refused, says) in [
        (r#"{"pnpm":"^9"}"#, true, r#"wanted: {"pnpm":"^9"}"#),
        (r#"{"node":">=99"}"#, false, r#"wanted: {"node":">=99"}"#),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
        for side in ["pnpm", "pacquet"] {
            let project = tmp.path().join(side);
            prepare_project("basic", &project, &registry.url());
            let manifest_path = project.join("package.json");
            let mut manifest: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
            manifest["engines"] = serde_json::from_str(engines).unwrap();
            std::fs::write(&manifest_path, manifest.to_string()).unwrap();
            let (out, all) = install_as(side, &env, &project);
            let flat: String = all
                .split_whitespace()
                .filter(|w| *w != "│")
                .collect::<Vec<_>>()
                .join(" ");
            assert!(flat.contains(says), "{side} {engines}: {all}");
            if refused {
                assert_eq!(out.status.code(), Some(1), "{side} {engines}: {all}");
                assert!(all.contains("ERR_PNPM_UNSUPPORTED_ENGINE"), "{side}: {all}");
                assert!(!project.join("node_modules").exists(), "{side} {engines}");
            } else {
                assert_eq!(out.status.code(), Some(0), "{side} {engines}: {all}");
            }
        }
    }
}

/// A `.pnpmfile.cjs` must match the lockfile's `pnpmfileChecksum`: without
/// one recorded both tools refuse the lockfile; once pnpm 12 has recorded
/// it, both install.
#[test]
fn the_pnpmfile_checksum_is_checked_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let pnpmfile = "module.exports = { hooks: { readPackage: (p) => p } }\n";
    let projects: Vec<_> = ["pnpm", "pacquet"]
        .into_iter()
        .map(|side| {
            let project = tmp.path().join(side);
            prepare_project("basic", &project, &registry.url());
            std::fs::write(project.join(".pnpmfile.cjs"), pnpmfile).unwrap();
            (side, project)
        })
        .collect();
    for (side, project) in &projects {
        let (out, all) = install_as(side, &env, project);
        assert_eq!(out.status.code(), Some(1), "{side}: {all}");
        assert!(
            all.contains("ERR_PNPM_LOCKFILE_CONFIG_MISMATCH"),
            "{side}: {all}"
        );
        assert!(all.contains("pnpmfileChecksum"), "{side}: {all}");
    }
    // `ignorePnpmfile: true`: the file is not read, so there is nothing
    // to check.
    for (side, project) in &projects {
        let workspace = project.join("pnpm-workspace.yaml");
        let before = std::fs::read_to_string(&workspace).ok();
        support::add_settings(project, "\nignorePnpmfile: true\n");
        let (out, all) = install_as(side, &env, project);
        assert_eq!(out.status.code(), Some(0), "{side} ignorePnpmfile: {all}");
        match before {
            Some(text) => std::fs::write(&workspace, text).unwrap(),
            None => std::fs::remove_file(&workspace).unwrap(),
        }
        std::fs::remove_dir_all(project.join("node_modules")).unwrap();
    }
    let (_, by_pnpm) = &projects[0];
    env.run_ok(by_pnpm, &["install", "--lockfile-only"]);
    let lockfile = std::fs::read_to_string(by_pnpm.join("pnpm-lock.yaml")).unwrap();
    assert!(lockfile.contains("pnpmfileChecksum: sha256-"), "{lockfile}");
    std::fs::write(projects[1].1.join("pnpm-lock.yaml"), &lockfile).unwrap();
    for (side, project) in &projects {
        let (out, all) = install_as(side, &env, project);
        assert_eq!(out.status.code(), Some(0), "{side}: {all}");
    }
}

/// The projects `packages:` selects are the ones pnpm 12 lists: `**` also
/// finds the directory itself, exclusions match anywhere below, braces and
/// hidden directories work, `node_modules` never counts.
#[test]
fn workspace_projects_are_the_ones_pnpm_finds() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dirs = [
        "",
        "packages",
        "packages/a",
        "packages/b/test/c",
        "packages/private",
        "packages/deep/x/y",
        "packages/node_modules/z",
        "apps/web",
        "libs/core",
        "tools",
        ".hidden/h",
        "other/test",
    ];
    for dir in dirs {
        let name = format!("p{}", dir.replace(['/', '.'], "-"));
        std::fs::create_dir_all(root.join(dir)).unwrap();
        let manifest = format!(r#"{{"name":"{name}","version":"1.0.0"}}"#);
        std::fs::write(root.join(dir).join("package.json"), manifest).unwrap();
    }
    let patterns = [
        "packages/**",
        "!**/test/**",
        "{apps,libs}/*",
        "./tools/",
        "!packages/private",
        ".hidden/*",
    ];
    let yaml: String = patterns.iter().map(|p| format!("  - \"{p}\"\n")).collect();
    std::fs::write(
        root.join("pnpm-workspace.yaml"),
        format!("packages:\n{yaml}"),
    )
    .unwrap();

    let env = pacquet_testing::PnpmEnv::new(&root.join("../env"), "http://127.0.0.1:9/");
    let out = env.run_ok(root, &["ls", "-r", "--depth", "-1", "--json"]);
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut by_pnpm: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|p| relative(root, Path::new(p["path"].as_str().unwrap())))
        .collect();
    by_pnpm.sort();

    let patterns: Vec<String> = patterns.iter().map(|p| (*p).to_owned()).collect();
    let ours: Vec<String> = pacquet_config::find_workspace_projects(root, &patterns)
        .unwrap()
        .iter()
        .map(|p| relative(root, p))
        .collect();
    assert_eq!(ours, by_pnpm);
    assert!(
        ours.contains(&"packages".to_owned()) && !ours.contains(&"packages/private".to_owned())
    );
}

fn relative(root: &Path, path: &Path) -> String {
    let root = root.canonicalize().unwrap();
    let path = path.canonicalize().unwrap();
    path.strip_prefix(&root)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// What the workspace state records for `trustPolicy`,
/// `trustPolicyIgnoreAfter` and an empty `packages:` list equals pnpm 12's.
#[test]
fn recorded_settings_match_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let extra = "\npackages: []\ntrustPolicy: no-downgrade\ntrustPolicyIgnoreAfter: 10080\nignoredOptionalDependencies: []\n";
    let setup = |tool: &str| {
        let project = tmp.path().join(tool).join("project");
        prepare_project("basic", &project, &registry.url());
        support::add_settings(&project, extra);
        let env = PnpmEnv::new(&tmp.path().join(tool).join("env"), &registry.url());
        (project, env)
    };
    let (by_pnpm, pnpm_env) = setup("pnpm");
    pnpm_env.install_frozen(&by_pnpm);
    let (ours, env) = setup("pacquet");
    pacquet_install_ok(&env, &ours, &[]);
    let opts = pacquet_testing::DiffOptions::for_installs(
        &by_pnpm,
        &pnpm_env.store_dir,
        &ours,
        &env.store_dir,
    );
    pacquet_testing::assert_trees_equal(&by_pnpm, &ours, &opts);
    let state =
        std::fs::read_to_string(ours.join("node_modules/.pnpm-workspace-state-v1.json")).unwrap();
    assert!(
        state.contains("\"trustPolicy\": \"no-downgrade\""),
        "{state}"
    );
    assert!(
        state.contains("\"workspacePackagePatterns\": []"),
        "{state}"
    );
    // Set, even empty, it is recorded.
    assert!(
        state.contains("\"ignoredOptionalDependencies\": []"),
        "{state}"
    );
}
