use serde_json::json;

use super::{Policy, TrustPolicy};
use crate::exclude::ExcludeList;

fn policy(age: u64, excludes: &[&str]) -> Policy {
    Policy {
        minimum_release_age: age,
        minimum_release_age_exclude: ExcludeList::parse(
            &excludes.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
        .unwrap(),
        ignore_missing_time: true,
        trust_policy: TrustPolicy::Off,
        trust_policy_exclude: ExcludeList::default(),
        trust_policy_ignore_after: None,
        now_ms: 10_000_000,
    }
}

#[test]
fn cutoff_is_now_minus_the_age() {
    assert_eq!(policy(1, &[]).cutoff_ms(), Some(10_000_000 - 60_000));
    assert_eq!(policy(0, &[]).cutoff_ms(), None);
    assert!(!policy(0, &[]).age_applies("a", "1.0.0"));
    assert!(!policy(5, &["a"]).age_applies("a", "1.0.0"));
}

#[test]
fn a_record_covers_the_same_or_a_looser_policy_only() {
    let strict = policy(1440, &[]).snapshot();
    assert!(policy(1440, &[]).trusts(&strict));
    assert!(
        policy(60, &[]).trusts(&strict),
        "a stricter past age covers a looser one"
    );
    assert!(!policy(2880, &[]).trusts(&strict));
    assert!(!policy(1440, &["a"]).trusts(&strict), "other exclusions");
    let mut trusting = policy(1440, &[]);
    trusting.trust_policy = TrustPolicy::NoDowngrade;
    assert!(!trusting.trusts(&strict), "a trust check was not made");
    let mut no_flags = strict.clone();
    no_flags.remove("tarballUrlBinding");
    assert!(!policy(1440, &[]).trusts(&no_flags));
}

#[test]
fn snapshot_has_pnpms_keys() {
    let s = policy(1440, &["b", "a"]).snapshot();
    assert_eq!(s["minimumReleaseAge"], json!(1440));
    assert_eq!(s["minimumReleaseAgeExclude"], json!(["a", "b"]));
    assert_eq!(s["trustPolicy"], json!(null));
    assert_eq!(s["trustPolicyIgnoreAfter"], json!(null));
    assert_eq!(s["resolutionShapeCheck"], json!(true));
}
