//! Tampered lockfiles whose package names, aliases or importer paths would
//! place files outside `node_modules` (or onto `.bin`/`.pnpm`) are refused
//! before anything is downloaded or written, with pnpm 12's code.

use std::path::Path;

use pacquet_testing::{PnpmEnv, Registry};

use super::helpers::listing;
use crate::support::{pacquet, stderr, stdout};

/// One tampered project: `package.json` dependencies and the lockfile's
/// `importers`, `packages` and `snapshots` sections (YAML, indented).
struct Case {
    what: &'static str,
    dependencies: String,
    importers: String,
    packages: String,
    snapshots: String,
}

fn lockfile(case: &Case) -> String {
    format!(
        "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n{}\npackages:\n\n{}\nsnapshots:\n\n{}",
        case.importers, case.packages, case.snapshots
    )
}

/// `pq-plain@1.0.0` as the lockfile lists it (integrity irrelevant: the
/// install must stop before fetching).
const PLAIN_PACKAGE: &str = "  pq-plain@1.0.0:\n    resolution: {integrity: sha512-AAAA}\n\n";

fn alias_case(what: &'static str, alias: &str) -> Case {
    Case {
        what,
        dependencies: format!("{alias:?}: \"npm:pq-plain@1.0.0\""),
        importers: format!(
            "  .:\n    dependencies:\n      {alias:?}:\n        specifier: npm:pq-plain@1.0.0\n        version: pq-plain@1.0.0\n"
        ),
        packages: PLAIN_PACKAGE.to_string(),
        snapshots: "  pq-plain@1.0.0: {}\n".to_string(),
    }
}

fn cases(outside: &Path) -> Vec<Case> {
    let absolute = format!("{}/abs", outside.display());
    vec![
        alias_case("importer alias with ..", "../../outside/x"),
        alias_case("absolute importer alias", &absolute),
        alias_case("alias with / beyond the scope", "@scope/a/../../../outside"),
        alias_case("alias onto .bin", ".bin"),
        alias_case("alias onto node_modules", "node_modules"),
        Case {
            what: "package name with ..",
            dependencies: "\"y\": \"npm:../../../outside/y@1.0.0\"".to_string(),
            importers: "  .:\n    dependencies:\n      y:\n        specifier: npm:../../../outside/y@1.0.0\n        version: ../../../outside/y@1.0.0\n".to_string(),
            packages: "  ../../../outside/y@1.0.0:\n    resolution: {integrity: sha512-AAAA}\n\n".to_string(),
            snapshots: "  ../../../outside/y@1.0.0: {}\n".to_string(),
        },
        Case {
            what: "snapshot dependency alias with ..",
            dependencies: "\"pq-plain\": \"1.0.0\"".to_string(),
            importers: "  .:\n    dependencies:\n      pq-plain:\n        specifier: 1.0.0\n        version: 1.0.0\n".to_string(),
            packages: PLAIN_PACKAGE.to_string(),
            snapshots: "  pq-plain@1.0.0:\n    dependencies:\n      ../../../../../outside/z: pq-plain@1.0.0\n".to_string(),
        },
    ]
}

fn write_project(dir: &Path, case: &Case, registry: &Registry) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        format!(
            "{{\"name\":\"victim\",\"version\":\"1.0.0\",\"private\":true,\"dependencies\":{{{}}}}}\n",
            case.dependencies
        ),
    )
    .unwrap();
    std::fs::write(dir.join("pnpm-lock.yaml"), lockfile(case)).unwrap();
    std::fs::write(dir.join("pnpm-workspace.yaml"), "trustLockfile: true\n").unwrap();
    pacquet_testing::write_npmrc(dir, &registry.url());
}

/// The first `ERR_PNPM_…` code in `text`.
fn first_code(text: &str) -> Option<&str> {
    let start = text.find("ERR_PNPM_")?;
    let rest = &text[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn tampered_names_are_refused_before_anything_is_written() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    // Three levels deep, so `../../..` from a project lands in `tmp`.
    let base = tmp.path().join("a/b/c");
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    for (i, case) in cases(&outside).iter().enumerate() {
        let root = base.join(format!("case{i}"));
        let project = root.join("pacquet");
        let pnpm_project = root.join("pnpm");
        write_project(&project, case, &registry);
        write_project(&pnpm_project, case, &registry);
        let before = listing(tmp.path(), &[]);

        let env = PnpmEnv::new(&root.join("env"), &registry.url());
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{}: {err}", case.what);
        assert!(
            err.contains("Error: ERR_PNPM_INVALID_DEPENDENCY_NAME"),
            "{}: {err}",
            case.what
        );
        assert!(
            err.contains("1 dependency alias in the lockfile is not valid package names:"),
            "{}: {err}",
            case.what
        );
        assert!(err.contains("help:"), "{}: {err}", case.what);

        let pnpm_env = PnpmEnv::new(&root.join("pnpm-env"), &registry.url());
        let pnpm_out = pnpm_env.run(&pnpm_project, &["install", "--frozen-lockfile"]);
        let pnpm_text = format!("{}{}", stdout(&pnpm_out), stderr(&pnpm_out));
        assert_eq!(
            first_code(&pnpm_text),
            Some("ERR_PNPM_INVALID_DEPENDENCY_NAME"),
            "{}: pnpm said {pnpm_text}",
            case.what
        );

        assert_eq!(registry.total_requests(), 0, "{}", case.what);
        assert!(
            !project.join("node_modules/.pnpm").exists(),
            "{}: the install went ahead",
            case.what
        );
        // Nothing new anywhere but the two environments.
        let env_dirs = [
            format!("a/b/c/case{i}/env"),
            format!("a/b/c/case{i}/pnpm-env"),
        ];
        let skip: Vec<&str> = env_dirs.iter().map(String::as_str).collect();
        let after = listing(tmp.path(), &skip);
        // Only the projects' own `node_modules` may have appeared.
        let own = [
            format!("a/b/c/case{i}/pacquet/node_modules"),
            format!("a/b/c/case{i}/pnpm/node_modules"),
        ];
        let new: Vec<_> = after
            .difference(&before)
            .filter(|p| !own.iter().any(|o| p.starts_with(o.as_str())))
            .collect();
        assert!(new.is_empty(), "{}: new paths {new:?}", case.what);
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }
}
