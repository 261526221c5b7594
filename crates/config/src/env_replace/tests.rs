use std::collections::HashMap;

use super::{env_replace, has_placeholder};

fn env() -> HashMap<String, String> {
    HashMap::from([("TOK".to_owned(), "tk".to_owned())])
}

#[test]
fn expands_like_pnpm() {
    let env = env();
    assert_eq!(
        env_replace("https://${TOK}.example/", &env),
        "https://tk.example/"
    );
    assert_eq!(
        env_replace("https://${UNSET}.example/", &env),
        "https://.example/"
    );
    assert_eq!(
        env_replace("https://${UNSET:-dflt}.example/", &env),
        "https://dflt.example/"
    );
    assert_eq!(
        env_replace("https://\\${TOK}.example/", &env),
        "https://${TOK}.example/"
    );
    assert_eq!(
        env_replace("https://$TOK.example/", &env),
        "https://$TOK.example/"
    );
    assert_eq!(env_replace("a${TOK}b${TOK}", &env), "atkbtk");
    assert_eq!(env_replace("open ${TOK", &env), "open ${TOK");
}

#[test]
fn detects_placeholders() {
    assert!(has_placeholder("${A}"));
    assert!(has_placeholder("x\\${A} ${B}"));
    assert!(!has_placeholder("\\${A}"));
    assert!(!has_placeholder("$A"));
    assert!(!has_placeholder("${A"));
}
