use std::path::{Path, PathBuf};

use super::{PROLOGUE, shim_script, shim_script_within};

const SHIM_DIR: &str = "/p/node_modules/.bin";

fn tail(script: &str) -> &str {
    script
        .strip_prefix(PROLOGUE)
        .expect("starts with the prologue")
}

#[test]
fn no_node_path_and_no_runtime() {
    let target = Path::new("/p/node_modules/.pnpm/a@1/node_modules/a/bin/a");
    let script = shim_script(Path::new(SHIM_DIR), target, b"\x7fELF", &[]);
    assert_eq!(
        tail(&script),
        "\nexec \"$basedir_abs\"/'../.pnpm/a@1/node_modules/a/bin/a'  \"$@\"\nexit $?\n\
         # cmd-shim-target=../.pnpm/a@1/node_modules/a/bin/a\n"
    );
}

#[test]
fn node_path_is_relative_and_deduplicated() {
    let target = Path::new("/p/node_modules/.pnpm/a@1/node_modules/a/a");
    let np: Vec<PathBuf> = [
        "/p/node_modules/.pnpm/node_modules",
        "/p/x",
        "/p/node_modules/.pnpm/node_modules",
    ]
    .into_iter()
    .map(PathBuf::from)
    .collect();
    let script = shim_script(Path::new(SHIM_DIR), target, b"", &np);
    let list = "\"$basedir_abs\"/'../.pnpm/node_modules':\"$basedir_abs\"/'../../x'";
    assert!(
        tail(&script).starts_with(&format!(
            "\nif [ -z \"$NODE_PATH\" ]; then\n  export NODE_PATH={list}\nelse\n  export NODE_PATH={list}:\"$NODE_PATH\"\nfi\nexec "
        )),
        "{script}"
    );
}

#[test]
fn quotes_single_quotes_but_not_in_marker() {
    let target = Path::new("/p/node_modules/x/it's.js");
    let script = shim_script(Path::new(SHIM_DIR), target, b"", &[]);
    assert!(
        script.contains("\"$basedir_abs\"/'../x/it'\\''s.js' \"$@\"\n"),
        "{script}"
    );
    assert!(script.ends_with("\n# cmd-shim-target=../x/it's.js\n"));
}

#[test]
fn cmd_targets_get_the_msys_guard() {
    let script = shim_script(
        Path::new(SHIM_DIR),
        Path::new("/p/node_modules/x/a.cmd"),
        b"",
        &[],
    );
    assert!(tail(&script).starts_with(
        "\nif [ -n \"$msys\" ]; then\n  export MSYS2_ARG_CONV_EXCL=\"/C${MSYS2_ARG_CONV_EXCL:+;$MSYS2_ARG_CONV_EXCL}\"\nfi\n\
         if [ -n \"$exe\" ] && [ -x \"$basedir/cmd.exe\" ]; then\n  exec \"$basedir/cmd.exe\" /C \"$basedir_win\"/'../x/a.cmd' \"$@\"\n"
    ));
}

/// Directories outside the project run together, as given, in one quoted
/// string; those inside stay relative; a target outside is named whole.
#[test]
fn node_path_outside_the_project_is_written_as_given() {
    let target = Path::new("/s/links/@/a/1/h/node_modules/a/a.js");
    let np: Vec<PathBuf> = [
        "/s/links/@/a/1/h/node_modules/a/node_modules",
        "/s/links/@/a/1/h/node_modules",
        "/p/node_modules/.pnpm/node_modules",
        "/p/../s/other",
    ]
    .into_iter()
    .map(PathBuf::from)
    .collect();
    let script = shim_script_within(Path::new(SHIM_DIR), target, b"", &np, Some(Path::new("/p")));
    let list = "'/s/links/@/a/1/h/node_modules/a/node_modules:/s/links/@/a/1/h/node_modules':\
                \"$basedir_abs\"/'../.pnpm/node_modules':'/p/../s/other'";
    assert!(
        tail(&script).starts_with(&format!(
            "\nif [ -z \"$NODE_PATH\" ]; then\n  export NODE_PATH={list}\n"
        )),
        "{script}"
    );
    assert!(
        script.contains("\"$basedir_abs\"/'../../../s/links/@/a/1/h/node_modules/a/a.js'"),
        "{script}"
    );
    assert!(script.ends_with("\n# cmd-shim-target=/s/links/@/a/1/h/node_modules/a/a.js\n"));
}
