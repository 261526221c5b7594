//! A private registry as teams run it: Verdaccio on loopback (installed by
//! `tasks/install-tools.sh`, uplink at a dead port) serving an
//! authenticated scope beside the public fixture registry. A package is
//! published to it with `npm publish`, pnpm 12 resolves the project, and
//! pnpm 12 and pacquet install the lockfile: the same trees, with a token
//! (`//host/:_authToken`) and with basic auth (`//host/:_auth`), and the
//! same refusal without credentials.

mod support;

use std::path::Path;

use base64::Engine;
use pacquet_testing::{DiffOptions, PnpmEnv, Registry, Verdaccio, assert_trees_equal};
use support::{pacquet, stderr, stdout};

/// `@private/secret` (a command, a public dependency) on Verdaccio.
fn publish_secret(verdaccio: &Verdaccio, token: &str, work: &Path) {
    let dir = work.join("secret");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name":"@private/secret","version":"1.0.0","bin":{"secret":"cli.js"},"dependencies":{"pq-plain":"1.0.0"}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("cli.js"),
        "#!/usr/bin/env node\nconsole.log('secret')\n",
    )
    .unwrap();
    verdaccio.publish(&dir, token, work);
}

fn write_project(dir: &Path, npmrc: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name":"uses-private","version":"1.0.0","private":true,"dependencies":{"@private/secret":"1.0.0","pq-dup":"1.0.0"}}"#,
    )
    .unwrap();
    // The package was published a moment ago: no release-age policy, and
    // the lockfile is trusted as the fixtures' are.
    std::fs::write(
        dir.join("pnpm-workspace.yaml"),
        "minimumReleaseAge: 0\ntrustLockfile: true\n",
    )
    .unwrap();
    std::fs::write(dir.join(".npmrc"), npmrc).unwrap();
}

#[test]
fn an_authenticated_scope_beside_the_public_registry() {
    let tmp = tempfile::tempdir().unwrap();
    let public = Registry::start_fixtures();
    let verdaccio = Verdaccio::start(&tmp.path().join("verdaccio"));
    let token = verdaccio.add_user("ci", "ci-secret");
    publish_secret(&verdaccio, &token, tmp.path());

    let scope = format!(
        "registry={}\n@private:registry={}\n",
        public.url(),
        verdaccio.url()
    );
    let with_token = format!("{scope}{}:_authToken={token}\n", verdaccio.nerf_dart());
    let basic = base64::engine::general_purpose::STANDARD.encode("ci:ci-secret");
    let with_basic = format!("{scope}{}:_auth={basic}\n", verdaccio.nerf_dart());

    // pnpm 12 resolves the project: the lockfile both tools install.
    let by_pnpm = tmp.path().join("pnpm/project");
    write_project(&by_pnpm, &with_token);
    let pnpm_env = PnpmEnv::new(&tmp.path().join("pnpm/env"), &public.url());
    pnpm_env.run_ok(&by_pnpm, &["install", "--reporter=append-only"]);
    std::fs::remove_dir_all(by_pnpm.join("node_modules")).unwrap();
    pnpm_env.install_frozen(&by_pnpm);
    let lockfile = std::fs::read_to_string(by_pnpm.join("pnpm-lock.yaml")).unwrap();
    assert!(lockfile.contains("'@private/secret@1.0.0'"), "{lockfile}");

    for (side, npmrc) in [("token", &with_token), ("basic", &with_basic)] {
        let ours = tmp.path().join(side).join("project");
        write_project(&ours, npmrc);
        std::fs::write(ours.join("pnpm-lock.yaml"), &lockfile).unwrap();
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &public.url());
        let out = pacquet(&env, &ours, &["install", "--frozen-lockfile"]);
        assert!(out.status.success(), "{side}: {}", stderr(&out));
        let opts = DiffOptions::for_installs(&by_pnpm, &pnpm_env.store_dir, &ours, &env.store_dir)
            .ignore_path(".npmrc");
        assert_trees_equal(&by_pnpm, &ours, &opts);
        assert!(ours.join("node_modules/.bin/secret").exists());
    }

    // Without credentials both refuse, with the same code; with them
    // added, the rerun completes what the failed install left (pnpm 12
    // leaves a partial `node_modules` too).
    let anonymous = tmp.path().join("anonymous");
    let (theirs, ours) = (anonymous.join("pnpm"), anonymous.join("pacquet"));
    for dir in [&theirs, &ours] {
        write_project(dir, &scope);
        std::fs::write(dir.join("pnpm-lock.yaml"), &lockfile).unwrap();
    }
    let refused_env = PnpmEnv::new(&anonymous.join("pnpm-env"), &public.url());
    let refused = refused_env.run(
        &theirs,
        &["install", "--frozen-lockfile", "--reporter=append-only"],
    );
    assert_eq!(refused.status.code(), Some(1));
    let printed = stdout(&refused) + &stderr(&refused);
    let code = printed
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| w.starts_with("ERR_PNPM_"))
        .unwrap_or_else(|| panic!("no pnpm error code in: {printed}"))
        .to_owned();
    let env = PnpmEnv::new(&anonymous.join("pacquet-env"), &public.url());
    let out = pacquet(&env, &ours, &["install", "--frozen-lockfile"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&code),
        "pnpm said {code}; pacquet: {}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("401"), "{}", stderr(&out));
    std::fs::write(ours.join(".npmrc"), &with_token).unwrap();
    let out = pacquet(&env, &ours, &["install", "--frozen-lockfile"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let opts = DiffOptions::for_installs(&by_pnpm, &pnpm_env.store_dir, &ours, &env.store_dir)
        .ignore_path(".npmrc");
    assert_trees_equal(&by_pnpm, &ours, &opts);
}
