//! Package names and aliases from the lockfile become path components under
//! `node_modules` and `.pnpm`; a tampered lockfile must not be able to steer
//! them outside (`../x`, `/abs`, `a/b/c`) or onto pnpm's own entries
//! (`.bin`, `.pnpm`, `node_modules`). pnpm 12 refuses the same names.

use std::collections::BTreeSet;

use pacquet_lockfile::Lockfile;

use crate::PlanError;

/// Every package name (from `packages` and `snapshots` keys) and every
/// dependency alias (importers and snapshots) must be a valid npm name;
/// all offenders are reported at once, sorted, as pnpm 12 does.
pub(crate) fn check_names(lockfile: &Lockfile) -> Result<(), PlanError> {
    let keys = lockfile.packages.keys().chain(lockfile.snapshots.keys());
    let names = keys.map(|k| k.name());
    // The aliases only: resolving each edge's reference (an allocation
    // per edge) is the graph's work.
    let snapshot_aliases = lockfile.snapshots.values().flat_map(|s| {
        let deps = s.dependencies.iter().flatten();
        deps.chain(s.optional_dependencies.iter().flatten())
            .map(|(alias, _)| alias.as_str())
    });
    let importer_aliases = lockfile.importers.values().flat_map(|i| {
        [
            &i.dependencies,
            &i.dev_dependencies,
            &i.optional_dependencies,
        ]
        .into_iter()
        .flatten()
        .flat_map(|deps| deps.keys().map(String::as_str))
    });
    let invalid: BTreeSet<&str> = names
        .chain(snapshot_aliases)
        .chain(importer_aliases)
        .filter(|name| !is_valid_name(name))
        .collect();
    if invalid.is_empty() {
        return Ok(());
    }
    Err(PlanError::InvalidDependencyNames {
        names: invalid.into_iter().map(str::to_owned).collect(),
    })
}

/// npm's rules for names that may already exist (validate-npm-package-name's
/// `validForOldPackages`), as pnpm 12 applies them: URL-safe characters, or
/// `@scope/name` with URL-safe parts; no leading `.` or `_` (nor `-` when
/// unscoped); not `node_modules` or `favicon.ico` in any case.
pub(crate) fn is_valid_name(name: &str) -> bool {
    if name.is_empty() || name.starts_with(['.', '_']) {
        return false;
    }
    if name.eq_ignore_ascii_case("node_modules") || name.eq_ignore_ascii_case("favicon.ico") {
        return false;
    }
    if name.chars().all(url_safe) {
        return !name.starts_with('-');
    }
    let Some((scope, pkg)) = name.strip_prefix('@').and_then(|s| s.split_once('/')) else {
        return false;
    };
    !scope.is_empty()
        && !pkg.is_empty()
        && !pkg.starts_with('.')
        && scope.chars().all(url_safe)
        && pkg.chars().all(url_safe)
}

/// Characters `encodeURIComponent` leaves alone.
fn url_safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_.!~*'()".contains(c)
}

#[cfg(test)]
mod tests {
    use super::is_valid_name;

    /// Verdicts observed from pnpm 12.21 on a hand-written lockfile.
    #[test]
    fn same_verdicts_as_pnpm() {
        let valid = [
            "a",
            "@types/node",
            "PqUpper",
            "@pq/MixedCase",
            "a.b",
            "a..b",
            "a-",
            "a.",
            "a~",
            "a!b",
            "a(b)",
            "a*b",
            "a'b",
            "@s/_x",
            "@_s/x",
            "@s/-a",
            "@-s/x",
            "@./x",
            "@../x",
            "@s/a.b",
            "@S/x",
            "@s/node_modules",
            "UPPER",
        ];
        for name in valid {
            assert!(is_valid_name(name), "{name:?} should be valid");
        }
        let long = "a".repeat(220);
        assert!(is_valid_name(&long));
        let invalid = [
            "",
            ".",
            "..",
            "../x",
            "../../outside/x",
            "/etc/passwd",
            "a/b",
            "@s/a/b",
            "@s/../x",
            "@s/.",
            "@s/..",
            "@s/.x",
            "@s",
            "@/x",
            "@s/",
            ".bin",
            ".pnpm",
            "_y",
            "-a",
            " a",
            "a b",
            "a\tb",
            "a%2fb",
            "a:b",
            "a\\b",
            "a\0b",
            "@s/a b",
            "@s/a:b",
            "@s:x/y",
            "é",
            "node_modules",
            "NODE_MODULES",
            "favicon.ico",
            "Favicon.ico",
        ];
        for name in invalid {
            assert!(!is_valid_name(name), "{name:?} should be invalid");
        }
    }
}
