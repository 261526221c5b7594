//! Names and paths of the isolated `node_modules` layout.

mod dir_name;
mod rel_path;

pub use dir_name::{DEFAULT_VIRTUAL_STORE_DIR_MAX_LENGTH, dep_path_to_filename};
pub use rel_path::{join, join_all, normalize, relative, relative_path};
