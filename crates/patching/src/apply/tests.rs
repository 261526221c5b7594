use std::{fs, os::unix::fs::MetadataExt, os::unix::fs::PermissionsExt, path::Path};

use super::apply_patch;
use crate::PatchError;

/// A package dir with `files`, a patch file with `patch`; returns the
/// tempdir (package at `<tmp>/pkg`, patch at `<tmp>/x.patch`).
fn setup(files: &[(&str, &str)], patch: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (path, content) in files {
        let path = tmp.path().join("pkg").join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
    }
    fs::write(tmp.path().join("x.patch"), patch).unwrap();
    tmp
}

fn apply(tmp: &tempfile::TempDir) -> Result<(), PatchError> {
    apply_patch(&tmp.path().join("pkg"), &tmp.path().join("x.patch"))
}

fn read(tmp: &tempfile::TempDir, path: &str) -> String {
    fs::read_to_string(tmp.path().join("pkg").join(path)).unwrap()
}

const MODIFY: &str = "diff --git a/index.js b/index.js\n--- a/index.js\n+++ b/index.js\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n";

#[test]
fn modifies_a_file() {
    let tmp = setup(&[("index.js", "one\ntwo\nthree\n")], MODIFY);
    apply(&tmp).unwrap();
    assert_eq!(read(&tmp, "index.js"), "one\nTWO\nthree\n");
}

#[test]
fn never_writes_through_a_hard_link() {
    let tmp = setup(&[("index.js", "one\ntwo\nthree\n")], MODIFY);
    let store_copy = tmp.path().join("blob");
    fs::hard_link(tmp.path().join("pkg/index.js"), &store_copy).unwrap();
    apply(&tmp).unwrap();
    assert_eq!(
        fs::read_to_string(&store_copy).unwrap(),
        "one\ntwo\nthree\n"
    );
    assert_eq!(fs::metadata(&store_copy).unwrap().nlink(), 1);
    assert_eq!(read(&tmp, "index.js"), "one\nTWO\nthree\n");
}

#[test]
fn applying_twice_is_applying_once() {
    let tmp = setup(&[("index.js", "one\ntwo\nthree\n")], MODIFY);
    apply(&tmp).unwrap();
    apply(&tmp).unwrap();
    assert_eq!(read(&tmp, "index.js"), "one\nTWO\nthree\n");
}

#[test]
fn crlf_files_and_trailing_whitespace_match() {
    let tmp = setup(&[("index.js", "one\r\ntwo  \r\nthree\r\n")], MODIFY);
    apply(&tmp).unwrap();
    // Untouched lines keep their CRLF; the new line is the patch's.
    assert_eq!(read(&tmp, "index.js"), "one\r\nTWO\nthree\r\n");
}

#[test]
fn a_hunk_that_moved_is_found_nearby() {
    let shifted = format!("{}one\ntwo\nthree\n", "extra\n".repeat(15));
    let tmp = setup(&[("index.js", &shifted)], MODIFY);
    apply(&tmp).unwrap();
    assert!(read(&tmp, "index.js").ends_with("one\nTWO\nthree\n"));

    let too_far = format!("{}one\ntwo\nthree\n", "extra\n".repeat(30));
    let tmp = setup(&[("index.js", &too_far)], MODIFY);
    assert!(matches!(apply(&tmp), Err(PatchError::Failed { .. })));
}

#[test]
fn a_hunk_that_fits_nowhere_names_the_file_and_hunk() {
    let tmp = setup(&[("index.js", "one\nsomething else\nthree\n")], MODIFY);
    let err = apply(&tmp).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("x.patch"), "{text}");
    assert!(text.contains("index.js: error applying hunk #1"), "{text}");
    assert_eq!(read(&tmp, "index.js"), "one\nsomething else\nthree\n");
}

#[test]
fn files_without_a_final_newline() {
    let patch = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n";
    let tmp = setup(&[("f", "a\nb")], patch);
    apply(&tmp).unwrap();
    assert_eq!(read(&tmp, "f"), "a\nc\n");

    let patch = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n";
    let tmp = setup(&[("f", "a\nb\n")], patch);
    apply(&tmp).unwrap();
    assert_eq!(read(&tmp, "f"), "a\nc");
}

#[test]
fn creates_deletes_renames_and_changes_modes() {
    let patch = "\
diff --git a/README.md b/README.md
deleted file mode 100644
index 1111111..0000000
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git a/LICENSE b/LICENSE.md
similarity index 100%
rename from LICENSE
rename to LICENSE.md
diff --git a/bin.js b/bin.js
old mode 100644
new mode 100755
diff --git a/lib/new.js b/lib/new.js
new file mode 100755
--- /dev/null
+++ b/lib/new.js
@@ -0,0 +1,2 @@
+#!/usr/bin/env node
+run()
";
    let tmp = setup(
        &[
            ("README.md", "readme\n"),
            ("old.txt", "x\ny\n"),
            ("LICENSE", "MIT\n"),
            ("bin.js", "bin\n"),
        ],
        patch,
    );
    let pkg = tmp.path().join("pkg");
    fs::hard_link(pkg.join("bin.js"), tmp.path().join("blob")).unwrap();
    apply(&tmp).unwrap();
    assert!(!pkg.join("README.md").exists());
    assert!(!pkg.join("old.txt").exists());
    assert!(!pkg.join("LICENSE").exists());
    assert_eq!(read(&tmp, "LICENSE.md"), "MIT\n");
    assert_eq!(mode(&pkg.join("bin.js")), 0o755);
    // The mode change made a new file: the hard-linked one keeps its mode.
    assert_eq!(mode(&tmp.path().join("blob")), 0o644);
    assert_eq!(read(&tmp, "lib/new.js"), "#!/usr/bin/env node\nrun()\n");
    assert_eq!(mode(&pkg.join("lib/new.js")), 0o755);
    // Everything is in place: a second run changes nothing.
    apply(&tmp).unwrap();
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn creating_over_a_different_file_fails() {
    let patch = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n";
    let tmp = setup(&[("new.txt", "other\n")], patch);
    assert!(
        apply(&tmp)
            .unwrap_err()
            .to_string()
            .contains("target already exists")
    );
}

#[test]
fn paths_outside_the_package_are_refused() {
    // `b//outside.txt` is `/outside.txt` once `b/` is stripped.
    for path in ["../outside.txt", "/outside.txt", "a/../../outside.txt"] {
        let patch = format!("--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+evil\n");
        let tmp = setup(&[], &patch);
        fs::create_dir_all(tmp.path().join("pkg")).unwrap();
        let err = apply(&tmp).unwrap_err();
        assert!(
            err.to_string().contains("escapes target dir"),
            "{path}: {err}"
        );
        assert!(!tmp.path().join("outside.txt").exists());
        assert!(!Path::new("/outside.txt").exists());
    }
}

#[test]
fn invalid_and_missing_patches() {
    let tmp = setup(&[("index.js", "x\n")], "this is not a diff\n");
    assert!(matches!(apply(&tmp), Err(PatchError::Invalid { .. })));
    let err = apply_patch(&tmp.path().join("pkg"), &tmp.path().join("nope.patch")).unwrap_err();
    assert!(matches!(err, PatchError::NotFound { .. }));
}

#[test]
fn binary_patches_are_refused() {
    let patch =
        "diff --git a/img.png b/img.png\nindex 1..2 100644\nGIT binary patch\nliteral 3\nabc\n";
    let tmp = setup(&[("img.png", "png")], patch);
    assert!(
        apply(&tmp)
            .unwrap_err()
            .to_string()
            .contains("binary patch is not supported")
    );
}
