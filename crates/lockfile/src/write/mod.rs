//! Deterministic serialization, byte-identical to pnpm 12's `pnpm-lock.yaml`.

mod json;
mod scalar;

use std::collections::BTreeMap;

use indexmap::IndexMap;

use crate::{
    Importer, Lockfile, LockfileSettings, PackageInfo, Resolution, ResolutionValue,
    ResolvedDependency, Snapshot,
};
use json::{write_block_value, write_flow_value};
pub(crate) use scalar::is_ambiguous;
use scalar::{Ctx, write_str};

impl Lockfile {
    /// Renders the lockfile exactly as pnpm 12 writes it (including the env
    /// document of a two-document file).
    pub fn to_yaml(&self) -> String {
        let mut out =
            String::with_capacity(256 + 256 * (self.packages.len() + self.snapshots.len()));
        if let Some(env) = &self.env {
            out.push_str("---\n");
            write_document(&mut out, env);
            out.push_str("\n---\n");
        }
        write_document(&mut out, self);
        out
    }
}

fn write_document(out: &mut String, lf: &Lockfile) {
    key(out, 0, "lockfileVersion");
    scalar_value(out, &lf.lockfile_version, 0);
    if let Some(settings) = &lf.settings {
        section(out, "settings");
        write_settings(out, settings);
    }
    if let Some(catalogs) = &lf.catalogs {
        section(out, "catalogs");
        if catalogs.is_empty() {
            out.truncate(out.len() - 1);
            out.push_str(" {}\n");
        }
        for (name, entries) in catalogs {
            key(out, 2, name);
            write_resolved_deps(out, 4, entries);
        }
    }
    if let Some(overrides) = &lf.overrides {
        section(out, "overrides");
        string_map(out, 2, overrides.iter());
    }
    if let Some(v) = &lf.package_extensions_checksum {
        blank(out);
        key(out, 0, "packageExtensionsChecksum");
        scalar_value(out, v, 0);
    }
    if let Some(v) = &lf.pnpmfile_checksum {
        blank(out);
        key(out, 0, "pnpmfileChecksum");
        scalar_value(out, v, 0);
    }
    if lf.patched_dependencies.is_some() {
        // pnpm 10's `{hash, path}` entries are written as the hash alone,
        // as pnpm 12 rewrites them (docs/lockfile.md §9.1).
        section(out, "patchedDependencies");
        for (selector, hash) in crate::patch_hashes(lf) {
            key(out, 2, &selector);
            write_block_value(out, 2, &serde_json::Value::String(hash));
        }
    }
    spaced_section(out, "importers", lf.importers.iter(), |out, k, importer| {
        key(out, 2, k);
        write_importer(out, importer);
    });
    if !lf.packages.is_empty() {
        spaced_section(out, "packages", lf.packages.iter(), |out, k, pkg| {
            key(out, 2, k.as_str());
            write_package(out, pkg);
        });
    } else if lf.empty_maps_written {
        blank(out);
        out.push_str("packages: {}\n");
    }
    if let Some(ignored) = &lf.ignored_optional_dependencies {
        section(out, "ignoredOptionalDependencies");
        block_list(out, 0, ignored);
    }
    if !lf.snapshots.is_empty() {
        spaced_section(out, "snapshots", lf.snapshots.iter(), |out, k, snapshot| {
            key(out, 2, k.as_str());
            write_snapshot(out, snapshot);
        });
    } else if lf.empty_maps_written {
        blank(out);
        out.push_str("snapshots: {}\n");
    }
    if let Some(time) = &lf.time {
        section(out, "time");
        string_map(out, 2, time.iter());
    }
}

fn blank(out: &mut String) {
    out.push('\n');
}

/// A top-level key whose block content follows on the next lines.
fn section(out: &mut String, name: &str) {
    blank(out);
    key(out, 0, name);
    out.push('\n');
}

/// `importers`/`packages`/`snapshots`: a blank line after the header and
/// after every entry.
fn spaced_section<'a, K: 'a, V: 'a>(
    out: &mut String,
    name: &str,
    entries: impl ExactSizeIterator<Item = (&'a K, &'a V)>,
    mut write: impl FnMut(&mut String, &'a K, &'a V),
) {
    blank(out);
    key(out, 0, name);
    if entries.len() == 0 {
        out.push_str(" {}\n");
        return;
    }
    out.push('\n');
    for (k, v) in entries {
        blank(out);
        write(out, k, v);
    }
}

/// Writes `<indent>key:` without the line end.
fn key(out: &mut String, indent: usize, k: &str) {
    out.extend(std::iter::repeat_n(' ', indent));
    write_str(out, k, Ctx::Key, indent);
    out.push(':');
}

