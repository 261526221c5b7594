//! Replays the pnpm 12.21.0 installs recorded in `tests/fixtures/golden`
//! (see `tests/fixtures/README.md`): the fixture packages are laid out as
//! pnpm's virtual store, `link_bins` writes every `.bin` directory pnpm
//! wrote, and the result must match byte for byte, with the same set of
//! directories and shims, shim modes `0755` and target modes as recorded.
// Unix shims, modes and symlinks; Windows shims are unit-tested in
// `src/windows_shim`.
#![cfg(unix)]

#[path = "golden/tree.rs"]
mod tree;

use std::collections::BTreeMap;
use std::path::Path;

use pretty_assertions::assert_eq;
use tree::{Project, fixtures_dir, read_dir_files, recorded_modes};

fn replay(project_name: &str, public_hoist: bool, extend_node_path: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let project = Project::install(project_name, tmp.path(), public_hoist, extend_node_path);
    let linked = project.link_all_bins();

    let golden_dir = fixtures_dir().join("golden").join(project_name);
    let mut expected: BTreeMap<String, BTreeMap<String, Vec<u8>>> = BTreeMap::new();
    for entry in std::fs::read_dir(&golden_dir).unwrap() {
        let entry = entry.unwrap();
        let key = entry.file_name().to_string_lossy().replace("__", "/");
        expected.insert(key, read_dir_files(&entry.path()));
    }
    let mut actual = BTreeMap::new();
    for bin_dir in project.bin_dirs() {
        let key = bin_dir
            .strip_prefix(&project.root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        actual.insert(key, read_dir_files(&bin_dir));
    }
    assert_eq!(
        actual
            .iter()
            .map(|(k, v)| (k, v.keys().collect::<Vec<_>>()))
            .collect::<Vec<_>>(),
        expected
            .iter()
            .map(|(k, v)| (k, v.keys().collect::<Vec<_>>()))
            .collect::<Vec<_>>(),
        "same .bin directories and shim names"
    );
    for (dir, shims) in &expected {
        for (name, bytes) in shims {
            let ours = String::from_utf8_lossy(&actual[dir][name]);
            assert_eq!(ours, String::from_utf8_lossy(bytes), "{dir}/{name}");
        }
    }

    let modes = recorded_modes(project_name);
    for bin_dir in project.bin_dirs() {
        for name in read_dir_files(&bin_dir).keys() {
            assert_eq!(
                mode(&bin_dir.join(name)),
                0o755,
                "{}/{name}",
                bin_dir.display()
            );
        }
    }
    for bin in &linked {
        if !bin.target.exists() {
            continue;
        }
        let rel = format!(
            "./{}",
            bin.target.strip_prefix(&project.root).unwrap().display()
        );
        assert_eq!(Some(&mode(&bin.target)), modes.get(&rel), "mode of {rel}");
    }
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

#[test]
fn shims_project() {
    replay("shims", false, true);
}

#[test]
fn conflicts_project() {
    replay("conflicts", true, true);
}

#[test]
fn no_node_path_project() {
    replay("no-node-path", false, false);
}
