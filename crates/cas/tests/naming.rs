//! Blob names and paths (docs/store.md §3) and temp names (§4.5).

use std::path::Path;

use pacquet_cas::{Cas, sha512_hex, temp_file_name};

const IS_NUMBER_PACKAGE_JSON: &str = "db867983ce66f97957d9754aea41f251d5f78453693b153adb8a17f1196c5a997f53329b6883d2c34e9e91338d8be8c925d5b0f8d38005f50572506fa0aa92be";

/// The real `is-number@7.0.0/package.json` blob pnpm 12 wrote, kept as a
/// fixture by `pacquet-store-index`.
fn is_number_package_json() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../store-index/tests/fixtures/interop/store/v11/files/db")
        .join(&IS_NUMBER_PACKAGE_JSON[2..]);
    std::fs::read(path).expect("fixture blob")
}

#[test]
fn digest_is_lowercase_hex_sha512_of_the_content() {
    assert_eq!(
        sha512_hex(&is_number_package_json()),
        IS_NUMBER_PACKAGE_JSON
    );
    assert_eq!(
        sha512_hex(b""),
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
    );
}

#[test]
fn path_is_shard_then_rest_like_the_spec_example() {
    let cas = Cas::new(Path::new("/s/v11"));
    assert_eq!(cas.files_dir(), Path::new("/s/v11/files"));
    assert_eq!(
        cas.file_path(IS_NUMBER_PACKAGE_JSON, false),
        Path::new(
            "/s/v11/files/db/867983ce66f97957d9754aea41f251d5f78453693b153adb8a17f1196c5a997f53329b6883d2c34e9e91338d8be8c925d5b0f8d38005f50572506fa0aa92be"
        )
    );
}

#[test]
fn executable_blobs_get_the_exec_suffix() {
    let cas = Cas::new(Path::new("/s/v11"));
    let path = cas.file_path(IS_NUMBER_PACKAGE_JSON, true);
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(name.ends_with("a92be-exec"), "{name}");
    assert_eq!(path.parent().unwrap(), Path::new("/s/v11/files/db"));
}

#[test]
fn temp_names_follow_pnpm() {
    let rest = &IS_NUMBER_PACKAGE_JSON[2..];
    assert_eq!(temp_file_name(rest, 4821, 0), format!("{rest}48210"));
    assert_eq!(
        temp_file_name(&format!("{rest}-exec"), 4821, 0),
        format!("{rest}x48210")
    );
    assert_eq!(temp_file_name("abc-def", 7, 12), "abc712");
}
