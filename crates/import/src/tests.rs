use std::{
    os::unix::fs::{MetadataExt, PermissionsExt},
    path::{Path, PathBuf},
};

use super::*;

/// A fake CAS: blobs under `<tmp>/store`, one per (content, exec).
struct Cas {
    dir: PathBuf,
}

impl Cas {
    fn new(root: &Path) -> Self {
        let dir = root.join("store");
        std::fs::create_dir(&dir).unwrap();
        Cas { dir }
    }

    fn blob(&self, name: &str, content: &str, executable: bool) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, content).unwrap();
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }
}

fn files(cas: &Cas) -> Vec<(String, PathBuf, bool)> {
    vec![
        ("package.json".into(), cas.blob("a", "{}", false), false),
        ("lib/index.js".into(), cas.blob("b", "index", false), false),
        ("lib/deep/x/y.js".into(), cas.blob("c", "y", false), false),
        ("bin/cli".into(), cas.blob("d", "#!/bin/sh", true), true),
    ]
}

fn as_package_files(files: &[(String, PathBuf, bool)]) -> Vec<PackageFile<'_>> {
    files
        .iter()
        .map(|(rel, src, exec)| PackageFile {
            rel_path: rel,
            src: src.clone(),
            executable: *exec,
            at: None,
        })
        .collect()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn hardlinks_share_the_inode() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    let outcome = import_package(
        &dest,
        &as_package_files(&list),
        ImportMethod::Hardlink,
        &state,
    );
    assert_eq!(outcome.unwrap(), ImportOutcome::Imported);
    for (rel, src, _) in &list {
        let a = std::fs::metadata(dest.join(rel)).unwrap();
        let b = std::fs::metadata(src).unwrap();
        assert_eq!(a.ino(), b.ino(), "{rel}");
    }
    assert_eq!(state.methods_used(), vec![UsedMethod::Hardlink]);
}

#[test]
fn auto_hardlinks_first() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    import_package(&dest, &as_package_files(&list), ImportMethod::Auto, &state).unwrap();
    let a = std::fs::metadata(dest.join("lib/index.js")).unwrap();
    assert_eq!(a.ino(), std::fs::metadata(&list[1].1).unwrap().ino());
}

#[test]
fn copy_makes_independent_files_with_exec_bits() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    import_package(&dest, &as_package_files(&list), ImportMethod::Copy, &state).unwrap();
    for (rel, src, exec) in &list {
        let a = std::fs::metadata(dest.join(rel)).unwrap();
        assert_ne!(a.ino(), std::fs::metadata(src).unwrap().ino());
        assert_eq!(
            std::fs::read(dest.join(rel)).unwrap(),
            std::fs::read(src).unwrap()
        );
        let expected = if *exec { 0o755 } else { 0o644 };
        assert_eq!(mode(&dest.join(rel)), expected & !umask(), "{rel}");
    }
    assert_eq!(state.methods_used(), vec![UsedMethod::Copy]);
}

/// Exec bits come from the file list, not from the blob's mode.
#[test]
fn copy_sets_exec_bit_from_the_file_list() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let blob = cas.blob("plain", "x", false);
    let list = vec![("run.sh".to_owned(), blob, true)];
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    import_package(&dest, &as_package_files(&list), ImportMethod::Copy, &state).unwrap();
    assert_eq!(mode(&dest.join("run.sh")), 0o755 & !umask());
}

/// The process umask, read without changing it.
fn umask() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).unwrap()
}

#[test]
fn complete_package_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    let pf = as_package_files(&list);
    import_package(&dest, &pf, ImportMethod::Copy, &state).unwrap();
    std::fs::remove_file(dest.join("lib/index.js")).unwrap();
    let outcome = import_package(&dest, &pf, ImportMethod::Copy, &state).unwrap();
    assert_eq!(outcome, ImportOutcome::AlreadyComplete);
    assert!(!dest.join("lib/index.js").exists());
}

