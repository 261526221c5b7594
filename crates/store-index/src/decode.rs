//! msgpackr "records" reader (docs/store.md §6.2).
//!
//! Reads pnpm 11 and 12 rows alike: any key order, `undefined` values, and
//! plain integers in `0x40..=0x7f` where no slot is defined. The top level,
//! `files`, `sideEffects` and file records are read straight into the typed
//! row; only `manifest` and unknown fields go through `serde_json::Value`.

use crate::error::DecodeError;
use crate::types::{FileInfo, PackageFilesIndex, RowSummary, SideEffectsDiff};
use serde_json::{Map, Number, Value};
use std::rc::Rc;

/// Nesting limit for generic values, so hostile rows cannot overflow the stack.
const MAX_DEPTH: usize = 128;

/// Decodes one `package_index.data` blob.
pub fn decode(bytes: &[u8]) -> Result<PackageFilesIndex, DecodeError> {
    let mut reader = Reader {
        bytes,
        pos: 0,
        slots: std::array::from_fn(|_| None),
    };
    let row = reader.row()?;
    if reader.pos != bytes.len() {
        return Err(DecodeError::TrailingBytes {
            len: bytes.len() - reader.pos,
        });
    }
    Ok(row)
}

/// Decodes what a row says about its package without building its file
/// list: the file records are walked, not copied (docs/store.md §6.3).
pub fn decode_summary(bytes: &[u8]) -> Result<RowSummary, DecodeError> {
    let mut reader = Reader {
        bytes,
        pos: 0,
        slots: std::array::from_fn(|_| None),
    };
    let summary = reader.summary()?;
    if reader.pos != bytes.len() {
        return Err(DecodeError::TrailingBytes {
            len: bytes.len() - reader.pos,
        });
    }
    Ok(summary)
}

