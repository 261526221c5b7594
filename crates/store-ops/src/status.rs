//! `store status`: which installed packages differ from their store rows.
//!
//! Checked against pnpm 12.21: every package the wanted lockfile installs
//! on this platform is compared file by file with its `index.db` row, by
//! content hash (mtimes are not trusted). A missing file or package
//! directory counts as modified; extra files and mode changes do not;
//! packages without a row are skipped. Without `pnpm-lock.yaml` nothing is
//! checked.

use std::path::Path;

use pacquet_config::Config;
use pacquet_store_index::PackageFilesIndex;
use rayon::prelude::*;

use pacquet_installer::{plan_all_importers, read_wanted_lockfile};

use crate::StoreOpsError;

/// The lockfile keys (`name@version(peers)`) of modified packages, sorted.
pub fn modified_packages(config: &Config) -> Result<Vec<String>, StoreOpsError> {
    let Some(lockfile) = read_wanted_lockfile(config)? else {
        return Ok(Vec::new());
    };
    let plan = plan_all_importers(config, &lockfile)?;
    let keyed: Vec<(usize, &str)> = plan
        .slots
        .iter()
        .enumerate()
        .filter_map(|(i, slot)| Some((i, slot.store_key.as_deref()?)))
        .collect();
    let keys: Vec<&str> = keyed.iter().map(|(_, key)| *key).collect();
    let rows = if config
        .store_dir
        .join(pacquet_store_index::INDEX_DB)
        .exists()
    {
        pacquet_store_index::prefetch(&config.store_dir, &keys)
    } else {
        vec![None; keys.len()]
    };
    let root = &config.workspace_root;
    let mut modified: Vec<String> = keyed
        .par_iter()
        .zip(rows.par_iter())
        .filter_map(|(&(i, _), row)| {
            let slot = &plan.slots[i];
            let row = row.as_ref()?;
            let patch = slot.dep_path.patch_hash();
            (!matches_row(&root.join(&slot.package_dir), row, patch))
                .then(|| slot.dep_path.as_str().to_owned())
        })
        .collect();
    modified.sort();
    modified.dedup();
    Ok(modified)
}

/// Every file of `row` exists in `dir` with the recorded content. A
/// patched package is compared with its patched files, the row's
/// side-effects entry for that patch (docs/store.md §9.1), as pnpm 12 does.
fn matches_row(dir: &Path, row: &PackageFilesIndex, patch_hash: Option<&str>) -> bool {
    let patched = patch_hash.and_then(|hash| {
        let suffix = format!(";patch={hash}");
        let (_, diff) = row
            .side_effects
            .iter()
            .flatten()
            .find(|(key, _)| key.ends_with(&suffix))?;
        Some(diff.apply_to(&row.files))
    });
    let files = patched.as_deref().unwrap_or(&row.files);
    files.iter().all(|(path, info)| {
        std::fs::read(dir.join(path))
            .is_ok_and(|bytes| pacquet_cas::sha512_hex(&bytes).eq_ignore_ascii_case(&info.digest))
    })
}
