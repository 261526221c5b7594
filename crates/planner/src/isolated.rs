//! The isolated layout (pnpm's default `nodeLinker`): every package in its
//! own `<virtualStoreDir>/<dir>/node_modules/<name>` slot, dependencies as
//! symlinks between slots, hoisting into the hidden and public
//! `node_modules`.

pub(crate) mod dirs;
pub(crate) mod graph;
mod hoist;
mod links;
pub(crate) mod names;
mod planner;
pub(crate) mod select;

pub use planner::plan;

#[cfg(test)]
mod tests;
