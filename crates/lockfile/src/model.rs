//! Plain data types for lockfile v9. Field order here is the order pnpm
//! writes them in; maps are `BTreeMap` where pnpm sorts keys and `IndexMap`
//! where it keeps the order it was given.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Deserialize;

use crate::DepPath;

/// One YAML document of `pnpm-lock.yaml`. A two-document file (pnpm 11+ with
/// config dependencies) keeps its first ("env") document in [`Lockfile::env`].
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lockfile {
    /// Kept as written (`'9.0'`); validated by the reader.
    #[serde(deserialize_with = "crate::read::lockfile_version")]
    pub lockfile_version: String,
    #[serde(default)]
    pub settings: Option<LockfileSettings>,
    #[serde(default)]
    pub catalogs: Option<BTreeMap<String, BTreeMap<String, ResolvedDependency>>>,
    #[serde(default)]
    pub overrides: Option<IndexMap<String, String>>,
    #[serde(default)]
    pub package_extensions_checksum: Option<String>,
    #[serde(default)]
    pub pnpmfile_checksum: Option<String>,
    #[serde(default)]
    pub patched_dependencies: Option<BTreeMap<String, serde_json::Value>>,
    #[serde(default)]
    pub importers: BTreeMap<String, Importer>,
    #[serde(default, deserialize_with = "bulk_map")]
    pub packages: BTreeMap<DepPath, PackageInfo>,
    #[serde(default, deserialize_with = "bulk_map")]
    pub snapshots: BTreeMap<DepPath, Snapshot>,
    #[serde(default)]
    pub ignored_optional_dependencies: Option<Vec<String>>,
    #[serde(default)]
    pub time: Option<BTreeMap<String, String>>,
    /// The first document of a two-document lockfile.
    #[serde(skip)]
    pub env: Option<Box<Lockfile>>,
    /// Written as `packages: {}` and `snapshots: {}` when those are empty:
    /// pnpm 12 does so in a current lockfile cut down from one that had
    /// packages (docs/layout.md §13, rule 2).
    #[serde(skip)]
    pub empty_maps_written: bool,
}

/// Collects entries first and builds the map in bulk: the input is sorted,
/// so this avoids a key comparison walk per insert. Later duplicates win, as
/// with `insert`.
fn bulk_map<'de, D, K, V>(d: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: Deserialize<'de> + Ord,
    V: Deserialize<'de>,
{
    struct Bulk<K, V>(std::marker::PhantomData<(K, V)>);
    impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> serde::de::Visitor<'de> for Bulk<K, V> {
        type Value = BTreeMap<K, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a mapping")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut access: A,
        ) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0));
            while let Some(entry) = access.next_entry::<K, V>()? {
                entries.push(entry);
            }
            Ok(entries.into_iter().collect())
        }
    }
    d.deserialize_map(Bulk(std::marker::PhantomData))
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockfileSettings {
    #[serde(default)]
    pub auto_install_peers: Option<bool>,
    #[serde(default)]
    pub exclude_links_from_lockfile: Option<bool>,
    #[serde(default)]
    pub dedupe_peers: Option<bool>,
    #[serde(default)]
    pub peers_suffix_max_length: Option<u64>,
    #[serde(default)]
    pub inject_workspace_packages: Option<bool>,
    /// `tar` when `integrity` pins the uncompressed tar (pnpm 12's
    /// `lockfile.integrityTarget`).
    #[serde(default)]
    pub integrity_target: Option<String>,
}

/// `{ specifier, version }` as used by importers and catalogs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ResolvedDependency {
    pub specifier: String,
    /// Resolve with [`crate::DepRef::resolve`] against the alias.
    pub version: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Importer {
    #[serde(default)]
    pub dependencies: Option<BTreeMap<String, ResolvedDependency>>,
    #[serde(default)]
    pub dev_dependencies: Option<BTreeMap<String, ResolvedDependency>>,
    #[serde(default)]
    pub optional_dependencies: Option<BTreeMap<String, ResolvedDependency>>,
    #[serde(default)]
    pub dependencies_meta: Option<serde_json::Value>,
    /// `false` when the project's `publishConfig.linkDirectory` is.
    #[serde(default)]
    pub link_directory: Option<bool>,
    #[serde(default)]
    pub publish_directory: Option<String>,
    /// Only in the env document.
    #[serde(default)]
    pub config_dependencies: Option<BTreeMap<String, ResolvedDependency>>,
    #[serde(default)]
    pub package_manager_dependencies: Option<BTreeMap<String, ResolvedDependency>>,
}

/// An entry of `packages`: facts about a package independent of its peers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageInfo {
    pub resolution: Resolution,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub engines: Option<IndexMap<String, String>>,
    #[serde(default)]
    pub cpu: Option<Vec<String>>,
    #[serde(default)]
    pub os: Option<Vec<String>>,
    /// A list, or (as some pnpm versions wrote it) one scalar; pnpm 12.21
    /// reads both and writes back what it read (docs/lockfile.md §7).
    #[serde(default)]
    pub libc: Option<ListOrScalar>,
    #[serde(default)]
    pub deprecated: Option<String>,
    #[serde(default)]
    pub has_bin: Option<bool>,
    #[serde(default)]
    pub prepare: Option<bool>,
    #[serde(default)]
    pub requires_build: Option<bool>,
    /// `true` or a list of names; pnpm writes `bundledDependencies`.
    #[serde(default, alias = "bundleDependencies")]
    pub bundled_dependencies: Option<serde_json::Value>,
    #[serde(default)]
    pub peer_dependencies: Option<IndexMap<String, String>>,
    #[serde(default)]
    pub peer_dependencies_meta: Option<IndexMap<String, serde_json::Value>>,
    #[serde(default)]
    pub dependencies: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub optional_dependencies: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub transitive_peer_dependencies: Option<Vec<String>>,
    #[serde(default)]
    pub dev: Option<bool>,
    #[serde(default)]
    pub optional: Option<bool>,
    #[serde(default)]
    pub patched: Option<bool>,
}

