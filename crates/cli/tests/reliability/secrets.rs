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

/// `pacquet install` with `PACQUET_LOG` set (debug logs of pacquet and its
/// HTTP stack on stderr).
fn install_logged(
    env: &pacquet_testing::PnpmEnv,
    project: &Path,
    log: &str,
) -> std::process::Output {
    let mut cmd = std::process::Command::new(crate::support::pacquet_bin());
    env.apply_env(&mut cmd);
    cmd.current_dir(project)
        .args(["install", "--frozen-lockfile"])
        .arg(format!("--store-dir={}", env.store_dir.display()))
        .env("PACQUET_LOG", log);
    cmd.output().expect("spawn pacquet")
}

/// Every way `.npmrc` can carry a credential (token, `_auth`, `username` +
/// `_password`, user info in the registry URL) stays out of trace-level
/// logs and out of the errors of failed downloads (truncated bodies,
/// stalls, 401), and out of every file but `.npmrc`.
#[test]
fn credentials_stay_out_of_debug_logs_and_fetch_errors() {
    use base64::Engine as _;
    const PASSWORD: &str = "SECRET-PASS-456";
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let registry = Registry::start_fixtures();
    let port = registry.addr().port();
    let host = format!("127.0.0.1:{port}");
    let forms = [
        (
            "_authToken",
            format!(
                "registry={}\n//{host}/:_authToken={TOKEN}\n",
                registry.url()
            ),
        ),
        (
            "_auth",
            format!(
                "registry={}\n//{host}/:_auth={}\n",
                registry.url(),
                b64(&format!("user:{PASSWORD}"))
            ),
        ),
        (
            "username/_password",
            format!(
                "registry={}\n//{host}/:username=user\n//{host}/:_password={}\n",
                registry.url(),
                b64(PASSWORD)
            ),
        ),
        (
            "user info in the registry URL",
            format!("registry=http://user:{PASSWORD}@{host}/\n"),
        ),
    ];
    let plain = tarball_path("pq-plain", "1.1.0");
    for (form, npmrc) in forms {
        let secrets = [
            TOKEN.to_string(),
            PASSWORD.to_string(),
            b64(PASSWORD),
            b64(&format!("user:{PASSWORD}")),
        ];
        let check = |what: &str, bytes: &[u8]| {
            let text = String::from_utf8_lossy(bytes);
            for secret in &secrets {
                assert!(
                    !text.contains(secret.as_str()),
                    "{form}: a credential leaked into {what}:\n{text}"
                );
            }
        };
        let tmp = tempfile::tempdir().unwrap();
        let (env, project) = fresh(&registry, "basic", tmp.path());
        std::fs::write(project.join(".npmrc"), &npmrc).unwrap();
        let workspace = project.join("pnpm-workspace.yaml");
        let mut settings = std::fs::read_to_string(&workspace).unwrap_or_default();
        settings.push_str(
            "\nfetchTimeout: 1000\nfetchRetries: 1\nfetchRetryMintimeout: 10\nfetchRetryMaxtimeout: 20\n",
        );
        std::fs::write(&workspace, settings).unwrap();

        for fault in [Fault::Truncate, Fault::Stall, Fault::Status(401)] {
            registry.clear_faults();
            for _ in 0..6 {
                registry.fail_next(&plain, fault.clone());
            }
            let out = install_logged(&env, &project, "trace");
            assert_eq!(
                out.status.code(),
                Some(1),
                "{form} {fault:?}: {}",
                stderr(&out)
            );
            check(&format!("stdout ({fault:?})"), &out.stdout);
            check(&format!("stderr ({fault:?})"), &out.stderr);
        }
        registry.clear_faults();
        registry.reset_requests();
        let out = install_logged(&env, &project, "trace");
        assert!(out.status.success(), "{form}: {}", stderr(&out));
        check("stdout", &out.stdout);
        check("stderr", &out.stderr);
        // The credential was sent.
        let auths = registry.authorizations();
        assert!(
            auths.iter().all(|(_, auth)| auth
                .as_deref()
                .is_some_and(|a| a.starts_with("Bearer ") || a.starts_with("Basic "))),
            "{form}: {auths:?}"
        );
        for file in files_under(tmp.path()) {
            if file.file_name().is_some_and(|n| n == ".npmrc") {
                continue;
            }
            check(&file.display().to_string(), &std::fs::read(&file).unwrap());
        }
    }
}
