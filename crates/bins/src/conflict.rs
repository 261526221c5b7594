//! Which package gets a command two packages offer to one `.bin`.

use std::cmp::Ordering;

/// Whether `package` owns `command`: its name equals the command, or a
/// known alias (`npx` → `npm`; `pnpm`, `pn`, `pnpx`, `pnx` → `pnpm` or
/// `@pnpm/exe`).
pub fn owns_command(command: &str, package: &str) -> bool {
    command == package
        || match command {
            "npx" => package == "npm",
            "pnpm" | "pn" | "pnpx" | "pnx" => package == "pnpm" || package == "@pnpm/exe",
            _ => false,
        }
}

/// A package offering `command`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claim<'a> {
    pub package_name: &'a str,
    pub direct: bool,
}

/// `Ordering::Greater` when `a` should win `command` over `b` (docs/layout.md
/// §5): a direct dependency beats a hoisted one; then the owner of the
/// command; then the lexically smaller package name.
pub(crate) fn compare(command: &str, a: Claim<'_>, b: Claim<'_>) -> Ordering {
    a.direct
        .cmp(&b.direct)
        .then_with(|| {
            owns_command(command, a.package_name).cmp(&owns_command(command, b.package_name))
        })
        .then_with(|| b.package_name.cmp(a.package_name))
}

#[cfg(test)]
mod tests;
