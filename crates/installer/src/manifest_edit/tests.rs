use super::*;

fn add(group: &'static str, alias: &str, specifier: &str) -> Edit {
    Edit::Add {
        group,
        alias: alias.to_owned(),
        specifier: specifier.to_owned(),
    }
}

#[test]
fn keeps_indentation_key_order_and_final_newline() {
    let text = "{\n    \"name\": \"p\",\n    \"dependencies\": {\n        \"z\": \"1\",\n        \"b\": \"2\"\n    },\n    \"scripts\": {}\n}\n";
    let out = edit(text, &[add("dependencies", "a", "^1.0.0")])
        .unwrap()
        .text;
    assert_eq!(
        out,
        "{\n    \"name\": \"p\",\n    \"dependencies\": {\n        \"a\": \"^1.0.0\",\n        \"b\": \"2\",\n        \"z\": \"1\"\n    },\n    \"scripts\": {}\n}\n"
    );
    let tabs = "{\n\t\"name\": \"p\"\n}";
    assert_eq!(
        edit(tabs, &[add("devDependencies", "x", "1.0.0")])
            .unwrap()
            .text,
        "{\n\t\"name\": \"p\",\n\t\"devDependencies\": {\n\t\t\"x\": \"1.0.0\"\n\t}\n}"
    );
}

#[test]
fn a_manifest_on_one_line_stays_on_one_line() {
    // pnpm 12.21 keeps it compact, and keeps the final newline.
    let out = edit("{\"name\":\"x\"}\n", &[add("dependencies", "a", "^1.0.0")]).unwrap();
    assert_eq!(
        out.text,
        "{\"name\":\"x\",\"dependencies\":{\"a\":\"^1.0.0\"}}\n"
    );
}

#[test]
fn a_dependency_moves_between_groups() {
    let text = r#"{"dependencies": {"a": "1"}, "peerDependencies": {"a": "*"}}"#;
    let out = edit(text, &[add("devDependencies", "a", "2")])
        .unwrap()
        .text;
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        value["dependencies"],
        serde_json::json!({}),
        "an emptied group stays after a move"
    );
    assert_eq!(value["devDependencies"]["a"], "2");
    assert_eq!(value["peerDependencies"]["a"], "*", "peers stay");
}

#[test]
fn remove_takes_every_group_and_refuses_unknown_names() {
    let text = r#"{"dependencies": {"a": "1", "b": "1"}, "peerDependencies": {"a": "*"}}"#;
    let out = edit(
        text,
        &[Edit::Remove {
            alias: "a".to_owned(),
        }],
    )
    .unwrap();
    let value: Value = serde_json::from_str(&out.text).unwrap();
    assert_eq!(value["dependencies"], serde_json::json!({"b": "1"}));
    assert!(
        value.get("peerDependencies").is_none(),
        "an emptied group goes"
    );
    assert_eq!(
        out.in_memory["peerDependencies"],
        serde_json::json!({}),
        "but pnpm holds it in memory"
    );
    assert_eq!(
        edit(
            text,
            &[Edit::Remove {
                alias: "nope".to_owned()
            }]
        ),
        Err(EditError::Missing(vec!["nope".to_owned()]))
    );
    assert!(matches!(edit("[1]", &[]), Err(EditError::NotAnObject)));
    assert!(matches!(edit("{", &[]), Err(EditError::NotJson(_))));
}
