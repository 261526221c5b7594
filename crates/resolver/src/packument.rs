//! The parts of a registry packument resolution reads. Each version's
//! manifest stays raw JSON until it is picked: a packument of a popular
//! package holds thousands of versions, and resolution reads one or two.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use indexmap::IndexMap;
use nodejs_semver::Version;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// A package's registry document. The versions' manifests stay in the
/// document's text, found by offset: no copy per version (alotta's 1,146
/// documents are 40 MB).
#[derive(Debug)]
pub struct Packument {
    pub name: String,
    pub dist_tags: HashMap<String, String>,
    /// Every version that parses as semver, and where its manifest's JSON
    /// is in the document.
    pub versions: Vec<(Version, Range<usize>)>,
    /// Where the document's `time` object is in its text: see
    /// [`Packument::published`].
    time_at: Option<Range<usize>>,
    /// `time` without nested values (every registry's).
    time_flat: OnceLock<bool>,
    times: OnceLock<HashMap<String, String>>,
    /// When anything in the document last changed (top-level `modified`,
    /// else `time.modified`), in ms since the epoch: no version is younger.
    /// Parsed once: every pick asks it.
    pub modified_ms: Option<i64>,
    body: Text,
}

/// Where the versions' JSON is.
#[derive(Debug)]
enum Text {
    Document(Box<str>),
    /// A metadata mirror file, its bytes checked as each version is read.
    Kept(pacquet_registry_metadata::mirror::FileBytes),
}

#[derive(Deserialize)]
struct Raw<'a> {
    #[serde(default)]
    name: Option<Value>,
    #[serde(default, rename = "dist-tags")]
    dist_tags: Option<Value>,
    #[serde(default, borrow)]
    versions: Option<IndexMap<Cow<'a, str>, &'a RawValue>>,
    #[serde(default, borrow)]
    time: Option<&'a RawValue>,
    #[serde(default)]
    modified: Option<Value>,
}

