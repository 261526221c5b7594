//! Which workspace projects a command acts on: pnpm's `--filter`
//! selectors (docs/filtering.md). Owns the selector grammar, the graph of
//! dependencies between workspace projects, the walk over it, and the
//! `[<since>]` selector's question to git. Plain data in, project
//! directories out; reading manifests is the caller's.

mod changed;
mod dir_glob;
mod error;
mod graph;
mod select;
mod selector;

pub use error::FilterError;
pub use graph::{ProjectGraph, WorkspaceProject};
pub use select::{Filter, FilterOptions, Selection, select_projects};
pub use selector::{Selector, parse_selector};
