use super::is_valid_bin_name;

#[test]
fn accepts_npm_safe_names() {
    for name in [
        "tsc",
        "$",
        ".pqb-dot",
        "pqb-Upper",
        "pqb-weird!~*'()",
        "a_b.c",
        "0",
    ] {
        assert!(is_valid_bin_name(name), "{name:?}");
    }
}

#[test]
fn refuses_paths_dots_spaces_and_unicode() {
    for name in [
        "",
        ".",
        "..",
        "../x",
        "/etc/x",
        "a/b",
        "a\\b",
        "has space",
        "tab\t",
        "unicodé",
        "$$",
        "a$",
    ] {
        assert!(!is_valid_bin_name(name), "{name:?}");
    }
}
