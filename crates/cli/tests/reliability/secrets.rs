//! An `_authToken` from `.npmrc` is sent to its registry and nowhere else:
//! not in output (default and ndjson reporters, failures included), not in
//! state files, not in the store.

use std::path::Path;

use pacquet_testing::{Fault, Registry, tarball_path};

use super::helpers::{files_under, fresh};
use crate::support::{pacquet, stderr, stdout};

const TOKEN: &str = "SECRET-TOKEN-123";

fn assert_no_token(what: &str, bytes: &[u8]) {
    let found = bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes());
    assert!(
        !found,
        "the token leaked into {what}:\n{}",
        String::from_utf8_lossy(bytes)
    );
}

/// No file under `root` but `.npmrc` files contains the token.
fn assert_no_token_in_files(root: &Path) {
    for file in files_under(root) {
        if file.file_name().is_some_and(|n| n == ".npmrc") {
            continue;
        }
        assert_no_token(&file.display().to_string(), &std::fs::read(&file).unwrap());
    }
}

#[test]
fn auth_token_is_sent_but_never_shown_or_stored() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let (env, project) = fresh(&registry, "basic", tmp.path());
    let port = registry.addr().port();
    std::fs::write(
        project.join(".npmrc"),
        format!(
            "registry={}\n//127.0.0.1:{port}/:_authToken={TOKEN}\n",
            registry.url()
        ),
    )
    .unwrap();
    let workspace = project.join("pnpm-workspace.yaml");
    let mut settings = std::fs::read_to_string(&workspace).unwrap_or_default();
    settings.push_str("\nfetchRetryMintimeout: 10\nfetchRetryMaxtimeout: 20\n");
    std::fs::write(&workspace, settings).unwrap();
    let plain = tarball_path("pq-plain", "1.1.0");

    // Refused: 401, then 403, under both reporters.
    for (status, reporter) in [(401, "default"), (401, "ndjson"), (403, "ndjson")] {
        registry.clear_faults();
        registry.fail_next(&plain, Fault::Status(status));
        let reporter = format!("--reporter={reporter}");
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile", &reporter]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("ERR_PNPM_TARBALL_HTTP_STATUS")
                || stderr(&out).contains("ERR_PNPM_TARBALL_HTTP_STATUS"),
            "{reporter}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        assert_no_token(&format!("stdout ({reporter})"), &out.stdout);
        assert_no_token(&format!("stderr ({reporter})"), &out.stderr);
        std::fs::remove_dir_all(project.join("node_modules")).ok();
    }

    // A 500 is retried and the install succeeds, under both reporters.
    for reporter in ["ndjson", "default"] {
        std::fs::remove_dir_all(project.join("node_modules")).ok();
        registry.clear_faults();
        registry.fail_next(&plain, Fault::Status(500));
        let reporter = format!("--reporter={reporter}");
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile", &reporter]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_no_token(&format!("stdout ({reporter})"), &out.stdout);
        assert_no_token(&format!("stderr ({reporter})"), &out.stderr);
    }
    for state in [
        "node_modules/.modules.yaml",
        "node_modules/.pnpm/lock.yaml",
        "node_modules/.pnpm-workspace-state-v1.json",
    ] {
        assert!(project.join(state).is_file(), "{state} is missing");
    }
    assert_no_token_in_files(&project);
    assert_no_token_in_files(&env.root);

    let auths = registry.authorizations();
    assert!(!auths.is_empty());
    for (path, auth) in &auths {
        assert_eq!(
            auth.as_deref(),
            Some(format!("Bearer {TOKEN}").as_str()),
            "request for {path}"
        );
    }
}
