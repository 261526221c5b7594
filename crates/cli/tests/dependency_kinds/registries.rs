//! Scoped registries (`@scope:registry=`), per-registry tokens, and `jsr:`
//! dependencies (an npm alias into the `@jsr` scope's registry).

use std::collections::BTreeSet;

use pacquet_testing::{PnpmEnv, Registry};

use super::helpers::{Pair, write_project};
use crate::support::pacquet_install_ok;

/// `(path, Authorization)` pairs a registry saw, as a set.
fn seen(registry: &Registry) -> BTreeSet<(String, Option<String>)> {
    registry.authorizations().into_iter().collect()
}

fn host_key(registry: &Registry) -> String {
    format!("//127.0.0.1:{}/", registry.addr().port())
}

/// Two registries, each with its own token: the default one and one for
/// `@pq`. A remote tarball on the second host gets the second token. No
/// token reaches the other registry, and pacquet sends exactly what pnpm 12
/// sends.
#[test]
fn tokens_stay_with_their_registry() {
    let default = Registry::start_fixtures();
    let scoped = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("source");
    write_project(
        &source,
        serde_json::json!({
            "pq-plain": "1.0.0",
            "@pq/plain": "1.0.0",
            "pq-dup": scoped.archive_url("pq-dup", "1.0.0"),
        }),
        "",
        &default.url(),
    );
    let npmrc = format!(
        "registry={}\n@pq:registry={}\n{}:_authToken=token-default\n{}:_authToken=token-scoped\n",
        default.url(),
        scoped.url(),
        host_key(&default),
        host_key(&scoped)
    );
    std::fs::write(source.join(".npmrc"), &npmrc).unwrap();
    PnpmEnv::new(&tmp.path().join("lock-env"), &default.url()).lockfile_only(&source);

    let mut logs = Vec::new();
    for tool in ["pnpm", "pacquet"] {
        let project = tmp.path().join(tool).join("project");
        pacquet_testing::copy_dir(&source, &project).unwrap();
        let env = PnpmEnv::new(&tmp.path().join(tool).join("env"), &default.url());
        default.reset_requests();
        scoped.reset_requests();
        if tool == "pnpm" {
            env.install_frozen(&project);
        } else {
            pacquet_install_ok(&env, &project, &[]);
        }
        logs.push((seen(&default), seen(&scoped)));
    }
    let (pacquet_default, pacquet_scoped) = &logs[1];
    let bearer = |t: &str| Some(format!("Bearer {t}"));
    assert!(!pacquet_default.is_empty() && !pacquet_scoped.is_empty());
    assert!(
        pacquet_default
            .iter()
            .all(|(_, a)| *a == bearer("token-default")),
        "{pacquet_default:?}"
    );
    assert!(
        pacquet_scoped
            .iter()
            .all(|(_, a)| *a == bearer("token-scoped")),
        "{pacquet_scoped:?}"
    );
    assert!(
        pacquet_scoped
            .iter()
            .any(|(p, _)| p.starts_with("archive/"))
    );
    assert_eq!(logs[0], logs[1], "pnpm 12 sent other headers");
}

/// `jsr:@pq/thing` resolves to `@jsr/pq__thing` on the `@jsr` registry.
#[test]
fn jsr_dependency_matches_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("source");
    write_project(
        &source,
        serde_json::json!({ "@pq/thing": "jsr:@pq/thing@1.0.0" }),
        "",
        &registry.url(),
    );
    let npmrc = format!("registry={0}\n@jsr:registry={0}\n", registry.url());
    std::fs::write(source.join(".npmrc"), npmrc).unwrap();
    PnpmEnv::new(&tmp.path().join("lock-env"), &registry.url()).lockfile_only(&source);
    let lockfile = std::fs::read_to_string(source.join("pnpm-lock.yaml")).unwrap();
    assert!(lockfile.contains("'@jsr/pq__thing@1.0.0'"), "{lockfile}");
    let pair = Pair::install(&source, tmp.path(), &registry.url());
    pair.assert_same_tree();
    assert!(pair.pacquet.join("node_modules/@pq/thing/mod.js").is_file());
}
