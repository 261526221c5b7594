//! What [`super::diff_trees`] compares and how state files are normalized.

use std::path::Path;

/// Options for [`super::diff_trees`].
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// Also compare the full permission bits (`mode & 0o7777`) of files, not
    /// only the exec bits (which are always compared).
    pub compare_full_mode: bool,
    /// Relative paths to leave out; a path also excludes everything under
    /// it. Matching is exact per path component prefix (`node_modules/.cache`).
    pub ignore: Vec<String>,
    /// File names compared as JSON state files.
    pub state_files: Vec<String>,
    /// Keys dropped (at any depth) from state files before comparing.
    pub volatile_keys: Vec<String>,
    /// `(from, to)` string replacements applied to every string and object
    /// key of both sides' state files, longest `from` first; e.g. map each
    /// side's store dir and project dir to the same placeholder.
    pub substitutions: Vec<(String, String)>,
    /// Whether the order of keys in state-file objects must match too
    /// (`hoistedDependencies` order is meaningful).
    pub json_key_order: bool,
    /// Most differences listed by [`super::assert_trees_equal`].
    pub report_limit: usize,
    /// Apply [`Self::substitutions`] to every (UTF-8) file's contents too:
    /// shims name absolute paths of the global virtual store.
    pub substitute_contents: bool,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            compare_full_mode: true,
            ignore: Vec::new(),
            state_files: vec![
                ".modules.yaml".into(),
                ".pnpm-workspace-state-v1.json".into(),
            ],
            volatile_keys: vec![
                "prunedAt".into(),
                "lastValidatedTimestamp".into(),
                // The `validation` block's clock readings; its digests,
                // sizes and paths are compared.
                "recordedAtNs".into(),
                "mtimeNs".into(),
                "ctimeNs".into(),
            ],
            substitutions: Vec::new(),
            json_key_order: true,
            report_limit: 200,
            substitute_contents: false,
        }
    }
}

impl DiffOptions {
    /// Adds a substitution (builder style).
    pub fn substitute(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.substitutions.push((from.into(), to.into()));
        self
    }

    /// Options for comparing two installs of the same project: maps each
    /// side's project dir and store dir to `<PROJECT>` and `<STORE>` in
    /// state files. Store dirs are given as configured (with or without the
    /// trailing `/v11`).
    pub fn for_installs(
        project_a: &Path,
        store_a: &Path,
        project_b: &Path,
        store_b: &Path,
    ) -> Self {
        DiffOptions::default()
            .substitute(store_a.display().to_string(), "<STORE>")
            .substitute(store_b.display().to_string(), "<STORE>")
            .substitute(project_a.display().to_string(), "<PROJECT>")
            .substitute(project_b.display().to_string(), "<PROJECT>")
    }

    /// Adds an ignored path (builder style).
    pub fn ignore_path(mut self, path: impl Into<String>) -> Self {
        self.ignore.push(path.into());
        self
    }

    /// Whether `rel` (a `/`-separated relative path) is ignored.
    pub fn is_ignored(&self, rel: &str) -> bool {
        self.ignore.iter().any(|i| {
            let i = i.trim_end_matches('/');
            rel == i
                || rel
                    .strip_prefix(i)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    }

    /// Whether `rel` names a state file.
    pub fn is_state_file(&self, rel: &str) -> bool {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.state_files.iter().any(|s| s == name)
    }
}
