use std::path::Path;

use pacquet_lockfile::Lockfile;
use pacquet_planner::{PlanOptions, plan};

use super::{PreviousTree, Wanted, read_previous};
use crate::test_support::{LOCK_YAML, host, url};

fn parse(text: &str) -> Lockfile {
    Lockfile::parse(text, Path::new("pnpm-lock.yaml")).unwrap()
}

/// A project whose previous install left `lock_yaml`.
fn installed(lock_yaml: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let vsd = root.path().join("node_modules/.pnpm");
    std::fs::create_dir_all(&vsd).unwrap();
    std::fs::write(vsd.join("lock.yaml"), lock_yaml).unwrap();
    root
}

#[test]
fn the_same_text_is_the_same_tree() {
    let root = installed(LOCK_YAML);
    let opts = PlanOptions::new(host(), &url);
    let lockfile = parse(LOCK_YAML);
    let wanted = Wanted {
        lockfile: &lockfile,
        text: Some(LOCK_YAML),
    };
    let previous = read_previous(root.path(), &opts, wanted, false, None);
    assert!(matches!(previous.tree, PreviousTree::Same));
    // A filtered install's plan is a part of its `lock.yaml`.
    let previous = read_previous(root.path(), &opts, wanted, true, None);
    assert!(matches!(previous.tree, PreviousTree::Planned(_)));
}

#[test]
fn other_text_is_rendered_only_when_no_record_answers() {
    // The wanted lockfile as someone else formatted it: other text, the
    // same lockfile once rendered.
    let reformatted = LOCK_YAML.replace("sha512-a}", "'sha512-a'}");
    assert_ne!(reformatted, LOCK_YAML);
    let lockfile = parse(&reformatted);
    assert_eq!(lockfile.to_yaml(), LOCK_YAML);
    let wanted = Wanted {
        lockfile: &lockfile,
        text: Some(&reformatted),
    };
    let root = installed(LOCK_YAML);
    let opts = PlanOptions::new(host(), &url);
    let previous = read_previous(root.path(), &opts, wanted, false, None);
    assert!(matches!(previous.tree, PreviousTree::Same));

    let record = root.path().join("record");
    let installed_plan = plan(&parse(LOCK_YAML), &opts).unwrap();
    let bytes = crate::tree_record::encode(LOCK_YAML, &opts.shape_key(), &installed_plan);
    std::fs::write(&record, bytes).unwrap();
    let previous = read_previous(root.path(), &opts, wanted, false, Some(&record));
    match previous.tree {
        PreviousTree::Planned(tree) => {
            assert_eq!(*tree, pacquet_planner::Tree::from(installed_plan));
        }
        other => panic!("the record's tree, not {other:?}"),
    }
}
