use super::*;
use pretty_assertions::assert_eq;

fn name(key: &str) -> String {
    dep_path_to_filename(key, DEFAULT_VIRTUAL_STORE_DIR_MAX_LENGTH)
}

#[test]
fn plain_and_scoped() {
    assert_eq!(name("chalk@4.1.2"), "chalk@4.1.2");
    assert_eq!(name("@sindresorhus/is@4.6.0"), "@sindresorhus+is@4.6.0");
}

#[test]
fn peer_suffixes() {
    assert_eq!(
        name("use-sync-external-store@1.2.0(react@18.3.1)"),
        "use-sync-external-store@1.2.0_react@18.3.1"
    );
    assert_eq!(
        name("a@1.0.0(b@2.0.0(c@3.0.0))(d@4.0.0)"),
        "a@1.0.0_b@2.0.0_c@3.0.0__d@4.0.0"
    );
}

#[test]
fn uppercase_and_max_length() {
    assert_eq!(
        name("JSONStream@1.3.5"),
        "JSONStream@1.3.5_fb8f73c374dcf7070ffed90b688edabd"
    );
    assert_eq!(
        dep_path_to_filename("JSONStream@1.3.5", 40),
        "JSONStr_fb8f73c374dcf7070ffed90b688edabd"
    );
    assert_eq!(
        dep_path_to_filename("use-sync-external-store@1.2.0(react@18.3.1)", 40),
        "use-syn_975ea3b66502370165f84e4627fbf98e"
    );
}

#[test]
fn file_keys() {
    assert_eq!(
        name("is-odd@file:is-odd-3.0.1.tgz"),
        "is-odd@file+is-odd-3.0.1.tgz"
    );
    assert_eq!(name("localdir@file:localdir"), "localdir@file+localdir");
    assert_eq!(name("subdir@file:sub/dir"), "subdir@file+sub+dir");
    assert_eq!(
        name("a@file:local+x.tgz"),
        "a@file+local+x.tgz_2e22338d806a81fce74f656a8d7b3b9f"
    );
    assert_eq!(
        name("parent@file:.."),
        "parent@file+++_620c69c9d1b199bdb48d1596b7f432eb"
    );
}

#[test]
fn url_keys() {
    assert_eq!(
        name("a@https://pkgs.example.com/a-1.0.0.tgz"),
        "a@https+++pkgs.example.com+a-1.0.0.tgz"
    );
    assert_eq!(
        name("a@https://pkgs.example.com/a-1.0.0.tgz?x=1"),
        "a@https+++pkgs.example.com+a-1.0.0.tgz+x=1_a470202406ae069eb96d4fcda73cdd17"
    );
    assert_eq!(
        name("a@https://pkgs.example.com:8443/a-1.0.0.tgz"),
        "a@https+++pkgs.example.com+8443+a-1.0.0.tgz_d07624d76e4103085f900a301342e753"
    );
}

#[test]
fn legacy_leading_slash_is_dropped() {
    assert_eq!(name("/chalk@4.1.2"), "chalk@4.1.2");
}

#[test]
fn long_names_are_cut_on_a_char_boundary() {
    let key = format!("{}@1.0.0", "é".repeat(100));
    let out = dep_path_to_filename(&key, 120);
    assert!(out.len() <= 120);
    assert!(out.ends_with(&short_hash(&key)));
}

/// Observed with pnpm 12.21: a git key with capitals in the repository path
/// keeps them, with only the step-4 hash of the raw key.
#[test]
fn uppercase_in_an_ambiguous_url_key_is_kept() {
    assert_eq!(
        name("pq-git@git+file:///tmp/.tmpMR4A1g/repo#fba4f59f74afc0c5e603520d8becb5dbe25284f9"),
        "pq-git@git+file++++tmp+.tmpMR4A1g+repo+fba4f59f74afc0c5e603520d8becb5dbe25284f9_afaaa82a4f32359c9e4414a94207d05d"
    );
}

/// Observed with pnpm 12.21: too long after the step-4 hash, the name is
/// cut and the raw key is hashed.
#[test]
fn long_ambiguous_url_key_hashes_the_raw_key() {
    assert_eq!(
        name(
            "pq-sub@git+file:///tmp/dkx/mono#873e68ae4200e302f6fc391ddb90fb72a7f06465&path:packages/sub"
        ),
        "pq-sub@git+file++++tmp+dkx+mono+873e68ae4200e302f6fc391ddb90fb72a7f06465&path+packages+_20962ac58a07b351f68dbc507822b3dc"
    );
}
