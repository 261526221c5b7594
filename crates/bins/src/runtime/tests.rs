use std::path::Path;

use super::{Runtime, detect_runtime};

fn rt(target: &str, head: &str) -> Option<(String, String)> {
    detect_runtime(Path::new(target), head.as_bytes()).map(|r| (r.program, r.args))
}

fn some(program: &str, args: &str) -> Option<(String, String)> {
    Some((program.to_owned(), args.to_owned()))
}

#[test]
fn env_shebangs() {
    assert_eq!(rt("/x/cli", "#!/usr/bin/env node\nx"), some("node", ""));
    assert_eq!(
        rt("/x/cli", "#!/usr/bin/env node --harmony\n"),
        some("node", " --harmony")
    );
    assert_eq!(
        rt("/x/cli", "#!/usr/bin/env -S node --a --b\n"),
        some("node", " --a --b")
    );
    assert_eq!(
        rt("/x/cli", "#!/usr/bin/env   node   --a \t --b  \n"),
        some("node", "   --a \t --b  ")
    );
    assert_eq!(rt("/x/cli", "#! /usr/bin/env node\n"), some("node", ""));
    assert_eq!(
        rt("/x/cli", "#!/usr/bin/env node\r\nx\r\n"),
        some("node", "")
    );
    assert_eq!(
        rt("/x/cli", "#!/usr/bin/env -S NODE_ENV=prod node --x\n"),
        some("NODE_ENV=prod", " node --x")
    );
}

#[test]
fn absolute_shebangs() {
    assert_eq!(rt("/x/cli", "#!/bin/sh\necho"), some("/bin/sh", ""));
    assert_eq!(
        rt("/x/cli", "#!/usr/bin/python3 -u\n"),
        some("/usr/bin/python3", " -u")
    );
    assert_eq!(
        rt("/x/cli.js", "#!/bin/sh\n"),
        some("/bin/sh", ""),
        "shebang beats extension"
    );
}

#[test]
fn env_without_program_falls_back_to_extension() {
    assert_eq!(rt("/x/cli", "#!/usr/bin/env\nx"), None);
    assert_eq!(rt("/x/cli.js", "#!/usr/bin/env\nx"), some("node", ""));
    assert_eq!(rt("/x/cli", "#!\n"), None);
}

#[test]
fn extensions() {
    for ext in ["js", "cjs", "mjs"] {
        assert_eq!(
            rt(&format!("/x/a.{ext}"), "console.log(1)"),
            some("node", "")
        );
    }
    assert_eq!(rt("/x/a.sh", "echo"), some("sh", ""));
    assert_eq!(rt("/x/a.ps1", ""), some("pwsh", ""));
    assert_eq!(
        detect_runtime(Path::new("/x/a.bat"), b""),
        Some(Runtime {
            program: "cmd".into(),
            args: "/C".into(),
            cmd: true
        })
    );
    assert_eq!(rt("/x/a.py", "print(1)"), None);
    assert_eq!(rt("/x/native", "\x7fELF"), None);
    assert_eq!(rt("/x/empty", ""), None);
}
