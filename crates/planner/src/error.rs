//! Why a lockfile cannot be planned.

use miette::Diagnostic;
use thiserror::Error;

/// A lockfile the planner refuses: inconsistent or unsafe to lay out.
#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum PlanError {
    #[error("Broken lockfile: no entry for '{dep_path}' in pnpm-lock.yaml")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_DEPENDENCY),
        help(
            "The lockfile is inconsistent; run `pnpm install` without --frozen-lockfile to repair it."
        )
    )]
    MissingDependency { dep_path: String },

    #[error("Broken lockfile: the snapshot '{dep_path}' has no entry in packages")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_PACKAGE),
        help(
            "The lockfile is inconsistent; run `pnpm install` without --frozen-lockfile to repair it."
        )
    )]
    MissingPackage { dep_path: String },

    #[error("The lockfile has no importer '{importer}'")]
    #[diagnostic(
        code(ERR_PNPM_LOCKFILE_MISSING_IMPORTER),
        help("The project is not in pnpm-lock.yaml; run `pnpm install` to add it.")
    )]
    MissingImporter { importer: String },

    #[error("The tarball of '{dep_path}' has no integrity in the lockfile")]
    #[diagnostic(
        code(ERR_PNPM_MISSING_TARBALL_INTEGRITY),
        help("Tarballs without an integrity cannot be verified; regenerate the lockfile.")
    )]
    MissingTarballIntegrity { dep_path: String },

    #[error("{}", invalid_names_message(names))]
    #[diagnostic(
        code(ERR_PNPM_INVALID_DEPENDENCY_NAME),
        help(
            "A dependency alias becomes a directory under node_modules, so it must be a valid npm package name — a single `name` or `@scope/name` with no leading `.` or `_`, and not a reserved name such as `node_modules`. An alias containing path-traversal segments or a reserved name such as `.bin` or `.pnpm` could make an install write outside the intended directory or overwrite pnpm-owned layout. This usually means the lockfile was tampered with — inspect recent changes to pnpm-lock.yaml before trusting it."
        )
    )]
    InvalidDependencyNames { names: Vec<String> },

    /// A global virtual store slot path would leave the store.
    #[error(
        "Refusing the global virtual store slot of '{dep_path}': its version '{version}' has a `..` segment"
    )]
    #[diagnostic(
        code(ERR_PNPM_INVALID_DEPENDENCY_NAME),
        help(
            "The version becomes a directory of the slot's path in the store; a `..` segment would place the package outside it. This usually means the lockfile was tampered with — inspect recent changes to pnpm-lock.yaml before trusting it."
        )
    )]
    TraversalVersion { dep_path: String, version: String },

    /// `engineStrict` and a package whose `engines.node` excludes the
    /// running Node.js.
    #[error("{message}")]
    #[diagnostic(
        code(ERR_PNPM_UNSUPPORTED_ENGINE),
        help(
            "Use a Node.js version the package supports, or turn engineStrict off to install it with a warning."
        )
    )]
    UnsupportedEngine { message: String },

    /// A `patchedDependencies` selector problem (conflicting ranges) or a
    /// key whose patch hash disagrees with the configured patch.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Patch(pacquet_lockfile::LockfileError),
}

/// pnpm 12's text, grammar included: `1 dependency alias in the lockfile is
/// not valid package names:` then one quoted name per line.
fn invalid_names_message(names: &[String]) -> String {
    let mut text = if names.len() == 1 {
        "1 dependency alias in the lockfile is not valid package names:".to_owned()
    } else {
        format!(
            "{} dependency aliases in the lockfile are not valid package names:",
            names.len()
        )
    };
    for name in names {
        text.push_str(&format!("\n  {name:?}"));
    }
    text
}
