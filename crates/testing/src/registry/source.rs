//! What the registry serves: packed fixtures or a directory mirror.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::fixtures::PackageSet;
use crate::registry::http::Response;

/// Content behind the registry.
pub enum Source {
    /// Fixture packages: packuments rendered for this registry's URL, and
    /// tarballs, keyed by decoded path without the leading `/`.
    Fixtures {
        packuments: HashMap<String, Vec<u8>>,
        tarballs: HashMap<String, Vec<u8>>,
    },
    /// A directory laid out as `<name>/-/<file>.tgz`; a packument is served
    /// from `<name>/index.json` when present, its npm registry tarball URLs
    /// pointing at this registry (`url`), so what resolves against it also
    /// downloads from it.
    Mirror { dir: PathBuf, url: String },
}

impl Source {
    /// Renders the fixture documents for a registry at `url`.
    pub fn fixtures(set: &PackageSet, url: &str) -> Source {
        let mut packuments = HashMap::new();
        let mut tarballs = HashMap::new();
        for name in set.names() {
            let versions = set.versions(name).expect("listed name");
            let doc = crate::packument::packument(name, versions.values(), url);
            packuments.insert(name.to_string(), serde_json::to_vec(&doc).expect("json"));
            for pkg in versions.values() {
                tarballs.insert(pkg.tarball_path(), pkg.tarball.clone());
                // The same bytes at URLs pnpm does not take for registry
                // tarballs: a plain remote tarball and a codeload-style
                // git-hosted archive (crate README, "Extra routes").
                tarballs.insert(archive_path(&pkg.name, &pkg.version), pkg.tarball.clone());
                tarballs.insert(codeload_path(&pkg.name, &pkg.version), pkg.tarball.clone());
            }
        }
        Source::Fixtures {
            packuments,
            tarballs,
        }
    }

    /// The normal response for decoded `path` (without leading `/`).
    pub fn respond(&self, path: &str) -> Response {
        match self {
            Source::Fixtures {
                packuments,
                tarballs,
            } => {
                if let Some(body) = tarballs.get(path) {
                    Response::new(200, "application/octet-stream", body.clone())
                } else if let Some(body) = packuments.get(path) {
                    Response::new(200, "application/json", body.clone())
                } else {
                    not_found()
                }
            }
            Source::Mirror { dir, url } => mirror_file(dir, url, path),
        }
    }
}

/// `archive/<name>-<version>.tgz`: a remote tarball URL.
pub fn archive_path(name: &str, version: &str) -> String {
    format!("archive/{name}-{version}.tgz")
}

/// `codeload/<name>/tar.gz/<version>`: shaped like a GitHub archive URL.
pub fn codeload_path(name: &str, version: &str) -> String {
    format!("codeload/{name}/tar.gz/{version}")
}

fn not_found() -> Response {
    Response::new(
        404,
        "application/json",
        br#"{"error":"Not found"}"#.to_vec(),
    )
}

fn mirror_file(dir: &Path, url: &str, path: &str) -> Response {
    let rel = Path::new(path);
    let safe = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !safe || path.is_empty() {
        return not_found();
    }
    let full = dir.join(rel);
    let (file, content_type) = if full.is_dir() {
        (full.join("index.json"), "application/json")
    } else if path.ends_with(".json") {
        (full, "application/json")
    } else {
        (full, "application/octet-stream")
    };
    match std::fs::read(&file) {
        Ok(body) if content_type == "application/json" => {
            let text = String::from_utf8_lossy(&body)
                .replace("\"https://registry.npmjs.org/", &format!("\"{url}"));
            Response::new(200, content_type, text.into_bytes())
        }
        Ok(body) => Response::new(200, content_type, body),
        Err(_) => not_found(),
    }
}
