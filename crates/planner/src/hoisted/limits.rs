//! `hoistingLimits` as the hoister's borders (docs/hoisted.md §3).

use pacquet_config::HoistingLimits as Mode;

use super::{hoister::HoistingLimits, tree::encode_uri_component};
use crate::ImporterSelection;
use crate::isolated::select::DirectEdge;

/// `workspaces`: no project's dependency goes past its project.
/// `dependencies`: also no dependency's dependency goes past the project's
/// direct dependency.
pub(super) fn borders(
    mode: Mode,
    selections: &[ImporterSelection],
    importer_edges: &[Vec<DirectEdge<'_>>],
) -> HoistingLimits {
    let mut limits = HoistingLimits::new();
    if mode == Mode::None {
        return limits;
    }
    let root = limits.entry(".@".to_owned()).or_default();
    for sel in selections.iter().filter(|s| s.id != ".") {
        root.insert(encode_uri_component(&sel.id));
    }
    if mode != Mode::Dependencies {
        return limits;
    }
    for (sel, edges) in selections.iter().zip(importer_edges) {
        let key = if sel.id == "." {
            ".@".to_owned()
        } else {
            format!("{}@workspace:{}", encode_uri_component(&sel.id), sel.id)
        };
        let set = limits.entry(key).or_default();
        set.extend(edges.iter().map(|(_, alias, _)| (*alias).to_owned()));
    }
    limits
}
