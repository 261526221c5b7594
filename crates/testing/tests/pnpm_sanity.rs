//! pnpm 12 installs the `basic` fixture project from the loopback registry.
//! Proves the fixture packages, the packuments and the committed lockfile
//! work with the real pnpm. Needs `tasks/install-tools.sh` to have run.
// Runs pnpm 12, which the Linux CI job installs.
#![cfg(unix)]

use std::path::Path;

use pacquet_testing::{PnpmEnv, Registry, prepare_project};

fn assert_symlink(path: &Path, target: &str) {
    let got = std::fs::read_link(path)
        .unwrap_or_else(|e| panic!("{} is no symlink: {e}", path.display()));
    assert_eq!(got, Path::new(target), "{}", path.display());
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

#[test]
fn pnpm_installs_basic_from_the_loopback_registry() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("basic");
    prepare_project("basic", &project, &registry.url());
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());

    env.install_frozen(&project);

    let nm = project.join("node_modules");
    assert_symlink(
        &nm.join("pq-plain"),
        ".pnpm/pq-plain@1.1.0/node_modules/pq-plain",
    );
    assert_symlink(
        &nm.join("@pq/plain"),
        "../.pnpm/@pq+plain@1.0.0/node_modules/@pq/plain",
    );
    assert_symlink(
        &nm.join("pq-many-files"),
        ".pnpm/pq-many-files@1.0.0/node_modules/pq-many-files",
    );
    let plain = nm.join(".pnpm/pq-plain@1.1.0/node_modules/pq-plain");
    assert_eq!(
        std::fs::read_to_string(plain.join("lib/deep/nested/file.txt")).unwrap(),
        "nested file\n"
    );

    for bin in [
        "pq-bin-string",
        "pq-map-a",
        "pq-map-b",
        "pq-dir-one.js",
        "pq-dir-two",
        "pq-sh",
    ] {
        assert!(is_executable(&nm.join(".bin").join(bin)), "shim {bin}");
    }
    let exec = nm.join(".pnpm/pq-exec-file@1.0.0/node_modules/pq-exec-file");
    assert!(is_executable(&exec.join("tools/run.sh")));
    assert!(!is_executable(&exec.join("data/info.txt")));
    assert!(is_executable(&nm.join(
        ".pnpm/pq-bin-string@1.0.0/node_modules/pq-bin-string/cli.js"
    )));
    assert!(nm.join(".modules.yaml").is_file());
    assert!(
        env.store_dir.join("v11").is_dir(),
        "the temp store was used"
    );

    let tarball = "pq-plain/-/pq-plain-1.1.0.tgz";
    assert_eq!(
        registry.request_count(tarball),
        1,
        "{:?}",
        registry.requests()
    );
}
