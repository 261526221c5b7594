//! `serde::Deserializer` over [`Node`], so the fast path fills the same
//! derived model as the full parser. Plain scalars are typed only when the
//! answer is unambiguous; anything doubtful is an error, which sends the
//! caller to the full parser.

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use super::tree::Node;

#[derive(Debug)]
pub(crate) struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("outside the fast YAML subset")
    }
}

impl std::error::Error for Unsupported {}

impl de::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

pub(crate) struct NodeDe<'n, 'a>(pub(crate) &'n Node<'a>);

impl NodeDe<'_, '_> {
    fn text(&self) -> Option<&str> {
        match self.0 {
            Node::Plain(s) => Some(s),
            Node::Quoted(s) => Some(s),
            _ => None,
        }
    }
}

fn is_null(s: &str) -> bool {
    matches!(s, "~" | "null" | "Null" | "NULL")
}

/// Plain text that a YAML reader would type as something other than a
/// string, beyond the cases handled explicitly.
fn doubtful(s: &str) -> bool {
    crate::write::is_ambiguous(s)
        || matches!(s, "yes" | "no" | "on" | "off" | "Yes" | "No" | "On" | "Off")
}

impl<'de> de::Deserializer<'de> for NodeDe<'_, '_> {
    type Error = Unsupported;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.0 {
            Node::Null => visitor.visit_unit(),
            Node::Quoted(s) => visitor.visit_str(s),
            Node::Plain(s) => match *s {
                "true" => visitor.visit_bool(true),
                "false" => visitor.visit_bool(false),
                s if is_null(s) => visitor.visit_unit(),
                s => {
                    if let Ok(n) = s.parse::<u64>()
                        && n.to_string() == s
                    {
                        return visitor.visit_u64(n);
                    }
                    if let Ok(n) = s.parse::<i64>()
                        && n.to_string() == s
                    {
                        return visitor.visit_i64(n);
                    }
                    if doubtful(s) {
                        return Err(Unsupported);
                    }
                    visitor.visit_str(s)
                }
            },
            Node::Map(entries) => visitor.visit_map(MapDe { entries, index: 0 }),
            Node::Seq(items) => visitor.visit_seq(SeqDe {
                items: items.iter(),
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.0 {
            Node::Null => visitor.visit_none(),
            Node::Plain(s) if is_null(s) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        // A plain null is not a string to the general parser; let it decide.
        if matches!(self.0, Node::Plain(s) if is_null(s)) {
            return Err(Unsupported);
        }
        match self.text() {
            Some(s) => visitor.visit_str(s),
            None => Err(Unsupported),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.0 {
            Node::Plain("true") => visitor.visit_bool(true),
            Node::Plain("false") => visitor.visit_bool(false),
            _ => Err(Unsupported),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.0 {
            Node::Plain(s) => {
                let n: u64 = s.parse().map_err(|_| Unsupported)?;
                if n.to_string() != *s {
                    return Err(Unsupported);
                }
                visitor.visit_u64(n)
            }
            _ => Err(Unsupported),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.0 {
            Node::Map(entries) => visitor.visit_map(MapDe { entries, index: 0 }),
            _ => Err(Unsupported),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Unsupported> {
        self.deserialize_map(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        match self.0 {
            Node::Seq(items) => visitor.visit_seq(SeqDe {
                items: items.iter(),
            }),
            _ => Err(Unsupported),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Unsupported> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Unsupported> {
        visitor.visit_unit()
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Unsupported> {
        Err(Unsupported)
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u128 f32 f64 char bytes byte_buf unit unit_struct tuple tuple_struct
    }
}

struct MapDe<'n, 'a> {
    entries: &'n [(std::borrow::Cow<'a, str>, Node<'a>)],
    index: usize,
}

impl<'de> MapAccess<'de> for MapDe<'_, '_> {
    type Error = Unsupported;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Unsupported> {
        let Some((key, _)) = self.entries.get(self.index) else {
            return Ok(None);
        };
        let key: &str = key;
        seed.deserialize(IntoDeserializer::<Unsupported>::into_deserializer(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Unsupported> {
        let (_, value) = self.entries.get(self.index).ok_or(Unsupported)?;
        self.index += 1;
        seed.deserialize(NodeDe(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len() - self.index)
    }
}

struct SeqDe<'n, 'a> {
    items: std::slice::Iter<'n, Node<'a>>,
}

impl<'de> SeqAccess<'de> for SeqDe<'_, '_> {
    type Error = Unsupported;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Unsupported> {
        match self.items.next() {
            Some(node) => seed.deserialize(NodeDe(node)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}
