//! msgpackr "records" writer (docs/store.md §6.1), byte-compatible with pnpm 11/12.

use crate::types::{FileInfo, PackageFilesIndex, SideEffectsDiff};
use serde_json::Value;

/// Number of record slots (`0x40..=0x7f`) msgpackr cycles through per blob.
const SLOTS: usize = 64;

/// Encodes a row the way pnpm 12 writes it: top-level keys in the order
/// `algo, requiresBuild, manifest, files, sideEffects, tarIntegrity`, then
/// unknown fields in their stored order.
pub fn encode(row: &PackageFilesIndex) -> Vec<u8> {
    let mut enc = Encoder::with_capacity(256 + row.files.len() * 180);
    enc.row(row);
    enc.buf
}

struct Encoder {
    buf: Vec<u8>,
    /// Key list currently bound to slot `0x40 + i`.
    slots: Vec<Vec<String>>,
    /// Next slot to (re)define; msgpackr evicts the oldest definition on wrap.
    next: usize,
}

impl Encoder {
    fn with_capacity(cap: usize) -> Self {
        Encoder {
            buf: Vec::with_capacity(cap),
            slots: Vec::new(),
            next: 0,
        }
    }

    fn row(&mut self, row: &PackageFilesIndex) {
        let mut keys: Vec<&str> = Vec::with_capacity(6 + row.extra.len());
        keys.push("algo");
        if row.requires_build.is_some() {
            keys.push("requiresBuild");
        }
        if row.manifest.is_some() {
            keys.push("manifest");
        }
        keys.push("files");
        if row.side_effects.is_some() {
            keys.push("sideEffects");
        }
        if row.tar_integrity.is_some() {
            keys.push("tarIntegrity");
        }
        keys.extend(row.extra.iter().map(|(k, _)| k.as_str()));
        self.record_header(&keys);

        self.str(&row.algo);
        if let Some(requires_build) = row.requires_build {
            self.bool(requires_build);
        }
        if let Some(manifest) = &row.manifest {
            self.value(manifest);
        }
        self.files(&row.files);
        if let Some(side_effects) = &row.side_effects {
            self.map_len(side_effects.len());
            for (cache_key, diff) in side_effects {
                self.str(cache_key);
                self.diff(diff);
            }
        }
        if let Some(tar_integrity) = &row.tar_integrity {
            self.str(tar_integrity);
        }
        for (_, value) in &row.extra {
            self.value(value);
        }
    }

    fn files(&mut self, files: &[(String, FileInfo)]) {
        self.map_len(files.len());
        for (path, info) in files {
            self.str(path);
            self.file_info(info);
        }
    }

    fn file_info(&mut self, info: &FileInfo) {
        if info.checked_at.is_some() {
            self.record_header(&["digest", "mode", "size", "checkedAt"]);
        } else {
            self.record_header(&["digest", "mode", "size"]);
        }
        self.str(&info.digest);
        self.uint(u64::from(info.mode));
        self.uint(info.size);
        if let Some(checked_at) = info.checked_at {
            self.number(checked_at);
        }
    }

    fn diff(&mut self, diff: &SideEffectsDiff) {
        let mut keys: Vec<&str> = Vec::with_capacity(2 + diff.extra.len());
        if diff.added.is_some() {
            keys.push("added");
        }
        if diff.deleted.is_some() {
            keys.push("deleted");
        }
        keys.extend(diff.extra.iter().map(|(k, _)| k.as_str()));
        self.record_header(&keys);
        if let Some(added) = &diff.added {
            self.files(added);
        }
        if let Some(deleted) = &diff.deleted {
            self.array_len(deleted.len());
            for path in deleted {
                self.str(path);
            }
        }
        for (_, value) in &diff.extra {
            self.value(value);
        }
    }

    /// Writes a slot reference, or defines a new slot for this key list.
    fn record_header<K: AsRef<str>>(&mut self, keys: &[K]) {
        let known = self.slots.iter().position(|slot| {
            slot.len() == keys.len() && slot.iter().zip(keys).all(|(a, b)| a == b.as_ref())
        });
        if let Some(index) = known {
            self.buf.push(0x40 + index as u8);
            return;
        }
        let index = self.next;
        self.next = (self.next + 1) % SLOTS;
        let owned: Vec<String> = keys.iter().map(|k| k.as_ref().to_owned()).collect();
        if index < self.slots.len() {
            self.slots[index] = owned;
        } else {
            self.slots.push(owned);
        }
        self.buf
            .extend_from_slice(&[0xd4, 0x72, 0x40 + index as u8]);
        self.array_len(keys.len());
        for key in keys {
            self.str(key.as_ref());
        }
    }

