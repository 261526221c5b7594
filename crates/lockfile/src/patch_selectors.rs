//! `patchedDependencies` selectors (docs/lockfile.md §9.3): which entry, if
//! any, patches `name@version`. Generic over what an entry carries: the
//! lockfile's entries are hashes, the configuration's are files to hash.

use std::collections::BTreeMap;

use nodejs_semver::{Range, Version};

use crate::LockfileError;

/// One selector with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected<'a, T> {
    /// The selector as written (`name@1.0.0`, `name@^1`, `name`).
    pub key: &'a str,
    pub value: &'a T,
}

/// Selectors grouped by package name.
#[derive(Debug, Clone)]
pub struct PatchSelectors<T> {
    by_name: BTreeMap<String, Group<T>>,
}

#[derive(Debug, Clone)]
struct Group<T> {
    exact: BTreeMap<String, Entry<T>>,
    ranges: Vec<(Range, Entry<T>)>,
    all: Option<Entry<T>>,
}

#[derive(Debug, Clone)]
struct Entry<T> {
    key: String,
    value: T,
}

impl<T> Default for PatchSelectors<T> {
    fn default() -> Self {
        PatchSelectors {
            by_name: BTreeMap::new(),
        }
    }
}

impl<T> Default for Group<T> {
    fn default() -> Self {
        Group {
            exact: BTreeMap::new(),
            ranges: Vec::new(),
            all: None,
        }
    }
}

impl<T> PatchSelectors<T> {
    /// Groups `entries`; an entry whose version part is neither a version
    /// nor a range fails with `ERR_PNPM_PATCH_NON_SEMVER_RANGE`.
    pub fn new(entries: impl IntoIterator<Item = (String, T)>) -> Result<Self, LockfileError> {
        let mut by_name: BTreeMap<String, Group<T>> = BTreeMap::new();
        for (key, value) in entries {
            let (name, version) = split_key(&key);
            let (name, version) = (name.to_owned(), version.map(str::to_owned));
            let group = by_name.entry(name).or_default();
            let entry = Entry { key, value };
            match version {
                None => group.all = Some(entry),
                Some(v) if Version::parse(&v).is_ok() => {
                    group.exact.insert(v, entry);
                }
                Some(v) if v.trim() == "*" => group.all = Some(entry),
                Some(v) => {
                    let range = Range::parse(&v)
                        .map_err(|_| LockfileError::PatchNonSemverRange { range: v.clone() })?;
                    group.ranges.push((range, entry));
                }
            }
        }
        Ok(PatchSelectors { by_name })
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The entry patching `name@version`: exact, else the one satisfied
    /// range (two are `ERR_PNPM_PATCH_KEY_CONFLICT`), else the bare name.
    pub fn select(
        &self,
        name: &str,
        version: &str,
    ) -> Result<Option<Selected<'_, T>>, LockfileError> {
        let Some(group) = self.by_name.get(name) else {
            return Ok(None);
        };
        let found = match group.exact.get(version) {
            Some(entry) => Some(entry),
            None => match Version::parse(version) {
                Ok(parsed) => in_ranges(group, name, version, &parsed)?.or(group.all.as_ref()),
                Err(_) => group.all.as_ref(),
            },
        };
        Ok(found.map(|entry| Selected {
            key: &entry.key,
            value: &entry.value,
        }))
    }

    /// Every selector with its value.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &T)> {
        self.by_name.values().flat_map(|group| {
            let exact = group.exact.values();
            let ranges = group.ranges.iter().map(|(_, e)| e);
            exact
                .chain(ranges)
                .chain(group.all.iter())
                .map(|e| (e.key.as_str(), &e.value))
        })
    }

    /// Every selector, for reporting.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.by_name.values().flat_map(|group| {
            let exact = group.exact.values().map(|e| e.key.as_str());
            let ranges = group.ranges.iter().map(|(_, e)| e.key.as_str());
            exact
                .chain(ranges)
                .chain(group.all.iter().map(|e| e.key.as_str()))
        })
    }
}

fn in_ranges<'a, T>(
    group: &'a Group<T>,
    name: &str,
    version: &str,
    parsed: &Version,
) -> Result<Option<&'a Entry<T>>, LockfileError> {
    let satisfied: Vec<&Entry<T>> = group
        .ranges
        .iter()
        .filter(|(range, _)| range.satisfies(parsed))
        .map(|(_, entry)| entry)
        .collect();
    match satisfied.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(only)),
        many => Err(LockfileError::PatchKeyConflict {
            name: name.to_owned(),
            version: version.to_owned(),
            ranges: many
                .iter()
                .map(|e| split_key(&e.key).1.unwrap_or_default().to_owned())
                .collect(),
        }),
    }
}

/// `name@version` → (name, Some(version)); a bare name (or a key ending in
/// `@`) is the whole key with no version.
fn split_key(key: &str) -> (&str, Option<&str>) {
    let at = key.char_indices().skip(1).find(|(_, c)| *c == '@');
    match at {
        Some((i, _)) if i + 1 < key.len() => (&key[..i], Some(&key[i + 1..])),
        _ => (key, None),
    }
}

#[cfg(test)]
mod tests;
