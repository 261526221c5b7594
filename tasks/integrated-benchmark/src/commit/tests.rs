use super::*;

fn working_tree(describe: &str) -> Commit {
    Commit {
        revision: WORKING_TREE.to_string(),
        sha: None,
        describe: describe.to_string(),
    }
}

fn revision(rev: &str, sha: &str, describe: &str) -> Commit {
    Commit {
        revision: rev.to_string(),
        sha: Some(sha.to_string()),
        describe: describe.to_string(),
    }
}

const SHA: &str = "63211bc0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6";

#[test]
fn parses_what_git_describe_prints() {
    assert_eq!(parse_describe("63211bc\n").unwrap(), "63211bc");
    assert_eq!(parse_describe("63211bc-dirty\n").unwrap(), "63211bc-dirty");
    assert_eq!(
        parse_describe("  v0.1.0-12-g63211bc-dirty\r\n").unwrap(),
        "v0.1.0-12-g63211bc-dirty"
    );
    assert_eq!(
        parse_describe("release/1.0+rc.2").unwrap(),
        "release/1.0+rc.2"
    );
}

#[test]
fn rejects_anything_but_one_name() {
    assert!(parse_describe("").is_err());
    assert!(parse_describe("\n  \n").is_err());
    assert!(parse_describe("63211bc\n5f0e2aa\n").is_err());
    assert!(parse_describe("fatal: not a git repository").is_err());
    assert!(parse_describe("63211bc|rm").is_err());
}

#[test]
fn dirty_is_the_describe_suffix() {
    assert!(working_tree("63211bc-dirty").is_dirty());
    assert!(!working_tree("63211bc").is_dirty());
    assert!(!working_tree("v1.0-dirtyish-3-g63211bc").is_dirty());
}

#[test]
fn labels_say_the_commit_and_the_revision_as_given() {
    assert_eq!(
        working_tree("63211bc-dirty").label(),
        "pacquet @ 63211bc-dirty (working tree)"
    );
    assert_eq!(
        revision("main", SHA, "63211bc").label(),
        "pacquet @ 63211bc (main)"
    );
    assert_eq!(
        revision("HEAD~2", SHA, "v0.1.0-3-g63211bc").label(),
        "pacquet @ v0.1.0-3-g63211bc (HEAD~2)"
    );
    // A commit id (any abbreviation, any case) is not repeated.
    assert_eq!(
        revision("63211bc0d1", SHA, "63211bc").label(),
        "pacquet @ 63211bc"
    );
    assert_eq!(
        revision("63211BC", SHA, "63211bc").label(),
        "pacquet @ 63211bc"
    );
    assert_eq!(revision(SHA, SHA, "63211bc").label(), "pacquet @ 63211bc");
    // A branch that happens to be hex but names another commit keeps its name.
    assert_eq!(
        revision("beef", SHA, "63211bc").label(),
        "pacquet @ 63211bc (beef)"
    );
}

#[test]
fn working_tree_and_head_stay_apart_on_a_clean_tree() {
    let a = working_tree("63211bc").label();
    let b = revision("HEAD", SHA, "63211bc").label();
    assert_ne!(a, b);
    assert_ne!(crate::setup::slug(&a), crate::setup::slug(&b));
}

#[test]
fn provenance_says_how_the_commit_was_found() {
    let dirty = working_tree("63211bc-dirty").provenance();
    assert!(dirty.contains("`git describe --always --dirty` = `63211bc-dirty`"));
    assert!(dirty.contains("uncommitted changes"));
    assert!(!working_tree("63211bc").provenance().contains("uncommitted"));
    assert_eq!(
        revision("main", SHA, "63211bc").provenance(),
        "`main` resolved to 63211bc0d1e2 before building; `git describe --always` = `63211bc`"
    );
}

#[test]
fn heading_names_the_one_commit_or_every_label() {
    let wt = working_tree("63211bc-dirty");
    let main = revision("main", SHA, "5f0e2aa");
    assert_eq!(heading(&[]), None);
    assert_eq!(
        heading(&[(wt.label().as_str(), Some(&wt))]).as_deref(),
        Some("pacquet @ 63211bc-dirty")
    );
    assert_eq!(
        heading(&[("pacquet (prebuilt)", None)]).as_deref(),
        Some("pacquet (prebuilt), commit unknown")
    );
    assert_eq!(
        heading(&[
            (main.label().as_str(), Some(&main)),
            (wt.label().as_str(), Some(&wt)),
        ])
        .as_deref(),
        Some("pacquet @ 5f0e2aa (main) vs pacquet @ 63211bc-dirty (working tree)")
    );
}
