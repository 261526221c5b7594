use std::path::Path;

use clap::Parser;

use super::*;
use crate::Args;
use crate::commit::WORKING_TREE;

fn machine() -> Machine {
    Machine {
        cpu: "AMD EPYC".into(),
        cores: 2,
        memory: "23.5 GiB".into(),
        filesystem: "ext4".into(),
        kernel: "6.18.44".into(),
        hyperfine: "hyperfine 1.15.0".into(),
        load: "0.10 0.20 0.30".into(),
    }
}

fn timed(mut row: Row, median: f64) -> Row {
    row.median = median;
    row.mean = median;
    row.stddev = 0.01;
    row.min = median - 0.02;
    row.max = median + 0.02;
    row
}

fn pacquet(commit: Commit) -> Row {
    let mut row = Row::new(
        commit.label(),
        ToolKind::Pacquet,
        "pacquet install".into(),
        "true".into(),
        "pacquet 0.1.0".into(),
    );
    row.commit = Some(commit);
    timed(row, 0.63)
}

fn pnpm() -> Row {
    timed(
        Row::new(
            "pnpm 12.21.0".into(),
            ToolKind::Pnpm,
            "pnpm install".into(),
            "true".into(),
            "12.21.0".into(),
        ),
        1.29,
    )
}

fn working_tree() -> Commit {
    Commit {
        revision: WORKING_TREE.into(),
        sha: None,
        describe: "63211bc-dirty".into(),
    }
}

fn main_branch() -> Commit {
    Commit {
        revision: "main".into(),
        sha: Some("5f0e2aa0000000000000000000000000000000aa".into()),
        describe: "5f0e2aa".into(),
    }
}

const DATE: &str = "2026-11-23 01:15 UTC";

fn report<'a>(args: &'a Args, rows: &'a [Row], machine: &'a Machine) -> Report<'a> {
    Report {
        dir: Path::new("/nonexistent"),
        fixture: "alotta",
        scenario: crate::Scenario::Warm,
        args,
        rows,
        notes: &[],
        machine,
        work: Path::new("/work"),
        repo: Path::new("/repo"),
        hyperfine_json: Path::new("/nonexistent.json"),
        date: DATE,
    }
}

#[test]
fn the_markdown_heading_names_the_commit_date_and_machine() {
    let args = Args::parse_from(["integrated-benchmark"]);
    let machine = machine();
    let rows = [pacquet(working_tree()), pnpm()];
    let md = markdown(&report(&args, &rows, &machine));
    let head: Vec<&str> = md.lines().take(6).collect();
    assert_eq!(
        head,
        [
            "# alotta: warm — pacquet @ 63211bc-dirty",
            "",
            "- pacquet @ 63211bc-dirty (working tree): this checkout as it was built; \
             `git describe --always --dirty` = `63211bc-dirty` (tracked files had uncommitted \
             changes, so the commit alone does not reproduce this build)",
            "- Date: 2026-11-23 01:15 UTC",
            "- Machine: 2 cores (AMD EPYC), 23.5 GiB RAM, ext4 work dir, Linux 6.18.44",
            "",
        ]
    );
    assert!(md.contains("Measured with `just bench --scenario warm --fixture alotta`:"));
    assert!(md.contains("| pacquet @ 63211bc-dirty (working tree) | **0.630** |"));
    assert!(md.contains("- **pacquet @ 63211bc-dirty (working tree)** (pacquet 0.1.0)"));
}

#[test]
fn two_revisions_are_both_in_the_heading_and_the_invocation() {
    let args = Args::parse_from(["integrated-benchmark", "--revision", "main,working-tree"]);
    let machine = machine();
    let rows = [pacquet(main_branch()), pacquet(working_tree()), pnpm()];
    let md = markdown(&report(&args, &rows, &machine));
    assert!(md.starts_with(
        "# alotta: warm — pacquet @ 5f0e2aa (main) vs pacquet @ 63211bc-dirty (working tree)\n"
    ));
    assert!(md.contains(
        "- pacquet @ 5f0e2aa (main): `main` resolved to 5f0e2aa00000 before building; \
         `git describe --always` = `5f0e2aa`\n"
    ));
    assert!(
        md.contains("`just bench --scenario warm --fixture alotta --revision main,working-tree`")
    );
}

#[test]
fn without_pacquet_the_heading_is_the_scenario() {
    let args = Args::parse_from(["integrated-benchmark", "--no-pacquet"]);
    let machine = machine();
    let rows = [pnpm()];
    let md = markdown(&report(&args, &rows, &machine));
    assert!(md.starts_with("# alotta: warm\n\n- Date: 2026-11-23 01:15 UTC\n"));
    assert!(md.contains("--no-pacquet`"));
}

