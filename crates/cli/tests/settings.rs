//! Settings pnpm 12 recognizes are accepted quietly; unknown ones get
//! pnpm's warning, naming pacquet (docs/settings.md §4).

mod support;

use pacquet_testing::{PnpmEnv, Registry, prepare_project};
use support::{pacquet_install_ok, stderr};

#[test]
fn only_unrecognized_workspace_settings_are_warned_about() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    prepare_project("basic", &project, &registry.url());
    let settings = project.join("pnpm-workspace.yaml");
    let mut text = std::fs::read_to_string(&settings).unwrap_or_default();
    text.push_str("\ndedupeInjectedDeps: true\nblockExoticSubdeps: true\nallowUnusedPatches: true\nzzNotASetting: true\n");
    std::fs::write(&settings, text).unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());

    let pnpm = env.run_ok(&project, &["install", "--frozen-lockfile"]);
    let pnpm_text = stderr(&pnpm) + &String::from_utf8_lossy(&pnpm.stdout);
    assert!(pnpm_text.contains("\"zzNotASetting\""), "{pnpm_text}");
    assert!(!pnpm_text.contains("dedupeInjectedDeps"), "{pnpm_text}");

    let out = pacquet_install_ok(&env, &project, &[]);
    let ours = stderr(&out);
    let unwrapped: String = ours.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        unwrapped.contains(
            "are not recognized by this version of pacquet and were ignored: \"zzNotASetting\""
        ),
        "{ours}"
    );
    for known in [
        "dedupeInjectedDeps",
        "blockExoticSubdeps",
        "allowUnusedPatches",
    ] {
        assert!(!ours.contains(known), "{known} warned about: {ours}");
    }
}
