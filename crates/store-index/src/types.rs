//! A decoded `package_index` row (docs/store.md §7).

/// One row of `package_index`: everything pnpm knows about a package's files.
///
/// Maps that msgpackr encodes as JS `Map`s are `Vec`s of pairs so their order
/// survives a decode/encode round trip. Unknown top-level fields are kept in
/// [`PackageFilesIndex::extra`] and written back unchanged.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PackageFilesIndex {
    /// `"sha512"`; rows with another value are unusable.
    pub algo: String,
    /// Path (relative, `/`-separated) → file facts. pnpm 12 sorts bytewise.
    pub files: Vec<(String, FileInfo)>,
    pub requires_build: Option<bool>,
    /// The "bundled manifest" (docs/store.md §7), objects in their stored key order.
    pub manifest: Option<serde_json::Value>,
    /// Side-effects cache key → build diff.
    pub side_effects: Option<Vec<(String, SideEffectsDiff)>>,
    /// pnpm 12: SRI of the uncompressed tar.
    pub tar_integrity: Option<String>,
    /// Fields this crate does not interpret, in stored order.
    pub extra: Vec<(String, serde_json::Value)>,
}

impl PackageFilesIndex {
    /// What [`crate::decode_summary`] reads of this row once stored.
    pub fn summary(&self) -> RowSummary {
        RowSummary {
            algo: self.algo.clone(),
            requires_build: self.requires_build,
            manifest: self.manifest.clone(),
            has_package_json: self.files.iter().any(|(p, _)| p == "package.json"),
            provides_skills: self.files.iter().any(|(p, _)| is_skill_file(p)),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileInfo {
    /// Lowercase hex SHA-512 of the content (128 chars).
    pub digest: String,
    /// POSIX mode from the tar header; executable when `mode & 0o111 != 0`.
    pub mode: u32,
    pub size: u64,
    /// Milliseconds since the epoch when the blob was last known good.
    pub checked_at: Option<f64>,
}

impl FileInfo {
    pub fn is_executable(&self) -> bool {
        self.mode & 0o111 != 0
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SideEffectsDiff {
    pub added: Option<Vec<(String, FileInfo)>>,
    pub deleted: Option<Vec<String>>,
    pub extra: Vec<(String, serde_json::Value)>,
}

impl SideEffectsDiff {
    /// The package's files after this diff: `added ∪ (files − deleted)`,
    /// sorted by path.
    pub fn apply_to(&self, files: &[(String, FileInfo)]) -> Vec<(String, FileInfo)> {
        let deleted: std::collections::HashSet<&str> =
            self.deleted.iter().flatten().map(String::as_str).collect();
        let added = self.added.as_deref().unwrap_or_default();
        let replaced: std::collections::HashSet<&str> =
            added.iter().map(|(p, _)| p.as_str()).collect();
        let mut out: Vec<(String, FileInfo)> = files
            .iter()
            .filter(|(p, _)| !deleted.contains(p.as_str()) && !replaced.contains(p.as_str()))
            .cloned()
            .collect();
        out.extend(added.iter().cloned());
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

/// What a row says about its package, without its file list
/// ([`crate::decode_summary`]): enough for a package already complete in
/// `node_modules`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowSummary {
    pub algo: String,
    pub requires_build: Option<bool>,
    pub manifest: Option<serde_json::Value>,
    /// The files include `package.json` (then the completion marker).
    pub has_package_json: bool,
    /// A file `skills/<dirs>/SKILL.md` (see [`is_skill_file`]).
    pub provides_skills: bool,
}

/// Whether `path` is an agent skill's `SKILL.md`: `skills/<one or more
/// dirs>/SKILL.md`.
pub fn is_skill_file(path: &str) -> bool {
    path.strip_prefix("skills/")
        .and_then(|rest| rest.strip_suffix("/SKILL.md"))
        .is_some_and(|dirs| !dirs.is_empty())
}
