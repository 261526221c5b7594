use super::*;

#[test]
fn the_caches_are_dropped_after_the_write_back() {
    assert_eq!(prepare_command("mv a t/", None), "mv a t/; sync");
    assert_eq!(
        prepare_command("mv a t/", Some("echo 3 > /proc/sys/vm/drop_caches")),
        "mv a t/; sync; echo 3 > /proc/sys/vm/drop_caches"
    );
}

#[test]
fn only_runs_that_start_empty_have_their_caches_dropped() {
    let empty: Vec<&str> = Scenario::value_variants()
        .iter()
        .filter(|s| s.starts_empty())
        .map(|s| s.name())
        .collect();
    assert_eq!(
        empty,
        [
            "cold",
            "lockfile-only-fetch",
            "cold-verified",
            "resolve-cold"
        ]
    );
}
