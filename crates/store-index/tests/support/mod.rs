//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Rows pnpm 12.21 wrote: `(key, data)` from `pnpm12-rows.txt`, one
/// `<key>\t<hex data>` per line (the key itself contains one TAB).
pub fn pnpm12_rows() -> Vec<(String, Vec<u8>)> {
    let text = std::fs::read_to_string(fixtures().join("pnpm12-rows.txt")).expect("fixture");
    text.lines()
        .map(|line| {
            let (key, data) = line.rsplit_once('\t').expect("key<TAB>hex");
            (key.to_owned(), hex::decode(data).expect("hex"))
        })
        .collect()
}

pub fn pnpm12_row(pkg_id: &str) -> (String, Vec<u8>) {
    pnpm12_rows()
        .into_iter()
        .find(|(key, _)| key.ends_with(&format!("\t{pkg_id}")))
        .unwrap_or_else(|| panic!("no fixture row for {pkg_id}"))
}

/// Copies a directory tree (fixture stores are tiny).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
