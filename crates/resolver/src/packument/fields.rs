//! A version's manifest object read straight into a [`VersionManifest`]:
//! each kept field is built once, where reading the fields into JSON
//! values and copying them out again was half of reading a manifest (a
//! twentieth of the walking thread's samples in a warm resolution of
//! alotta). Shapes are read as [`VersionManifest::from_value`] reads them;
//! a repeated key counts with its last value, as in a map.

use indexmap::IndexMap;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::{VersionManifest, bundles, names_bins};

/// The keys read; the others are checked and skipped.
const KEYS: &[&str] = &[
    "name",
    "version",
    "dependencies",
    "optionalDependencies",
    "peerDependencies",
    "peerDependenciesMeta",
    "dist",
    "engines",
    "cpu",
    "os",
    "libc",
    "deprecated",
    "bin",
    "directories",
    "bundledDependencies",
    "bundleDependencies",
    "hasInstallScript",
];

/// A manifest object's kept fields.
pub(super) struct Fields(pub VersionManifest);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ManifestVisitor)
    }
}

struct ManifestVisitor;

impl<'de> Visitor<'de> for ManifestVisitor {
    type Value = Fields;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a manifest object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut m = VersionManifest::default();
        let mut engines = IndexMap::new();
        let mut bin = None;
        let mut directories_bin = false;
        let (mut bundled, mut bundle) = (None, None);
        let wanted = pacquet_registry_metadata::KeyIn(KEYS);
        while let Some(slot) = map.next_key_seed(wanted)? {
            let Some(slot) = slot else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            match KEYS[slot] {
                "name" => m.name = next::<TextShape, _>(&mut map)?.unwrap_or_default(),
                "version" => m.version = next::<TextShape, _>(&mut map)?.unwrap_or_default(),
                "dependencies" => {
                    m.dependencies = next::<StringsShape, _>(&mut map)?.unwrap_or_default()
                }
                "optionalDependencies" => {
                    m.optional_dependencies = next::<StringsShape, _>(&mut map)?.unwrap_or_default()
                }
                "peerDependencies" => {
                    m.peer_dependencies = next::<StringsShape, _>(&mut map)?.unwrap_or_default()
                }
                "engines" => engines = next::<StringsShape, _>(&mut map)?.unwrap_or_default(),
                "peerDependenciesMeta" => {
                    m.peer_dependencies_meta = match map.next_value::<Value>()? {
                        Value::Object(meta) => meta.into_iter().collect(),
                        _ => IndexMap::new(),
                    }
                }
                "dist" => {
                    let [integrity, shasum, tarball] =
                        next::<DistShape, _>(&mut map)?.unwrap_or_default();
                    (m.integrity, m.shasum, m.tarball) = (integrity, shasum, tarball);
                }
                "cpu" => m.cpu = next::<ListShape, _>(&mut map)?,
                "os" => m.os = next::<ListShape, _>(&mut map)?,
                "libc" => m.libc = next::<ListShape, _>(&mut map)?,
                "deprecated" => {
                    m.deprecated = next::<TextShape, _>(&mut map)?.filter(|d| !d.is_empty());
                }
                "bin" => bin = Some(map.next_value::<Value>()?),
                "directories" => {
                    directories_bin = match map.next_value::<Value>()? {
                        Value::Object(dirs) => dirs.contains_key("bin"),
                        _ => false,
                    }
                }
                "bundledDependencies" => bundled = Some(map.next_value::<Value>()?),
                "bundleDependencies" => bundle = Some(map.next_value::<Value>()?),
                "hasInstallScript" => {
                    m.has_install_script = map.next_value::<Value>()?.as_bool().unwrap_or(false);
                }
                _ => unreachable!("every key of KEYS has an arm"),
            }
        }
        m.engines = (!engines.is_empty()).then_some(engines);
        m.has_bin = directories_bin || bin.as_ref().is_some_and(names_bins);
        // `bundledDependencies` when present, whatever its value.
        m.bundled_dependencies = bundled.or(bundle).filter(bundles);
        Ok(Fields(m))
    }
}

/// The next value of `map` read as the shape `S`.
fn next<'de, S: Shape, A: MapAccess<'de>>(map: &mut A) -> Result<Option<S::Out>, A::Error> {
    Ok(map.next_value::<Shaped<S>>()?.0)
}

/// What a value of the shape `S` reads as, `None` for any other shape
/// (skipped).
struct Shaped<S: Shape>(Option<S::Out>);

trait Shape {
    type Out;

    fn from_str(_: String) -> Option<Self::Out> {
        None
    }

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self::Out>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self::Out>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// A string.
struct TextShape;

impl Shape for TextShape {
    type Out = String;

    fn from_str(text: String) -> Option<String> {
        Some(text)
    }
}

/// An object's string members in order (a repeated key keeps its first
/// place and its last value, which drops it when not a string).
struct StringsShape;

impl Shape for StringsShape {
    type Out = IndexMap<String, String>;

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self::Out>, A::Error> {
        let mut members: IndexMap<String, Option<String>> = IndexMap::new();
        while let Some(key) = map.next_key::<String>()? {
            members.insert(key, next::<TextShape, _>(&mut map)?);
        }
        Ok(Some(
            members
                .into_iter()
                .filter_map(|(key, value)| Some((key, value?)))
                .collect(),
        ))
    }
}

/// `dist`'s `integrity`, `shasum` and `tarball` strings.
struct DistShape;

impl Shape for DistShape {
    type Out = [Option<String>; 3];

    fn from_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self::Out>, A::Error> {
        const DIST_KEYS: &[&str] = &["integrity", "shasum", "tarball"];
        let mut out: [Option<String>; 3] = Default::default();
        let wanted = pacquet_registry_metadata::KeyIn(DIST_KEYS);
        while let Some(slot) = map.next_key_seed(wanted)? {
            match slot {
                Some(i) => out[i] = next::<TextShape, _>(&mut map)?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(out))
    }
}

/// `cpu`, `os`, `libc`: an array's strings, or one string.
struct ListShape;

impl Shape for ListShape {
    type Out = Vec<String>;

    fn from_str(text: String) -> Option<Vec<String>> {
        Some(vec![text])
    }

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Vec<String>>, A::Error> {
        let mut items = Vec::new();
        while let Some(Shaped(item)) = seq.next_element::<Shaped<TextShape>>()? {
            items.extend(item);
        }
        Ok(Some(items))
    }
}

impl<'de, S: Shape> Deserialize<'de> for Shaped<S> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ShapedVisitor::<S>(std::marker::PhantomData))
    }
}

struct ShapedVisitor<S>(std::marker::PhantomData<S>);

impl<'de, S: Shape> Visitor<'de> for ShapedVisitor<S> {
    type Value = Shaped<S>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<Shaped<S>, E> {
        Ok(Shaped(S::from_str(text.to_owned())))
    }

    fn visit_string<E>(self, text: String) -> Result<Shaped<S>, E> {
        Ok(Shaped(S::from_str(text)))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Shaped<S>, E> {
        Ok(Shaped(None))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Shaped<S>, E> {
        Ok(Shaped(None))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Shaped<S>, E> {
        Ok(Shaped(None))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Shaped<S>, E> {
        Ok(Shaped(None))
    }

    fn visit_unit<E>(self) -> Result<Shaped<S>, E> {
        Ok(Shaped(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Shaped<S>, A::Error> {
        Ok(Shaped(S::from_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Shaped<S>, A::Error> {
        Ok(Shaped(S::from_map(map)?))
    }
}
