use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Mutex;

use pacquet_store_index::FileInfo;
use sha2::{Digest, Sha512};

use super::diff_package_dir;

fn fixture_pkg() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packages/ps-mutate/1.0.0")
}

/// Copies the fixture into `dest` with 0644 modes (as imported from the
/// store) and returns its `files` as the store row would list them.
fn import(dest: &Path) -> Vec<(String, FileInfo)> {
    let mut files = Vec::new();
    for rel in [
        "change.txt",
        "lib/gone.txt",
        "lib/keep.txt",
        "package.json",
        "same.txt",
        "tool.sh",
    ] {
        let content = fs::read(fixture_pkg().join(rel)).unwrap();
        let to = dest.join(rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::write(&to, &content).unwrap();
        fs::set_permissions(&to, fs::Permissions::from_mode(0o644)).unwrap();
        files.push((
            rel.to_string(),
            FileInfo {
                digest: hex::encode(Sha512::digest(&content)),
                mode: 0o644,
                size: content.len() as u64,
                checked_at: Some(1.0),
            },
        ));
    }
    files
}

#[test]
fn matches_the_diff_pnpm_12_stored_for_ps_mutate() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("ps-mutate");
    let files = import(&pkg);
    // The package's own node_modules (bins, TMPDIR) is never part of the diff.
    fs::create_dir_all(pkg.join("node_modules/.bin")).unwrap();
    fs::write(pkg.join("node_modules/.bin/x"), "x").unwrap();
    let manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(pkg.join("package.json")).unwrap()).unwrap();
    let script = manifest["scripts"]["postinstall"].as_str().unwrap();
    let status = std::process::Command::new("sh")
        .args(["-c", script])
        .current_dir(&pkg)
        .status()
        .unwrap();
    assert!(status.success());

    let written = Mutex::new(Vec::new());
    let cas = |content: &[u8], exec: bool| -> Result<String, std::io::Error> {
        let digest = hex::encode(Sha512::digest(content));
        written.lock().unwrap().push((digest.clone(), exec));
        Ok(digest)
    };
    let diff = diff_package_dir(&pkg, &files, &cas).unwrap();
    let added: Vec<(&str, &str, u32, u64)> = diff
        .added
        .as_ref()
        .unwrap()
        .iter()
        .map(|(p, f)| (p.as_str(), &f.digest[..16], f.mode, f.size))
        .collect();
    // Digests, modes and sizes as pnpm 12.21 recorded them in index.db.
    assert_eq!(
        added,
        vec![
            ("change.txt", "b8b0ed52c9fbab2c", 420, 8),
            ("node_modules_marker", "cf83e1357eefb8bd", 420, 0),
            ("out/deep/artifact.txt", "943b246b0ad00cbb", 420, 6),
            ("tool.sh", "736ac12032377254", 493, 8),
        ]
    );
    assert!(
        diff.added
            .as_ref()
            .unwrap()
            .iter()
            .all(|(_, f)| f.checked_at.is_none())
    );
    assert_eq!(diff.deleted, Some(vec!["lib/gone.txt".to_string()]));
    let written = written.into_inner().unwrap();
    assert_eq!(written.len(), 4);
    assert!(
        written
            .iter()
            .any(|(d, exec)| d.starts_with("736ac120") && *exec)
    );
}

#[test]
fn unchanged_package_diffs_to_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let files = import(tmp.path());
    let cas = |_: &[u8], _: bool| -> Result<String, std::io::Error> { panic!("nothing to write") };
    let diff = diff_package_dir(tmp.path(), &files, &cas).unwrap();
    assert_eq!(diff.added, None);
    assert_eq!(diff.deleted, None);
}

#[test]
fn cas_errors_propagate() {
    let tmp = tempfile::tempdir().unwrap();
    let files = import(tmp.path());
    fs::write(tmp.path().join("new.txt"), "n").unwrap();
    let cas = |_: &[u8], _: bool| -> Result<String, std::io::Error> {
        Err(std::io::Error::other("disk full"))
    };
    let err = diff_package_dir(tmp.path(), &files, &cas).unwrap_err();
    assert!(err.to_string().contains("new.txt"), "{err}");
}
