//! Agent skills awaiting approval (docs/layout.md §15): pnpm 12.21 lists the
//! direct dependencies that ship a skill as `pendingSkills` in
//! `.modules.yaml` and says so after every install; pacquet must write and
//! say the same.

mod support;

use std::path::Path;
use std::process::Output;

use pacquet_testing::{PnpmEnv, Registry};
use serde_json::{Value, json};
use support::{pacquet, pacquet_install_ok};

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn modules_yaml(project: &Path) -> Value {
    let text = std::fs::read_to_string(project.join("node_modules/.modules.yaml")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The notice's two lines, as printed.
fn notice(out: &Output) -> Vec<String> {
    let text = text(out);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let Some(at) = lines
        .iter()
        .position(|l| l.starts_with("Agent skills awaiting approval:"))
    else {
        return Vec::new();
    };
    lines[at..(at + 2).min(lines.len())]
        .iter()
        .map(|l| (*l).to_owned())
        .collect()
}

#[test]
fn direct_dependencies_with_skills_await_approval_as_in_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let manifest = json!({
        "name": "root",
        "version": "1.0.0",
        "dependencies": {"pq-skills-parent": "1.0.0", "pq-plain": "1.0.0"},
    });
    let workspace = "packages:\n  - packages/*\nminimumReleaseAge: 0\n";
    let member = json!({
        "name": "member",
        "version": "1.0.0",
        "devDependencies": {"pq-skills": "1.0.0"},
    });
    let mut projects = Vec::new();
    for tool in ["pnpm", "pacquet"] {
        let dir = tmp.path().join(tool).join("project");
        std::fs::create_dir_all(dir.join("packages/member")).unwrap();
        std::fs::write(dir.join("package.json"), manifest.to_string()).unwrap();
        std::fs::write(dir.join("packages/member/package.json"), member.to_string()).unwrap();
        std::fs::write(dir.join("pnpm-workspace.yaml"), workspace).unwrap();
        std::fs::write(dir.join(".npmrc"), format!("registry={}\n", registry.url())).unwrap();
        let env = PnpmEnv::new(&tmp.path().join(tool).join("env"), &registry.url());
        projects.push((dir, env));
    }
    let (by_pnpm, pnpm_env) = &projects[0];
    let (by_pacquet, env) = &projects[1];
    pnpm_env.lockfile_only(by_pnpm);
    std::fs::copy(
        by_pnpm.join("pnpm-lock.yaml"),
        by_pacquet.join("pnpm-lock.yaml"),
    )
    .unwrap();

    let pnpm_out = pnpm_env.install_frozen(by_pnpm);
    let pacquet_out = pacquet_install_ok(env, by_pacquet, &[]);
    let pnpm_state = modules_yaml(by_pnpm);
    assert_eq!(
        pnpm_state["pendingSkills"],
        json!(["pq-skills@1.0.0"]),
        "{pnpm_state}"
    );
    assert_eq!(
        modules_yaml(by_pacquet)["pendingSkills"],
        pnpm_state["pendingSkills"]
    );
    let expected = [
        "Agent skills awaiting approval: pq-skills.",
        "Run \"pnpm approve\" to review them.",
    ];
    assert_eq!(notice(&pnpm_out), expected, "{}", text(&pnpm_out));
    assert_eq!(notice(&pacquet_out), expected, "{}", text(&pacquet_out));

    // The repeat install that has nothing to do says it again.
    let pnpm_again = pnpm_env.install_frozen(by_pnpm);
    let pacquet_again = pacquet(env, by_pacquet, &["install", "--frozen-lockfile"]);
    assert_eq!(notice(&pnpm_again), expected, "{}", text(&pnpm_again));
    assert_eq!(notice(&pacquet_again), expected, "{}", text(&pacquet_again));
}

#[test]
fn without_skills_there_is_no_pending_list_and_no_notice() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("project");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = json!({"name": "p", "version": "1.0.0", "dependencies": {"pq-plain": "1.0.0"}});
    std::fs::write(dir.join("package.json"), manifest.to_string()).unwrap();
    std::fs::write(dir.join("pnpm-workspace.yaml"), "minimumReleaseAge: 0\n").unwrap();
    std::fs::write(dir.join(".npmrc"), format!("registry={}\n", registry.url())).unwrap();
    let env = PnpmEnv::new(&tmp.path().join("env"), &registry.url());
    env.lockfile_only(&dir);
    let out = pacquet_install_ok(&env, &dir, &[]);
    assert!(modules_yaml(&dir).get("pendingSkills").is_none());
    assert!(notice(&out).is_empty(), "{}", text(&out));
}
