use std::path::Path;

use pretty_assertions::assert_eq;

use crate::read::parse_with_saphyr;

const PATH: &str = "/p/pnpm-lock.yaml";

fn fixtures() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![
        root.join("../../benchmarks/fixtures/alotta/pnpm-lock.yaml"),
        root.join("../../benchmarks/fixtures/small/pnpm-lock.yaml"),
    ];
    for entry in std::fs::read_dir(root.join("tests/fixtures")).expect("fixtures dir") {
        let path = entry.expect("entry").path().join("pnpm-lock.yaml");
        if path.exists() && !path.to_string_lossy().contains("v13") {
            paths.push(path);
        }
    }
    paths
}

#[test]
fn fast_path_agrees_with_the_yaml_parser_on_pnpm_output() {
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("fixture");
        let fast =
            super::parse(&text).unwrap_or_else(|| panic!("fast path declined {}", path.display()));
        let full = parse_with_saphyr(&text, &path).expect("parses");
        assert_eq!(fast, full, "{}", path.display());
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(
            super::parse(&crlf).as_ref(),
            Some(&full),
            "CRLF {}",
            path.display()
        );
    }
}

#[test]
fn fast_path_reads_two_documents() {
    let text = "---\nlockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    configDependencies:\n      foo:\n        specifier: 1.0.0\n        version: 1.0.0\n\n---\nlockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n";
    let fast = super::parse(text).expect("handled");
    assert_eq!(
        fast,
        parse_with_saphyr(text, Path::new(PATH)).expect("parses")
    );
    assert!(fast.env.is_some());
}

#[test]
fn fast_path_handles_quoting_and_flow_values() {
    let text = "lockfileVersion: '9.0'\n\nimporters: {}\n\npackages:\n\n  'a@1.0.0':\n    resolution: {integrity: sha512-AA==, tarball: 'https://x/a,b.tgz'}\n    engines: {node: '>=18', npm: \"\\u0041\"}\n    cpu: [x64, '!arm']\n    deprecated: 'it''s: gone'\n    name: a#b\n    peerDependenciesMeta:\n      b:\n        optional: true\n    bundledDependencies:\n      - c\n    hasBin: true\n";
    let fast = super::parse(text).expect("handled");
    let full = parse_with_saphyr(text, Path::new(PATH)).expect("parses");
    assert_eq!(fast, full);
    let pkg = &fast.packages["a@1.0.0"];
    assert_eq!(pkg.deprecated.as_deref(), Some("it's: gone"));
    assert_eq!(
        pkg.engines
            .as_ref()
            .and_then(|e| e.get("npm"))
            .map(String::as_str),
        Some("A")
    );
}

#[test]
fn unusual_yaml_is_declined_but_still_read() {
    let cases = [
        "# comment\nlockfileVersion: '9.0'\n",
        "lockfileVersion: '9.0'\nsettings: &s\n  autoInstallPeers: true\n",
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a: {specifier: 1, version: 1.0.0}\n",
        "lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: yes\n",
        "lockfileVersion: '9.0'\nsettings: {autoInstallPeers: true,\n  excludeLinksFromLockfile: false}\n",
        "lockfileVersion: '9.0'\ntime:\n  a@1.0.0: 2024-01-01T00:00:00.000Z\n",
        "lockfileVersion: '9.0'\nfoo: a\n  b\n",
        "lockfileVersion: '9.0'\nimporters:\n  .: {}\n  .: {}\n",
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: ~\n        version: null\n",
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: 1\n        version: true\n",
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n",
        "lockfileVersion: '9.0'\npackages:\n  a@1.0.0:\n    resolution: {integrity: x}\n    hasBin: 'true'\n",
    ];
    for text in cases {
        // Declined, or else the same answer as the general parser.
        if let Some(fast) = super::parse(text) {
            assert_eq!(
                Some(fast),
                parse_with_saphyr(text, Path::new(PATH)).ok(),
                "{text:?}"
            );
        }
    }
}

#[test]
fn literal_blocks() {
    let text = "lockfileVersion: '9.0'\n\nimporters: {}\n\npackages:\n\n  q@1.5.1:\n    resolution: {integrity: sha512-AA==}\n    deprecated: |-\n      line one\n\n        indented\n\n  r@1.0.0:\n    resolution: {integrity: sha512-AA==}\n    deprecated: |\n      kept\n";
    let fast = super::parse(text).expect("handled");
    assert_eq!(
        fast,
        parse_with_saphyr(text, Path::new(PATH)).expect("parses")
    );
    assert_eq!(
        fast.packages["q@1.5.1"].deprecated.as_deref(),
        Some("line one\n\n  indented")
    );
    assert_eq!(
        fast.packages["r@1.0.0"].deprecated.as_deref(),
        Some("kept\n")
    );
    assert_eq!(fast.to_yaml(), text);
}

#[test]
fn errors_come_from_the_general_parser() {
    for text in [
        "lockfileVersion: '6.0'\n",
        "lockfileVersion: '9.0'\nfoo: {a: b\n",
        "importers: {}\n",
    ] {
        assert!(super::parse(text).is_none(), "{text:?}");
    }
}

/// Deterministic mutations of real lockfiles (dropped, duplicated, shifted
/// and truncated lines): the fast path must decline or agree.
#[test]
fn mutated_lockfiles_are_declined_or_agree() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let small: Vec<_> = fixtures()
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("alotta"))
        .collect();
    let mut handled = 0;
    for round in 0..600 {
        let path = &small[round % small.len()];
        let text = std::fs::read_to_string(path).expect("fixture");
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let i = next(lines.len());
        match next(5) {
            0 => {
                lines.remove(i);
            }
            1 => lines.insert(i, lines[i].clone()),
            2 => lines[i].insert(0, ' '),
            3 => {
                let cut = next(lines[i].len() + 1);
                lines[i].truncate(cut);
            }
            _ => lines[i] = lines[i].trim_start().to_owned(),
        }
        let mutated = lines.join("\n") + "\n";
        if let Some(fast) = super::parse(&mutated) {
            handled += 1;
            let full = parse_with_saphyr(&mutated, path);
            assert_eq!(Some(&fast), full.as_ref().ok(), "{mutated}");
        }
    }
    // Many mutations keep the file valid; those must go through the fast path.
    assert!(handled > 100, "{handled}");
}

/// Deep nesting used to recurse once per level in the fast path and
/// overflow the stack (found probing the parser for the fuzz targets); now
/// it is a broken lockfile.
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let head = "lockfileVersion: '9.0'\nimporters: ";
    let open_only = format!("{head}{}\n", "[".repeat(200_000));
    let balanced = format!("{head}{}{}\n", "{a: ".repeat(20_000), "}".repeat(20_000));
    let blocks: String = (1..3000)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    let blocks = format!("lockfileVersion: '9.0'\nimporters:\n{blocks}");
    for text in [open_only, balanced, blocks] {
        let err = crate::Lockfile::parse(&text, Path::new(PATH)).unwrap_err();
        assert!(
            matches!(err, crate::LockfileError::Broken { .. }),
            "{err:?}"
        );
    }
}
