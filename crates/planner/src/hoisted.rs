//! The hoisted layout (`nodeLinker: hoisted`, docs/hoisted.md): packages as
//! real directories in a `node_modules` tree, each lifted as high as the
//! hoister allows, nested where versions clash. No virtual store; projects'
//! `link:` dependencies and hoisted workspace projects are symlinks.

mod hoister;
mod limits;
mod planner;
mod tree;

pub use planner::plan;

#[cfg(test)]
mod tests;
