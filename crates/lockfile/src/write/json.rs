//! Writing the free-form parts of the model (`serde_json::Value`s such as
//! `dependenciesMeta`, `patchedDependencies`, exotic resolutions). pnpm sorts
//! these keys deeply, with its package-field priority list first.

use std::cmp::Ordering;

use serde_json::Value;

use super::scalar::{Ctx, write_str};

/// pnpm's `ORDERED_KEYS`: these come first, in this order; others follow lexically.
const PRIORITY: &[&str] = &[
    "resolution",
    "id",
    "name",
    "version",
    "engines",
    "cpu",
    "os",
    "libc",
    "deprecated",
    "hasBin",
    "prepare",
    "requiresBuild",
    "bundleDependencies",
    "peerDependencies",
    "peerDependenciesMeta",
    "dependencies",
    "optionalDependencies",
    "transitivePeerDependencies",
    "dev",
    "optional",
];

pub(crate) fn compare_keys(a: &str, b: &str) -> Ordering {
    let pa = PRIORITY.iter().position(|k| *k == a);
    let pb = PRIORITY.iter().position(|k| *k == b);
    match (pa, pb) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

fn sorted(map: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_by(|a, b| compare_keys(a.0, b.0));
    entries
}

fn write_atom(out: &mut String, v: &Value, ctx: Ctx, indent: usize) -> bool {
    match v {
        Value::String(s) => write_str(out, s, ctx, indent),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
        Value::Array(a) if a.is_empty() => out.push_str("[]"),
        Value::Object(o) if o.is_empty() => out.push_str("{}"),
        _ => return false,
    }
    true
}

/// Writes the value of a key already written at `indent` (without its line end).
pub(crate) fn write_block_value(out: &mut String, indent: usize, v: &Value) {
    let mark = out.len();
    out.push(' ');
    if write_atom(out, v, Ctx::Block, indent) {
        out.push('\n');
        return;
    }
    out.truncate(mark);
    out.push('\n');
    write_block_body(out, indent + 2, v);
}

/// A non-empty collection whose entries start at column `indent`.
fn write_block_body(out: &mut String, indent: usize, v: &Value) {
    match v {
        Value::Object(map) => {
            for (k, v) in sorted(map) {
                out.extend(std::iter::repeat_n(' ', indent));
                write_str(out, k, Ctx::Key, indent);
                out.push(':');
                write_block_value(out, indent, v);
            }
        }
        Value::Array(items) => {
            for item in items {
                out.extend(std::iter::repeat_n(' ', indent));
                out.push('-');
                let mark = out.len();
                out.push(' ');
                if write_atom(out, item, Ctx::Block, indent) {
                    out.push('\n');
                    continue;
                }
                // A nested collection: js-yaml puts its first line after "- ".
                out.truncate(mark);
                let start = out.len();
                write_block_body(out, indent + 2, item);
                let first_line_indent = indent + 2;
                out.replace_range(
                    start..start + first_line_indent,
                    &" ".repeat(first_line_indent - indent - 1),
                );
            }
        }
        _ => {}
    }
}

/// A value inside a flow collection (`resolution: {…}`).
pub(crate) fn write_flow_value(out: &mut String, v: &Value) {
    if write_atom(out, v, Ctx::Flow, 0) {
        return;
    }
    match v {
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in sorted(map).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str(out, k, Ctx::Flow, 0);
                out.push_str(": ");
                write_flow_value(out, v);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_flow_value(out, item);
            }
            out.push(']');
        }
        _ => {}
    }
}
