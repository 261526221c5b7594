//! The fixture package set: `packages/<name>/<version>/` sources, packed.
//!
//! `<name>` is `pq-foo` or, for scoped packages, `@pq/foo` (two directory
//! levels). Each version directory is the package root and must hold a
//! `package.json` whose `name`/`version` match the directory.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use sha1::Sha1;
use sha2::{Digest, Sha512};

/// One packed fixture package version.
#[derive(Debug, Clone)]
pub struct FixturePackage {
    pub name: String,
    pub version: String,
    /// The committed `package.json`.
    pub manifest: serde_json::Value,
    /// Deterministic `.tgz` bytes ([`crate::pack::pack_dir`]).
    pub tarball: Vec<u8>,
    /// `sha512-<base64>` of `tarball`.
    pub integrity: String,
    /// Hex SHA-1 of `tarball`.
    pub shasum: String,
    /// Source directory.
    pub source: PathBuf,
}

impl FixturePackage {
    /// `<name>/-/<bare name>-<version>.tgz`, the registry's tarball path
    /// (without leading `/`).
    pub fn tarball_path(&self) -> String {
        tarball_path(&self.name, &self.version)
    }
}

/// `<name>/-/<name without scope>-<version without +build>.tgz`.
pub fn tarball_path(name: &str, version: &str) -> String {
    let bare = name.rsplit('/').next().unwrap_or(name);
    let version = version.split('+').next().unwrap_or(version);
    format!("{name}/-/{bare}-{version}.tgz")
}

/// All fixture packages, by name then version.
#[derive(Debug, Clone, Default)]
pub struct PackageSet {
    packages: BTreeMap<String, BTreeMap<String, FixturePackage>>,
}

impl PackageSet {
    /// Loads and packs every package under `dir`. Panics on a malformed
    /// fixture (tests cannot do anything useful with one).
    pub fn load(dir: &Path) -> PackageSet {
        let mut set = PackageSet::default();
        for (name, name_dir) in package_dirs(dir) {
            for entry in read_sorted(&name_dir) {
                if entry.is_dir() {
                    set.insert(load_one(&name, &entry));
                }
            }
        }
        set
    }

    fn insert(&mut self, pkg: FixturePackage) {
        self.packages
            .entry(pkg.name.clone())
            .or_default()
            .insert(pkg.version.clone(), pkg);
    }

    /// Package names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.packages.keys().map(String::as_str)
    }

    /// All versions of `name`, keyed by version string.
    pub fn versions(&self, name: &str) -> Option<&BTreeMap<String, FixturePackage>> {
        self.packages.get(name)
    }

    /// One version.
    pub fn get(&self, name: &str, version: &str) -> Option<&FixturePackage> {
        self.packages.get(name)?.get(version)
    }

    /// Every package version.
    pub fn iter(&self) -> impl Iterator<Item = &FixturePackage> {
        self.packages.values().flat_map(|v| v.values())
    }
}

/// `(name, dir)` for every package directory, scoped ones included.
fn package_dirs(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for entry in read_sorted(dir) {
        let file_name = entry.file_name().unwrap().to_string_lossy().into_owned();
        if !entry.is_dir() {
            continue;
        }
        if file_name.starts_with('@') {
            for inner in read_sorted(&entry) {
                let bare = inner.file_name().unwrap().to_string_lossy().into_owned();
                out.push((format!("{file_name}/{bare}"), inner));
            }
        } else {
            out.push((file_name, entry));
        }
    }
    out
}

fn read_sorted(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    entries
}

fn load_one(name: &str, dir: &Path) -> FixturePackage {
    let manifest_path = dir.join("package.json");
    let text = fs::read_to_string(&manifest_path)
        .unwrap_or_else(|e| panic!("read {}: {e}", manifest_path.display()));
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("parse {}: {e}", manifest_path.display()));
    let version = dir.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        manifest["name"],
        name,
        "name in {}",
        manifest_path.display()
    );
    assert_eq!(
        manifest["version"],
        version.as_str(),
        "version in {}",
        manifest_path.display()
    );
    let tarball =
        crate::pack::pack_dir(dir).unwrap_or_else(|e| panic!("pack {}: {e}", dir.display()));
    FixturePackage {
        name: name.to_string(),
        version,
        manifest,
        integrity: sri_sha512(&tarball),
        shasum: sha1_hex(&tarball),
        tarball,
        source: dir.to_path_buf(),
    }
}

/// `sha512-<base64>` subresource-integrity string of `bytes`.
pub fn sri_sha512(bytes: &[u8]) -> String {
    let digest = Sha512::digest(bytes);
    format!(
        "sha512-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// Lowercase hex SHA-1 of `bytes`, for the legacy `dist.shasum` field.
fn sha1_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha1::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::sha1_hex;

    #[test]
    fn shasum_is_lowercase_hex_sha1() {
        // FIPS 180-4 example "abc".
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }
}
