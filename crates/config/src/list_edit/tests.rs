use super::{merge_version_specs, set_top_level_list};

fn items(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn lists_are_written_where_pnpm_writes_them() {
    let new = items(&["pq-dup@1.0.0", "pq-plain@1.0.0"]);
    assert_eq!(
        set_top_level_list(None, "minimumReleaseAgeExclude", &new),
        "minimumReleaseAgeExclude:\n  - pq-dup@1.0.0\n  - pq-plain@1.0.0\n"
    );
    assert_eq!(
        set_top_level_list(
            Some("allowBuilds:\n  esbuild: false\nzzz: 1\n"),
            "minimumReleaseAgeExclude",
            &new
        ),
        "allowBuilds:\n  esbuild: false\nminimumReleaseAgeExclude:\n  - pq-dup@1.0.0\n  - pq-plain@1.0.0\nzzz: 1\n"
    );
    assert_eq!(
        set_top_level_list(
            Some("# mine\nminimumReleaseAge: 9\nminimumReleaseAgeStrict: false\n"),
            "minimumReleaseAgeExclude",
            &new
        ),
        "# mine\nminimumReleaseAge: 9\nminimumReleaseAgeExclude:\n  - pq-dup@1.0.0\n  - pq-plain@1.0.0\nminimumReleaseAgeStrict: false\n"
    );
    // Keys out of order: at the end.
    assert_eq!(
        set_top_level_list(
            Some("trustLockfile: true\n\nminimumReleaseAge: 9\n"),
            "minimumReleaseAgeExclude",
            &new
        ),
        "trustLockfile: true\n\nminimumReleaseAge: 9\nminimumReleaseAgeExclude:\n  - pq-dup@1.0.0\n  - pq-plain@1.0.0\n"
    );
    assert_eq!(
        set_top_level_list(
            Some("minimumReleaseAgeExclude:\n  - zeta\nzzz: 1\n"),
            "minimumReleaseAgeExclude",
            &items(&["zeta", "pq-dup@1.0.0"])
        ),
        "minimumReleaseAgeExclude:\n  - zeta\n  - pq-dup@1.0.0\nzzz: 1\n"
    );
    assert_eq!(
        set_top_level_list(
            Some("packages:\n  - \".\"\nminimumReleaseAgeExclude: [pq-dup]\n"),
            "minimumReleaseAgeExclude",
            &items(&["pq-dup", "pq-plain@1.0.0"])
        ),
        "packages:\n  - \".\"\nminimumReleaseAgeExclude: [ pq-dup, pq-plain@1.0.0 ]\n"
    );
}

#[test]
fn version_specs_merge_as_pnpm_merges_them() {
    assert_eq!(
        merge_version_specs(["zeta", "alpha@1.0.0", "pq-dup@1.0.0"]),
        items(&["zeta", "alpha@1.0.0", "pq-dup@1.0.0"])
    );
    assert_eq!(
        merge_version_specs(["pq-dup", "pq-dup@1.0.0"]),
        items(&["pq-dup"])
    );
    assert_eq!(
        merge_version_specs(["@s/p@2.0.0", "@s/p@1.0.0 || 10.0.0", "@s/p@2.0.0"]),
        items(&["@s/p@1.0.0 || 2.0.0 || 10.0.0"])
    );
}