#[test]
fn a_prebuilt_binary_says_its_commit_is_unknown() {
    let args = Args::parse_from(["integrated-benchmark", "--pacquet-bin", "/tmp/pacquet"]);
    let machine = machine();
    let rows = [timed(
        Row::new(
            "pacquet (prebuilt)".into(),
            ToolKind::Pacquet,
            "pacquet install".into(),
            "true".into(),
            "pacquet 0.1.0".into(),
        ),
        0.7,
    )];
    let md = markdown(&report(&args, &rows, &machine));
    assert!(md.starts_with("# alotta: warm — pacquet (prebuilt), commit unknown\n"));
    assert!(md.contains(
        "- pacquet (prebuilt): a prebuilt binary (`pacquet 0.1.0`); its commit is unknown\n"
    ));
}

#[test]
fn the_json_leads_with_what_was_measured_and_keeps_hyperfine_results() {
    let args = Args::parse_from(["integrated-benchmark"]);
    let machine = machine();
    let rows = [pacquet(working_tree()), pnpm()];
    let hyperfine = serde_json::json!({"results": [
        {"command": "pacquet @ 63211bc-dirty (working tree)", "median": 0.63},
        {"command": "pnpm 12.21.0", "median": 1.29},
    ]});
    let doc = with_provenance(&report(&args, &rows, &machine), hyperfine.clone());
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys, ["benchmark", "results"]);
    assert_eq!(doc["results"], hyperfine["results"]);
    let meta = &doc["benchmark"];
    assert_eq!(meta["heading"], "pacquet @ 63211bc-dirty");
    assert_eq!(meta["date"], DATE);
    assert_eq!(
        meta["machine"],
        "2 cores (AMD EPYC), 23.5 GiB RAM, ext4 work dir, Linux 6.18.44"
    );
    assert_eq!(
        meta["pacquet"],
        serde_json::json!([{
            "label": "pacquet @ 63211bc-dirty (working tree)",
            "version": "pacquet 0.1.0",
            "revision": "working-tree",
            "commit": "63211bc-dirty",
            "sha": null,
        }])
    );
}

#[test]
fn the_chart_shows_the_labels_commit_date_and_machine() {
    let args = Args::parse_from(["integrated-benchmark"]);
    let machine = machine();
    let rows = [pacquet(working_tree()), pnpm()];
    let svg = chart(&report(&args, &rows, &machine));
    assert!(svg.contains(">pacquet @ 63211bc-dirty (working tree)</text>"));
    assert!(svg.contains(">pacquet @ 63211bc-dirty · 2026-11-23 01:15 UTC</text>"));
    assert!(svg.contains(">2 cores (AMD EPYC), 23.5 GiB RAM, ext4 work dir, Linux 6.18.44</text>"));
}

#[test]
fn the_label_column_grows_with_the_longest_label() {
    assert_eq!(
        label_width(["pnpm 12.21.0", "floor: cp -al"].into_iter()),
        230.0
    );
    let long = "pacquet @ v0.1.0-12-g63211bc-dirty (working tree)";
    assert_eq!(
        label_width([long, "pnpm 12.21.0"].into_iter()),
        long.len() as f64 * 7.0 + 20.0
    );
}

#[test]
fn cpu_times_are_the_medians_of_each_runs_times() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("h.json");
    std::fs::write(
        &json,
        r#"{"results": [
            {"median": 1.5, "mean": 1.6, "stddev": 0.1, "min": 1.4, "max": 1.9,
             "user": 9.0, "system": 9.0,
             "user_times": [0.5, 0.7, 0.6], "system_times": [1.0, 3.0, 2.0, 4.0]},
            {"median": 3.0, "mean": 3.0, "stddev": 0.0, "min": 3.0, "max": 3.0,
             "user": 1.25, "system": 2.5}
        ]}"#,
    )
    .unwrap();
    let mut rows = [pacquet(working_tree()), pnpm()];
    fill_times(&json, &mut rows).unwrap();
    assert_eq!((rows[0].user, rows[0].system), (0.6, 2.5));
    // hyperfine's own export has only the means.
    assert_eq!((rows[1].user, rows[1].system), (1.25, 2.5));
    let args = Args::parse_from(["integrated-benchmark"]);
    let machine = machine();
    let md = markdown(&report(&args, &rows, &machine));
    assert!(md.contains("| **1.500** | 1.600 ± 0.100 | 1.400 | 1.900 | 0.600 + 2.500 | 0.50× |"));
}
