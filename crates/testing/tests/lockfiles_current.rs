//! The committed fixture lockfiles name the integrity of the tarballs the
//! registry serves now. Fails when a fixture package changed without
//! regenerating the lockfiles:
//! `cargo run -p pacquet-testing --bin pacquet-test-registry -- regenerate`.

use pacquet_testing::{PackageSet, packages_dir, project_dir, project_names};

/// `(key, integrity)` of every `packages:` entry of a lockfile.
fn integrities(lockfile: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_packages = false;
    let mut key = None;
    for line in lockfile.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_packages = line == "packages:";
            continue;
        }
        if !in_packages {
            continue;
        }
        if let Some(k) = line.strip_prefix("  ").filter(|k| !k.starts_with(' ')) {
            key = Some(k.trim_end_matches(':').trim_matches('\'').to_string());
        } else if let Some(rest) = line.trim().strip_prefix("resolution: {integrity: ") {
            let integrity = rest.split([',', '}']).next().unwrap().trim().to_string();
            out.push((key.clone().expect("key before resolution"), integrity));
        }
    }
    out
}

#[test]
fn committed_lockfiles_match_the_fixture_tarballs() {
    let set = PackageSet::load(&packages_dir());
    let mut checked = 0;
    for name in project_names() {
        let text = std::fs::read_to_string(project_dir(&name).join("pnpm-lock.yaml"))
            .unwrap_or_else(|e| panic!("project {name} has no lockfile: {e}"));
        for (key, integrity) in integrities(&text) {
            let at = key[1..].find('@').expect("name@version") + 1;
            let (pkg, version) = (&key[..at], &key[at + 1..]);
            // Tarball URLs and `file:` tarballs are checked by installing them.
            if !version.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let fixture = set
                .get(pkg, version)
                .unwrap_or_else(|| panic!("{name}: no fixture {key}"));
            assert_eq!(
                fixture.integrity, integrity,
                "{name}: {key} changed; regenerate the lockfiles (see crates/testing/src/regenerate.rs)"
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} entries checked");
}

#[test]
fn packing_is_deterministic() {
    let a = PackageSet::load(&packages_dir());
    let b = PackageSet::load(&packages_dir());
    for pkg in a.iter() {
        assert_eq!(pkg.tarball, b.get(&pkg.name, &pkg.version).unwrap().tarball);
    }
}