impl PackageInfo {
    /// An entry with `resolution` and no other field.
    pub fn new(resolution: Resolution) -> PackageInfo {
        PackageInfo {
            resolution,
            id: None,
            name: None,
            version: None,
            engines: None,
            cpu: None,
            os: None,
            libc: None,
            deprecated: None,
            has_bin: None,
            prepare: None,
            requires_build: None,
            bundled_dependencies: None,
            peer_dependencies: None,
            peer_dependencies_meta: None,
            dependencies: None,
            optional_dependencies: None,
            transitive_peer_dependencies: None,
            dev: None,
            optional: None,
            patched: None,
        }
    }
}

/// An entry of `snapshots`: one concrete instance (with its peer resolution).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// alias → ref; resolve with [`crate::DepRef::resolve`].
    #[serde(default)]
    pub dependencies: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub optional_dependencies: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub transitive_peer_dependencies: Option<Vec<String>>,
    #[serde(default)]
    pub optional: Option<bool>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub patched: Option<bool>,
}

/// How to obtain a package's files.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// `{integrity}`: a registry tarball whose URL is derived from name/version.
    Registry { integrity: String },
    /// `{tarball, integrity?, gitHosted?, path?}`: an explicit URL or `file:` tarball.
    Tarball {
        tarball: String,
        integrity: Option<String>,
        git_hosted: Option<bool>,
        path: Option<String>,
    },
    /// `{type: git, repo, commit, path?}`.
    Git {
        repo: String,
        commit: String,
        path: Option<String>,
    },
    /// `{type: directory, directory}`.
    Directory { directory: String },
    /// Anything else (`binary`, `variations`, `custom:*`), kept verbatim so it
    /// can be written back and reported.
    Other(IndexMap<String, serde_json::Value>),
}

impl<'de> Deserialize<'de> for Resolution {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = d.deserialize_map(ResolutionMapVisitor)?;
        let s = |k: &str| map.get(k).and_then(|v| v.as_str()).map(str::to_owned);
        let kind = map.get("type").and_then(|v| v.as_str());
        Ok(match kind {
            None if map.contains_key("tarball") => Resolution::Tarball {
                tarball: s("tarball").unwrap_or_default(),
                integrity: s("integrity"),
                git_hosted: map.get("gitHosted").and_then(|v| v.as_bool()),
                path: s("path"),
            },
            None if map.contains_key("integrity") && map.len() == 1 => Resolution::Registry {
                integrity: s("integrity").unwrap_or_default(),
            },
            Some("git") if map.contains_key("repo") && map.contains_key("commit") => {
                Resolution::Git {
                    repo: s("repo").unwrap_or_default(),
                    commit: s("commit").unwrap_or_default(),
                    path: s("path"),
                }
            }
            Some("directory") if map.contains_key("directory") => Resolution::Directory {
                directory: s("directory").unwrap_or_default(),
            },
            _ => Resolution::Other(map),
        })
    }
}

/// Keys whose values are always text. Reading them as strings keeps plain
/// scalars such as an all-digit commit hash from being typed as numbers.
const STRING_KEYS: &[&str] = &[
    "type",
    "integrity",
    "tarball",
    "commit",
    "repo",
    "path",
    "directory",
    "url",
    "archive",
    "prefix",
];

struct ResolutionMapVisitor;

impl<'de> serde::de::Visitor<'de> for ResolutionMapVisitor {
    type Value = IndexMap<String, serde_json::Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a resolution mapping")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut access: A,
    ) -> Result<Self::Value, A::Error> {
        let mut map = IndexMap::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = if STRING_KEYS.contains(&key.as_str()) {
                serde_json::Value::String(access.next_value::<String>()?)
            } else {
                access.next_value::<serde_json::Value>()?
            };
            map.insert(key, value);
        }
        Ok(map)
    }
}

impl Resolution {
    /// The SRI integrity, when the resolution has one.
    pub fn integrity(&self) -> Option<&str> {
        match self {
            Resolution::Registry { integrity } => Some(integrity),
            Resolution::Tarball { integrity, .. } => integrity.as_deref(),
            _ => None,
        }
    }
}

/// A list of strings that may also be written as a single scalar
/// (`libc: glibc`), kept as written so it is written back the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListOrScalar {
    pub values: Vec<String>,
    /// Written as a scalar.
    pub scalar: bool,
}

impl std::ops::Deref for ListOrScalar {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.values
    }
}

impl<'de> Deserialize<'de> for ListOrScalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            One(String),
            Many(Vec<String>),
        }
        Ok(match Form::deserialize(d)? {
            Form::One(value) => ListOrScalar {
                values: vec![value],
                scalar: true,
            },
            Form::Many(values) => ListOrScalar {
                values,
                scalar: false,
            },
        })
    }
}
