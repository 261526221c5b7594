//! The parts of a project's `package.json` the frozen-lockfile gates compare.

use std::path::Path;

use indexmap::IndexMap;
use serde_json::Value;

use crate::LockfileError;

/// A `package.json`, read tolerantly: fields of the wrong shape (such as
/// `"dependencies": []`) count as absent, non-string specifiers are skipped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProjectManifest {
    pub name: Option<String>,
    pub version: Option<String>,
    pub dependencies: IndexMap<String, String>,
    pub dev_dependencies: IndexMap<String, String>,
    pub optional_dependencies: IndexMap<String, String>,
    pub peer_dependencies: IndexMap<String, String>,
    /// Kept as JSON: compared structurally with the importer's.
    pub dependencies_meta: Option<Value>,
    /// `publishConfig.directory`.
    pub publish_directory: Option<String>,
    /// `publishConfig.linkDirectory`.
    pub link_directory: Option<bool>,
    /// `engines.node` and `engines.pnpm`, when they are strings.
    pub engines: ProjectEngines,
}

/// The project's own `engines` that pnpm 12 checks before installing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectEngines {
    pub node: Option<String>,
    pub pnpm: Option<String>,
}

impl ProjectManifest {
    pub fn from_path(path: &Path) -> Result<Self, LockfileError> {
        let text = std::fs::read_to_string(path).map_err(|source| {
            match (source.kind(), path.parent()) {
                (std::io::ErrorKind::NotFound, Some(dir)) => LockfileError::NoPkgManifest {
                    dir: dir.to_owned(),
                },
                _ => LockfileError::ReadManifest {
                    path: path.to_owned(),
                    source,
                },
            }
        })?;
        Self::from_json(&text, path)
    }

    /// Parses manifest text; `path` is used in error messages only.
    pub fn from_json(text: &str, path: &Path) -> Result<Self, LockfileError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: Value =
            serde_json::from_str(text).map_err(|e| LockfileError::ParseManifest {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        Ok(Self::from_value(&value))
    }

    pub fn from_value(value: &Value) -> Self {
        let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
        let deps = |key: &str| -> IndexMap<String, String> {
            match value.get(key) {
                Some(Value::Object(map)) => map
                    .iter()
                    .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned())))
                    .collect(),
                _ => IndexMap::new(),
            }
        };
        let mut dev_dependencies = deps("devDependencies");
        for (name, spec) in runtime_dependencies(value) {
            dev_dependencies.entry(name).or_insert(spec);
        }
        ProjectManifest {
            name: string(value.get("name")),
            version: string(value.get("version")),
            dependencies: deps("dependencies"),
            dev_dependencies,
            optional_dependencies: deps("optionalDependencies"),
            peer_dependencies: deps("peerDependencies"),
            dependencies_meta: value
                .get("dependenciesMeta")
                .filter(|v| v.is_object())
                .cloned(),
            publish_directory: string(value.get("publishConfig").and_then(|p| p.get("directory"))),
            link_directory: value
                .pointer("/publishConfig/linkDirectory")
                .and_then(Value::as_bool),
            engines: ProjectEngines {
                node: string(value.pointer("/engines/node")),
                pnpm: string(value.pointer("/engines/pnpm")),
            },
        }
    }

    /// Whether the manifest declares any dependency at all.
    pub fn has_dependencies(&self) -> bool {
        !(self.dependencies.is_empty()
            && self.dev_dependencies.is_empty()
            && self.optional_dependencies.is_empty()
            && self.peer_dependencies.is_empty())
    }
}

/// `devEngines.runtime` entries with `onFail: download` are development
/// dependencies on the runtime (`node: runtime:26.7.0`), as pnpm 12 records
/// them in the importer (the pnpm repository, benchmarks/compat-real).
fn runtime_dependencies(manifest: &Value) -> Vec<(String, String)> {
    let entries = match manifest.pointer("/devEngines/runtime") {
        Some(Value::Array(list)) => list.iter().collect(),
        Some(entry @ Value::Object(_)) => vec![entry],
        _ => Vec::new(),
    };
    entries
        .into_iter()
        .filter(|e| e.get("onFail").and_then(Value::as_str) == Some("download"))
        .filter_map(|e| {
            let name = e.get("name")?.as_str()?;
            let version = e.get("version")?.as_str()?;
            Some((name.to_owned(), format!("runtime:{version}")))
        })
        .collect()
}
