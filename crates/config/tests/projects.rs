//! Workspace project discovery.

mod common;

use common::Fixture;
use pacquet_config::find_workspace_projects;
use pretty_assertions::assert_eq;

#[test]
fn globs_exclusions_root_and_node_modules() {
    let f = Fixture::new();
    for dir in [
        "project/pkgs/a",
        "project/pkgs/b",
        "project/pkgs/excluded",
        "project/pkgs/nested/deep",
        "project/apps/web",
        "project/apps/web/node_modules/dep",
        "project/pkgs/a/node_modules/x",
    ] {
        f.write(format!("{dir}/package.json"), "{}");
    }
    f.write("project/pkgs/no-manifest/readme", "");
    let patterns = vec![
        "pkgs/*".to_owned(),
        "./apps/**".to_owned(),
        "!pkgs/excluded".to_owned(),
    ];
    let found = find_workspace_projects(&f.project, &patterns).expect("projects");
    let relative: Vec<String> = found
        .iter()
        .map(|p| {
            p.strip_prefix(&f.project)
                .expect("under root")
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(relative, vec!["", "apps/web", "pkgs/a", "pkgs/b"]);
}

#[test]
fn no_patterns_is_just_the_root() {
    let f = Fixture::new();
    assert_eq!(
        find_workspace_projects(&f.project, &[]).expect("projects"),
        vec![f.project.clone()]
    );
}

/// Projects come in the order of their paths as strings, as pnpm 12 lists
/// them: `packages-private/*` before `packages/*`.
#[test]
fn projects_are_ordered_by_path_string() {
    let f = Fixture::new();
    for dir in ["project/packages/b", "project/packages-private/a"] {
        f.write(format!("{dir}/package.json"), "{}");
    }
    let patterns = vec!["packages/*".to_owned(), "packages-private/*".to_owned()];
    let found = find_workspace_projects(&f.project, &patterns).expect("projects");
    let relative: Vec<String> = found
        .iter()
        .map(|p| p.strip_prefix(&f.project).unwrap().display().to_string())
        .collect();
    assert_eq!(relative, vec!["", "packages-private/a", "packages/b"]);
}
