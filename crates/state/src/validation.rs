//! The `validation` block of `.pnpm-workspace-state-v1.json` (docs/layout.md
//! §9.1): what the lockfile, the manifests and the local tarballs looked
//! like when an install validated them, so the next install can tell from
//! `stat` calls that nothing changed.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::digest::value_digest;

/// A file as `stat` saw it, with the digest of its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSignature {
    pub stat: FileStat,
    pub digest: String,
}

/// The `stat` fields pnpm 12 records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub size: u64,
}

/// A project's manifest: its `stat`, and the parsed JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestRecord {
    pub stat: FileStat,
    pub manifest: Value,
    /// Whether its stat goes into `manifestFiles`: pnpm 12 leaves out a
    /// manifest the command itself edited (`add`, `remove`).
    pub record_file: bool,
}

/// Everything the block records.
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    pub recorded_at_ns: i64,
    /// Absolute path → signature: the lockfile, each local tarball and each
    /// patch file.
    pub files: BTreeMap<String, FileSignature>,
    pub lockfile_digest: String,
    /// Installed projects, by dir relative to the workspace root (`.`).
    pub manifests: BTreeMap<String, ManifestRecord>,
    /// Every workspace project's manifest, by relative dir: the bins the
    /// `workspaceBins` digest covers.
    pub workspace_manifests: BTreeMap<String, Value>,
    /// Absolute dirs of the lockfile's `directory` packages.
    pub local_directories: Vec<String>,
    /// Absolute paths of the lockfile's `file:` tarballs.
    pub local_tarballs: Vec<String>,
}

/// pnpm 12.21 writes `fieldsRevision: 2` with these manifest keys, in this
/// order.
const MANIFEST_FIELDS: &[&str] = &[
    "name",
    "version",
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
    "peerDependenciesMeta",
    "bin",
    "directories",
    "engines",
    "devEngines",
    "os",
    "cpu",
    "libc",
];
const FIELDS_REVISION: u64 = 2;

impl Validation {
    /// The block as the state file records it.
    pub fn to_json(&self) -> Value {
        let files: Map<String, Value> = self
            .files
            .iter()
            .map(|(path, sig)| (path.clone(), signature_json(sig)))
            .collect();
        let manifests: Map<String, Value> = self
            .manifests
            .iter()
            .map(|(dir, m)| (dir.clone(), json!(value_digest(&m.manifest))))
            .collect();
        let mut local = Map::new();
        if !self.local_tarballs.is_empty() {
            local.insert("tarballs".into(), json!(sorted(&self.local_tarballs)));
        }
        if !self.local_directories.is_empty() {
            local.insert("directories".into(), json!(sorted(&self.local_directories)));
        }
        let manifest_files: Map<String, Value> = self
            .manifests
            .iter()
            .filter(|(_, m)| m.record_file)
            .map(|(dir, m)| (dir.clone(), manifest_file_json(m)))
            .collect();

        let mut block = Map::new();
        block.insert("recordedAtNs".into(), json!(self.recorded_at_ns));
        block.insert("files".into(), Value::Object(files));
        block.insert("lockfile".into(), json!(self.lockfile_digest));
        block.insert("manifests".into(), Value::Object(manifests));
        if let Some(bins) = self.workspace_bins() {
            block.insert("workspaceBins".into(), bins);
        }
        let mut by_lockfile = Map::new();
        by_lockfile.insert(self.lockfile_digest.clone(), Value::Object(local));
        block.insert("localDependencies".into(), Value::Object(by_lockfile));
        if !manifest_files.is_empty() {
            block.insert("manifestFiles".into(), Value::Object(manifest_files));
        }
        Value::Object(block)
    }

    /// `workspaceBins`: one digest over every project's bins, recorded for
    /// the root and each installed project that declares dependencies.
    fn workspace_bins(&self) -> Option<Value> {
        let mut bins = Map::new();
        for (dir, manifest) in &self.workspace_manifests {
            let bin = manifest.get("bin");
            let directory = manifest.pointer("/directories/bin");
            if bin.is_none() && directory.is_none() {
                continue;
            }
            let entry = json!({
                "bin": bin.cloned().unwrap_or(Value::Null),
                "directory": directory.cloned().unwrap_or(Value::Null),
                "name": manifest.get("name").cloned().unwrap_or(Value::Null),
            });
            bins.insert(dir.clone(), entry);
        }
        if bins.is_empty() {
            return None;
        }
        let digest = value_digest(&Value::Object(bins));
        let recorded: Map<String, Value> = self
            .manifests
            .iter()
            .filter(|(dir, m)| dir.as_str() == "." || declares_dependencies(&m.manifest))
            .map(|(dir, _)| (dir.clone(), json!(digest)))
            .collect();
        Some(Value::Object(recorded))
    }
}

/// pnpm 12 records a URL specifier (`git+https://…`, `git+file://…`, a
/// tarball URL, which may carry credentials) as `*`.
fn redact_urls(deps: &Value) -> Value {
    match deps {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(name, spec)| {
                    let url = spec.as_str().is_some_and(is_remote_url);
                    (name.clone(), if url { json!("*") } else { spec.clone() })
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `<scheme>://…` with a scheme other than `file` (a deploy's
/// `name@file:///dir` and `file:` paths are kept).
fn is_remote_url(spec: &str) -> bool {
    let Some((scheme, _)) = spec.split_once("://") else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && scheme != "file"
}

fn declares_dependencies(manifest: &Value) -> bool {
    [
        "dependencies",
        "devDependencies",
        "optionalDependencies",
        "peerDependencies",
    ]
    .iter()
    .any(|group| {
        manifest
            .get(*group)
            .and_then(Value::as_object)
            .is_some_and(|deps| !deps.is_empty())
    })
}

/// Sorted as paths, component by component, as pnpm 12 lists them
/// (`a/b/c` before `a/b-x`; vite's playground, benchmarks/compat-real).
fn sorted(list: &[String]) -> Vec<&String> {
    let mut out: Vec<&String> = list.iter().collect();
    out.sort_by(|a, b| std::path::Path::new(a).cmp(std::path::Path::new(b)));
    out.dedup();
    out
}

fn stat_fields(stat: &FileStat, out: &mut Map<String, Value>) {
    out.insert("mtimeNs".into(), json!(stat.mtime_ns));
    out.insert("ctimeNs".into(), json!(stat.ctime_ns));
    out.insert("size".into(), json!(stat.size));
}

fn signature_json(sig: &FileSignature) -> Value {
    let mut out = Map::new();
    stat_fields(&sig.stat, &mut out);
    out.insert("digest".into(), json!(sig.digest));
    Value::Object(out)
}

fn manifest_file_json(record: &ManifestRecord) -> Value {
    let mut out = Map::new();
    out.insert("fileName".into(), json!("package.json"));
    stat_fields(&record.stat, &mut out);
    let fields: Map<String, Value> = MANIFEST_FIELDS
        .iter()
        .filter_map(|key| {
            let value = record.manifest.get(*key)?;
            let value = match *key {
                "dependencies"
                | "devDependencies"
                | "optionalDependencies"
                | "peerDependencies" => redact_urls(value),
                _ => value.clone(),
            };
            Some(((*key).to_owned(), value))
        })
        .collect();
    out.insert("fields".into(), Value::Object(fields));
    out.insert("fieldsRevision".into(), json!(FIELDS_REVISION));
    Value::Object(out)
}