/// A directory without its marker (an interrupted import) is imported over.
#[test]
fn interrupted_import_is_redone() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    std::fs::create_dir_all(dest.join("lib")).unwrap();
    std::fs::write(dest.join("lib/index.js"), "stale partial").unwrap();
    let state = ImportState::new();
    let pf = as_package_files(&list);
    let outcome = import_package(&dest, &pf, ImportMethod::Hardlink, &state).unwrap();
    assert_eq!(outcome, ImportOutcome::Imported);
    assert_eq!(
        std::fs::read_to_string(dest.join("lib/index.js")).unwrap(),
        "index"
    );
    assert!(dest.join("package.json").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dest)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("pacquet-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn marker_is_package_json_else_first_path() {
    let pf = |p: &'static str| PackageFile {
        rel_path: p,
        src: PathBuf::new(),
        executable: false,
        at: None,
    };
    assert_eq!(
        completion_marker(&[pf("z.js"), pf("package.json"), pf("a.js")]),
        Some("package.json")
    );
    assert_eq!(
        completion_marker(&[pf("z.js"), pf("b/a.js")]),
        Some("b/a.js")
    );
    assert_eq!(completion_marker(&[]), None);
}

/// The marker is placed last: when importing the marker fails, the package
/// stays incomplete and is retried next time.
#[test]
fn failed_marker_leaves_package_incomplete() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let mut list = files(&cas);
    list[0].1 = tmp.path().join("store/missing");
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    let err = import_package(
        &dest,
        &as_package_files(&list),
        ImportMethod::Hardlink,
        &state,
    );
    assert!(err.is_err());
    assert!(dest.join("lib/deep/x/y.js").exists());
    assert!(!dest.join("package.json").exists());
}

#[test]
fn clone_or_copy_always_produces_the_files() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    import_package(
        &dest,
        &as_package_files(&list),
        ImportMethod::CloneOrCopy,
        &state,
    )
    .unwrap();
    for (rel, src, _) in &list {
        assert_eq!(
            std::fs::read(dest.join(rel)).unwrap(),
            std::fs::read(src).unwrap()
        );
        assert_ne!(
            std::fs::metadata(dest.join(rel)).unwrap().ino(),
            std::fs::metadata(src).unwrap().ino()
        );
    }
    assert_eq!(mode(&dest.join("bin/cli")), 0o755 & !umask());
}

/// A destination on another filesystem than the store (`/dev/shm` is tmpfs
/// on Linux CI machines): `hardlink` copies, `auto` downgrades to copying
/// (tmpfs cannot clone) for the rest of the install.
#[test]
fn cross_device_falls_back_to_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let other = tempfile::tempdir_in("/dev/shm")
        .expect("this test needs /dev/shm as a second filesystem, and it is not writable");
    let store_dev = std::fs::metadata(tmp.path()).unwrap().dev();
    assert_ne!(
        std::fs::metadata(other.path()).unwrap().dev(),
        store_dev,
        "this test needs /dev/shm on another filesystem than {}",
        tmp.path().display()
    );
    let pf = as_package_files(&list);

    let state = ImportState::new();
    import_package(&other.path().join("h"), &pf, ImportMethod::Hardlink, &state).unwrap();
    assert_eq!(state.methods_used(), vec![UsedMethod::Copy]);

    let state = ImportState::new();
    import_package(&other.path().join("a"), &pf, ImportMethod::Auto, &state).unwrap();
    import_package(&other.path().join("b"), &pf, ImportMethod::Auto, &state).unwrap();
    assert_eq!(state.methods_used(), vec![UsedMethod::Copy]);
    assert_eq!(mode(&other.path().join("b/bin/cli")), 0o755 & !umask());
    assert_eq!(
        std::fs::read_to_string(other.path().join("b/lib/index.js")).unwrap(),
        "index"
    );
}

