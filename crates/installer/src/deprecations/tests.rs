use super::gutter;

#[test]
fn gutters_name_projects_as_pnpm_does() {
    assert_eq!(gutter(""), ".");
    assert_eq!(gutter("packages/app"), "packages/app");
    assert_eq!(
        gutter("packages/a-rather-long-directory/with/a-project-inside"),
        ".../with/a-project-inside"
    );
}
