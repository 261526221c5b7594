//! Side-effects cache keys (docs/store.md §9).

mod cache_key;
mod deps_hash;
mod graph_hash;
mod node;
mod node_cache;
pub(crate) mod object_hash;

pub use cache_key::side_effects_cache_key;
pub use deps_hash::{DepsHashMemo, deps_hash, resolution_hash_input};
pub use graph_hash::{GraphNode, graph_hashes};
pub use node::{node_arch, node_major, node_platform, node_version, parse_node_major};
pub use object_hash::{HashInput, object_hash, object_hash_hex_in_order};

#[cfg(test)]
mod tests;
