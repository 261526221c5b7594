//! `catalog:` specifiers of the projects' manifests (docs/resolution.md
//! §12): the specifier the workspace's catalog gives the dependency is
//! resolved, the manifest's `catalog:` is what the importer records.

use indexmap::IndexMap;

use crate::ResolveError;

/// Catalog name → package name → specifier (`default` for the top-level
/// `catalog:` of `pnpm-workspace.yaml`).
pub type Catalogs = IndexMap<String, IndexMap<String, String>>;

/// A `catalog:` specifier looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogLookup {
    pub catalog: String,
    pub specifier: String,
}

/// The catalog entry `specifier` of `alias` refers to; `None` when the
/// specifier is not `catalog:`.
pub fn lookup(
    catalogs: &Catalogs,
    alias: &str,
    specifier: &str,
) -> Result<Option<CatalogLookup>, ResolveError> {
    let Some(name) = specifier.strip_prefix("catalog:") else {
        return Ok(None);
    };
    let catalog = match name.trim() {
        "" => "default",
        name => name,
    };
    let (alias, catalog_name) = (alias.to_owned(), catalog.to_owned());
    let Some(entry) = catalogs.get(catalog).and_then(|c| c.get(&alias)) else {
        return Err(ResolveError::CatalogEntryNotFound {
            alias,
            catalog: catalog_name,
        });
    };
    let protocol = entry.split(':').next().unwrap_or("");
    if entry.starts_with("catalog:") {
        return Err(ResolveError::CatalogRecursive {
            alias,
            catalog: catalog_name,
        });
    }
    if protocol == "workspace" {
        return Err(ResolveError::CatalogWorkspace {
            alias,
            catalog: catalog_name,
        });
    }
    if protocol == "link" || protocol == "file" {
        return Err(ResolveError::CatalogProtocol {
            alias,
            catalog: catalog_name,
            protocol: protocol.to_owned(),
        });
    }
    Ok(Some(CatalogLookup {
        catalog: catalog.to_owned(),
        specifier: entry.clone(),
    }))
}

#[cfg(test)]
mod tests;
