//! The build policy applied per package at planning time, so the installer
//! only acts on a decision: run, skip, or skip and report.

use pacquet_lockfile::DepPath;
use pacquet_scripts::BuildDecision;

use crate::{BuildPermission, PlanError, PlanOptions, SlotPatch};

/// The patch `dep_path` gets (docs/lockfile.md §9.3). The gates made the
/// lockfile's `patch_hash` suffixes agree with the configured files; a key
/// that still disagrees is refused rather than installed unpatched.
pub(crate) fn slot_patch(
    dep_path: &DepPath,
    opts: &PlanOptions,
) -> Result<Option<SlotPatch>, PlanError> {
    let selected = opts
        .patches
        .select(dep_path.name(), dep_path.version())
        .map_err(PlanError::Patch)?;
    if selected.as_ref().map(|s| s.value.hash.as_str()) != dep_path.patch_hash() {
        return Err(PlanError::Patch(
            pacquet_lockfile::LockfileError::InconsistentPatchHash {
                dep_path: dep_path.as_str().to_owned(),
            },
        ));
    }
    Ok(selected.map(|s| SlotPatch {
        key: s.key.to_owned(),
        file: s.value.clone(),
    }))
}

/// Whether `dep_path`'s lifecycle scripts may run.
pub(crate) fn build_permission(dep_path: &DepPath, opts: &PlanOptions) -> BuildPermission {
    if opts.ignore_scripts {
        return BuildPermission::ScriptsIgnored;
    }
    policy_permission(dep_path, opts)
}

/// What `allowBuilds` says of `dep_path`, whether or not scripts run.
pub(crate) fn policy_permission(dep_path: &DepPath, opts: &PlanOptions) -> BuildPermission {
    let version = dep_path.version();
    // pnpm 12.21 applies name entries of `allowBuilds` to registry versions
    // only; URL, `file:` and git packages need their full id.
    let by_name = if version.contains(':') {
        ""
    } else {
        dep_path.name()
    };
    permission(
        opts.build_policy
            .decide(by_name, version, dep_path.package_id()),
    )
}

/// Whether a git or git-hosted `dep_path` may run its prepare step. pnpm 12
/// matches these only by their full id (`name@<url>`), never by name.
pub(crate) fn prepare_permission(dep_path: &DepPath, opts: &PlanOptions) -> BuildPermission {
    if opts.ignore_scripts {
        return BuildPermission::ScriptsIgnored;
    }
    permission(opts.build_policy.decide("", "", dep_path.package_id()))
}

fn permission(decision: BuildDecision) -> BuildPermission {
    match decision {
        BuildDecision::Allowed => BuildPermission::Allowed,
        BuildDecision::Denied => BuildPermission::Denied,
        BuildDecision::NotApproved => BuildPermission::NotApproved,
    }
}