/// `clone` shares extents with the store on a reflink-capable filesystem.
/// CI's root filesystem cannot clone, so the test runs in
/// `PACQUET_TEST_REFLINK_DIR` (an XFS image `tasks/install-tools.sh` mounts).
#[test]
fn clone_shares_extents_with_the_store() {
    let var = "PACQUET_TEST_REFLINK_DIR";
    let root = std::env::var_os(var).unwrap_or_else(|| {
        panic!("{var} is unset: point it at a reflink-capable filesystem (tasks/test.sh does)")
    });
    let tmp = tempfile::tempdir_in(&root)
        .unwrap_or_else(|e| panic!("{var}={}: {e}", Path::new(&root).display()));
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    let result = import_package(&dest, &as_package_files(&list), ImportMethod::Clone, &state);
    if let Err(e) = result {
        panic!(
            "clone in {var}={} (not reflink-capable?): {e}",
            Path::new(&root).display()
        );
    }
    assert_eq!(state.methods_used(), vec![UsedMethod::Clone]);
    for (rel, src, _) in &list {
        let dst = dest.join(rel);
        assert_eq!(std::fs::read(&dst).unwrap(), std::fs::read(src).unwrap());
        assert_ne!(
            std::fs::metadata(&dst).unwrap().ino(),
            std::fs::metadata(src).unwrap().ino()
        );
        assert!(all_extents_shared(&dst), "{rel} is not a reflink");
    }
    assert_eq!(mode(&dest.join("bin/cli")), 0o755 & !umask());
    // The check can fail: a plainly written file shares nothing.
    let control = cas.blob("control", "index", false);
    assert!(!all_extents_shared(&control));
}

/// Where extents cannot be shared (tmpfs), `clone` fails instead of
/// silently copying.
#[test]
fn clone_fails_where_extents_cannot_be_shared() {
    let tmp = tempfile::tempdir_in("/dev/shm")
        .expect("this test needs /dev/shm (tmpfs), and it is not writable");
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let state = ImportState::new();
    let result = import_package(
        &tmp.path().join("pkg"),
        &as_package_files(&list),
        ImportMethod::Clone,
        &state,
    );
    assert!(
        matches!(result, Err(crate::ImportError::Import { .. })),
        "{result:?}"
    );
    assert_eq!(state.methods_used(), vec![]);
}

/// Whether `path` has extents and every one is `FIEMAP_EXTENT_SHARED`.
fn all_extents_shared(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    // `struct fiemap` with room for 8 `struct fiemap_extent`s
    // (linux/fiemap.h); the test files have one extent each.
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Extent {
        logical: u64,
        physical: u64,
        length: u64,
        reserved64: [u64; 2],
        flags: u32,
        reserved: [u32; 3],
    }
    #[repr(C)]
    #[derive(Default)]
    struct Fiemap {
        start: u64,
        length: u64,
        flags: u32,
        mapped_extents: u32,
        extent_count: u32,
        reserved: u32,
        extents: [Extent; 8],
    }
    const FS_IOC_FIEMAP: libc::c_ulong = 0xC020_660B;
    const FIEMAP_FLAG_SYNC: u32 = 1;
    const FIEMAP_EXTENT_SHARED: u32 = 0x2000;
    let file = std::fs::File::open(path).unwrap();
    let mut map = Fiemap {
        length: u64::MAX,
        flags: FIEMAP_FLAG_SYNC,
        extent_count: 8,
        ..Fiemap::default()
    };
    // SAFETY: `map` is a valid `struct fiemap` with `extent_count` slots.
    let rc = unsafe { libc::ioctl(file.as_raw_fd(), FS_IOC_FIEMAP as _, &mut map) };
    assert_eq!(
        rc,
        0,
        "FIEMAP {}: {}",
        path.display(),
        std::io::Error::last_os_error()
    );
    let mapped = &map.extents[..map.mapped_extents as usize];
    !mapped.is_empty() && mapped.iter().all(|e| e.flags & FIEMAP_EXTENT_SHARED != 0)
}

