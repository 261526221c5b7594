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
    Mirror {
        dir: PathBuf,
        url: String,
        /// Documents as served, while their file is unchanged.
        documents: DocumentCache,
    },
}

/// A served document by file path: the file's length and modification
/// time when it was read, the rewritten body and its ETag. Rewriting and
/// hashing every document again on every request cost this registry more
/// CPU than the resolving client it serves (alotta from a cold cache, 96 MB
/// of documents: `perf record -a`), on the same two cores.
pub type DocumentCache = std::sync::Mutex<HashMap<PathBuf, (u64, std::time::SystemTime, Response)>>;

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
            Source::Mirror {
                dir,
                url,
                documents,
            } => mirror_file(dir, url, path, documents),
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

/// The ETag this registry sends for a document's body.
pub fn etag_of(body: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body);
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

fn not_found() -> Response {
    Response::new(
        404,
        "application/json",
        br#"{"error":"Not found"}"#.to_vec(),
    )
}

fn mirror_file(dir: &Path, url: &str, path: &str, documents: &DocumentCache) -> Response {
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
    if content_type == "application/json" {
        let Ok(meta) = std::fs::metadata(&file) else {
            return not_found();
        };
        let stamp = (meta.len(), meta.modified().unwrap_or(std::time::UNIX_EPOCH));
        let mut documents = documents.lock().unwrap();
        if let Some((len, modified, resp)) = documents.get(&file)
            && (*len, *modified) == stamp
        {
            return resp.clone();
        }
        let Ok(body) = std::fs::read(&file) else {
            return not_found();
        };
        let text = String::from_utf8_lossy(&body)
            .replace("\"https://registry.npmjs.org/", &format!("\"{url}"));
        let mut resp = Response::new(200, content_type, text.into_bytes());
        resp.etag = Some(etag_of(&resp.body));
        documents.insert(file, (stamp.0, stamp.1, resp.clone()));
        return resp;
    }
    match std::fs::read(&file) {
        Ok(body) => Response::new(200, content_type, body),
        Err(_) => not_found(),
    }
}
