//! Typed views of dependency edges: alias → [`DepRef`].

use std::collections::BTreeMap;

use crate::{DepRef, Importer, Lockfile, LockfileError, ResolvedDependency, Snapshot};

/// Which group of an importer an edge comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DependencyGroup {
    Prod,
    Dev,
    Optional,
}

impl Snapshot {
    /// `dependencies` then `optionalDependencies`, each in key order.
    pub fn dependency_refs(&self) -> impl Iterator<Item = (&str, DepRef<'_>)> {
        let deps = self.dependencies.iter().flatten();
        let optional = self.optional_dependencies.iter().flatten();
        deps.chain(optional)
            .map(|(alias, r)| (alias.as_str(), DepRef::resolve(alias, r)))
    }
}

impl Importer {
    /// `dependencies`, `devDependencies`, then `optionalDependencies`.
    pub fn dependency_refs(&self) -> impl Iterator<Item = (DependencyGroup, &str, DepRef<'_>)> {
        fn group(
            g: DependencyGroup,
            deps: &Option<BTreeMap<String, ResolvedDependency>>,
        ) -> impl Iterator<Item = (DependencyGroup, &str, DepRef<'_>)> {
            deps.iter()
                .flatten()
                .map(move |(alias, d)| (g, alias.as_str(), DepRef::resolve(alias, &d.version)))
        }
        group(DependencyGroup::Prod, &self.dependencies)
            .chain(group(DependencyGroup::Dev, &self.dev_dependencies))
            .chain(group(
                DependencyGroup::Optional,
                &self.optional_dependencies,
            ))
    }
}

impl Lockfile {
    /// Fails with `ERR_PNPM_LOCKFILE_MISSING_DEPENDENCY` on the first edge
    /// (importers first, then snapshots, in key order) whose snapshot is absent.
    pub fn check_edges(&self) -> Result<(), LockfileError> {
        let importer_edges = self
            .importers
            .values()
            .flat_map(|i| i.dependency_refs().map(|(_, _, r)| r));
        let snapshot_edges = self
            .snapshots
            .values()
            .flat_map(|s| s.dependency_refs().map(|(_, r)| r));
        for edge in importer_edges.chain(snapshot_edges) {
            if let DepRef::Snapshot(path) = edge
                && !self.snapshots.contains_key(path.as_str())
            {
                return Err(LockfileError::MissingDependency {
                    dep_path: path.to_string(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
