use std::path::{Path, PathBuf};

use pacquet_lockfile::ProjectManifest;
use pretty_assertions::assert_eq;

use super::{Filter, FilterOptions, select_projects};
use crate::WorkspaceProject;

fn project(dir: &str, manifest: serde_json::Value) -> WorkspaceProject {
    WorkspaceProject {
        dir: PathBuf::from(dir),
        manifest: ProjectManifest::from_value(&manifest),
    }
}

/// root → app → lib (prod), app → util (dev), util → lib (peer),
/// @scope/other alone.
fn workspace() -> Vec<WorkspaceProject> {
    use serde_json::json;
    vec![
        project(
            "/ws",
            json!({"name": "root", "dependencies": {"app": "workspace:*"}}),
        ),
        project(
            "/ws/packages/app",
            json!({"name": "app", "version": "1.0.0",
                   "dependencies": {"lib": "workspace:^"},
                   "devDependencies": {"util": "workspace:../util"}}),
        ),
        project(
            "/ws/packages/lib",
            json!({"name": "lib", "version": "2.0.0"}),
        ),
        project(
            "/ws/packages/util",
            json!({"name": "util", "version": "1.0.0", "peerDependencies": {"lib": "workspace:2.0.0"}}),
        ),
        project(
            "/ws/other",
            json!({"name": "@scope/other", "version": "1.0.0", "dependencies": {"lib": "^2.0.0"}}),
        ),
    ]
}

fn select_in(
    projects: &[WorkspaceProject],
    prefix: &Path,
    filters: &[(&str, bool)],
) -> (Vec<String>, Vec<String>) {
    let filters: Vec<Filter> = filters
        .iter()
        .map(|(s, prod)| Filter {
            selector: (*s).to_owned(),
            prod_only: *prod,
        })
        .collect();
    let opts = FilterOptions {
        prefix,
        workspace_dir: Path::new("/ws"),
        link_workspace_packages: false,
        test_pattern: &[],
        changed_files_ignore_pattern: &[],
        legacy_dir_filtering: false,
    };
    let selection = select_projects(projects, &filters, &opts).unwrap();
    let mut selected: Vec<String> = selection
        .selected
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    selected.sort();
    (selected, selection.unmatched)
}

fn select(filters: &[&str]) -> Vec<String> {
    let filters: Vec<(&str, bool)> = filters.iter().map(|f| (*f, false)).collect();
    select_in(&workspace(), Path::new("/ws"), &filters).0
}

#[test]
fn names_and_walks() {
    assert_eq!(select(&["app"]), ["/ws/packages/app"]);
    assert_eq!(
        select(&["app..."]),
        ["/ws/packages/app", "/ws/packages/lib", "/ws/packages/util"]
    );
    assert_eq!(
        select(&["app^..."]),
        ["/ws/packages/lib", "/ws/packages/util"]
    );
    assert_eq!(
        select(&["...lib"]),
        [
            "/ws",
            "/ws/packages/app",
            "/ws/packages/lib",
            "/ws/packages/util"
        ]
    );
    assert_eq!(select(&["...^util"]), ["/ws", "/ws/packages/app"]);
    // Dependents, and the dependents' dependencies.
    assert_eq!(
        select(&["...util..."]),
        [
            "/ws",
            "/ws/packages/app",
            "/ws/packages/lib",
            "/ws/packages/util"
        ]
    );
}

#[test]
fn a_plain_range_names_no_project_without_link_workspace_packages() {
    assert_eq!(
        select(&["...^lib"]).contains(&"/ws/other".to_owned()),
        false
    );
}

#[test]
fn prod_filters_skip_dev_edges() {
    let (selected, _) = select_in(&workspace(), Path::new("/ws"), &[("app...", true)]);
    assert_eq!(selected, ["/ws/packages/app", "/ws/packages/lib"]);
}

#[test]
fn directories_exclusions_and_scoped_fallback() {
    assert_eq!(
        select(&["{packages/*}"]),
        ["/ws/packages/app", "/ws/packages/lib", "/ws/packages/util"]
    );
    assert_eq!(select(&["./packages/app"]), ["/ws/packages/app"]);
    // Globs, not prefixes: a directory alone selects only a project there.
    assert_eq!(select(&["./packages"]), Vec::<String>::new());
    assert_eq!(
        select(&["!app"]),
        ["/ws", "/ws/other", "/ws/packages/lib", "/ws/packages/util"]
    );
    assert_eq!(
        select(&["{packages/*}", "!util"]),
        ["/ws/packages/app", "/ws/packages/lib"]
    );
    assert_eq!(select(&["other"]), ["/ws/other"]);
    assert_eq!(select(&["*o*"]), ["/ws", "/ws/other"]);
    assert_eq!(select(&["app{packages/*}"]), ["/ws/packages/app"]);
}

#[test]
fn relative_to_the_prefix() {
    let (selected, _) = select_in(
        &workspace(),
        Path::new("/ws/packages/app"),
        &[("{.}...", false)],
    );
    assert_eq!(
        selected,
        ["/ws/packages/app", "/ws/packages/lib", "/ws/packages/util"]
    );
    let (selected, _) = select_in(
        &workspace(),
        Path::new("/ws/packages/app"),
        &[("../lib", false)],
    );
    assert_eq!(selected, ["/ws/packages/lib"]);
}

#[test]
fn unmatched_selectors_are_reported() {
    let (selected, unmatched) = select_in(
        &workspace(),
        Path::new("/ws"),
        &[("nope", false), ("app", false)],
    );
    assert_eq!(selected, ["/ws/packages/app"]);
    assert_eq!(unmatched, ["nope"]);
}

#[test]
fn changed_since_a_commit() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(&ws)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let projects: Vec<WorkspaceProject> = workspace()
        .into_iter()
        .map(|p| WorkspaceProject {
            dir: ws.join(p.dir.strip_prefix("/ws").unwrap()),
            ..p
        })
        .collect();
    for p in &projects {
        std::fs::create_dir_all(&p.dir).unwrap();
        std::fs::write(p.dir.join("index.js"), "1").unwrap();
    }
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "one"]);
    std::fs::write(ws.join("packages/lib/index.js"), "2").unwrap();
    std::fs::create_dir_all(ws.join("packages/util/test")).unwrap();
    std::fs::write(ws.join("packages/util/test/a.test.js"), "2").unwrap();
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "two"]);
    let opts = FilterOptions {
        prefix: &ws,
        workspace_dir: &ws,
        link_workspace_packages: false,
        test_pattern: &["packages/*/test/**".to_owned()],
        changed_files_ignore_pattern: &[],
        legacy_dir_filtering: false,
    };
    let run = |selector: &str| {
        let filters = [Filter {
            selector: selector.to_owned(),
            prod_only: false,
        }];
        let mut out: Vec<String> = select_projects(&projects, &filters, &opts)
            .unwrap()
            .selected
            .iter()
            .map(|d| d.strip_prefix(&ws).unwrap().display().to_string())
            .collect();
        out.sort();
        out
    };
    assert_eq!(run("[HEAD~1]"), ["packages/lib", "packages/util"]);
    // util changed only in tests: its dependents are not pulled in.
    assert_eq!(
        run("...[HEAD~1]"),
        ["", "packages/app", "packages/lib", "packages/util"]
    );
    let err = select_projects(
        &projects,
        &[Filter {
            selector: "[no-such-ref]".into(),
            prod_only: false,
        }],
        &opts,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Filtering by changed packages failed."),
        "{err}"
    );
}
