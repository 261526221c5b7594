//! Editing a project's `package.json` as `pnpm add`/`remove` do: the
//! file's indentation and final newline are kept, other keys keep their
//! order, and an edited dependency group is sorted by name.

use serde::Serialize;
use serde_json::{Map, Value};

/// The dependency groups of a manifest, in pnpm's order.
pub const GROUPS: [&str; 3] = ["dependencies", "devDependencies", "optionalDependencies"];

const PEERS: &str = "peerDependencies";

/// One change to a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// `alias: specifier` into `group` (out of the other groups; a peer
    /// dependency stays where it is).
    Add {
        group: &'static str,
        alias: String,
        specifier: String,
    },
    /// `alias: specifier` into `peerDependencies` too (`--save-peer`).
    AddPeer { alias: String, specifier: String },
    /// `alias` out of every group, peer dependencies included.
    Remove { alias: String },
}

/// Why a manifest could not be edited.
#[derive(Debug, PartialEq, Eq)]
pub enum EditError {
    NotJson(String),
    NotAnObject,
    /// `remove` of names no group has.
    Missing(Vec<String>),
}

/// An edited manifest: the text to write, and the manifest as pnpm 12
/// holds it in memory (a group a removal emptied is still there).
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    pub text: String,
    pub in_memory: Value,
}

/// `text` with `edits` applied.
pub fn edit(text: &str, edits: &[Edit]) -> Result<Edited, EditError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut value: Value =
        serde_json::from_str(body).map_err(|e| EditError::NotJson(e.to_string()))?;
    let manifest = value.as_object_mut().ok_or(EditError::NotAnObject)?;
    let mut missing = Vec::new();
    let mut emptied = Vec::new();
    for edit in edits {
        match edit {
            Edit::Add {
                group,
                alias,
                specifier,
            } => {
                for other in GROUPS.iter().filter(|g| *g != group) {
                    remove_from(manifest, other, alias);
                }
                insert_into(manifest, group, alias, specifier);
            }
            Edit::AddPeer { alias, specifier } => {
                insert_into(manifest, PEERS, alias, specifier);
            }
            Edit::Remove { alias } => {
                let mut found = false;
                for group in GROUPS.iter().chain(&[PEERS]) {
                    if remove_from(manifest, group, alias) {
                        found = true;
                        if manifest
                            .get(*group)
                            .and_then(Value::as_object)
                            .is_some_and(Map::is_empty)
                        {
                            emptied.push(*group);
                        }
                    }
                }
                if !found {
                    missing.push(alias.clone());
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(EditError::Missing(missing));
    }
    // pnpm writes every dependency group sorted.
    for group in GROUPS.iter().chain(&[PEERS]) {
        if let Some(deps) = manifest.get_mut(*group).and_then(Value::as_object_mut) {
            sort(deps);
        }
    }
    let in_memory = value.clone();
    // pnpm writes no group a removal emptied.
    let manifest = value.as_object_mut().expect("checked above");
    for group in emptied {
        if manifest
            .get(group)
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
        {
            manifest.shift_remove(group);
        }
    }
    Ok(Edited {
        text: render(&value, &indent_of(body), body.ends_with('\n')),
        in_memory,
    })
}

/// `alias: specifier` into `group`, made an object if it is not one.
fn insert_into(manifest: &mut Map<String, Value>, group: &str, alias: &str, specifier: &str) {
    let deps = manifest
        .entry(group)
        .or_insert_with(|| Value::Object(Map::new()));
    if !deps.is_object() {
        *deps = Value::Object(Map::new());
    }
    if let Value::Object(deps) = deps {
        deps.insert(alias.to_owned(), Value::String(specifier.to_owned()));
    }
}

fn remove_from(manifest: &mut Map<String, Value>, group: &str, alias: &str) -> bool {
    manifest
        .get_mut(group)
        .and_then(Value::as_object_mut)
        .is_some_and(|deps| deps.shift_remove(alias).is_some())
}

fn sort(deps: &mut Map<String, Value>) {
    let mut entries: Vec<(String, Value)> = std::mem::take(deps).into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    deps.extend(entries);
}

/// The indentation of the first indented line; `None` when no line is
/// (a manifest on one line stays on one line, as pnpm 12.21 writes it).
fn indent_of(text: &str) -> Option<String> {
    text.lines().skip(1).find_map(|line| {
        let indent: String = line
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        (!indent.is_empty()).then_some(indent)
    })
}

fn render(value: &Value, indent: &Option<String>, final_newline: bool) -> String {
    let mut out = Vec::new();
    match indent {
        Some(indent) => {
            let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
            let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
            value.serialize(&mut serializer)
        }
        None => value.serialize(&mut serde_json::Serializer::new(&mut out)),
    }
    .expect("a JSON value serializes");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    if final_newline {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests;
