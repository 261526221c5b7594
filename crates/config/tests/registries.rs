//! Registry selection, tarball URLs (docs/lockfile.md §5) and `.npmrc` handling.

mod common;

use common::Fixture;
use pacquet_config::{ConfigError, JSR_REGISTRY, NPM_REGISTRY};
use pretty_assertions::assert_eq;

#[test]
fn defaults() {
    let c = Fixture::new().load();
    assert_eq!(c.registries.default, NPM_REGISTRY);
    assert_eq!(c.registry_for("is-number"), NPM_REGISTRY);
    assert_eq!(c.registry_for("@jsr/std__path"), JSR_REGISTRY);
    assert_eq!(
        c.tarball_url("is-number", "7.0.0"),
        "https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz"
    );
    assert_eq!(
        c.tarball_url("@sindresorhus/is", "4.6.0"),
        "https://registry.npmjs.org/@sindresorhus/is/-/is-4.6.0.tgz"
    );
}

#[test]
fn scoped_registry_from_npmrc_and_build_metadata() {
    let f = Fixture::new();
    f.write(
        "project/.npmrc",
        "@corp:registry=https://npm.corp.io/api/npm\n",
    );
    let c = f.load();
    assert_eq!(c.registry_for("@corp/x"), "https://npm.corp.io/api/npm/");
    assert_eq!(
        c.tarball_url("@corp/x", "1.0.0+b7"),
        "https://npm.corp.io/api/npm/@corp/x/-/x-1.0.0.tgz"
    );
    assert_eq!(c.registry_for("corp"), NPM_REGISTRY);
}

#[test]
fn registries_map_in_workspace_yaml() {
    let f = Fixture::new();
    f.write(
        "project/.npmrc",
        "registry=https://npmrc.example/\n@foo:registry=https://npmrc-foo.example/\n",
    );
    f.write(
        "project/pnpm-workspace.yaml",
        "registries:\n  default: https://ws.example\n  '@foo': https://foo.example/r\n",
    );
    let c = f.load();
    assert_eq!(c.registries.default, "https://ws.example/");
    assert_eq!(c.registry_for("@foo/a"), "https://foo.example/r/");
    assert_eq!(c.registry_for("@jsr/a"), JSR_REGISTRY);
}

#[test]
fn registry_precedence() {
    let mut f = Fixture::new();
    f.write("home/.npmrc", "registry=https://home.example\n");
    assert_eq!(f.load().registries.default, "https://home.example/");
    f.write("project/.npmrc", "registry=https://project.example\n");
    assert_eq!(f.load().registries.default, "https://project.example/");
    f.write(
        "home/.config/pnpm/config.yaml",
        "registry: https://global.example\n",
    );
    assert_eq!(f.load().registries.default, "https://global.example/");
    f.write(
        "project/pnpm-workspace.yaml",
        "registry: https://ws.example\n",
    );
    assert_eq!(f.load().registries.default, "https://ws.example/");
    f.env("pnpm_config_registry", "http://env.example/x");
    assert_eq!(f.load().registries.default, "http://env.example/x/");
    f.cli.config.push((
        "registry".to_owned(),
        "https://config-flag.example".to_owned(),
    ));
    assert_eq!(f.load().registries.default, "https://config-flag.example/");
    f.cli.registry = Some("http://cli.example".to_owned());
    assert_eq!(f.load().registries.default, "http://cli.example/");
}

#[test]
fn user_npmrc_expands_placeholders() {
    let mut f = Fixture::new();
    f.env("TOK", "tk");
    f.write(
        "home/.npmrc",
        "registry=https://${TOK}.example/\n//h.example/:_authToken=${TOK}\n",
    );
    let c = f.load();
    assert_eq!(c.registries.default, "https://tk.example/");
    assert_eq!(
        c.authorization_for("https://h.example/a/-/a-1.0.0.tgz", None)
            .as_deref(),
        Some("Bearer tk")
    );
}

#[test]
fn npm_config_userconfig_and_auth_ini() {
    let mut f = Fixture::new();
    f.write("elsewhere/rc", "//a.example/:_authToken=from-userconfig\n");
    f.write(
        "home/.config/pnpm/auth.ini",
        "//a.example/:_authToken=from-auth-ini\n//b.example/:_authToken=b\n",
    );
    f.env(
        "NPM_CONFIG_USERCONFIG",
        &f.root.join("elsewhere/rc").display().to_string(),
    );
    let c = f.load();
    assert_eq!(
        c.authorization_for("https://a.example/x", None).as_deref(),
        Some("Bearer from-auth-ini")
    );
    assert_eq!(
        c.authorization_for("https://b.example/x", None).as_deref(),
        Some("Bearer b")
    );
}

#[test]
fn repository_npmrc_ignores_placeholder_credentials() {
    let mut f = Fixture::new();
    f.env("TOK", "tk");
    f.write(
        "project/.npmrc",
        "//corp.example/api/:_authToken=${TOK}\n//x.example/:_authToken=abc\nhttps-proxy=http://${TOK}:1/\n",
    );
    let c = f.load();
    assert_eq!(
        c.authorization_for("https://corp.example/api/x", None),
        None
    );
    assert_eq!(
        c.authorization_for("https://x.example/x", None).as_deref(),
        Some("Bearer abc")
    );
    assert_eq!(c.https_proxy, None);
}

