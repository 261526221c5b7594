//! The crate's single error type. Codes and texts are pnpm 12.21's.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum LockfileError {
    /// YAML syntax errors, shape errors and unsupported `lockfileVersion`s.
    #[error("The lockfile at \"{}\" is broken: {message} ({line}:{column})", path.display())]
    #[diagnostic(code(ERR_PNPM_BROKEN_LOCKFILE))]
    Broken {
        path: PathBuf,
        message: String,
        line: u64,
        column: u64,
    },

    #[error(
        "Headless installation requires a pnpm-lock.yaml file, but none was found. Run `pnpm install` without --frozen-lockfile to create one."
    )]
    #[diagnostic(code(ERR_PNPM_NO_LOCKFILE))]
    NoLockfile,

    #[error("Failed to read the lockfile at \"{}\"", path.display())]
    #[diagnostic(code(ERR_PNPM_LOCKFILE_READ))]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A snapshot or importer points at a key that is not in the lockfile.
    #[error("Broken lockfile: no entry for '{dep_path}' in pnpm-lock.yaml")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_DEPENDENCY),
        help(
            "This issue is probably caused by a badly resolved merge conflict.\nTo fix the lockfile, run 'pnpm install --fix-lockfile'."
        )
    )]
    MissingDependency { dep_path: String },

    /// `reason` is the indented "Failure reason" block (see [`crate::check_importers`]).
    #[error(
        "Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with package.json.\n\n  Failure reason:\n{reason}"
    )]
    #[diagnostic(
        code(ERR_PNPM_OUTDATED_LOCKFILE),
        help(
            "Regenerate the lockfile with `pnpm install --lockfile-only` so that pnpm-lock.yaml reflects the current package.json, then re-run `pnpm install --frozen-lockfile`."
        )
    )]
    Outdated { reason: String },

    /// An `overrides` value `$name` names no direct dependency of the root
    /// project (pnpm 12's text).
    #[error(
        "Cannot resolve version ${name} in overrides. The direct dependencies don't have dependency \"{name}\"."
    )]
    #[diagnostic(
        code(ERR_PNPM_CANNOT_RESOLVE_OVERRIDE_VERSION),
        help(
            "Add \"{name}\" to the root package.json, or give the override \"{key}\" a version instead of \"${name}\"."
        )
    )]
    OverrideReference { key: String, name: String },

    /// A project with dependencies has no importer (pnpm 12's code and text).
    #[error(
        "Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml has no `importers[\"{importer_id}\"]` entry. Regenerate the lockfile with `pnpm install --lockfile-only`."
    )]
    #[diagnostic(code(ERR_PNPM_PACKAGE_MANAGER_NO_IMPORTER))]
    NoImporter { importer_id: String },

    #[error(
        "Cannot proceed with the frozen installation. The current \"{field}\" configuration doesn't match the value found in the lockfile"
    )]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_CONFIG_MISMATCH),
        help("Update your lockfile using \"pnpm install --no-frozen-lockfile\"")
    )]
    ConfigMismatch { field: String },

    /// pnpm 12's words for a project without a manifest.
    #[error("No package.json found in {}", dir.display())]
    #[diagnostic(
        code(ERR_PNPM_NO_PKG_MANIFEST),
        help("Run pacquet in a project directory, or point -C/--dir at one.")
    )]
    NoPkgManifest { dir: PathBuf },

    #[error("Failed to read {}", path.display())]
    #[diagnostic(code(ERR_PNPM_READ_MANIFEST))]
    ReadManifest {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("Failed to parse {}: {message}", path.display())]
    #[diagnostic(code(ERR_PNPM_JSON_PARSE))]
    ParseManifest { path: PathBuf, message: String },

    #[error("{range} is not a valid semantic version range.")]
    #[diagnostic(
        code(ERR_PNPM_PATCH_NON_SEMVER_RANGE),
        help(
            "Key patchedDependencies entries by name, name@<exact version> or name@<semver range>."
        )
    )]
    PatchNonSemverRange { range: String },

    #[error(
        "Unable to choose between {} version ranges to patch {name}@{version}: {}",
        ranges.len(),
        ranges.join(", ")
    )]
    #[diagnostic(
        code(ERR_PNPM_PATCH_KEY_CONFLICT),
        help("Explicitly set the exact version ({name}@{version}) to resolve conflict")
    )]
    PatchKeyConflict {
        name: String,
        version: String,
        ranges: Vec<String>,
    },

    #[error(
        "Cannot proceed with the frozen installation. The lockfile records dependency paths whose patch hashes disagree with its own \"patchedDependencies\""
    )]
    #[diagnostic(
        code(ERR_PNPM_INCONSISTENT_PATCH_HASH),
        help(
            "The lockfile disagrees with itself, which usually means it was hand-edited or a merge conflict was incorrectly resolved ({dep_path}). Repair your lockfile using \"pnpm install --no-frozen-lockfile\""
        )
    )]
    InconsistentPatchHash { dep_path: String },

    #[error(
        "Cannot proceed with the frozen installation. The lockfile's patch hashes cannot be checked against its own \"patchedDependencies\""
    )]
    #[diagnostic(
        code(ERR_PNPM_UNCHECKABLE_PATCH_HASH),
        help(
            "The lockfile has a malformed patch hash, or is missing a package version or a usable \"patchedDependencies\" entry that checking needs ({reason}). Repair your lockfile using \"pnpm install --no-frozen-lockfile\""
        )
    )]
    UncheckablePatchHash { reason: String },
}
