use pacquet_tarball::{Fetcher, FetcherOptions};

use super::{Metadata, Registries, RegistryMetadata};

const REGISTRY: &str = "http://127.0.0.1:9/";

struct OneRegistry;

impl Registries for OneRegistry {
    fn registry_for(&self, _name: &str) -> String {
        REGISTRY.to_owned()
    }
    fn authorization_for(&self, _url: &str, _name: &str) -> Option<String> {
        None
    }
}

fn mirror_dir(cache: &std::path::Path) -> std::path::PathBuf {
    let slug = pacquet_registry_metadata::path::registry_slug(REGISTRY).unwrap();
    cache
        .join(pacquet_registry_metadata::path::ABBREVIATED_DIR)
        .join(slug)
}

#[test]
fn a_registry_without_a_mirror_has_its_names_requested_at_once() {
    let cache = tempfile::tempdir().unwrap();
    let fetcher = Fetcher::new(FetcherOptions::default());
    let metadata = RegistryMetadata::new(&fetcher, Some(cache.path()), &OneRegistry, false, None)
        .with_kept_documents(true, |_| false);
    metadata.hint("a");
    // The first look decided: files appearing later are this
    // resolution's own.
    std::fs::create_dir_all(mirror_dir(cache.path())).unwrap();
    metadata.hint("b");
    assert_eq!(metadata.requests.waiting(), ["a", "b"]);
    assert!(metadata.read_ahead.waiting().is_empty());
}

#[test]
fn a_registry_with_a_mirror_has_its_kept_documents_looked_for_first() {
    let cache = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(mirror_dir(cache.path())).unwrap();
    let fetcher = Fetcher::new(FetcherOptions::default());
    let metadata = RegistryMetadata::new(&fetcher, Some(cache.path()), &OneRegistry, false, None)
        .with_kept_documents(true, |_| false);
    metadata.hint("a");
    assert_eq!(metadata.read_ahead.waiting(), ["a"]);
    assert!(metadata.requests.waiting().is_empty());
}
