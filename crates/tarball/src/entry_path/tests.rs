use super::strip_first_component as strip;

fn ok(raw: &str) -> Option<String> {
    strip(raw.as_bytes()).unwrap()
}

#[test]
fn strips_whatever_the_first_component_is() {
    assert_eq!(ok("package/index.js").as_deref(), Some("index.js"));
    assert_eq!(ok("node/lib/a.js").as_deref(), Some("lib/a.js"));
    assert_eq!(ok("./package/./lib//a.js").as_deref(), Some("lib/a.js"));
}

#[test]
fn root_directory_entries_are_none() {
    assert_eq!(ok("package/"), None);
    assert_eq!(ok("package"), None);
    assert_eq!(ok("./"), None);
    assert_eq!(ok(""), None);
}

#[test]
fn refuses_escapes() {
    assert_eq!(strip(b"../x"), Err("escapes the package directory"));
    assert_eq!(strip(b"package/../x"), Err("escapes the package directory"));
    assert_eq!(
        strip(b"package/a/../../x"),
        Err("escapes the package directory")
    );
    assert_eq!(strip(b"package/.."), Err("escapes the package directory"));
}

#[test]
fn refuses_absolute_paths() {
    assert_eq!(strip(b"/etc/passwd"), Err("is an absolute path"));
    assert_eq!(strip(b"package//etc/passwd"), Err("is an absolute path"));
}

#[test]
fn refuses_non_utf8() {
    assert_eq!(strip(b"package/\xff"), Err("is not valid UTF-8"));
}

#[test]
fn dots_inside_names_are_fine() {
    assert_eq!(ok("package/..a/b..").as_deref(), Some("..a/b.."));
    assert_eq!(ok("package/.hooks/x").as_deref(), Some(".hooks/x"));
}