/// How the fields of an object-like value are laid out.
enum Fields<'a> {
    /// A record: one value per key of the slot's key list.
    Record(Rc<[&'a str]>),
    /// A plain msgpack map with this many string-keyed entries.
    Map(usize),
}

impl<'a> Fields<'a> {
    fn len(&self) -> usize {
        match self {
            Fields::Record(keys) => keys.len(),
            Fields::Map(len) => *len,
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Key lists of slots `0x40..=0x7f` defined so far in this blob.
    slots: [Option<Rc<[&'a str]>>; 64],
}

impl<'a> Reader<'a> {
    /// Calls `field` with each present top-level field of a row, positioned
    /// at its value (which `field` must consume); `algo` and `files` must
    /// be among them.
    fn row_fields(
        &mut self,
        mut field: impl FnMut(&mut Self, &'a str) -> Result<(), DecodeError>,
    ) -> Result<(), DecodeError> {
        let fields = self.fields()?;
        let (mut has_algo, mut has_files) = (false, false);
        for i in 0..fields.len() {
            let key = self.field_key(&fields, i)?;
            // `undefined` and `null` both mean "absent" for the typed fields.
            if self.skip_undefined()? || (is_typed_field(key) && self.skip_nil()?) {
                continue;
            }
            has_algo |= key == "algo";
            has_files |= key == "files";
            field(self, key)?;
        }
        if !has_algo {
            return Err(DecodeError::MissingField { field: "algo" });
        }
        if !has_files {
            return Err(DecodeError::MissingField { field: "files" });
        }
        Ok(())
    }

    fn row(&mut self) -> Result<PackageFilesIndex, DecodeError> {
        let mut row = PackageFilesIndex::default();
        self.row_fields(|r, key| {
            match key {
                "algo" => row.algo = r.str()?.to_owned(),
                "files" => row.files = r.files()?,
                "requiresBuild" => row.requires_build = Some(r.bool()?),
                "manifest" => row.manifest = Some(r.value(0)?),
                "sideEffects" => row.side_effects = Some(r.side_effects()?),
                "tarIntegrity" => row.tar_integrity = Some(r.str()?.to_owned()),
                _ => {
                    let value = r.value(0)?;
                    row.extra.push((key.to_owned(), value));
                }
            }
            Ok(())
        })?;
        Ok(row)
    }

    fn summary(&mut self) -> Result<RowSummary, DecodeError> {
        let mut summary = RowSummary::default();
        self.row_fields(|r, key| {
            match key {
                "algo" => summary.algo = r.str()?.to_owned(),
                "files" => {
                    // Walked, not copied: record definitions inside still
                    // count for the fields after `files`.
                    for _ in 0..r.map_len()? {
                        let path = r.str()?;
                        summary.has_package_json |= path == "package.json";
                        summary.provides_skills |= crate::types::is_skill_file(path);
                        let fields = r.fields()?;
                        for i in 0..fields.len() {
                            r.field_key(&fields, i)?;
                            r.skip_scalar()?;
                        }
                    }
                }
                "requiresBuild" => summary.requires_build = Some(r.bool()?),
                "manifest" => summary.manifest = Some(r.value(0)?),
                _ => r.skip(0)?,
            }
            Ok(())
        })?;
        Ok(summary)
    }

    fn files(&mut self) -> Result<Vec<(String, FileInfo)>, DecodeError> {
        let len = self.map_len()?;
        let mut files = Vec::with_capacity(len.min(self.remaining()));
        for _ in 0..len {
            let path = self.str()?.to_owned();
            files.push((path, self.file_info()?));
        }
        Ok(files)
    }

    fn file_info(&mut self) -> Result<FileInfo, DecodeError> {
        let fields = self.fields()?;
        let mut digest = None;
        let mut mode = None;
        let mut size = None;
        let mut checked_at = None;
        for i in 0..fields.len() {
            let key = self.field_key(&fields, i)?;
            if self.skip_undefined()? {
                continue;
            }
            match key {
                "digest" => digest = Some(self.str()?.to_owned()),
                "mode" => {
                    let at = self.pos;
                    let value = self.uint()?;
                    let value = u32::try_from(value).map_err(|_| DecodeError::UnexpectedType {
                        expected: "file mode",
                        offset: at,
                    })?;
                    mode = Some(value);
                }
                "size" => size = Some(self.uint()?),
                "checkedAt" => checked_at = self.number()?,
                _ => self.skip(0)?,
            }
        }
        Ok(FileInfo {
            digest: digest.ok_or(DecodeError::MissingField { field: "digest" })?,
            mode: mode.ok_or(DecodeError::MissingField { field: "mode" })?,
            size: size.ok_or(DecodeError::MissingField { field: "size" })?,
            checked_at,
        })
    }

    fn side_effects(&mut self) -> Result<Vec<(String, SideEffectsDiff)>, DecodeError> {
        let len = self.map_len()?;
        let mut out = Vec::with_capacity(len.min(self.remaining()));
        for _ in 0..len {
            let cache_key = self.str()?.to_owned();
            let fields = self.fields()?;
            let mut diff = SideEffectsDiff::default();
            for i in 0..fields.len() {
                let key = self.field_key(&fields, i)?;
                if self.skip_undefined()? {
                    continue;
                }
                match key {
                    "added" => diff.added = Some(self.files()?),
                    "deleted" => {
                        let n = self.array_len()?;
                        let mut deleted = Vec::with_capacity(n.min(self.remaining()));
                        for _ in 0..n {
                            deleted.push(self.str()?.to_owned());
                        }
                        diff.deleted = Some(deleted);
                    }
                    _ => {
                        let value = self.value(0)?;
                        diff.extra.push((key.to_owned(), value));
                    }
                }
            }
            out.push((cache_key, diff));
        }
        Ok(out)
    }

    /// Reads the header of an object: a record (defining its slot if needed)
    /// or a plain map.
    fn fields(&mut self) -> Result<Fields<'a>, DecodeError> {
        let at = self.pos;
        let byte = self.peek()?;
        if let Some(keys) = self.record_start()? {
            return Ok(Fields::Record(keys));
        }
        if (0x80..=0x8f).contains(&byte) || byte == 0xde || byte == 0xdf {
            return Ok(Fields::Map(self.map_len()?));
        }
        Err(DecodeError::UnexpectedType {
            expected: "object",
            offset: at,
        })
    }

    /// The key of field `i`: from the record's key list, or read from the map.
    fn field_key(&mut self, fields: &Fields<'a>, i: usize) -> Result<&'a str, DecodeError> {
        match fields {
            Fields::Record(keys) => Ok(keys[i]),
            Fields::Map(_) => self.str(),
        }
    }

    /// If a record starts here, consumes its header and returns its keys.
    fn record_start(&mut self) -> Result<Option<Rc<[&'a str]>>, DecodeError> {
        let byte = self.peek()?;
        if (0x40..=0x7f).contains(&byte) {
            if let Some(keys) = &self.slots[usize::from(byte & 0x3f)] {
                let keys = Rc::clone(keys);
                self.pos += 1;
                return Ok(Some(keys));
            }
            return Ok(None);
        }
        if byte == 0xd4 && self.bytes.get(self.pos + 1) == Some(&0x72) {
            let slot = *self.bytes.get(self.pos + 2).ok_or(self.truncated())?;
            if !(0x40..=0x7f).contains(&slot) {
                return Err(DecodeError::UnsupportedType {
                    byte: slot,
                    offset: self.pos + 2,
                });
            }
            self.pos += 3;
            let n = self.array_len()?;
            let mut keys = Vec::with_capacity(n.min(self.remaining()));
            for _ in 0..n {
                keys.push(self.str()?);
            }
            let keys: Rc<[&'a str]> = keys.into();
            self.slots[usize::from(slot & 0x3f)] = Some(Rc::clone(&keys));
            return Ok(Some(keys));
        }
        Ok(None)
    }

    /// Consumes `c0` (nil) if it is next.
    fn skip_nil(&mut self) -> Result<bool, DecodeError> {
        let nil = self.peek()? == 0xc0;
        if nil {
            self.pos += 1;
        }
        Ok(nil)
    }

    /// Consumes `d4 00 00` (JS `undefined`) if it is next.
    fn skip_undefined(&mut self) -> Result<bool, DecodeError> {
        if self.bytes.get(self.pos..self.pos + 3) == Some(&[0xd4, 0x00, 0x00]) {
            self.pos += 3;
            return Ok(true);
        }
        if self.pos >= self.bytes.len() {
            return Err(self.truncated());
        }
        Ok(false)
    }

    /// Any value as JSON. Maps become objects (keys stringified), records
    /// become objects in key order, `undefined` inside objects drops the key.
    fn value(&mut self, depth: usize) -> Result<Value, DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep { max: MAX_DEPTH });
        }
        if let Some(keys) = self.record_start()? {
            let mut map = Map::with_capacity(keys.len());
            for key in keys.iter() {
                if self.skip_undefined()? {
                    continue;
                }
                let value = self.value(depth + 1)?;
                map.insert((*key).to_owned(), value);
            }
            return Ok(Value::Object(map));
        }
        let at = self.pos;
        let byte = self.next()?;
        Ok(match byte {
            0x00..=0x7f => Value::from(byte),
            0xe0..=0xff => Value::from(byte as i8),
            0x80..=0x8f | 0xde | 0xdf => {
                self.pos = at;
                let n = self.map_len()?;
                let mut map = Map::with_capacity(n.min(self.remaining()));
                for _ in 0..n {
                    let key_at = self.pos;
                    let key = match self.value(depth + 1)? {
                        Value::String(s) => s,
                        // Stringifying a map or array key escapes it once
                        // per nesting level: a few hundred bytes of nested
                        // keys would take exponential time (found by
                        // fuzzing). pnpm's rows only have string keys.
                        Value::Object(_) | Value::Array(_) => {
                            return Err(DecodeError::UnexpectedType {
                                expected: "a scalar map key",
                                offset: key_at,
                            });
                        }
                        other => other.to_string(),
                    };
                    if self.skip_undefined()? {
                        continue;
                    }
                    let value = self.value(depth + 1)?;
                    map.insert(key, value);
                }
                Value::Object(map)
            }
            0x90..=0x9f | 0xdc | 0xdd => {
                self.pos = at;
                let n = self.array_len()?;
                let mut items = Vec::with_capacity(n.min(self.remaining()));
                for _ in 0..n {
                    if self.skip_undefined()? {
                        items.push(Value::Null);
                    } else {
                        items.push(self.value(depth + 1)?);
                    }
                }
                Value::Array(items)
            }
            0xa0..=0xbf | 0xd9..=0xdb => {
                self.pos = at;
                Value::String(self.str()?.to_owned())
            }
            0xc0 => Value::Null,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xca..=0xd3 => {
                self.pos = at;
                self.number()?.map_or(Value::Null, json_number)
            }
            // Undefined at top level of a value (e.g. array slot) reads as null.
            0xd4 if self.bytes.get(self.pos..self.pos + 2) == Some(&[0x00, 0x00]) => {
                self.pos += 2;
                Value::Null
            }
            _ => return Err(DecodeError::UnsupportedType { byte, offset: at }),
        })
    }

    /// Skips one value of any supported type.
    /// Skips a value, without allocating when it is a string or a number
    /// (a file record's fields).
    fn skip_scalar(&mut self) -> Result<(), DecodeError> {
        if self.skip_undefined()? {
            return Ok(());
        }
        match self.peek()? {
            0xa0..=0xbf | 0xd9..=0xdb => self.str().map(drop),
            0xca..=0xd3 => self.number().map(drop),
            // Not `0x40..=0x7f`: those may name a record.
            0x00..=0x3f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => {
                self.pos += 1;
                Ok(())
            }
            _ => self.skip(0),
        }
    }

    fn skip(&mut self, depth: usize) -> Result<(), DecodeError> {
        if self.skip_undefined()? {
            return Ok(());
        }
        self.value(depth).map(drop)
    }

    fn str(&mut self) -> Result<&'a str, DecodeError> {
        let at = self.pos;
        let byte = self.next()?;
        let len = match byte {
            0xa0..=0xbf => usize::from(byte & 0x1f),
            0xd9 => usize::from(self.next()?),
            0xda => usize::from(u16::from_be_bytes(self.take_array()?)),
            0xdb => u32::from_be_bytes(self.take_array()?) as usize,
            _ => {
                return Err(DecodeError::UnexpectedType {
                    expected: "string",
                    offset: at,
                });
            }
        };
        let raw = self.take(len)?;
        std::str::from_utf8(raw).map_err(|_| DecodeError::InvalidUtf8 { offset: at })
    }

    fn bool(&mut self) -> Result<bool, DecodeError> {
        let at = self.pos;
        match self.next()? {
            0xc2 => Ok(false),
            0xc3 => Ok(true),
            _ => Err(DecodeError::UnexpectedType {
                expected: "boolean",
                offset: at,
            }),
        }
    }

    /// A non-negative integer in any encoding, including integral float64.
    fn uint(&mut self) -> Result<u64, DecodeError> {
        let at = self.pos;
        let err = DecodeError::UnexpectedType {
            expected: "unsigned integer",
            offset: at,
        };
        match self.number()? {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= u64::MAX as f64 => Ok(n as u64),
            _ => Err(err),
        }
    }

    /// Any numeric encoding as f64 (`None` for nil). Integers up to 2^53 are
    /// exact, which covers every value pnpm writes.
    fn number(&mut self) -> Result<Option<f64>, DecodeError> {
        let at = self.pos;
        let byte = self.next()?;
        let n = match byte {
            // A defined slot here would be a record, which is not a number.
            0x00..=0x7f => f64::from(byte),
            0xe0..=0xff => f64::from(byte as i8),
            0xc0 => return Ok(None),
            0xca => f64::from(f32::from_be_bytes(self.take_array()?)),
            0xcb => f64::from_be_bytes(self.take_array()?),
            0xcc => f64::from(self.next()?),
            0xcd => f64::from(u16::from_be_bytes(self.take_array()?)),
            0xce => f64::from(u32::from_be_bytes(self.take_array()?)),
            0xcf => u64::from_be_bytes(self.take_array()?) as f64,
            0xd0 => f64::from(self.next()? as i8),
            0xd1 => f64::from(i16::from_be_bytes(self.take_array()?)),
            0xd2 => f64::from(i32::from_be_bytes(self.take_array()?)),
            0xd3 => i64::from_be_bytes(self.take_array()?) as f64,
            _ => {
                return Err(DecodeError::UnexpectedType {
                    expected: "number",
                    offset: at,
                });
            }
        };
        if (0x40..=0x7f).contains(&byte) && self.slots[usize::from(byte & 0x3f)].is_some() {
            return Err(DecodeError::UnexpectedType {
                expected: "number",
                offset: at,
            });
        }
        Ok(Some(n))
    }

    fn map_len(&mut self) -> Result<usize, DecodeError> {
        self.collection_len(0x80, 0xde, 0xdf, "map")
    }

    fn array_len(&mut self) -> Result<usize, DecodeError> {
        self.collection_len(0x90, 0xdc, 0xdd, "array")
    }

    fn collection_len(
        &mut self,
        fix: u8,
        len16: u8,
        len32: u8,
        expected: &'static str,
    ) -> Result<usize, DecodeError> {
        let at = self.pos;
        let byte = self.next()?;
        if byte & 0xf0 == fix {
            Ok(usize::from(byte & 0x0f))
        } else if byte == len16 {
            Ok(usize::from(u16::from_be_bytes(self.take_array()?)))
        } else if byte == len32 {
            Ok(u32::from_be_bytes(self.take_array()?) as usize)
        } else {
            Err(DecodeError::UnexpectedType {
                expected,
                offset: at,
            })
        }
    }

    fn peek(&self) -> Result<u8, DecodeError> {
        self.bytes.get(self.pos).copied().ok_or(self.truncated())
    }

    fn next(&mut self) -> Result<u8, DecodeError> {
        let byte = self.peek()?;
        self.pos += 1;
        Ok(byte)
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        let end = self
            .pos
            .checked_add(len)
            .filter(|end| *end <= self.bytes.len());
        let end = end.ok_or(self.truncated())?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn take_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let slice = self.take(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn truncated(&self) -> DecodeError {
        DecodeError::Truncated { offset: self.pos }
    }
}

/// Top-level fields with a typed home in [`PackageFilesIndex`]; for these a
/// `null` reads as absent (unknown fields keep their `null`).
fn is_typed_field(key: &str) -> bool {
    matches!(
        key,
        "requiresBuild" | "manifest" | "sideEffects" | "tarIntegrity"
    )
}

/// JSON number for a decoded JS number: integral values stay integers.
fn json_number(n: f64) -> Value {
    const SAFE: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.fract() == 0.0 && n.abs() <= SAFE {
        if n >= 0.0 {
            return Value::from(n as u64);
        }
        return Value::from(n as i64);
    }
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}