/// ` value\n` after a key at `indent`.
fn scalar_value(out: &mut String, v: &str, indent: usize) {
    out.push(' ');
    write_str(out, v, Ctx::Block, indent);
    out.push('\n');
}

fn bool_value(out: &mut String, v: bool) {
    out.push_str(if v { " true\n" } else { " false\n" });
}

fn string_map<'a, K: AsRef<str> + 'a, V: AsRef<str> + 'a>(
    out: &mut String,
    indent: usize,
    entries: impl Iterator<Item = (&'a K, &'a V)>,
) {
    for (k, v) in entries {
        key(out, indent, k.as_ref());
        scalar_value(out, v.as_ref(), indent);
    }
}

/// A block mapping under a key already written (without its line end).
fn map_value<'a, K: AsRef<str> + 'a, V: AsRef<str> + 'a>(
    out: &mut String,
    indent: usize,
    entries: impl ExactSizeIterator<Item = (&'a K, &'a V)>,
) {
    if entries.len() == 0 {
        out.push_str(" {}\n");
        return;
    }
    out.push('\n');
    string_map(out, indent + 2, entries);
}

/// A block sequence under a key already written (without its line end).
fn block_list(out: &mut String, indent: usize, items: &[String]) {
    if items.is_empty() {
        out.truncate(out.len() - 1);
        out.push_str(" []\n");
        return;
    }
    for item in items {
        out.extend(std::iter::repeat_n(' ', indent + 2));
        out.push_str("- ");
        write_str(out, item, Ctx::Block, indent + 2);
        out.push('\n');
    }
}

fn flow_list(out: &mut String, items: &[String]) {
    out.push_str(" [");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_str(out, item, Ctx::Flow, 0);
    }
    out.push_str("]\n");
}

/// `{a: b, c: d}` with keys sorted, as pnpm writes `engines`.
fn flow_string_map(out: &mut String, map: &IndexMap<String, String>) {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    out.push_str(" {");
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_str(out, k, Ctx::Flow, 0);
        out.push_str(": ");
        write_str(out, v, Ctx::Flow, 0);
    }
    out.push_str("}\n");
}

fn write_settings(out: &mut String, s: &LockfileSettings) {
    // pnpm sorts these keys.
    let bools = [
        ("autoInstallPeers", s.auto_install_peers),
        ("dedupePeers", s.dedupe_peers),
        ("excludeLinksFromLockfile", s.exclude_links_from_lockfile),
        ("injectWorkspacePackages", s.inject_workspace_packages),
    ];
    for (name, value) in bools {
        if let Some(v) = value {
            key(out, 2, name);
            bool_value(out, v);
        }
    }
    if let Some(target) = &s.integrity_target {
        key(out, 2, "integrityTarget");
        out.push(' ');
        write_str(out, target, Ctx::Block, 2);
        out.push('\n');
    }
    if let Some(n) = s.peers_suffix_max_length {
        key(out, 2, "peersSuffixMaxLength");
        out.push(' ');
        out.push_str(&n.to_string());
        out.push('\n');
    }
}

fn write_resolved_deps(
    out: &mut String,
    indent: usize,
    deps: &BTreeMap<String, ResolvedDependency>,
) {
    if deps.is_empty() {
        out.push_str(" {}\n");
        return;
    }
    out.push('\n');
    for (alias, dep) in deps {
        key(out, indent, alias);
        out.push('\n');
        key(out, indent + 2, "specifier");
        scalar_value(out, &dep.specifier, indent + 2);
        key(out, indent + 2, "version");
        scalar_value(out, &dep.version, indent + 2);
    }
}

fn write_importer(out: &mut String, imp: &Importer) {
    // Keys in lexical order, as pnpm sorts importer fields.
    let groups = [
        ("configDependencies", &imp.config_dependencies),
        ("dependencies", &imp.dependencies),
    ];
    let later = [
        ("devDependencies", &imp.dev_dependencies),
        ("optionalDependencies", &imp.optional_dependencies),
        (
            "packageManagerDependencies",
            &imp.package_manager_dependencies,
        ),
    ];
    let before = out.len();
    out.push('\n');
    for (name, deps) in groups {
        if let Some(deps) = deps {
            key(out, 4, name);
            write_resolved_deps(out, 6, deps);
        }
    }
    if let Some(meta) = &imp.dependencies_meta {
        key(out, 4, "dependenciesMeta");
        write_block_value(out, 4, meta);
    }
    for (name, deps) in later {
        if let Some(deps) = deps {
            key(out, 4, name);
            write_resolved_deps(out, 6, deps);
        }
    }
    if let Some(link) = imp.link_directory {
        key(out, 4, "linkDirectory");
        out.push_str(&format!(" {link}\n"));
    }
    if let Some(dir) = &imp.publish_directory {
        key(out, 4, "publishDirectory");
        scalar_value(out, dir, 4);
    }
    if out.len() == before + 1 {
        out.truncate(before);
        out.push_str(" {}\n");
    }
}

