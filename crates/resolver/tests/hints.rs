//! A package's dependencies are named to the metadata source as soon as
//! the package is picked, not once its whole level is: their documents
//! are requested while the rest of the level still waits for its own.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pacquet_lockfile::ProjectManifest;
use pacquet_resolver::packument::Packument;
use pacquet_resolver::{ImporterInput, Metadata, ResolveError, resolve};
use serde_json::json;
use tokio::sync::watch;

mod support;

/// Documents in memory; `b`'s is given only once `c` has been hinted.
struct HeldBack {
    packuments: HashMap<String, Arc<Packument>>,
    hinted: Mutex<Vec<String>>,
    c_hinted: watch::Sender<bool>,
}

impl Metadata for HeldBack {
    async fn packument(&self, name: &str) -> Result<Arc<Packument>, ResolveError> {
        if name == "b" {
            let mut seen = self.c_hinted.subscribe();
            seen.wait_for(|hinted| *hinted).await.expect("sender kept");
        }
        Ok(Arc::clone(&self.packuments[name]))
    }

    fn registry(&self, _name: &str) -> String {
        "http://registry.test/".to_owned()
    }

    fn hint(&self, name: &str) {
        self.hinted.lock().unwrap().push(name.to_owned());
        if name == "c" {
            self.c_hinted.send_replace(true);
        }
    }
}

fn packument(name: &str, dependencies: serde_json::Value) -> Arc<Packument> {
    let document = json!({
        "name": name,
        "dist-tags": {"latest": "1.0.0"},
        "versions": {"1.0.0": {
            "name": name,
            "version": "1.0.0",
            "dependencies": dependencies,
            "dist": {
                "tarball": format!("http://registry.test/{name}/-/{name}-1.0.0.tgz"),
                "integrity": "sha512-AAAA"
            }
        }}
    });
    Arc::new(Packument::parse(serde_json::to_vec(&document).unwrap()).unwrap())
}

#[tokio::test]
async fn a_picked_package_names_its_dependencies_before_its_level_is_done() {
    let metadata = HeldBack {
        packuments: [
            ("a", packument("a", json!({"c": "^1.0.0"}))),
            ("b", packument("b", json!({}))),
            ("c", packument("c", json!({}))),
        ]
        .into_iter()
        .map(|(name, p)| (name.to_owned(), p))
        .collect(),
        hinted: Mutex::default(),
        c_hinted: watch::Sender::new(false),
    };
    let manifest = ProjectManifest::from_value(&json!({
        "dependencies": {"a": "^1.0.0", "b": "^1.0.0"}
    }));
    let registry_for = |_: &str| "http://registry.test/".to_owned();
    let opts = support::options(&registry_for);
    let importers = [ImporterInput {
        id: ".",
        manifest: &manifest,
    }];
    // Naming `c` only after the level (`a` and `b`) is picked would wait
    // for `b` forever.
    let resolved = tokio::time::timeout(
        Duration::from_secs(10),
        resolve(&importers, &metadata, &opts),
    )
    .await
    .expect("`c` was not named before `b` was needed")
    .expect("resolves");
    let packages: Vec<String> = resolved
        .lockfile
        .packages
        .keys()
        .map(ToString::to_string)
        .collect();
    assert_eq!(packages, ["a@1.0.0", "b@1.0.0", "c@1.0.0"]);
    assert_eq!(
        metadata.hinted.lock().unwrap().first().map(String::as_str),
        Some("c")
    );
}
