use std::{borrow::Borrow, cmp::Ordering, fmt, hash::Hash};

/// A `packages`/`snapshots` key such as `react-dom@19.3.1(react@19.3.1)`,
/// parsed once: the name/version split and the start of the suffixes are
/// stored as offsets into the original string, so hot loops never re-split.
///
/// Ordering, equality and hashing are those of the raw string, which is the
/// order pnpm writes keys in.
#[derive(Clone)]
pub struct DepPath {
    raw: Box<str>,
    /// Index of the `@` separating name and version.
    at: u32,
    /// Index where `(patch_hash=…)`/`(peer…)` suffixes start (`raw.len()` if none).
    suffix: u32,
}

impl DepPath {
    /// Parses a key. Never fails: a key without a version separator gets an
    /// empty version (such keys exist only in hand-written lockfiles).
    pub fn parse(raw: &str) -> Self {
        let bytes = raw.as_bytes();
        let at = bytes
            .iter()
            .skip(1)
            .position(|&b| b == b'@')
            .map(|p| p + 1)
            .unwrap_or(raw.len());
        // Suffixes start at the first '(' after the version begins. Versions
        // that are URLs never contain '(' unescaped in pnpm's keys.
        let suffix = bytes[at..]
            .iter()
            .position(|&b| b == b'(')
            .map(|p| p + at)
            .unwrap_or(raw.len());
        DepPath {
            raw: raw.into(),
            at: at as u32,
            suffix: suffix as u32,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// Package name, e.g. `@types/node`.
    pub fn name(&self) -> &str {
        &self.raw[..self.at as usize]
    }

    /// Version part without suffixes, e.g. `19.3.1`, `file:foo.tgz`, or a URL.
    pub fn version(&self) -> &str {
        let start = (self.at as usize + 1).min(self.suffix as usize);
        &self.raw[start..self.suffix as usize]
    }

    /// Everything from the first `(`: patch hash and peer suffixes.
    pub fn suffix(&self) -> &str {
        &self.raw[self.suffix as usize..]
    }

    /// `name@version` without any `(…)` suffix: the `packages` key, the pkgId
    /// used in store keys and `allowBuilds`.
    pub fn package_id(&self) -> &str {
        &self.raw[..self.suffix as usize]
    }

    /// The `patch_hash=` value, when the key carries one.
    pub fn patch_hash(&self) -> Option<&str> {
        let rest = self.suffix().strip_prefix("(patch_hash=")?;
        rest.split(')').next()
    }
}

impl fmt::Debug for DepPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.raw, f)
    }
}

impl fmt::Display for DepPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

impl PartialEq for DepPath {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}
impl Eq for DepPath {}
impl Hash for DepPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.hash(state)
    }
}
impl PartialOrd for DepPath {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for DepPath {
    fn cmp(&self, other: &Self) -> Ordering {
        self.raw.cmp(&other.raw)
    }
}
impl Borrow<str> for DepPath {
    fn borrow(&self) -> &str {
        &self.raw
    }
}

impl<'de> serde::Deserialize<'de> for DepPath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor rather than `Cow<str>`: borrowed or transient text is
        // copied once, straight into the key.
        struct KeyVisitor;
        impl serde::de::Visitor<'_> for KeyVisitor {
            type Value = DepPath;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a package key")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<DepPath, E> {
                Ok(DepPath::parse(s))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

impl serde::Serialize for DepPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.raw)
    }
}

/// The value side of a dependency edge (`version:` of an importer entry, or a
/// snapshot's `dependencies` value), interpreted relative to its alias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DepRef<'a> {
    /// `link:<path>`: a symlink to a directory, relative to the importer; no snapshot.
    Link(&'a str),
    /// The snapshot key this edge points to (`<alias>@<ref>` or the ref itself
    /// for npm aliases / differently named tarballs).
    Snapshot(DepPath),
}

impl<'a> DepRef<'a> {
    /// Interprets `reference` as written under `alias`.
    pub fn resolve(alias: &str, reference: &'a str) -> DepRef<'a> {
        if let Some(path) = reference.strip_prefix("link:") {
            return DepRef::Link(path);
        }
        // A ref that names its own package (`ms@2.1.3`, `@s/n@1.0.0`,
        // `a@https://…`, `parent@file:..`) has an '@' after position 0 that
        // comes before any '(' of a peer suffix.
        let head = reference.split('(').next().unwrap_or(reference);
        let names_itself = head
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '@')
            .is_some_and(|(i, _)| !head[..i].contains(':'));
        if names_itself {
            DepRef::Snapshot(DepPath::parse(reference))
        } else {
            DepRef::Snapshot(DepPath::parse(&format!("{alias}@{reference}")))
        }
    }
}

#[cfg(test)]
mod tests;
