use super::{DirProbe, ProbeAhead};

#[test]
fn finds_files_below_the_root_and_absolute_paths() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
    std::fs::write(dir.path().join("a/b/package.json"), "{}").unwrap();
    let probe = DirProbe::open(dir.path(), "");
    assert!(probe.exists("a/b/package.json"));
    assert!(!probe.exists("a/c/package.json"));
    let absolute = dir.path().join("a/b/package.json");
    assert!(probe.exists(absolute.to_str().unwrap()));
}

#[cfg(unix)]
#[test]
fn follows_symlinks_like_path_exists() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("real"), "{}").unwrap();
    std::os::unix::fs::symlink("real", dir.path().join("link")).unwrap();
    std::os::unix::fs::symlink("gone", dir.path().join("dangling")).unwrap();
    let probe = DirProbe::open(dir.path(), "");
    assert!(probe.exists("link"));
    assert!(!probe.exists("dangling"));
}

#[test]
fn probing_ahead_answers_what_it_reached_until_taken() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a")).unwrap();
    std::fs::write(dir.path().join("a/package.json"), "{}").unwrap();
    let probe = DirProbe::open(dir.path(), "");
    let ahead = ProbeAhead::default();
    ahead.probe(&probe, ["a", "b"]);
    let probed = ahead.take();
    assert_eq!(probed.get("a"), Some(&true));
    assert_eq!(probed.get("b"), Some(&false));
    assert_eq!(probed.len(), 2);
    // Once taken, nothing more is probed: the install asks for the rest.
    ahead.probe(&probe, ["a"]);
    assert!(ahead.take().is_empty());
}

#[test]
fn paths_inside_the_inner_dir_are_looked_up_from_there() {
    let dir = tempfile::tempdir().unwrap();
    let slot = dir.path().join("node_modules/.pnpm/a@1.0.0/node_modules/a");
    std::fs::create_dir_all(&slot).unwrap();
    std::fs::write(slot.join("package.json"), "{}").unwrap();
    std::fs::write(dir.path().join("node_modules/top"), "").unwrap();
    for inner in ["node_modules/.pnpm", "node_modules/.pnpm/", "", "missing"] {
        let probe = DirProbe::open(dir.path(), inner);
        assert!(probe.has_manifest("node_modules/.pnpm/a@1.0.0/node_modules/a"));
        assert!(!probe.has_manifest("node_modules/.pnpm/b@1.0.0/node_modules/b"));
        // Outside it, and a name that only starts like it.
        assert!(probe.exists("node_modules/top"));
        assert!(!probe.exists("node_modules/.pnpmx/a"));
        let absolute = slot.join("package.json");
        assert!(probe.exists(absolute.to_str().unwrap()));
    }
    // An absolute inner dir (the global virtual store) answers for
    // absolute paths below it.
    let store = dir.path().join("node_modules/.pnpm");
    let probe = DirProbe::open(dir.path(), store.to_str().unwrap());
    assert!(probe.exists(slot.join("package.json").to_str().unwrap()));
    assert!(!probe.exists(store.join("b/package.json").to_str().unwrap()));
}
