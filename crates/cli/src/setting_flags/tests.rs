use std::collections::HashSet;

use super::split;

fn run(args: &[&str]) -> (Vec<(String, String)>, Vec<String>) {
    let split = split_of(args);
    (split.pairs, split.rest)
}

fn split_of(args: &[&str]) -> super::Split {
    let claimed: HashSet<String> = ["store-dir", "no-optional", "prod", "frozen-lockfile"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    split(args.iter().map(|a| a.to_string()).collect(), &claimed)
}

#[test]
fn the_node_linker_flag_is_told_apart() {
    assert!(split_of(&["--node-linker", "hoisted"]).node_linker_flag);
    assert!(!split_of(&["--config.node-linker=hoisted"]).node_linker_flag);
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn settings_become_config_pairs() {
    let (p, rest) = run(&[
        "pacquet",
        "install",
        "--shamefully-hoist",
        "--node-linker",
        "hoisted",
        "--virtual-store-dir=.vs",
        "--no-hoist",
        "--config.child-concurrency=2",
        "--frozen-lockfile",
    ]);
    assert_eq!(
        p,
        pairs(&[
            ("shamefully-hoist", "true"),
            ("node-linker", "hoisted"),
            ("virtual-store-dir", ".vs"),
            ("hoist", "false"),
            ("child-concurrency", "2"),
        ])
    );
    assert_eq!(rest, ["pacquet", "install", "--frozen-lockfile"]);
}

#[test]
fn claimed_unknown_and_trailing_flags_stay_for_clap() {
    let (p, rest) = run(&[
        "install",
        "--store-dir",
        "s",
        "--no-optional",
        "--shamefuly-hoist",
        "--node-linker",
        "--",
        "--shamefully-hoist",
    ]);
    assert!(p.is_empty(), "{p:?}");
    assert_eq!(
        rest,
        [
            "install",
            "--store-dir",
            "s",
            "--no-optional",
            "--shamefuly-hoist",
            "--node-linker",
            "--",
            "--shamefully-hoist"
        ]
    );
}

#[test]
fn a_boolean_flag_may_take_true_or_false() {
    let (p, rest) = run(&["--side-effects-cache", "false", "--offline-x"]);
    assert_eq!(p, pairs(&[("side-effects-cache", "false")]));
    assert_eq!(rest, ["--offline-x"]);
}