/// The same files addressed through an open descriptor of the store dir.
fn with_descriptors<'a>(
    files: &'a [(String, PathBuf, bool)],
    store: &'a std::fs::File,
) -> Vec<PackageFile<'a>> {
    use std::os::fd::AsFd;
    as_package_files(files)
        .into_iter()
        .map(|mut f| {
            let name = f.src.file_name().unwrap().to_str().unwrap();
            f.at = pacquet_cas::BlobAt::new(store.as_fd(), name);
            f
        })
        .collect()
}

#[test]
fn descriptor_links_share_the_inode_and_replace_leftovers() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let store = std::fs::File::open(&cas.dir).unwrap();
    let dest = tmp.path().join("pkg");
    // A file an interrupted import left behind.
    std::fs::create_dir_all(dest.join("lib")).unwrap();
    std::fs::write(dest.join("lib/index.js"), "stale").unwrap();
    let state = ImportState::new();
    let files = with_descriptors(&list, &store);
    let outcome = import_package(&dest, &files, ImportMethod::Auto, &state).unwrap();
    assert_eq!(outcome, ImportOutcome::Imported);
    for (rel, src, _) in &list {
        let a = std::fs::metadata(dest.join(rel)).unwrap();
        let b = std::fs::metadata(src).unwrap();
        assert_eq!(a.ino(), b.ino(), "{rel}");
    }
    assert_eq!(state.methods_used(), vec![UsedMethod::Hardlink]);
}

#[test]
fn descriptor_links_fall_back_to_the_path_for_a_bad_descriptor_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let store = std::fs::File::open(&cas.dir).unwrap();
    let mut files = with_descriptors(&list, &store);
    // A name the descriptor does not have: the path still imports it.
    files[1].at = pacquet_cas::BlobAt::new(std::os::fd::AsFd::as_fd(&store), "missing");
    let dest = tmp.path().join("pkg");
    import_package(&dest, &files, ImportMethod::Hardlink, &ImportState::new()).unwrap();
    assert_eq!(
        std::fs::read_to_string(dest.join(&list[1].0)).unwrap(),
        "index"
    );
}

#[test]
fn copies_ignore_descriptors() {
    let tmp = tempfile::tempdir().unwrap();
    let cas = Cas::new(tmp.path());
    let list = files(&cas);
    let store = std::fs::File::open(&cas.dir).unwrap();
    let dest = tmp.path().join("pkg");
    let state = ImportState::new();
    import_package(
        &dest,
        &with_descriptors(&list, &store),
        ImportMethod::Copy,
        &state,
    )
    .unwrap();
    for (rel, src, _) in &list {
        let a = std::fs::metadata(dest.join(rel)).unwrap();
        let b = std::fs::metadata(src).unwrap();
        assert_ne!(a.ino(), b.ino(), "{rel}");
    }
    assert_eq!(state.methods_used(), vec![UsedMethod::Copy]);
}

/// A blob replaced by another writer's atomic rewrite (a temp file renamed
/// over it, docs/store.md §4) while a link to it is made: Linux looks the
/// source up, then refuses to link an inode whose last name went in
/// between (`ENOENT`), although the blob is there all along.
#[test]
fn a_link_survives_the_blob_being_rewritten_at_that_moment() {
    let tmp = tempfile::tempdir().unwrap();
    let blob = tmp.path().join("blob");
    std::fs::write(&blob, "{}").unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let temp = tmp.path().join("blob.tmp");
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                std::fs::write(&temp, "{}").unwrap();
                std::fs::rename(&temp, &blob).unwrap();
                // A rewrite is a blob's one-off event; back to back they
                // would fail links any number of times in a row.
                std::thread::sleep(std::time::Duration::from_micros(100));
            }
        });
        let dst = tmp.path().join("package.json");
        let linked = (0..20_000).try_for_each(|_| {
            file::link_file(&blob, &dst)?;
            std::fs::remove_file(&dst)
        });
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        linked.unwrap();
    });
}