#[test]
fn repository_registry_placeholders_are_errors() {
    let f = Fixture::new();
    f.write("project/.npmrc", "@a:registry=https://${TOK}.example/\n");
    let err = f.try_load().expect_err("placeholder in repo registry");
    assert!(
        matches!(err, ConfigError::RegistryEnvNotExpanded { ref key, .. } if key == "@a:registry"),
        "{err:?}"
    );

    let f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        "registry: https://${TOK}.example/\n",
    );
    let err = f.try_load().expect_err("placeholder in workspace registry");
    assert!(
        matches!(err, ConfigError::RegistryEnvNotExpanded { ref key, .. } if key == "registry"),
        "{err:?}"
    );
}

#[test]
fn npmrc_keys_outside_the_allow_list_are_ignored() {
    let f = Fixture::new();
    f.write(
        "project/.npmrc",
        "node-linker=hoisted\nhoist-pattern[]=zz\nstrict-ssl=false\nnoproxy=true\noffline=true\n",
    );
    let c = f.load();
    assert_eq!(c.node_linker, pacquet_config::NodeLinker::Isolated);
    assert_eq!(c.hoist_pattern, vec!["*"]);
    assert!(!c.offline);
    assert!(!c.strict_ssl);
    assert_eq!(c.no_proxy.as_deref(), Some("*"));
}

#[test]
fn env_credentials() {
    let mut f = Fixture::new();
    f.write("home/.npmrc", "//registry.npmjs.org/:_authToken=file\n");
    f.env("pnpm_config_//registry.npmjs.org/:_authToken", "env-token");
    let c = f.load();
    assert_eq!(
        c.authorization_for(&c.tarball_url("is-number", "7.0.0"), Some("is-number"))
            .as_deref(),
        Some("Bearer env-token")
    );
}

#[test]
fn invalid_auth_fails_the_load() {
    let f = Fixture::new();
    f.write("home/.npmrc", "//a.example/:_auth=!!!notb64\n");
    let err = f.try_load().expect_err("bad _auth");
    assert!(
        matches!(err, ConfigError::AuthInvalidBase64 { .. }),
        "{err:?}"
    );
    let code = miette::Diagnostic::code(&err).map(|c| c.to_string());
    assert_eq!(code.as_deref(), Some("ERR_PNPM_AUTH_INVALID_BASE64"));
}

#[test]
fn debug_output_is_redacted() {
    let f = Fixture::new();
    f.write(
        "home/.npmrc",
        "//a.example/:_authToken=supersecret\nhttps-proxy=http://u:proxysecret@proxy/\nkey=privkeysecret\n",
    );
    f.write(
        "project/pnpm-workspace.yaml",
        "registry: https://u:urlsecret@reg.example/\n",
    );
    let text = format!("{:?}", f.load());
    for secret in ["supersecret", "proxysecret", "privkeysecret", "urlsecret"] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
}

#[test]
fn global_config_yaml_expands_registry_placeholders() {
    let mut f = Fixture::new();
    f.env("HOST", "mirror");
    f.write(
        "home/.config/pnpm/config.yaml",
        "registry: https://${HOST}.example\nregistries:\n  '@a': https://${HOST}.example/a\n",
    );
    let c = f.load();
    assert_eq!(c.registries.default, "https://mirror.example/");
    assert_eq!(c.registry_for("@a/x"), "https://mirror.example/a/");
}

#[test]
fn npmrc_auth_file_setting_replaces_the_home_npmrc() {
    let f = Fixture::new();
    f.write("home/.npmrc", "//a.example/:_authToken=home\n");
    f.write("home/creds.ini", "//a.example/:_authToken=custom\n");
    f.write(
        "home/.config/pnpm/config.yaml",
        "npmrcAuthFile: ~/creds.ini\n",
    );
    let c = f.load();
    assert_eq!(
        c.authorization_for("https://a.example/x", None).as_deref(),
        Some("Bearer custom")
    );
}

#[test]
fn workspace_npmrc_beats_user_files_and_scoped_tokens_apply() {
    let f = Fixture::new();
    f.write(
        "home/.npmrc",
        "//npm.corp.io/:_authToken=home\n//npm.corp.io/:@corp:_authToken=corp-home\n",
    );
    f.write(
        "project/.npmrc",
        "//npm.corp.io/:_authToken=project\n@corp:registry=https://npm.corp.io/\n",
    );
    let c = f.load();
    let url = c.tarball_url("@corp/x", "1.0.0");
    assert_eq!(url, "https://npm.corp.io/@corp/x/-/x-1.0.0.tgz");
    assert_eq!(
        c.authorization_for(&url, Some("@corp/x")).as_deref(),
        Some("Bearer corp-home")
    );
    assert_eq!(
        c.authorization_for("https://npm.corp.io/y/-/y-1.0.0.tgz", Some("y"))
            .as_deref(),
        Some("Bearer project")
    );
}
