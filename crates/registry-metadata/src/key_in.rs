//! An object's key read as its place in a list of wanted keys, without
//! allocating: for readers that keep a few fields of large objects
//! (a version's manifest) and skip the rest.

use serde::de::{DeserializeSeed, Deserializer, Error, Visitor};

/// Reads a key as its index in the list (`None`: not wanted); use with
/// `MapAccess::next_key_seed`.
#[derive(Clone, Copy)]
pub struct KeyIn(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeyIn {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyIn {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: Error>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|wanted| *wanted == key))
    }
}
