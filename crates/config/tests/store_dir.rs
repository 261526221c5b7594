//! docs/store.md §1.3 and pnpm 12's per-source resolution of `storeDir`.

mod common;

use common::Fixture;
use pretty_assertions::assert_eq;

#[test]
fn default_is_under_local_share() {
    let f = Fixture::new();
    assert_eq!(
        f.load().store_dir,
        f.home.join(".local/share/pnpm/store/v11")
    );
}

#[test]
fn pnpm_home_and_xdg_data_home() {
    let mut f = Fixture::new();
    f.env("XDG_DATA_HOME", "/y");
    assert_eq!(
        f.load().store_dir,
        std::path::Path::new("/y/pnpm/store/v11")
    );
    f.env("PNPM_HOME", "/x");
    assert_eq!(f.load().store_dir, std::path::Path::new("/x/store/v11"));
}

#[test]
fn cli_store_dir_gets_one_suffix() {
    let mut f = Fixture::new();
    f.cli.store_dir = Some("/data/x".to_owned());
    assert_eq!(f.load().store_dir, std::path::Path::new("/data/x/v11"));
    f.cli.store_dir = Some("/data/z/v11".to_owned());
    assert_eq!(f.load().store_dir, std::path::Path::new("/data/z/v11"));
    f.cli.store_dir = Some("rel".to_owned());
    assert_eq!(f.load().store_dir, f.project.join("rel/v11"));
    f.cli.store_dir = Some("~/c".to_owned());
    assert_eq!(f.load().store_dir, f.home.join("c/v11"));
    f.cli.store_dir = Some(String::new());
    assert_eq!(
        f.load().store_dir,
        f.home.join(".local/share/pnpm/store/v11")
    );
}

#[test]
fn relative_paths_per_source() {
    let mut f = Fixture::new();
    f.write(
        "project/pnpm-workspace.yaml",
        "packages: ['pkgs/*']\nstoreDir: ../st\n",
    );
    f.write("project/pkgs/a/package.json", "{}");
    let sub = f.project.join("pkgs/a");
    // Workspace yaml: relative to the workspace root, not normalized.
    assert_eq!(
        f.try_load_in(&sub).expect("load").store_dir,
        f.project.join("../st/v11")
    );
    // Env: relative to the cwd.
    f.env("pnpm_config_store_dir", "envrel");
    assert_eq!(
        f.try_load_in(&sub).expect("load").store_dir,
        sub.join("envrel/v11")
    );
    // CLI: relative to the workspace root.
    f.cli.store_dir = Some("cli".to_owned());
    assert_eq!(
        f.try_load_in(&sub).expect("load").store_dir,
        f.project.join("cli/v11")
    );
}

#[test]
fn tilde_is_not_expanded_in_the_workspace_yaml() {
    let f = Fixture::new();
    f.write("project/pnpm-workspace.yaml", "storeDir: ~/gstore\n");
    assert_eq!(f.load().store_dir, f.project.join("~/gstore/v11"));
}

#[test]
fn global_config_yaml_expands_tilde_and_loses_to_workspace() {
    let f = Fixture::new();
    f.write("home/.config/pnpm/config.yaml", "storeDir: ~/gstore\n");
    assert_eq!(f.load().store_dir, f.home.join("gstore/v11"));
    f.write("project/pnpm-workspace.yaml", "storeDir: /ws/store\n");
    assert_eq!(f.load().store_dir, std::path::Path::new("/ws/store/v11"));
}

#[test]
fn upper_case_env_beats_lower_case_and_npmrc_is_ignored() {
    let mut f = Fixture::new();
    f.write("project/.npmrc", "store-dir=/npmrc-store\n");
    assert_eq!(
        f.load().store_dir,
        f.home.join(".local/share/pnpm/store/v11")
    );
    f.env("pnpm_config_store_dir", "/lower")
        .env("PNPM_CONFIG_STORE_DIR", "/upper");
    assert_eq!(f.load().store_dir, std::path::Path::new("/upper/v11"));
    f.env("npm_config_store_dir", "/npm");
    assert_eq!(f.load().store_dir, std::path::Path::new("/upper/v11"));
}
