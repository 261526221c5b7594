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

#[test]
fn dropped_caches_are_refused_beside_scenarios_that_start_full() {
    let empty = [Scenario::Cold, Scenario::ResolveCold];
    assert!(refuse_mixed_drops(true, &empty).is_ok());
    let mixed = [
        Scenario::Cold,
        Scenario::LockfileChange,
        Scenario::ResolveWarm,
    ];
    let err = refuse_mixed_drops(true, &mixed).unwrap_err();
    assert!(err.contains("lockfile-change, resolve-warm"), "{err}");
    assert!(refuse_mixed_drops(false, &mixed).is_ok());
}
