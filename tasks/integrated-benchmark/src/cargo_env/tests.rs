use super::env_keys;

#[test]
fn keys_of_the_env_table_only() {
    let config = r#"
[build]
rustflags = ["-C", "x"]

[env]
# a comment = not a key
CFLAGS = "-DX=0"
"QUOTED" = { value = "1", force = true }

[target.x86_64-unknown-linux-gnu]
linker = "cc"
"#;
    assert_eq!(env_keys(config), ["CFLAGS", "QUOTED"]);
}

#[test]
fn no_env_table_no_keys() {
    assert!(env_keys("[build]\njobs = 2\n").is_empty());
}
