//! A loopback npm registry for tests.
//!
//! [`Registry::start`] packs the fixture packages, binds `127.0.0.1:0` with a
//! listen backlog of 1024 and serves HTTP/1.1 (keep-alive, pipelining) from
//! its own thread and tokio runtime, so sync and async tests can use it alike.
//! Dropping the [`Registry`] stops it. Routes (after `%XX` decoding, so
//! `/@pq%2ffoo` and `/@pq/foo` are the same):
//!
//! * `GET /<name>` → packument JSON (`name`, `dist-tags.latest`,
//!   `versions.<v>` = manifest + `dist {tarball, integrity, shasum}`, `time`)
//! * `GET /<name>/-/<file>.tgz` → tarball bytes
//!
//! Packuments carry an `ETag` and are answered `304 Not Modified` when the
//! client sends it back in `If-None-Match`.
//!
//! [`Registry::patch_packument`] changes what a packument says (publish
//! times, trust evidence). Every request is counted by decoded path (see [`Registry::request_count`])
//! and can be made to fail with [`Registry::fail_next`].

mod fault;
pub(crate) mod http;
mod server;
mod source;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub use fault::Fault;
use source::Source;

use crate::fixtures::PackageSet;

/// State shared between the test and the server tasks.
pub(crate) struct Shared {
    source: Source,
    counts: Mutex<HashMap<String, usize>>,
    log: Mutex<Vec<String>>,
    /// `(path, Authorization header)` of every request, in arrival order.
    auth_log: Mutex<Vec<(String, Option<String>)>>,
    faults: Mutex<HashMap<String, VecDeque<Fault>>>,
    /// JSON merge patches (RFC 7386) applied to packuments, by name.
    overlays: Mutex<HashMap<String, serde_json::Value>>,
    /// Requests answered `304 Not Modified`.
    not_modified: std::sync::atomic::AtomicUsize,
    /// Extra JSON documents by decoded path (e.g. attestations).
    documents: Mutex<HashMap<String, Vec<u8>>>,
}

impl Shared {
    /// Records a request for decoded `path` (and the `Authorization` header
    /// it carried) and takes its next fault.
    fn record(&self, path: &str, authorization: Option<&str>) -> Option<Fault> {
        self.auth_log
            .lock()
            .unwrap()
            .push((path.to_string(), authorization.map(str::to_string)));
        *self
            .counts
            .lock()
            .unwrap()
            .entry(path.to_string())
            .or_default() += 1;
        self.log.lock().unwrap().push(path.to_string());
        self.faults
            .lock()
            .unwrap()
            .get_mut(path)
            .and_then(VecDeque::pop_front)
    }

    /// The response for decoded `path`, with its packument overlay applied.
    fn respond(&self, path: &str) -> http::Response {
        if let Some(body) = self.documents.lock().unwrap().get(path) {
            return http::Response::new(200, "application/json", body.clone());
        }
        let mut resp = self.source.respond(path);
        let overlays = self.overlays.lock().unwrap();
        if resp.status == 200
            && let Some(patch) = overlays.get(path)
            && let Ok(mut doc) = serde_json::from_slice::<serde_json::Value>(&resp.body)
        {
            crate::merge_patch::apply(&mut doc, patch);
            resp.body = serde_json::to_vec(&doc).expect("json");
            resp.etag = None;
        }
        if resp.status == 200 && resp.content_type == "application/json" && resp.etag.is_none() {
            resp.etag = Some(source::etag_of(&resp.body));
        }
        resp
    }

    /// `304 Not Modified` when the request's `If-None-Match` is `resp`'s
    /// ETag (packuments only).
    fn revalidate(&self, resp: http::Response, if_none_match: Option<&str>) -> http::Response {
        if resp.etag.is_some() && resp.etag.as_deref() == if_none_match {
            self.not_modified
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut not_modified = http::Response::new(304, resp.content_type, Vec::new());
            not_modified.etag = resp.etag;
            return not_modified;
        }
        resp
    }
}