fn write_resolution(out: &mut String, r: &Resolution) {
    // The common case needs no sorting or allocation.
    if let Resolution::Registry { integrity } = r {
        out.push_str(" {integrity: ");
        write_str(out, integrity, Ctx::Flow, 0);
        out.push_str("}\n");
        return;
    }
    let mut map = r.fields();
    map.sort_by(|a, b| json::compare_keys(a.0, b.0));
    out.push_str(" {");
    for (i, (k, v)) in map.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_str(out, k, Ctx::Flow, 0);
        out.push_str(": ");
        match v {
            ResolutionValue::Str(s) => write_str(out, s, Ctx::Flow, 0),
            ResolutionValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            ResolutionValue::Json(v) => write_flow_value(out, v),
        }
    }
    out.push_str("}\n");
}

fn write_package(out: &mut String, p: &PackageInfo) {
    out.push('\n');
    key(out, 4, "resolution");
    write_resolution(out, &p.resolution);
    for (name, value) in [("id", &p.id), ("name", &p.name), ("version", &p.version)] {
        if let Some(v) = value {
            key(out, 4, name);
            scalar_value(out, v, 4);
        }
    }
    if let Some(engines) = &p.engines {
        key(out, 4, "engines");
        flow_string_map(out, engines);
    }
    for (name, value) in [("cpu", &p.cpu), ("os", &p.os)] {
        if let Some(v) = value {
            key(out, 4, name);
            flow_list(out, v);
        }
    }
    if let Some(libc) = &p.libc {
        key(out, 4, "libc");
        match libc.values.as_slice() {
            [one] if libc.scalar => scalar_value(out, one, 4),
            values => flow_list(out, values),
        }
    }
    if let Some(v) = &p.deprecated {
        key(out, 4, "deprecated");
        scalar_value(out, v, 4);
    }
    for (name, value) in [
        ("hasBin", p.has_bin),
        ("prepare", p.prepare),
        ("requiresBuild", p.requires_build),
    ] {
        if let Some(v) = value {
            key(out, 4, name);
            bool_value(out, v);
        }
    }
    if let Some(v) = &p.bundled_dependencies {
        key(out, 4, "bundledDependencies");
        write_block_value(out, 4, v);
    }
    if let Some(peers) = &p.peer_dependencies {
        let mut sorted: Vec<_> = peers.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        key(out, 4, "peerDependencies");
        map_value(out, 4, sorted.into_iter());
    }
    if let Some(meta) = &p.peer_dependencies_meta {
        let map: serde_json::Map<String, serde_json::Value> =
            meta.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        key(out, 4, "peerDependenciesMeta");
        write_block_value(out, 4, &serde_json::Value::Object(map));
    }
    write_edges(
        out,
        &p.dependencies,
        &p.optional_dependencies,
        &p.transitive_peer_dependencies,
    );
    for (name, value) in [
        ("dev", p.dev),
        ("optional", p.optional),
        ("patched", p.patched),
    ] {
        if let Some(v) = value {
            key(out, 4, name);
            bool_value(out, v);
        }
    }
}

fn write_edges(
    out: &mut String,
    deps: &Option<BTreeMap<String, String>>,
    optional: &Option<BTreeMap<String, String>>,
    transitive: &Option<Vec<String>>,
) {
    for (name, value) in [("dependencies", deps), ("optionalDependencies", optional)] {
        if let Some(map) = value {
            key(out, 4, name);
            map_value(out, 4, map.iter());
        }
    }
    if let Some(list) = transitive {
        key(out, 4, "transitivePeerDependencies");
        out.push('\n');
        block_list(out, 4, list);
    }
}

fn write_snapshot(out: &mut String, s: &Snapshot) {
    let before = out.len();
    out.push('\n');
    if let Some(id) = &s.id {
        key(out, 4, "id");
        scalar_value(out, id, 4);
    }
    write_edges(
        out,
        &s.dependencies,
        &s.optional_dependencies,
        &s.transitive_peer_dependencies,
    );
    for (name, value) in [("optional", s.optional), ("patched", s.patched)] {
        if let Some(v) = value {
            key(out, 4, name);
            bool_value(out, v);
        }
    }
    if out.len() == before + 1 {
        out.truncate(before);
        out.push_str(" {}\n");
    }
}

#[cfg(test)]
mod tests;
