//! The planner against lockfiles installed by pnpm 12.21 (recorded under
//! `tests/fixtures/<name>`: `modules.json` is pnpm's `.modules.yaml`,
//! `symlinks.txt` every symlink of pnpm's tree).

use std::{collections::HashSet, path::Path};

use pacquet_lockfile::Lockfile;
use pretty_assertions::assert_eq;

use super::host;
use crate::{HoistTarget, Plan, PlanOptions, SupportedArchitectures, plan};

fn fixture(name: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn registry_url(name: &str, version: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or(name);
    format!("https://registry.npmjs.org/{name}/-/{file}-{version}.tgz")
}

fn plan_fixture(name: &str, supported: SupportedArchitectures) -> Plan {
    let text = fixture(name, "pnpm-lock.yaml");
    let lockfile = Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).expect("lockfile parses");
    let mut opts = PlanOptions::new(host(), &registry_url);
    opts.supported_architectures = supported;
    plan(&lockfile, &opts).expect("plan succeeds")
}

fn alotta_archs() -> SupportedArchitectures {
    let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    SupportedArchitectures {
        os: list(&["darwin", "linux", "win32"]),
        cpu: list(&["x64", "arm64"]),
        libc: list(&["glibc", "musl"]),
    }
}

fn symlink_listing(plan: &Plan) -> Vec<String> {
    let mut lines: Vec<String> = plan
        .symlinks
        .iter()
        .map(|l| format!("{} -> {}", l.path, l.target))
        .collect();
    lines.sort();
    lines
}

fn recorded_symlinks(name: &str) -> Vec<String> {
    let mut lines: Vec<String> = fixture(name, "symlinks.txt")
        .lines()
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

/// Records grouped by key at the key's first position, as a JSON object
/// keeps them.
fn hoisted_listing(plan: &Plan) -> Vec<(String, String, String)> {
    let mut groups: indexmap::IndexMap<String, Vec<(String, String, String)>> =
        indexmap::IndexMap::new();
    for record in flat_hoisted(plan) {
        groups.entry(record.0.clone()).or_default().push(record);
    }
    groups.into_values().flatten().collect()
}

fn flat_hoisted(plan: &Plan) -> Vec<(String, String, String)> {
    plan.hoisted
        .iter()
        .map(|h| {
            let key = match &h.target {
                HoistTarget::Slot(i) => plan.slots[*i].dep_path.to_string(),
                HoistTarget::Importer(id) => id.clone(),
            };
            (key, h.alias.clone(), h.kind.as_str().to_owned())
        })
        .collect()
}

fn recorded_hoisted(name: &str) -> Vec<(String, String, String)> {
    let doc: serde_json::Value = serde_json::from_str(&fixture(name, "modules.json")).unwrap();
    let mut out = Vec::new();
    for (key, aliases) in doc["hoistedDependencies"].as_object().unwrap() {
        for (alias, kind) in aliases.as_object().unwrap() {
            out.push((
                key.clone(),
                alias.clone(),
                kind.as_str().unwrap().to_owned(),
            ));
        }
    }
    out
}

fn recorded_skipped(name: &str) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(&fixture(name, "modules.json")).unwrap();
    doc["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn assert_no_duplicates(plan: &Plan) {
    let dirs: HashSet<&str> = plan.dirs.iter().map(String::as_str).collect();
    assert_eq!(dirs.len(), plan.dirs.len(), "duplicate dirs");
    let links: HashSet<&str> = plan.symlinks.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(links.len(), plan.symlinks.len(), "duplicate links");
    assert!(
        links.iter().all(|l| !dirs.contains(l)),
        "a link path is also a dir"
    );
    let slot_dirs: HashSet<&str> = plan.slots.iter().map(|s| s.dir_name.as_str()).collect();
    assert_eq!(slot_dirs.len(), plan.slots.len(), "duplicate slot dirs");
}

fn assert_parents_first(plan: &Plan) {
    // Project directories exist already and are not listed.
    let mut created: HashSet<&str> = plan.importers.iter().map(|i| i.dir.as_str()).collect();
    created.insert("packages");
    for dir in &plan.dirs {
        if let Some((parent, _)) = dir.rsplit_once('/') {
            assert!(created.contains(parent), "{dir} before its parent");
        }
        created.insert(dir);
    }
    for link in &plan.symlinks {
        let (parent, _) = link.path.rsplit_once('/').unwrap();
        assert!(created.contains(parent), "no dir for {}", link.path);
    }
    for slot in &plan.slots {
        let (parent, _) = slot.package_dir.rsplit_once('/').unwrap();
        assert!(created.contains(parent), "no dir for {}", slot.package_dir);
    }
}

#[test]
fn small_matches_pnpm() {
    let plan = plan_fixture("small", SupportedArchitectures::default());
    assert_eq!(symlink_listing(&plan), recorded_symlinks("small"));
    assert_eq!(hoisted_listing(&plan), recorded_hoisted("small"));
    assert_eq!(plan.skipped, recorded_skipped("small"));
    assert_no_duplicates(&plan);
    assert_parents_first(&plan);
    assert_eq!(plan.slots.len(), 115);
}

#[test]
fn alotta_matches_pnpm() {
    let plan = plan_fixture("alotta", alotta_archs());
    assert_eq!(symlink_listing(&plan), recorded_symlinks("alotta"));
    assert_eq!(hoisted_listing(&plan), recorded_hoisted("alotta"));
    assert_eq!(plan.skipped, recorded_skipped("alotta"));
    assert_no_duplicates(&plan);
    assert_parents_first(&plan);
}

#[test]
fn registry_slots_have_urls_and_store_keys() {
    let plan = plan_fixture("small", SupportedArchitectures::default());
    let chalk = plan
        .slots
        .iter()
        .find(|s| s.dep_path.as_str() == "chalk@6.0.1")
        .unwrap();
    assert_eq!(
        chalk.package_dir,
        "node_modules/.pnpm/chalk@6.0.1/node_modules/chalk"
    );
    let crate::FetchSource::Registry { url, integrity } = &chalk.fetch else {
        panic!("registry source expected: {:?}", chalk.fetch);
    };
    assert_eq!(url, "https://registry.npmjs.org/chalk/-/chalk-6.0.1.tgz");
    assert_eq!(
        chalk.store_key.as_deref(),
        Some(format!("{integrity}\tchalk@6.0.1").as_str())
    );
    let ts = plan
        .slots
        .iter()
        .find(|s| s.dep_path.as_str() == "@typescript/typescript-linux-x64@7.0.2")
        .unwrap();
    assert!(ts.optional);
}

fn plan_workspace() -> Plan {
    let text = fixture("workspace", "pnpm-lock.yaml");
    let lockfile = Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).expect("lockfile parses");
    let mut opts = PlanOptions::new(host(), &registry_url);
    opts.importers = vec![
        crate::ImporterSelection::new(".", Some("ws-root")),
        crate::ImporterSelection::new("packages/a", Some("a")),
        crate::ImporterSelection::new("packages/b", Some("b")),
    ];
    plan(&lockfile, &opts).expect("plan succeeds")
}