impl Packument {
    pub fn parse(bytes: Vec<u8>) -> Result<Packument, serde_json::Error> {
        let body =
            String::from_utf8(bytes).map_err(<serde_json::Error as serde::de::Error>::custom)?;
        let raw: Raw<'_> = serde_json::from_str(&body)?;
        let strings = |v: Option<Value>| match v {
            Some(Value::Object(map)) => string_values(map),
            _ => HashMap::new(),
        };
        let base = body.as_ptr() as usize;
        let versions = raw
            .versions
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(v, doc)| {
                let start = doc.get().as_ptr() as usize - base;
                Some((
                    Version::parse(v.as_ref()).ok()?,
                    start..start + doc.get().len(),
                ))
            })
            .collect();
        let modified = raw.modified.and_then(|m| m.as_str().map(str::to_owned));
        let time_at = raw.time.filter(|t| t.get().starts_with('{')).map(|t| {
            let start = t.get().as_ptr() as usize - base;
            start..start + t.get().len()
        });
        let name = raw
            .name
            .and_then(|n| n.as_str().map(str::to_owned))
            .unwrap_or_default();
        let dist_tags = strings(raw.dist_tags);
        let mut packument = Packument {
            name,
            dist_tags,
            versions,
            time_at,
            time_flat: OnceLock::new(),
            times: OnceLock::new(),
            modified_ms: None,
            body: Text::Document(body.into_boxed_str()),
        };
        packument.modified_ms = modified
            .as_deref()
            .or_else(|| packument.published("modified"))
            .and_then(pacquet_state::parse_iso_date);
        Ok(packument)
    }

    /// The packument of a metadata mirror file, its versions found by the
    /// file's index instead of a scan of the document, and the file not
    /// copied (alotta's warm resolution: 96 MB of documents, 200 → 140 ms
    /// from the index alone). A version's JSON is checked when it is read.
    pub fn from_kept(kept: pacquet_registry_metadata::mirror::Kept) -> Packument {
        let versions: Vec<(Version, Range<usize>)> = kept
            .versions
            .iter()
            .filter_map(|(v, range)| {
                Some((Version::parse(kept.version_name(v)).ok()?, range.clone()))
            })
            .collect();
        // A raw JSON value starts with its first character.
        let time_at = kept
            .time
            .filter(|at| kept.file.get(at.start) == Some(&b'{'));
        let mut packument = Packument {
            name: kept.name,
            dist_tags: string_values(kept.dist_tags),
            versions,
            time_at,
            time_flat: OnceLock::new(),
            times: OnceLock::new(),
            modified_ms: None,
            body: Text::Kept(kept.file),
        };
        packument.modified_ms = kept
            .headers
            .modified
            .as_deref()
            .or_else(|| packument.published("modified"))
            .and_then(pacquet_state::parse_iso_date);
        packument
    }

    /// The bytes of the mirror file this packument was read from, if it
    /// was.
    pub(crate) fn kept_bytes(&self) -> Option<&[u8]> {
        match &self.body {
            Text::Kept(bytes) => Some(bytes),
            Text::Document(_) => None,
        }
    }

    /// Whether the document has publish times (full documents, and some
    /// registries' abbreviated ones).
    pub fn has_time(&self) -> bool {
        self.time_at.is_some()
    }

    /// When `version` was published (or the document `created` or
    /// `modified`), as the document writes it. The `time` object is not
    /// parsed: some registries' abbreviated documents date every version
    /// (52,740 dates in alotta's 1,142 documents; parsing them into maps
    /// was ~15 % of its resolution) and a resolution asks a few, so the
    /// member is looked up in the bytes (checking them as text on each
    /// lookup cost as much). Text that lookup cannot read plainly (nested
    /// values, escapes) is parsed once instead.
    pub fn published(&self, key: &str) -> Option<&str> {
        let at = self.time_at.as_ref()?;
        let bytes = match &self.body {
            Text::Document(text) => &text.as_bytes()[at.clone()],
            Text::Kept(bytes) => &bytes[at.clone()],
        };
        let flat = *self
            .time_flat
            .get_or_init(|| memchr::memchr2(b'{', b'[', &bytes[1..]).is_none());
        if flat && let Some(found) = string_member(bytes, key) {
            return found;
        }
        let times = self.times.get_or_init(|| {
            let text = std::str::from_utf8(bytes).unwrap_or("");
            serde_json::from_str(text).map_or_else(|_| HashMap::new(), string_values)
        });
        times.get(key).map(String::as_str)
    }

    fn text_at(&self, range: &Range<usize>) -> &str {
        match &self.body {
            Text::Document(text) => &text[range.clone()],
            Text::Kept(bytes) => std::str::from_utf8(&bytes[range.clone()]).unwrap_or(""),
        }
    }

    /// The manifest JSON of the version at `range` of [`Packument::versions`]
    /// (empty when a mirror file's bytes there are not UTF-8: it then
    /// fails to parse).
    pub fn json_at(&self, range: &Range<usize>) -> &str {
        self.text_at(range)
    }

    /// The manifest JSON of `version` (as written in the document).
    pub fn version_json(&self, version: &Version) -> Option<&str> {
        self.versions
            .iter()
            .find(|(v, _)| v == version)
            .map(|(_, range)| self.json_at(range))
    }
}

/// The members of a JSON object whose values are strings (`dist-tags`,
/// `time`): others count as absent.
fn string_values(map: serde_json::Map<String, Value>) -> HashMap<String, String> {
    map.into_iter()
        .filter_map(|(k, v)| match v {
            Value::String(s) => Some((k, s)),
            _ => None,
        })
        .collect()
}

/// The string value of member `key` of the flat JSON object `object`
/// (the last, as a parser keeps it): `Some(None)` when there is none,
/// `None` when the text does not say plainly (the key or the value has
/// escapes, or the value is not a string). Inside a string a quote is
/// escaped, so a quoted key after `{` or `,` is a member's name.
fn string_member<'t>(object: &'t [u8], key: &str) -> Option<Option<&'t str>> {
    if key.contains(['"', '\\']) {
        return None;
    }
    let quoted = format!("\"{key}\"");
    for at in memchr::memmem::rfind_iter(object, quoted.as_bytes()) {
        let before = object[..at].trim_ascii_end();
        if !(before.ends_with(b"{") || before.ends_with(b",")) {
            continue;
        }
        let after = object[at + quoted.len()..].trim_ascii_start();
        let value = after.strip_prefix(b":")?.trim_ascii_start();
        let value = value.strip_prefix(b"\"")?;
        let end = memchr::memchr2(b'"', b'\\', value)?;
        if value[end] != b'"' {
            return None;
        }
        return Some(Some(std::str::from_utf8(&value[..end]).ok()?));
    }
    Some(None)
}

