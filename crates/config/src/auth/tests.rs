use pretty_assertions::assert_eq;

use super::{Credentials, PerRegistryKey, parse_per_registry_key};
use crate::ConfigError;

fn creds(entries: &[(&str, &str)]) -> Credentials {
    Credentials::from_entries(entries.iter().map(|(k, v)| (k.to_string(), v.to_string())))
        .expect("valid credentials")
}

#[test]
fn parses_per_registry_keys() {
    assert_eq!(
        parse_per_registry_key("//npm.corp.io:8443/api/npm/:@corp:_authToken"),
        Some(PerRegistryKey {
            prefix: "//npm.corp.io:8443/api/npm/".to_owned(),
            scope: Some("@corp".to_owned()),
            field: "_authToken".to_owned(),
        })
    );
    assert_eq!(
        parse_per_registry_key("//npm.corp.io:8443/:_auth"),
        Some(PerRegistryKey {
            prefix: "//npm.corp.io:8443/".to_owned(),
            scope: None,
            field: "_auth".to_owned(),
        })
    );
    assert_eq!(parse_per_registry_key("registry"), None);
}

#[test]
fn nerf_dart_walks_from_the_tarball_dir_to_the_host() {
    let url = "https://npm.corp.io:8443/api/npm/@corp/x/-/x-1.0.0.tgz";
    for key in [
        "//npm.corp.io:8443/api/npm/@corp/x/-/",
        "//npm.corp.io:8443/api/npm/@corp/x/",
        "//npm.corp.io:8443/api/npm/@corp/",
        "//npm.corp.io:8443/api/npm/",
        "//npm.corp.io:8443/api/",
        "//npm.corp.io:8443/",
    ] {
        let c = creds(&[(&format!("{key}:_authToken"), "t")]);
        assert_eq!(
            c.authorization_for(url, None).as_deref(),
            Some("Bearer t"),
            "{key}"
        );
    }
}

#[test]
fn longest_prefix_wins() {
    let c = creds(&[
        ("//reg.example/:_authToken", "short"),
        ("//reg.example/api/npm/:_authToken", "long"),
    ]);
    assert_eq!(
        c.authorization_for("https://reg.example/api/npm/x/-/x-1.0.0.tgz", None)
            .as_deref(),
        Some("Bearer long")
    );
    assert_eq!(
        c.authorization_for("https://reg.example/other/x/-/x-1.0.0.tgz", None)
            .as_deref(),
        Some("Bearer short")
    );
}

#[test]
fn drops_scheme_query_fragment_and_default_ports() {
    let c = creds(&[("//reg.example/npm/:_authToken", "t")]);
    for url in [
        "https://reg.example/npm/x/-/x-1.0.0.tgz?a=b#frag",
        "https://reg.example:443/npm/x/-/x-1.0.0.tgz",
        "http://reg.example:80/npm/x/-/x-1.0.0.tgz",
        "http://reg.example/npm/",
    ] {
        assert_eq!(
            c.authorization_for(url, None).as_deref(),
            Some("Bearer t"),
            "{url}"
        );
    }
    assert_eq!(
        c.authorization_for("https://other.example/npm/x", None),
        None
    );
    assert_eq!(c.authorization_for("https://reg.example/np/x", None), None);
}

#[test]
fn scope_specific_keys_come_first() {
    let c = creds(&[
        ("//reg.example/api/npm/:_authToken", "deep-generic"),
        ("//reg.example/:@corp:_authToken", "scoped"),
    ]);
    let url = "https://reg.example/api/npm/@corp/x/-/x-1.0.0.tgz";
    assert_eq!(
        c.authorization_for(url, Some("@corp/x")).as_deref(),
        Some("Bearer scoped")
    );
    assert_eq!(
        c.authorization_for(url, Some("@other/x")).as_deref(),
        Some("Bearer deep-generic")
    );
    assert_eq!(
        c.authorization_for(url, None).as_deref(),
        Some("Bearer deep-generic")
    );
}

#[test]
fn explicit_port_falls_back_to_the_portless_keys() {
    let c = creds(&[("//npm.corp.io/api/:_authToken", "noport")]);
    assert_eq!(
        c.authorization_for("https://npm.corp.io:8443/api/npm/x/-/x-1.0.0.tgz", None)
            .as_deref(),
        Some("Bearer noport")
    );
    let both = creds(&[
        ("//npm.corp.io/api/npm/:_authToken", "noport"),
        ("//npm.corp.io:8443/:_authToken", "port"),
    ]);
    assert_eq!(
        both.authorization_for("https://npm.corp.io:8443/api/npm/x/-/x-1.0.0.tgz", None)
            .as_deref(),
        Some("Bearer port")
    );
}

#[test]
fn url_userinfo_takes_precedence() {
    let c = creds(&[("//reg.example/:_authToken", "t")]);
    // "u:p" → dTpw
    assert_eq!(
        c.authorization_for("https://u:p@reg.example/x/-/x-1.0.0.tgz", None)
            .as_deref(),
        Some("Basic dTpw")
    );
}

#[test]
fn auth_forms() {
    // "user:pass" → dXNlcjpwYXNz ; "pass" → cGFzcw==
    let c = creds(&[
        ("//a.example/:_auth", "dXNlcjpwYXNz"),
        ("//b.example/:username", "user"),
        ("//b.example/:_password", "cGFzcw=="),
        // "ab:c" → YWI6Yw== ; padding omitted
        ("//c.example/:_auth", "YWI6Yw"),
        ("//d.example/:username", "only-user"),
    ]);
    assert_eq!(
        c.authorization_for("https://a.example/x", None).as_deref(),
        Some("Basic dXNlcjpwYXNz")
    );
    assert_eq!(
        c.authorization_for("https://b.example/x", None).as_deref(),
        Some("Basic dXNlcjpwYXNz")
    );
    assert_eq!(
        c.authorization_for("https://c.example/x", None).as_deref(),
        Some("Basic YWI6Yw==")
    );
    assert_eq!(c.authorization_for("https://d.example/x", None), None);
}

#[test]
fn token_beats_basic_and_first_source_wins() {
    let c = creds(&[
        ("//a.example/:_authToken", "env"),
        ("//a.example/:_authToken", "npmrc"),
        ("//a.example/:_auth", "dXNlcjpwYXNz"),
    ]);
    assert_eq!(
        c.authorization_for("https://a.example/x", None).as_deref(),
        Some("Bearer env")
    );
}

#[test]
fn invalid_auth_is_rejected() {
    let err =
        Credentials::from_entries([("//a.example/:_auth".to_owned(), "!!!notb64".to_owned())])
            .expect_err("invalid base64");
    assert!(
        matches!(err, ConfigError::AuthInvalidBase64 { .. }),
        "{err:?}"
    );
    // "foobar" has no colon.
    let err = Credentials::from_entries([("//a.example/:_auth".to_owned(), "Zm9vYmFy".to_owned())])
        .expect_err("no separator");
    assert!(
        matches!(err, ConfigError::AuthMissingSeparator { .. }),
        "{err:?}"
    );
}

#[test]
fn debug_never_prints_tokens() {
    let c = creds(&[("//a.example/:_authToken", "supersecret")]);
    let text = format!("{c:?}");
    assert!(!text.contains("supersecret"), "{text}");
    assert!(text.contains("//a.example/:_authToken"), "{text}");
}