    /// A JSON value as msgpackr packs the equivalent JS value.
    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.buf.push(0xc0),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    self.uint(u);
                } else if let Some(i) = n.as_i64() {
                    self.int(i);
                } else {
                    self.number(n.as_f64().unwrap_or(f64::NAN));
                }
            }
            Value::String(s) => self.str(s),
            Value::Array(items) => {
                self.array_len(items.len());
                for item in items {
                    self.value(item);
                }
            }
            Value::Object(map) => {
                let mut entries: Vec<(&str, &Value)> =
                    map.iter().map(|(k, v)| (k.as_str(), v)).collect();
                // JS objects enumerate array-index keys first, ascending, so a
                // manifest read from package.json by pnpm is stored that way.
                if entries.iter().any(|(k, _)| array_index(k).is_some()) {
                    entries.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
                }
                let keys: Vec<&str> = entries.iter().map(|(k, _)| *k).collect();
                self.record_header(&keys);
                for (_, item) in entries {
                    self.value(item);
                }
            }
        }
    }

    fn bool(&mut self, b: bool) {
        self.buf.push(if b { 0xc3 } else { 0xc2 });
    }

    /// JS numbers: integral values in int32/uint32 range use the integer
    /// forms, everything else is float64.
    fn number(&mut self, n: f64) {
        if n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&n) {
            self.uint(n as u64);
        } else if n.fract() == 0.0 && (i32::MIN as f64..0.0).contains(&n) {
            self.int(n as i64);
        } else {
            self.float(n);
        }
    }

    fn uint(&mut self, u: u64) {
        match u {
            // 0x40..=0x7f are slot references, hence `cc` already from 64.
            0..=0x3f => self.buf.push(u as u8),
            0x40..=0xff => self.buf.extend_from_slice(&[0xcc, u as u8]),
            0x100..=0xffff => {
                self.buf.push(0xcd);
                self.buf.extend_from_slice(&(u as u16).to_be_bytes());
            }
            0x1_0000..=0xffff_ffff => {
                self.buf.push(0xce);
                self.buf.extend_from_slice(&(u as u32).to_be_bytes());
            }
            // Never `cf`: msgpackr would hand pnpm 11 a BigInt.
            _ => self.float(u as f64),
        }
    }

    fn int(&mut self, i: i64) {
        if i >= 0 {
            self.uint(i as u64);
        } else if i >= -32 {
            self.buf.push(i as i8 as u8);
        } else if i >= i64::from(i8::MIN) {
            self.buf.extend_from_slice(&[0xd0, i as i8 as u8]);
        } else if i >= i64::from(i16::MIN) {
            self.buf.push(0xd1);
            self.buf.extend_from_slice(&(i as i16).to_be_bytes());
        } else if i >= i64::from(i32::MIN) {
            self.buf.push(0xd2);
            self.buf.extend_from_slice(&(i as i32).to_be_bytes());
        } else {
            self.float(i as f64);
        }
    }

    fn float(&mut self, f: f64) {
        self.buf.push(0xcb);
        self.buf.extend_from_slice(&f.to_be_bytes());
    }

    fn str(&mut self, s: &str) {
        let len = s.len();
        if len < 32 {
            self.buf.push(0xa0 | len as u8);
        } else if len < 0x100 {
            self.buf.extend_from_slice(&[0xd9, len as u8]);
        } else if len < 0x1_0000 {
            self.buf.push(0xda);
            self.buf.extend_from_slice(&(len as u16).to_be_bytes());
        } else {
            self.buf.push(0xdb);
            self.buf.extend_from_slice(&(len as u32).to_be_bytes());
        }
        self.buf.extend_from_slice(s.as_bytes());
    }

    fn array_len(&mut self, len: usize) {
        self.collection_len(len, 0x90, 0xdc, 0xdd);
    }

    fn map_len(&mut self, len: usize) {
        self.collection_len(len, 0x80, 0xde, 0xdf);
    }

    fn collection_len(&mut self, len: usize, fix: u8, len16: u8, len32: u8) {
        if len < 16 {
            self.buf.push(fix | len as u8);
        } else if len < 0x1_0000 {
            self.buf.push(len16);
            self.buf.extend_from_slice(&(len as u16).to_be_bytes());
        } else {
            self.buf.push(len32);
            self.buf.extend_from_slice(&(len as u32).to_be_bytes());
        }
    }
}

/// `Some(n)` when `key` is a canonical JS array index (`0`, `17`, not `017`).
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|n| *n != u32::MAX)
}
