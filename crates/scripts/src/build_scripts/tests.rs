use serde_json::json;

use super::*;

#[test]
fn requires_build_from_scripts_or_gyp() {
    assert!(!requires_build(&json!({"name": "a"}), false));
    assert!(!requires_build(
        &json!({"scripts": {"test": "x", "prepare": "y"}}),
        false
    ));
    assert!(!requires_build(
        &json!({"scripts": {"postinstall": ""}}),
        false
    ));
    assert!(requires_build(
        &json!({"scripts": {"postinstall": "node x"}}),
        false
    ));
    assert!(requires_build(
        &json!({"scripts": {"preinstall": "node x"}}),
        false
    ));
    assert!(requires_build(
        &json!({"scripts": {"install": "node x"}}),
        false
    ));
    assert!(requires_build(&json!({"name": "ps-gyp"}), true));
}

#[test]
fn build_files() {
    assert!(files_require_build(
        ["package.json", "binding.gyp"].into_iter()
    ));
    assert!(files_require_build([".hooks/pre"].into_iter()));
    assert!(!files_require_build(
        ["src/binding.gyp", "package.json"].into_iter()
    ));
}

#[test]
fn scripts_in_stage_order() {
    let m =
        json!({"scripts": {"postinstall": "c", "install": "b", "preinstall": "a", "test": "t"}});
    assert_eq!(
        dependency_scripts(&m, false),
        vec![
            ("preinstall", "a".to_string()),
            ("install", "b".to_string()),
            ("postinstall", "c".to_string())
        ]
    );
}

#[test]
fn implicit_node_gyp_rebuild() {
    assert_eq!(
        dependency_scripts(&json!({}), true),
        vec![("install", "node-gyp rebuild".to_string())]
    );
    let m = json!({"scripts": {"postinstall": "p"}});
    assert_eq!(
        dependency_scripts(&m, true),
        vec![
            ("install", "node-gyp rebuild".to_string()),
            ("postinstall", "p".to_string())
        ]
    );
    // An explicit install or preinstall replaces the implicit rebuild.
    let m = json!({"scripts": {"install": "own"}});
    assert_eq!(
        dependency_scripts(&m, true),
        vec![("install", "own".to_string())]
    );
    let m = json!({"scripts": {"preinstall": "pre"}});
    assert_eq!(
        dependency_scripts(&m, true),
        vec![("preinstall", "pre".to_string())]
    );
    assert!(dependency_scripts(&json!({}), false).is_empty());
}