/// A running loopback registry; stops on drop.
pub struct Registry {
    addr: SocketAddr,
    shared: Arc<Shared>,
    packages: Option<PackageSet>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Registry {
    /// Serves the fixture packages under `packages_dir` on a free port.
    pub fn start(packages_dir: impl AsRef<Path>) -> Registry {
        Registry::start_on_port(packages_dir, 0)
    }

    /// Serves `crates/testing/packages`.
    pub fn start_fixtures() -> Registry {
        Registry::start(crate::paths::packages_dir())
    }

    /// Like [`Registry::start`] on a chosen port (0 = any).
    pub fn start_on_port(packages_dir: impl AsRef<Path>, port: u16) -> Registry {
        let set = PackageSet::load(packages_dir.as_ref());
        let listener = server::bind(port);
        let addr = listener.local_addr().expect("local addr");
        let source = Source::fixtures(&set, &url_of(addr));
        Registry::launch(listener, source, Some(set))
    }

    /// Serves a directory mirror (`<dir>/<name>/-/<file>.tgz`) on a free port.
    pub fn start_mirror(dir: impl Into<PathBuf>) -> Registry {
        Registry::start_mirror_on_port(dir, 0)
    }

    /// Like [`Registry::start_mirror`] on a chosen port (0 = any).
    pub fn start_mirror_on_port(dir: impl Into<PathBuf>, port: u16) -> Registry {
        let listener = server::bind(port);
        let url = url_of(listener.local_addr().expect("local addr"));
        let source = Source::Mirror {
            dir: dir.into(),
            url,
            documents: Default::default(),
        };
        Registry::launch(listener, source, None)
    }

    fn launch(
        listener: std::net::TcpListener,
        source: Source,
        packages: Option<PackageSet>,
    ) -> Registry {
        let addr = listener.local_addr().expect("local addr");
        let shared = Arc::new(Shared {
            source,
            counts: Mutex::default(),
            log: Mutex::default(),
            auth_log: Mutex::default(),
            faults: Mutex::default(),
            overlays: Mutex::default(),
            not_modified: Default::default(),
            documents: Mutex::default(),
        });
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name(format!("test-registry-{}", addr.port()))
            .spawn(move || server::run(listener, thread_shared, stopped))
            .expect("spawn registry thread");
        Registry {
            addr,
            shared,
            packages,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        url_of(self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The served fixture packages (`None` in mirror mode).
    pub fn packages(&self) -> Option<&PackageSet> {
        self.packages.as_ref()
    }

    /// Full tarball URL of `name@version` on this registry.
    pub fn tarball_url(&self, name: &str, version: &str) -> String {
        format!(
            "{}{}",
            self.url(),
            crate::fixtures::tarball_path(name, version)
        )
    }

    /// URL of `name@version`'s tarball outside the registry layout, which
    /// lockfiles record as a remote tarball.
    pub fn archive_url(&self, name: &str, version: &str) -> String {
        format!("{}{}", self.url(), source::archive_path(name, version))
    }

    /// Codeload-style (git-hosted archive) URL of `name@version`'s tarball.
    pub fn codeload_url(&self, name: &str, version: &str) -> String {
        format!("{}{}", self.url(), source::codeload_path(name, version))
    }

    /// Number of requests seen for `path` (decoded, with or without the
    /// leading `/`, e.g. `@pq/a/-/a-1.0.0.tgz` or `/@pq/a`).
    pub fn request_count(&self, path: &str) -> usize {
        let key = normalize(path);
        self.shared
            .counts
            .lock()
            .unwrap()
            .get(&key)
            .copied()
            .unwrap_or(0)
    }

    /// Number of requests seen for the tarball of `name@version`.
    pub fn tarball_requests(&self, name: &str, version: &str) -> usize {
        self.request_count(&crate::fixtures::tarball_path(name, version))
    }

    /// All request paths (decoded, without leading `/`) in arrival order.
    pub fn requests(&self) -> Vec<String> {
        self.shared.log.lock().unwrap().clone()
    }

    /// `(path, Authorization header)` of every request in arrival order
    /// (decoded paths without leading `/`; `None` when the header was absent).
    pub fn authorizations(&self) -> Vec<(String, Option<String>)> {
        self.shared.auth_log.lock().unwrap().clone()
    }

    /// Request counts by path.
    pub fn request_counts(&self) -> HashMap<String, usize> {
        self.shared.counts.lock().unwrap().clone()
    }

    /// Serves `doc` at decoded `path` (without the leading `/`), e.g. the
    /// attestations of a version at `-/npm/v1/attestations/<name>@<version>`.
    pub fn serve_json(&self, path: &str, doc: &serde_json::Value) {
        self.shared
            .documents
            .lock()
            .unwrap()
            .insert(path.to_string(), serde_json::to_vec(doc).expect("json"));
    }

    /// Requests answered `304 Not Modified` (a packument whose ETag the
    /// client sent back).
    pub fn not_modified_count(&self) -> usize {
        self.shared
            .not_modified
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Total number of requests.
    pub fn total_requests(&self) -> usize {
        self.shared.log.lock().unwrap().len()
    }

    /// Forgets all counted requests.
    pub fn reset_requests(&self) {
        self.shared.counts.lock().unwrap().clear();
        self.shared.log.lock().unwrap().clear();
        self.shared.auth_log.lock().unwrap().clear();
    }

    /// Makes the next request for `path` hit `fault`. Calls queue up: two
    /// calls fail the next two requests.
    pub fn fail_next(&self, path: &str, fault: Fault) {
        self.shared
            .faults
            .lock()
            .unwrap()
            .entry(normalize(path))
            .or_default()
            .push_back(fault);
    }

    /// Merges `patch` (a JSON merge patch, RFC 7386: `null` deletes) into
    /// the packument of `name` from now on, on top of earlier patches; how
    /// tests give versions a publish `time` or trust evidence.
    pub fn patch_packument(&self, name: &str, patch: serde_json::Value) {
        let mut overlays = self.shared.overlays.lock().unwrap();
        let slot = overlays
            .entry(normalize(name))
            .or_insert_with(|| serde_json::json!({}));
        crate::merge_patch::merge_patches(slot, patch);
    }

    /// Drops all pending faults.
    pub fn clear_faults(&self) {
        self.shared.faults.lock().unwrap().clear();
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn url_of(addr: SocketAddr) -> String {
    format!("http://{addr}/")
}

/// Decoded path without scheme and host (absolute-form targets), leading
/// `/` or query.
pub(crate) fn normalize(path: &str) -> String {
    let path = match path.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None => path,
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    http::percent_decode(path)
        .trim_start_matches('/')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn normalizes_request_targets() {
        assert_eq!(normalize("/@pq%2fplain"), "@pq/plain");
        assert_eq!(
            normalize("@pq/plain/-/plain-1.0.0.tgz"),
            "@pq/plain/-/plain-1.0.0.tgz"
        );
        assert_eq!(normalize("/pq-plain?write=true"), "pq-plain");
        assert_eq!(normalize("http://127.0.0.1:1/pq-plain"), "pq-plain");
    }
}
