//! Frozen-lockfile check 5a (docs/lockfile.md §9.5): every snapshot key's
//! `patch_hash` is the one the lockfile's own `patchedDependencies` select
//! for that package.

use crate::{Lockfile, LockfileError, PatchSelectors, check_settings::patch_hashes};

pub fn check_patch_hashes(lockfile: &Lockfile) -> Result<(), LockfileError> {
    let recorded = patch_hashes(lockfile);
    let uncheckable = |err: LockfileError| LockfileError::UncheckablePatchHash {
        reason: err.to_string(),
    };
    let selectors = PatchSelectors::new(recorded).map_err(uncheckable)?;
    for key in lockfile.snapshots.keys() {
        let expected = selectors
            .select(key.name(), key.version())
            .map_err(uncheckable)?
            .map(|selected| selected.value.as_str());
        if expected != key.patch_hash() {
            return Err(LockfileError::InconsistentPatchHash {
                dep_path: key.as_str().to_owned(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
