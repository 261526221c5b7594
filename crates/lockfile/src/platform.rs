//! Platform installability of a `packages` entry (pnpm's `checkPlatform`).

use crate::PackageInfo;

/// pnpm's `checkList`: `any` alone matches everything; a `!x` entry equal to
/// a current value rejects; otherwise a positive entry must match, unless
/// every entry is a negation.
pub fn platform_list_matches(current: &[&str], list: &[String]) -> bool {
    if list.len() == 1 && list[0] == "any" {
        return true;
    }
    let mut matched = false;
    let mut negations = 0;
    for value in current {
        for entry in list {
            if let Some(negated) = entry.strip_prefix('!') {
                if negated == *value {
                    return false;
                }
                negations += 1;
            } else {
                matched |= entry == value;
            }
        }
    }
    matched || negations == list.len()
}

impl PackageInfo {
    /// Whether the package may be installed for these targets. Each slice
    /// holds the host value or the `supportedArchitectures` list; an empty
    /// `libc` means "unknown" (non-Linux hosts), which skips the libc check.
    pub fn supports_platform(&self, os: &[&str], cpu: &[&str], libc: &[&str]) -> bool {
        let ok = |current: &[&str], wanted: Option<&[String]>| {
            wanted.is_none_or(|list| platform_list_matches(current, list))
        };
        ok(os, self.os.as_deref())
            && ok(cpu, self.cpu.as_deref())
            && (libc.is_empty() || ok(libc, self.libc.as_deref()))
    }
}

#[cfg(test)]
mod tests;
