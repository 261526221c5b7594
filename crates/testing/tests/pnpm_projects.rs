//! pnpm 12 installs every fixture project with `--frozen-lockfile`, and two
//! installs of one project in different places with different stores give
//! equal trees under `diff_trees` (so the differ's normalization fits real
//! pnpm output). Needs `tasks/install-tools.sh` to have run.

use std::path::{Path, PathBuf};

use pacquet_testing::{
    DiffOptions, PnpmEnv, Registry, assert_trees_equal, pnpm_install_fixture, project_names,
};

fn install(registry: &Registry, root: &Path, name: &str) -> (PathBuf, PnpmEnv) {
    let installed = pnpm_install_fixture(registry, name, root);
    (installed.project, installed.env)
}

fn modules_json(project: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(project.join("node_modules/.modules.yaml")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_fixture_project_installs_with_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    for name in project_names() {
        let (project, _env) = install(&registry, &tmp.path().join(&name), &name);
        assert!(
            project.join("node_modules/.modules.yaml").is_file(),
            "{name}"
        );
        // Without dependencies pnpm 12 writes no current lockfile.
        assert_eq!(
            project.join("node_modules/.pnpm/lock.yaml").is_file(),
            name != "empty",
            "{name}"
        );
    }
    let root = tmp.path();

    let skipped = modules_json(&root.join("optional-platform/project"))["skipped"].clone();
    assert_eq!(
        skipped,
        serde_json::json!([
            "@pq/native-darwin-arm64@1.0.0",
            "@pq/native-linux-arm64-gnu@1.0.0",
            "@pq/native-linux-x64-musl@1.0.0",
            "@pq/native-win32-x64@1.0.0"
        ])
    );
    assert!(
        root.join("optional-platform/project/node_modules/.pnpm/@pq+native-linux-x64-gnu@1.0.0")
            .is_dir()
    );

    let combined =
        root.join("combined/project/node_modules/.pnpm/pq-scripts@1.0.0/node_modules/pq-scripts");
    assert!(
        combined.join("preinstall.txt").is_file(),
        "allowed build ran"
    );
    assert!(
        combined.join("postinstall.txt").is_file(),
        "allowed build ran"
    );

    let ws = root.join("workspace/project");
    let link = std::fs::read_link(ws.join("packages/util/node_modules/local-dir")).unwrap();
    assert_eq!(link, Path::new("../../../local"));
    let link = std::fs::read_link(ws.join("packages/app/node_modules/@pq-ws/lib")).unwrap();
    assert_eq!(link, Path::new("../../../lib"));

    let pnpm_dirs: Vec<String> = std::fs::read_dir(root.join("peers/project/node_modules/.pnpm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        pnpm_dirs.iter().any(|d| d.starts_with("PqUpper@1.0.0_")),
        "{pnpm_dirs:?}"
    );
    assert!(
        pnpm_dirs
            .iter()
            .any(|d| d.starts_with("pq-many-peers@1.0.0_") && d.len() == 120),
        "{pnpm_dirs:?}"
    );

    let hashed = root.join("peers-hashed/project/node_modules/.pnpm");
    assert!(
        hashed
            .join("pq-many-peers@1.0.0_1098320b837e5f843642497ce7e10b99")
            .is_dir(),
        "suffix hashed by peersSuffixMaxLength"
    );

    let hoisting = root.join("hoisting/project/node_modules/.pnpm");
    assert!(hoisting.join("pq-dup@1.0.0").is_dir() && hoisting.join("pq-dup@2.0.0").is_dir());
    assert!(
        hoisting.join("node_modules/pq-deep-4").is_symlink(),
        "privately hoisted"
    );
}

#[test]
fn two_pnpm_installs_compare_equal_after_normalization() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (a, env_a) = install(&registry, &tmp.path().join("a"), "workspace");
    let (b, env_b) = install(&registry, &tmp.path().join("b"), "workspace");
    let opts = DiffOptions::for_installs(&a, &env_a.store_dir, &b, &env_b.store_dir);
    assert_trees_equal(&a, &b, &opts);
}
