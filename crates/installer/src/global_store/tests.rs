use std::path::Path;

use pacquet_lockfile::Lockfile;
use pacquet_planner::{GlobalVirtualStore, HostPlatform, LinkOwner, PlanOptions, plan};

use super::{Slots, nth_separator, remove_abandoned, stage};

fn url(name: &str, version: &str) -> String {
    format!("https://r.example/{name}/-/{version}.tgz")
}

/// The planner's `gvs1` fixture, planned with the slots in `../store/links`.
fn planned(root: &Path) -> pacquet_planner::Plan {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../planner/tests/fixtures/global-store/gvs1/pnpm-lock.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let lockfile = Lockfile::parse(&text, &path).unwrap();
    let host = HostPlatform {
        os: "linux".into(),
        cpu: "x64".into(),
        libc: Some("glibc".into()),
    };
    let mut opts = PlanOptions::new(host, &url);
    opts.global_virtual_store = Some(GlobalVirtualStore {
        dir: "../store/links".into(),
        configured: root.join("../store/links").to_string_lossy().into_owned(),
        lockfile_dir: root.to_string_lossy().into_owned(),
        engine: None,
    });
    plan(&lockfile, &opts).unwrap()
}

#[test]
fn present_slots_are_left_alone_and_missing_ones_staged() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("project");
    std::fs::create_dir_all(&root).unwrap();
    let plan = planned(&root);
    let present = plan
        .slots
        .iter()
        .position(|s| s.name() == "is-odd")
        .unwrap();
    let slot = &plan.slots[present];
    std::fs::create_dir_all(
        root.join("../store/links")
            .join(&slot.dir_name)
            .join("node_modules/is-odd"),
    )
    .unwrap();

    let (staged, slots) = stage(&root, "../store/links", &plan);
    for (i, s) in staged.slots.iter().enumerate() {
        assert_eq!(slots.skip[i], i == present, "{}", s.dep_path.as_str());
        if i == present {
            assert_eq!(s.package_dir, plan.slots[i].package_dir);
        } else {
            let hash = plan.slots[i].dir_name.rsplit('/').next().unwrap();
            let staging = format!(".{hash}.{}.tmp/", std::process::id());
            assert!(s.package_dir.contains(&staging), "{}", s.package_dir);
        }
    }
    // The present slot's links and directories are not made again.
    let inside = format!("../store/links/{}/", slot.dir_name);
    assert!(!staged.symlinks.iter().any(|l| l.path.starts_with(&inside)));
    assert!(!staged.dirs.iter().any(|d| d.starts_with(&inside)));
    assert!(plan.symlinks.iter().any(|l| l.path.starts_with(&inside)));
    // The project's own links are the planned ones.
    let project = |p: &pacquet_planner::Plan| -> Vec<(String, String)> {
        p.symlinks
            .iter()
            .filter(|l| !matches!(l.owner, LinkOwner::Slot(_)))
            .map(|l| (l.path.clone(), l.target.clone()))
            .collect()
    };
    assert_eq!(project(&staged), project(&plan));
    // Slot links keep their targets: staging is at the slot's depth.
    let moved = staged
        .symlinks
        .iter()
        .find(|l| l.path.contains(".tmp/"))
        .unwrap();
    let original = plan
        .symlinks
        .iter()
        .find(|l| l.target == moved.target && l.owner == moved.owner)
        .unwrap();
    assert_ne!(original.path, moved.path);
}

#[test]
fn publishing_renames_staged_slots_and_yields_to_one_already_there() {
    let tmp = tempfile::tempdir().unwrap();
    let version = tmp.path().join("@/a/1.0.0");
    let (ours, theirs) = (version.join(".h1.1.tmp"), version.join(".h2.1.tmp"));
    for staging in [&ours, &theirs] {
        std::fs::create_dir_all(staging.join("node_modules/a")).unwrap();
    }
    // Another install made h2 meanwhile.
    std::fs::create_dir_all(version.join("h2/node_modules/a/other")).unwrap();
    let slots = Slots {
        skip: Vec::new(),
        shared_with: Vec::new(),
        staged: vec![
            (ours.clone(), version.join("h1"), "node_modules/a".into()),
            (theirs.clone(), version.join("h2"), "node_modules/a".into()),
        ],
    };
    slots.publish().unwrap();
    assert!(version.join("h1/node_modules/a").is_dir());
    assert!(!ours.exists() && !theirs.exists());
    assert!(version.join("h2/node_modules/a/other").is_dir());
}

#[test]
fn abandoned_staging_of_dead_processes_is_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // pid 1 runs; a pid above the kernel's limit never does.
    for name in [".h.1.tmp", ".h.4194305.tmp", ".other.4194305.tmp", "h"] {
        std::fs::create_dir(dir.join(name)).unwrap();
    }
    remove_abandoned(dir, "h");
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    if cfg!(target_os = "linux") {
        assert_eq!(left, [".h.1.tmp", ".other.4194305.tmp", "h"]);
    }
}

#[test]
fn slot_directories_end_after_their_fourth_segment_below_links() {
    let p = "../s/links/@/a/1.0.0/h/node_modules/a";
    let depth = 3 + 4;
    assert_eq!(
        &p[..nth_separator(p, depth).unwrap()],
        "../s/links/@/a/1.0.0/h"
    );
    assert_eq!(nth_separator("../s/links/@/a/1.0.0/h", depth), Some(22));
    assert_eq!(nth_separator("../s/links/@/a", depth), None);
}

#[cfg(unix)]
#[test]
fn a_slot_directory_another_tool_is_filling_is_kept_and_completed() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let version = tmp.path().join("@/a/1.0.0");
    let staged = [version.join(".h1.1.tmp"), version.join(".h2.1.tmp")];
    for staging in &staged {
        std::fs::create_dir_all(staging.join("node_modules/a")).unwrap();
        std::fs::write(staging.join("node_modules/a/package.json"), "{}").unwrap();
        std::fs::create_dir_all(staging.join("node_modules/@s")).unwrap();
        std::os::unix::fs::symlink("../../b", staging.join("node_modules/@s/b")).unwrap();
    }
    // pnpm has just created h1 (empty) and claimed h2's package directory.
    std::fs::create_dir_all(version.join("h1")).unwrap();
    std::fs::create_dir_all(version.join("h2/node_modules/a")).unwrap();
    let inode = std::fs::metadata(version.join("h1")).unwrap().ino();
    let slots = Slots {
        skip: Vec::new(),
        shared_with: Vec::new(),
        staged: vec![
            (
                staged[0].clone(),
                version.join("h1"),
                "node_modules/a".into(),
            ),
            (
                staged[1].clone(),
                version.join("h2"),
                "node_modules/a".into(),
            ),
        ],
    };
    slots.publish().unwrap();
    // The directory pnpm made is the one left, now with our entries.
    assert_eq!(std::fs::metadata(version.join("h1")).unwrap().ino(), inode);
    assert!(version.join("h1/node_modules/a/package.json").is_file());
    // pnpm's claimed package directory is not touched; the links it lacks
    // are added.
    assert!(!version.join("h2/node_modules/a/package.json").exists());
    for slot in ["h1", "h2"] {
        let link = version.join(slot).join("node_modules/@s/b");
        assert_eq!(std::fs::read_link(link).unwrap(), Path::new("../../b"));
    }
    assert!(staged.iter().all(|s| !s.exists()));
}