/// Workspace projects, `link:` deps, npm aliases, peers, scoped packages and
/// a skipped optional dependency, against pnpm 12.21's tree.
#[test]
fn workspace_matches_pnpm() {
    let plan = plan_workspace();
    assert_eq!(symlink_listing(&plan), recorded_symlinks("workspace"));
    assert_eq!(hoisted_listing(&plan), recorded_hoisted("workspace"));
    assert_eq!(plan.skipped, recorded_skipped("workspace"));
    assert_eq!(plan.skipped, vec!["fsevents@2.3.3".to_owned()]);
    assert_no_duplicates(&plan);
    assert_parents_first(&plan);
}

#[test]
fn workspace_direct_deps_per_importer() {
    use crate::{DirectTarget, HoistKind};
    use pacquet_lockfile::DependencyGroup;
    let plan = plan_workspace();
    let root = &plan.importers[0];
    let aliases: Vec<(&str, DependencyGroup)> = root
        .direct
        .iter()
        .map(|d| (d.alias.as_str(), d.group))
        .collect();
    // fsevents is skipped, so it is no direct dep.
    assert_eq!(
        aliases,
        vec![
            ("a", DependencyGroup::Prod),
            ("is-number", DependencyGroup::Prod),
            ("ms-alias", DependencyGroup::Prod),
            ("react", DependencyGroup::Dev),
            ("use-sync-external-store", DependencyGroup::Dev),
        ]
    );
    assert_eq!(
        root.direct[0].target,
        DirectTarget::Link("packages/a".into())
    );
    let DirectTarget::Slot(ms) = root.direct[2].target else {
        panic!()
    };
    assert_eq!(plan.slots[ms].dep_path.as_str(), "ms@2.1.3");
    let b = &plan.importers[2];
    assert_eq!(b.dir, "packages/b");
    assert_eq!(b.direct[1].target, DirectTarget::Link("localdir".into()));
    assert!(plan.hoisted.iter().all(|h| h.kind == HoistKind::Private));
    assert!(plan.dirs.contains(&"packages/a/node_modules".to_owned()));
    assert!(!plan.dirs.contains(&"packages/a".to_owned()));
}

/// pnpm 12.21 still skips an optional package whose lockfile entry lost its
/// `os`/`cpu` fields: they are inferred from the name.
#[test]
fn optional_platform_inferred_without_fields() {
    let text = fixture("small", "pnpm-lock.yaml");
    let entry = "'@typescript/typescript-darwin-arm64@7.0.2':\n    resolution: {integrity: sha512-gowzar9MwS/aRWp6f3a4KUqzRjAZjOsmGNCM6LcTgXum+dBfgsBVMN+AgvOCCbguXyick6LJhpBszxMebJ8syA==}\n    engines: {node: '>=16.20.0'}\n";
    let fields = "    cpu: [arm64]\n    os: [darwin]\n";
    let with_fields = format!("{entry}{fields}");
    assert!(text.contains(&with_fields));
    let text = text.replace(&with_fields, entry);
    let lockfile = Lockfile::parse(&text, Path::new("pnpm-lock.yaml")).unwrap();
    let opts = PlanOptions::new(host(), &registry_url);
    let plan = plan(&lockfile, &opts).unwrap();
    assert_eq!(plan.skipped, recorded_skipped("small"));
}