/// One version's manifest: what the lockfile records and what resolution
/// follows. Fields of the wrong shape count as absent, as pnpm reads them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VersionManifest {
    pub name: String,
    pub version: String,
    pub dependencies: IndexMap<String, String>,
    pub optional_dependencies: IndexMap<String, String>,
    pub peer_dependencies: IndexMap<String, String>,
    pub peer_dependencies_meta: IndexMap<String, Value>,
    pub integrity: Option<String>,
    pub shasum: Option<String>,
    pub tarball: Option<String>,
    pub engines: Option<IndexMap<String, String>>,
    pub cpu: Option<Vec<String>>,
    pub os: Option<Vec<String>>,
    pub libc: Option<Vec<String>>,
    pub deprecated: Option<String>,
    /// `bin` or `directories.bin` is set.
    pub has_bin: bool,
    pub bundled_dependencies: Option<Value>,
    pub has_install_script: bool,
}

impl VersionManifest {
    /// Reads only the fields [`VersionManifest::from_value`] looks at,
    /// straight into the manifest ([`fields`]); the rest (`devDependencies`,
    /// `_npmUser`, signatures' peers…) is checked and skipped. Building
    /// every field was 12 % of alotta's warm resolution (callgrind).
    pub fn parse(json: &str) -> Result<VersionManifest, serde_json::Error> {
        if !json.trim_start().starts_with('{') {
            let value: Value = serde_json::from_str(json)?;
            return Ok(Self::from_value(&value));
        }
        let fields::Fields(manifest) = serde_json::from_str(json)?;
        Ok(manifest)
    }

    pub fn from_value(value: &Value) -> VersionManifest {
        let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
        let strings = |key: &str| -> IndexMap<String, String> {
            match value.get(key) {
                Some(Value::Object(map)) => map
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                    .collect(),
                _ => IndexMap::new(),
            }
        };
        let list = |key: &str| -> Option<Vec<String>> {
            match value.get(key)? {
                Value::Array(items) => Some(
                    items
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect(),
                ),
                Value::String(s) => Some(vec![s.clone()]),
                _ => None,
            }
        };
        let engines = strings("engines");
        let bin = value.get("bin").filter(|b| names_bins(b));
        let bundled = value
            .get("bundledDependencies")
            .or_else(|| value.get("bundleDependencies"))
            .filter(|b| bundles(b))
            .cloned();
        VersionManifest {
            name: string(value.get("name")).unwrap_or_default(),
            version: string(value.get("version")).unwrap_or_default(),
            dependencies: strings("dependencies"),
            optional_dependencies: strings("optionalDependencies"),
            peer_dependencies: strings("peerDependencies"),
            peer_dependencies_meta: match value.get("peerDependenciesMeta") {
                Some(Value::Object(map)) => map.clone().into_iter().collect(),
                _ => IndexMap::new(),
            },
            integrity: string(value.pointer("/dist/integrity")),
            shasum: string(value.pointer("/dist/shasum")),
            tarball: string(value.pointer("/dist/tarball")),
            engines: (!engines.is_empty()).then_some(engines),
            cpu: list("cpu"),
            os: list("os"),
            libc: list("libc"),
            deprecated: match value.get("deprecated") {
                Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
                _ => None,
            },
            has_bin: bin.is_some() || value.pointer("/directories/bin").is_some(),
            bundled_dependencies: bundled,
            has_install_script: value
                .get("hasInstallScript")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        }
    }

    /// Whether `peer` is marked optional in `peerDependenciesMeta`.
    pub fn is_optional_peer(&self, peer: &str) -> bool {
        self.peer_dependencies_meta
            .get(peer)
            .and_then(|m| m.get("optional"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
}

/// A `bin` field that names a bin: a non-empty string or object.
fn names_bins(bin: &Value) -> bool {
    match bin {
        Value::String(s) => !s.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => false,
    }
}

/// A `bundledDependencies` value that bundles something: `true` or a
/// non-empty list.
fn bundles(bundled: &Value) -> bool {
    match bundled {
        Value::Bool(true) => true,
        Value::Array(items) => !items.is_empty(),
        _ => false,
    }
}

pub(crate) mod archived;
mod fields;

#[cfg(test)]
mod tests;
