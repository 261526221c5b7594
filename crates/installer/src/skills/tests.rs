use super::*;

fn files(paths: &[&str]) -> Vec<(String, FileInfo)> {
    paths
        .iter()
        .map(|p| {
            (
                (*p).to_owned(),
                FileInfo {
                    digest: String::new(),
                    mode: 0o644,
                    size: 1,
                    checked_at: None,
                },
            )
        })
        .collect()
}

/// The layouts pnpm 12.21 did and did not list (docs/layout.md §15).
#[test]
fn a_skill_is_a_skill_md_in_a_directory_below_skills() {
    for listed in [
        &["package.json", "skills/demo/SKILL.md"][..],
        &["skills/a/b/SKILL.md"],
        &["skills/one/SKILL.md", "skills/two/SKILL.md"],
    ] {
        assert!(provides_skills(&files(listed)), "{listed:?}");
    }
    for not_listed in [
        &["package.json"][..],
        &["skills/demo/skill.md"],
        &["skills/SKILL.md"],
        &["SKILL.md"],
        &["skills/README.md"],
        &["lib/skills/demo/SKILL.md"],
    ] {
        assert!(!provides_skills(&files(not_listed)), "{not_listed:?}");
    }
}
