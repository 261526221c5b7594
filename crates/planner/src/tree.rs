//! The shape of an installed tree: what a repeat install compares its new
//! plan with ([`crate::diff`]). It is the part of a [`Plan`] that says which
//! directories and links exist, and it is kept between installs
//! ([`encode`], [`decode`]) so that the next install need not parse and
//! plan the previous `lock.yaml` again.

use pacquet_lockfile::DepPath;

use crate::{ImporterPlan, Layout, Plan, Symlink};

mod codec;

pub use codec::{decode, encode};

/// A plan's directories, links and projects, without what fetching,
/// building and the state files need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    pub layout: Layout,
    pub slots: Vec<TreeSlot>,
    /// Directories, parents first.
    pub dirs: Vec<String>,
    pub symlinks: Vec<Symlink>,
    pub importers: Vec<ImporterPlan>,
}

/// Where one snapshot is installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeSlot {
    pub dep_path: DepPath,
    /// Its directory name in the virtual store.
    pub dir_name: String,
    /// The package directory, root-relative.
    pub package_dir: String,
}

impl From<Plan> for Tree {
    fn from(plan: Plan) -> Self {
        Tree {
            layout: plan.layout,
            slots: plan
                .slots
                .into_iter()
                .map(|s| TreeSlot {
                    dep_path: s.dep_path,
                    dir_name: s.dir_name,
                    package_dir: s.package_dir,
                })
                .collect(),
            dirs: plan.dirs,
            symlinks: plan.symlinks,
            importers: plan.importers,
        }
    }
}

#[cfg(test)]
mod tests;
