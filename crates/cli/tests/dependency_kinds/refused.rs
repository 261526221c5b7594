//! Resolutions pacquet cannot install fail up front with a diagnostic that
//! names the package and the resolution, before anything is written.

use pacquet_testing::{PnpmEnv, Registry};

use super::helpers::write_project;
use crate::support::{pacquet, stderr};

#[test]
fn unknown_resolution_type_is_refused_before_touching_anything() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    write_project(
        &project,
        serde_json::json!({ "pq-plain": "1.0.0" }),
        "",
        &registry.url(),
    );
    PnpmEnv::new(&tmp.path().join("lock-env"), &registry.url()).lockfile_only(&project);
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    let lockfile = project.join("pnpm-lock.yaml");
    let text = std::fs::read_to_string(&lockfile).unwrap();
    let start = text
        .find("resolution: {integrity:")
        .expect("registry resolution");
    let end = start + text[start..].find('}').unwrap() + 1;
    let text = format!(
        "{}resolution: {{type: 'custom:pq', id: x}}{}",
        &text[..start],
        &text[end..]
    );
    std::fs::write(&lockfile, text).unwrap();

    let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("ERR_PACQUET_UNSUPPORTED_RESOLUTION"), "{err}");
    assert!(err.contains("pq-plain@1.0.0"), "names the package: {err}");
    assert!(err.contains("custom:pq"), "names the resolution: {err}");
    assert!(!project.join("node_modules").exists(), "nothing written");
    assert!(!env.store_dir.exists(), "store untouched");
}
