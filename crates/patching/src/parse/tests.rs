use super::{Kind, parse};

#[test]
fn git_blocks_with_extended_headers() {
    let text = "\
diff --git a/README.md b/README.md
deleted file mode 100644
index 1111111..0000000
diff --git a/bin/cli.js b/bin/cli.js
old mode 100644
new mode 100755
diff --git a/LICENSE b/LICENSE.md
similarity index 100%
rename from LICENSE
rename to LICENSE.md
diff --git a/added.txt b/added.txt
new file mode 100644
index 0000000..2222222
--- /dev/null
+++ b/added.txt
@@ -0,0 +1 @@
+new
\\ No newline at end of file
";
    let files = parse(text).unwrap();
    assert_eq!(files.len(), 4);
    assert!(files[0].deleted && files[0].hunks.is_empty());
    assert_eq!(files[0].old_path.as_deref(), Some("README.md"));
    assert_eq!(files[1].new_mode, Some(0o100755));
    assert!(files[2].renamed);
    assert_eq!(files[2].old_path.as_deref(), Some("LICENSE"));
    assert_eq!(files[2].new_path.as_deref(), Some("LICENSE.md"));
    assert!(files[3].created);
    assert_eq!(files[3].old_path, None);
    let line = &files[3].hunks[0].lines[0];
    assert_eq!(
        (line.kind, line.text.as_str(), line.no_newline),
        (Kind::Insert, "new", true)
    );
}

#[test]
fn plain_unified_diffs_without_git_headers() {
    let text = "--- a/x.js\t2024-01-01\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n--- a/y.js\n+++ b/y.js\n@@ -2,2 +2,2 @@\n c\n-d\n+e\n";
    let files = parse(text).unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0].new_path.as_deref(), Some("x.js"));
    assert_eq!(files[1].hunks[0].old_start, 2);
    assert_eq!(files[1].hunks[0].lines.len(), 3);
}

#[test]
fn text_without_a_patch_is_refused() {
    assert_eq!(
        parse("this is not a diff\n").unwrap_err(),
        "no valid patches found"
    );
}

#[test]
fn a_hunk_shorter_than_its_header_is_refused() {
    let text = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n";
    assert!(parse(text).unwrap_err().contains("ends early"));
}
