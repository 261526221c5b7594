use serde_json::json;

use super::{merge, order};

fn names() -> Vec<String> {
    vec!["pacquet".into(), "pnpm".into(), "bun".into()]
}

/// One round's export, commands in the order given, one run each.
fn round(runs: &[(&str, f64, f64, f64, i64)]) -> serde_json::Value {
    let results: Vec<_> = runs
        .iter()
        .map(|(name, t, user, system, code)| {
            json!({"command": name, "mean": t, "stddev": null, "median": t,
                   "user": user, "system": system, "min": t, "max": t,
                   "times": [t], "exit_codes": [code]})
        })
        .collect();
    json!({ "results": results })
}

#[test]
fn every_tool_leads_a_round_in_turn() {
    assert_eq!(order(0, 3), vec![0, 1, 2]);
    assert_eq!(order(1, 3), vec![1, 2, 0]);
    assert_eq!(order(2, 3), vec![2, 0, 1]);
    assert_eq!(order(3, 3), vec![0, 1, 2]);
    assert_eq!(order(7, 1), vec![0]);
    assert!(order(2, 0).is_empty());
}

#[test]
fn rounds_merge_per_tool_in_the_given_order_whatever_the_round_order() {
    let rounds = [
        round(&[
            ("pacquet", 3.0, 1.0, 2.0, 0),
            ("pnpm", 5.0, 2.0, 3.0, 0),
            ("bun", 2.0, 0.5, 1.5, 0),
        ]),
        round(&[
            ("pnpm", 6.0, 2.5, 3.5, 0),
            ("bun", 4.0, 0.7, 1.7, 0),
            ("pacquet", 1.0, 0.8, 1.8, 0),
        ]),
        round(&[
            ("bun", 3.0, 0.6, 1.6, 0),
            ("pacquet", 2.0, 0.9, 1.9, 0),
            ("pnpm", 7.0, 3.0, 4.0, 0),
        ]),
        round(&[
            ("pacquet", 10.0, 1.1, 2.1, 0),
            ("pnpm", 8.0, 3.5, 4.5, 0),
            ("bun", 1.0, 0.4, 1.4, 0),
        ]),
    ];
    let merged = merge(&names(), &rounds).unwrap();
    let results = merged["results"].as_array().unwrap();
    let commands: Vec<_> = results
        .iter()
        .map(|r| r["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands, ["pacquet", "pnpm", "bun"]);

    let pacquet = &results[0];
    assert_eq!(pacquet["times"], json!([3.0, 1.0, 2.0, 10.0]));
    assert_eq!(pacquet["median"], json!(2.5));
    assert_eq!(pacquet["mean"], json!(4.0));
    assert_eq!(pacquet["min"], json!(1.0));
    assert_eq!(pacquet["max"], json!(10.0));
    // Sample deviation of 3, 1, 2, 10 around 4: sqrt((1 + 9 + 4 + 36) / 3).
    let sd = pacquet["stddev"].as_f64().unwrap();
    assert!((sd - (50.0f64 / 3.0).sqrt()).abs() < 1e-12, "{sd}");
    assert_eq!(pacquet["user_times"], json!([1.0, 0.8, 0.9, 1.1]));
    let user = pacquet["user"].as_f64().unwrap();
    assert!((user - 0.95).abs() < 1e-12, "{user}");
    assert_eq!(pacquet["exit_codes"], json!([0, 0, 0, 0]));

    let bun = &results[2];
    assert_eq!(bun["times"], json!([2.0, 4.0, 3.0, 1.0]));
    assert_eq!(bun["median"], json!(2.5));
    assert_eq!(bun["system_times"], json!([1.5, 1.7, 1.6, 1.4]));
}

#[test]
fn one_round_has_a_median_but_no_deviation() {
    let rounds = [round(&[
        ("pacquet", 3.0, 1.0, 2.0, 0),
        ("pnpm", 5.0, 2.0, 3.0, 0),
        ("bun", 2.0, 0.5, 1.5, 0),
    ])];
    let merged = merge(&names(), &rounds).unwrap();
    assert_eq!(merged["results"][1]["median"], json!(5.0));
    assert!(merged["results"][1]["stddev"].is_null());
}

#[test]
fn a_round_that_misses_or_repeats_a_tool_is_refused() {
    let missing = [round(&[
        ("pacquet", 3.0, 1.0, 2.0, 0),
        ("bun", 2.0, 0.5, 1.5, 0),
    ])];
    let err = merge(&names(), &missing).unwrap_err();
    assert!(err.contains("round 1: \"pnpm\" was not timed"), "{err}");

    let twice = [round(&[
        ("pacquet", 3.0, 1.0, 2.0, 0),
        ("pnpm", 5.0, 2.0, 3.0, 0),
        ("pnpm", 5.0, 2.0, 3.0, 0),
        ("bun", 2.0, 0.5, 1.5, 0),
    ])];
    let err = merge(&names(), &twice).unwrap_err();
    assert!(err.contains("timed twice"), "{err}");

    let stranger = [round(&[("yarn", 3.0, 1.0, 2.0, 0)])];
    assert!(
        merge(&names(), &stranger)
            .unwrap_err()
            .contains("unknown command")
    );
}

#[test]
fn a_round_of_several_runs_per_tool_is_refused() {
    let mut r = round(&[
        ("pacquet", 3.0, 1.0, 2.0, 0),
        ("pnpm", 5.0, 2.0, 3.0, 0),
        ("bun", 2.0, 0.5, 1.5, 0),
    ]);
    r["results"][0]["times"] = json!([3.0, 4.0]);
    let err = merge(&names(), &[r]).unwrap_err();
    assert!(err.contains("exactly one time"), "{err}");
}
