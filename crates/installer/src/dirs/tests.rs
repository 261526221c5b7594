use super::*;

#[test]
fn siblings_are_grouped_under_their_parent_level_by_level() {
    let dirs: Vec<String> = [
        "node_modules",
        "node_modules/.pnpm",
        "node_modules/.pnpm/a@1.0.0",
        "node_modules/.pnpm/a@1.0.0/node_modules",
        "node_modules/.pnpm/b@1.0.0",
        "node_modules/.pnpm/b@1.0.0/node_modules",
        "node_modules/.pnpm/b@1.0.0/node_modules/@scope",
        "node_modules/@types",
    ]
    .map(String::from)
    .to_vec();
    let levels = siblings_by_level(&dirs);
    assert_eq!(
        levels,
        vec![
            vec![vec!["node_modules"]],
            vec![vec!["node_modules/.pnpm", "node_modules/@types"]],
            vec![vec![
                "node_modules/.pnpm/a@1.0.0",
                "node_modules/.pnpm/b@1.0.0"
            ]],
            vec![
                vec!["node_modules/.pnpm/a@1.0.0/node_modules"],
                vec!["node_modules/.pnpm/b@1.0.0/node_modules"],
            ],
            vec![vec!["node_modules/.pnpm/b@1.0.0/node_modules/@scope"]],
        ]
    );
}

#[test]
fn every_directory_is_created_and_existing_ones_are_fine() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("a/b")).unwrap();
    let dirs: Vec<String> = ["a", "a/b", "a/c", "a/b/d", "a/c/e", "f/g"]
        .map(String::from)
        .to_vec();
    create_dirs(tmp.path(), &dirs).unwrap();
    for dir in &dirs {
        assert!(tmp.path().join(dir).is_dir(), "{dir}");
    }
}
