//! The policy a lockfile is verified under, and the snapshot of it that a
//! cached verification records (docs/supply-chain.md §2, §5).

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::exclude::{ExcludeList, PolicyError};

/// `trustPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrustPolicy {
    #[default]
    Off,
    NoDowngrade,
}

/// Everything the per-entry checks need to know about the settings.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Minutes; 0 turns the age check off.
    pub minimum_release_age: u64,
    pub minimum_release_age_exclude: ExcludeList,
    /// A registry that publishes no time for a version passes the age check.
    pub ignore_missing_time: bool,
    pub trust_policy: TrustPolicy,
    pub trust_policy_exclude: ExcludeList,
    /// Minutes after publication when the trust check stops applying.
    pub trust_policy_ignore_after: Option<u64>,
    /// The time the checks are made at (ms since the epoch).
    pub now_ms: i64,
}

/// pnpm 12's built-in named registries; their routing digest is part of
/// the snapshot (pacquet reads no `namedRegistries` of its own).
const BUILTIN_NAMED_REGISTRIES: &str =
    r#"{"gh":"https://npm.pkg.github.com/","npmjs":"https://registry.npmjs.org/"}"#;

impl Policy {
    /// The policy of `config`, checked now.
    pub fn from_config(
        config: &pacquet_config::Config,
        now_ms: i64,
    ) -> Result<Policy, PolicyError> {
        let trust_policy = match config.trust_policy.as_deref() {
            None | Some("off") => TrustPolicy::Off,
            Some("no-downgrade") => TrustPolicy::NoDowngrade,
            Some(other) => {
                return Err(PolicyError::UnknownTrustPolicy {
                    value: other.to_string(),
                });
            }
        };
        Ok(Policy {
            minimum_release_age: config.minimum_release_age,
            minimum_release_age_exclude: ExcludeList::parse(&config.minimum_release_age_exclude)?,
            ignore_missing_time: config.minimum_release_age_ignore_missing_time,
            trust_policy,
            trust_policy_exclude: ExcludeList::parse(&config.trust_policy_exclude)?,
            trust_policy_ignore_after: config.trust_policy_ignore_after,
            now_ms,
        })
    }

    /// Versions published after this instant fail the age check; `None`
    /// when the check is off.
    pub fn cutoff_ms(&self) -> Option<i64> {
        if self.minimum_release_age == 0 {
            return None;
        }
        let minutes = i64::try_from(self.minimum_release_age).ok()?;
        self.now_ms.checked_sub(minutes.checked_mul(60_000)?)
    }

    pub fn age_applies(&self, name: &str, version: &str) -> bool {
        self.cutoff_ms().is_some() && !self.minimum_release_age_exclude.excludes(name, version)
    }

    /// Whether `minimumReleaseAgeExclude` exempts every version of `name`.
    pub fn age_exempts(&self, name: &str) -> bool {
        self.minimum_release_age_exclude
            .excludes_every_version(name)
    }

    pub fn trust_applies(&self, name: &str, version: &str) -> bool {
        self.trust_policy == TrustPolicy::NoDowngrade
            && !self.trust_policy_exclude.excludes(name, version)
    }

    /// `trustPolicy` as the cache records it (`null` when off).
    fn trust_policy_name(&self) -> Option<&'static str> {
        match self.trust_policy {
            TrustPolicy::NoDowngrade => Some("no-downgrade"),
            TrustPolicy::Off => None,
        }
    }

    /// What a successful verification records: the policy, and flags for
    /// the checks that always run. pnpm 12 writes the same keys and
    /// trusts a record only when every flag is present, so a record
    /// pacquet writes claims exactly the checks pacquet made.
    pub fn snapshot(&self) -> Map<String, Value> {
        let excludes = |l: &ExcludeList| json!(l.sorted_patterns());
        let mut m = Map::new();
        m.insert("tarballUrlBinding".into(), json!(true));
        m.insert("integrityRequired".into(), json!(true));
        m.insert("namedRegistriesRouting".into(), json!(routing_digest()));
        m.insert("minimumReleaseAge".into(), json!(self.minimum_release_age));
        m.insert(
            "minimumReleaseAgeExclude".into(),
            excludes(&self.minimum_release_age_exclude),
        );
        m.insert("trustPolicy".into(), json!(self.trust_policy_name()));
        m.insert(
            "trustPolicyExclude".into(),
            excludes(&self.trust_policy_exclude),
        );
        m.insert(
            "trustPolicyIgnoreAfter".into(),
            json!(self.trust_policy_ignore_after),
        );
        m.insert(
            "minimumReleaseAgeIgnoreMissingTime".into(),
            json!(self.ignore_missing_time),
        );
        m.insert("resolutionShapeCheck".into(), json!(true));
        m.insert("dependencyAliasCheck".into(), json!(true));
        m
    }

    /// Whether a verification recorded under `cached` covers this policy:
    /// every always-on check was made, the same exclusions and trust
    /// settings, and an age limit at least as strict.
    pub fn trusts(&self, cached: &Map<String, Value>) -> bool {
        let flag = |k: &str| cached.get(k).and_then(Value::as_bool) == Some(true);
        let strings = |k: &str| -> Vec<String> {
            cached
                .get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let past_age = cached
            .get("minimumReleaseAge")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        ["tarballUrlBinding", "integrityRequired", "resolutionShapeCheck", "dependencyAliasCheck"]
            .iter()
            .all(|k| flag(k))
            && cached.get("namedRegistriesRouting").and_then(Value::as_str)
                == Some(routing_digest().as_str())
            && past_age >= self.minimum_release_age
            && strings("minimumReleaseAgeExclude") == self.minimum_release_age_exclude.sorted_patterns()
            && cached.get("trustPolicy").and_then(Value::as_str) == self.trust_policy_name()
            && strings("trustPolicyExclude") == self.trust_policy_exclude.sorted_patterns()
            && cached.get("trustPolicyIgnoreAfter").and_then(Value::as_u64)
                == self.trust_policy_ignore_after
            // A run that let missing publish times pass does not cover one
            // that refuses them; a record without the key is read as lenient.
            && (self.ignore_missing_time
                || cached.get("minimumReleaseAgeIgnoreMissingTime").and_then(Value::as_bool)
                    == Some(false))
    }
}

/// sha256 hex of the named-registry map as pnpm 12 serializes it.
fn routing_digest() -> String {
    hex::encode(Sha256::digest(BUILTIN_NAMED_REGISTRIES.as_bytes()))
}

#[cfg(test)]
mod tests;
