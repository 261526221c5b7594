//! The build policy applied per package at planning time, so the installer
//! only acts on a decision: run, skip, or skip and report.

use pacquet_lockfile::DepPath;
use pacquet_scripts::BuildDecision;

use crate::{BuildPermission, PlanOptions};

/// Whether `dep_path`'s lifecycle scripts may run.
pub(crate) fn build_permission(dep_path: &DepPath, opts: &PlanOptions) -> BuildPermission {
    if opts.ignore_scripts {
        return BuildPermission::ScriptsIgnored;
    }
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
