//! TODO(crate doc)
