//! What a dependency's specifier asks of the registry.

use nodejs_semver::{Range, Version};

/// A specifier resolved against a registry, or why it is not one.
#[derive(Debug, Clone, PartialEq)]
pub enum Spec {
    Registry(RegistrySpec),
    /// `workspace:`, `file:`, `link:`, git and tarball URLs: resolved by
    /// other resolvers.
    Other(String),
}

/// `name@selector` on a registry. `name` differs from the dependency's
/// alias for `npm:` aliases.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistrySpec {
    pub name: String,
    pub selector: Selector,
    /// The part after `npm:name@`, or the whole specifier.
    pub raw: String,
}

impl RegistrySpec {
    /// The selector as written: after `npm:name@` for an alias.
    pub fn selector_raw(&self) -> &str {
        match self.raw.trim().strip_prefix("npm:") {
            Some(rest) => rest[1.min(rest.len())..]
                .find('@')
                .map_or("", |at| &rest[at + 2..]),
            None => &self.raw,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Selector {
    Version(Version),
    Range(Range),
    Tag(String),
}

/// Parses the specifier `spec` of the dependency `alias`.
pub fn parse(alias: &str, spec: &str) -> Spec {
    let trimmed = spec.trim();
    if let Some(rest) = trimmed.strip_prefix("npm:") {
        // `npm:@scope/name@range`: the name's own `@` is at index 0.
        let (name, selector) = match rest[1.min(rest.len())..].find('@') {
            Some(at) => (&rest[..at + 1], &rest[at + 2..]),
            None => (rest, ""),
        };
        return match selector_of(selector) {
            Some(selector) => Spec::Registry(RegistrySpec {
                name: name.to_owned(),
                selector,
                raw: spec.to_owned(),
            }),
            None => Spec::Other(spec.to_owned()),
        };
    }
    if is_other_protocol(trimmed) {
        return Spec::Other(spec.to_owned());
    }
    match selector_of(trimmed) {
        Some(selector) => Spec::Registry(RegistrySpec {
            name: alias.to_owned(),
            selector,
            raw: spec.to_owned(),
        }),
        None => Spec::Other(spec.to_owned()),
    }
}

fn is_other_protocol(spec: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "workspace:",
        "file:",
        "link:",
        "catalog:",
        "git+",
        "git:",
        "github:",
        "gitlab:",
        "bitbucket:",
        "http:",
        "https:",
        "jsr:",
        "runtime:",
    ];
    PREFIXES.iter().any(|p| spec.starts_with(p))
        || spec.starts_with('.')
        || spec.starts_with('/')
        || spec.starts_with("~/")
        // `user/repo` GitHub shorthand
        || (spec.contains('/') && !spec.starts_with('@') && !spec.contains(' '))
}

fn selector_of(selector: &str) -> Option<Selector> {
    let selector = selector.trim();
    if selector.is_empty() {
        return Some(Selector::Tag("latest".to_owned()));
    }
    let exact = selector.strip_prefix('=').unwrap_or(selector);
    let exact = exact.strip_prefix('v').unwrap_or(exact);
    if let Ok(version) = Version::parse(exact)
        && !exact.contains(' ')
    {
        return Some(Selector::Version(version));
    }
    if let Ok(range) = Range::parse(selector) {
        return Some(Selector::Range(range));
    }
    // A dist-tag: what npm accepts as one (no URL-ish or range characters).
    let tag_ok = selector
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    tag_ok.then(|| Selector::Tag(selector.to_owned()))
}

#[cfg(test)]
mod tests;
