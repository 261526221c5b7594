//! Against the texts `@zkochan/cmd-shim` 7.0.0 writes on Windows for the
//! inputs of `tests/fixtures/cmd-shim/cases.json`, recorded by `gen.js` next
//! to them.

use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::Value;

use super::*;
use crate::detect_runtime;

const CASES: &str = include_str!("../../tests/fixtures/cmd-shim/cases.json");
const EXPECTED: &str = include_str!("../../tests/fixtures/cmd-shim/expected.json");

fn str_field<'v>(value: &'v Value, key: &str) -> &'v str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {value}"))
}

#[test]
fn matches_cmd_shim_for_every_recorded_case() {
    let cases: serde_json::Map<String, Value> = serde_json::from_str(CASES).unwrap();
    let expected: Value = serde_json::from_str(EXPECTED).unwrap();
    assert!(cases.len() >= 5);
    for (name, case) in &cases {
        let want = &expected[name];
        let (src, to) = (str_field(case, "src"), str_field(case, "to"));
        let shim_dir = &to[..to.rfind('\\').unwrap()];
        let target = win32_relative(shim_dir, src);
        assert_eq!(target, str_field(want, "target"), "{name}: target");
        // Only the file name matters to the runtime (its extension).
        let file_name = &src[src.rfind('\\').unwrap() + 1..];
        let content = case["content"].as_str().unwrap_or_default();
        let runtime = detect_runtime(Path::new(file_name), content.as_bytes());
        let node_path: Vec<String> = case["nodePath"]
            .as_array()
            .map(|dirs| {
                dirs.iter()
                    .map(|d| d.as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default();
        let shim = WindowsShim {
            target: &target,
            runtime: runtime.as_ref(),
            node_path: &node_path,
        };
        assert_eq!(cmd_shim(&shim), str_field(want, "cmd"), "{name}: .cmd");
        assert_eq!(pwsh_shim(&shim), str_field(want, "ps1"), "{name}: .ps1");
    }
}

/// pnpm's copy of cmd-shim doubles `%` in the `.cmd` text (7.0.0 does not;
/// the cases above hold none). The `.ps1` keeps it.
#[test]
fn percent_signs_are_doubled_in_cmd_only() {
    let node_path = vec![r"C:\100%\node_modules".to_owned()];
    let runtime = detect_runtime(Path::new("a.js"), b"");
    let shim = WindowsShim {
        target: r"..\100%\a.js",
        runtime: runtime.as_ref(),
        node_path: &node_path,
    };
    let cmd = cmd_shim(&shim);
    assert!(
        cmd.contains(r#"@SET "NODE_PATH=C:\100%%\node_modules""#),
        "{cmd}"
    );
    assert!(cmd.contains(r#"node  "%~dp0\..\100%%\a.js" %*"#), "{cmd}");
    let ps1 = pwsh_shim(&shim);
    assert!(ps1.contains(r#""$basedir/../100%/a.js""#), "{ps1}");
}

#[test]
fn repeated_node_path_entries_are_written_once() {
    let node_path = vec![r"C:\a".to_owned(), r"C:\b".to_owned(), r"C:\a".to_owned()];
    let shim = WindowsShim {
        target: "x",
        runtime: None,
        node_path: &node_path,
    };
    assert!(cmd_shim(&shim).contains(r#"@SET "NODE_PATH=C:\a;C:\b""#));
    assert!(pwsh_shim(&shim).contains(r#"$new_node_path="/mnt/c/a:/mnt/c/b""#));
}

#[test]
fn relative_paths_follow_node_path_win32() {
    assert_eq!(
        win32_relative(r"C:\p\node_modules\.bin", r"c:\P\x.js"),
        r"..\..\x.js"
    );
    assert_eq!(win32_relative(r"C:\p", r"C:\p\a\b"), r"a\b");
    assert_eq!(win32_relative(r"C:\p", r"D:\p"), r"D:\p");
    assert_eq!(win32_relative(r"C:\p", "C:/q/r"), r"..\q\r");
}

#[test]
fn wsl_paths_rewrite_the_drive_only() {
    assert_eq!(wsl_path("C:/x/y"), "/mnt/c/x/y");
    assert_eq!(wsl_path("//server/share"), "//server/share");
    assert_eq!(wsl_path("rel/a:b"), "rel/a:b");
}

#[test]
fn cmd_extension_is_spelled_as_pathext_spells_it() {
    assert_eq!(cmd_extension(Some(".COM;.EXE;.BAT;.CMD;.VBS")), ".CMD");
    assert_eq!(cmd_extension(Some(".exe;.cmd")), ".cmd");
    assert_eq!(cmd_extension(Some(".EXE")), ".cmd");
    assert_eq!(cmd_extension(None), ".cmd");
}
