//! Rows built by `extract_to_store` equal the rows pnpm 12.21 writes for the
//! same tarballs (all fields but `checkedAt` and `tarIntegrity`, which
//! pacquet leaves out: docs/store.md §7), and pnpm's blobs pass our reuse
//! check. Runs pnpm against the loopback registry only.

mod support;

use pacquet_cas::{Cas, FileCheck};
use pacquet_store_index::{PackageFilesIndex, prefetch, store_key};
use pacquet_tarball::{ExtractLimits, extract_to_store};
use pacquet_testing::pnpm_install_fixture;

/// The row without the per-file `checkedAt` timestamps, the build results
/// pnpm adds after extraction (`sideEffects`) and `tarIntegrity`.
fn comparable(row: &PackageFilesIndex) -> PackageFilesIndex {
    let mut row = row.clone();
    row.side_effects = None;
    row.tar_integrity = None;
    for (_, info) in &mut row.files {
        info.checked_at = None;
    }
    row
}

fn compare_project(project: &str) -> usize {
    let registry = support::start_registry();
    let root = tempfile::tempdir().unwrap();
    let installed = pnpm_install_fixture(&registry, project, root.path());
    let pnpm_store = installed.env.store_dir.join("v11");
    let pnpm_cas = Cas::new(&pnpm_store);

    let packages: Vec<_> = registry.packages().unwrap().iter().cloned().collect();
    let keys: Vec<String> = packages
        .iter()
        .map(|p| store_key(&p.integrity, &format!("{}@{}", p.name, p.version)))
        .collect();
    let key_refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let rows = prefetch(&pnpm_store, &key_refs);

    let ours = tempfile::tempdir().unwrap();
    let our_cas = Cas::new(&ours.path().join("v11"));
    let mut compared = 0;
    for (pkg, pnpm_row) in packages.iter().zip(rows) {
        let Some(pnpm_row) = pnpm_row else { continue };
        let id = format!("{}@{}", pkg.name, pkg.version);
        for (path, info) in &pnpm_row.files {
            let check = pnpm_cas.verify(
                &info.digest,
                info.is_executable(),
                info.size,
                info.checked_at,
            );
            assert_eq!(check, FileCheck::Ok, "{id} {path}: pnpm's blob");
        }
        let row = extract_to_store(&our_cas, &pkg.tarball, &id, &ExtractLimits::default()).unwrap();
        assert!(
            pnpm_row.tar_integrity.is_some(),
            "{id}: pnpm writes tarIntegrity"
        );
        assert_eq!(row.tar_integrity, None, "{id}");
        assert_eq!(comparable(&row), comparable(&pnpm_row), "{id}");
        compared += 1;
    }
    compared
}

#[test]
fn rows_match_pnpm_for_the_basic_project() {
    assert!(compare_project("basic") >= 9);
}

#[test]
fn rows_match_pnpm_for_the_combined_project() {
    assert!(compare_project("combined") >= 15);
}
