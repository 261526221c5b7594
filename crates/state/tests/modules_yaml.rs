//! `.modules.yaml` rendered from the planner's output equals what pnpm
//! 12.21 wrote for the same lockfile (recorded in the planner's fixtures:
//! `modules.json` is pnpm's `.modules.yaml`).

use std::path::Path;

use pacquet_lockfile::Lockfile;
use pacquet_planner::{HostPlatform, Plan, PlanOptions, SupportedArchitectures, plan};
use pretty_assertions::assert_eq;

fn fixture(name: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../planner/tests/fixtures")
        .join(name)
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn host() -> HostPlatform {
    HostPlatform {
        os: "linux".into(),
        cpu: "x64".into(),
        libc: Some("glibc".into()),
    }
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

/// `.modules.yaml` rendered from the plan equals pnpm's file byte for byte
/// (given pnpm's store dir, date and allowBuilds).
fn assert_modules_yaml(name: &str, plan: &Plan, supported: SupportedArchitectures) {
    let recorded = fixture(name, "modules.json");
    let doc: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    let allow_builds = doc["allowBuilds"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_bool().unwrap()))
        .collect();
    let state = pacquet_state::ModulesYaml {
        store_dir: doc["storeDir"].as_str().unwrap().to_owned(),
        pruned_at: doc["prunedAt"].as_str().unwrap().to_owned(),
        package_manager: "pnpm@12.21.0".to_owned(),
        allow_builds,
        ignored_builds: Vec::new(),
        pending_builds: Vec::new(),
        injected_deps: indexmap::IndexMap::new(),
        previous_skipped: Vec::new(),
        pending_skills: Vec::new(),
        previous_hoisted: serde_json::Map::new(),
    };
    let mut opts = PlanOptions::new(host(), &registry_url);
    opts.supported_architectures = supported;
    assert_eq!(pacquet_state::modules_yaml(plan, &opts, &state), recorded);
}

#[test]
fn modules_yaml_matches_pnpm() {
    let small = plan_fixture("small", SupportedArchitectures::default());
    assert_modules_yaml("small", &small, SupportedArchitectures::default());
    let alotta = plan_fixture("alotta", alotta_archs());
    assert_modules_yaml("alotta", &alotta, alotta_archs());
}

/// A filtered install keeps the previous entries the plan does not name,
/// after its own; an entry it names again takes the plan's value.
#[test]
fn previous_hoisted_entries_follow_the_new_ones() {
    let small = plan_fixture("small", SupportedArchitectures::default());
    let opts = PlanOptions::new(host(), &registry_url);
    let fresh = pacquet_state::modules_yaml(&small, &opts, &pacquet_state::ModulesYaml::default());
    let fresh: serde_json::Value = serde_json::from_str(&fresh).unwrap();
    let fresh = fresh["hoistedDependencies"].as_object().unwrap().clone();
    let (first_key, first_value) = fresh.iter().next().expect("small hoists something");
    let mut previous = serde_json::Map::new();
    previous.insert("gone@1.0.0".into(), serde_json::json!({"gone": "private"}));
    previous.insert(first_key.clone(), serde_json::json!({"other": "public"}));
    let state = pacquet_state::ModulesYaml {
        previous_hoisted: previous,
        ..Default::default()
    };
    let merged = pacquet_state::modules_yaml(&small, &opts, &state);
    let merged: serde_json::Value = serde_json::from_str(&merged).unwrap();
    let merged = merged["hoistedDependencies"].as_object().unwrap();
    let keys: Vec<&String> = merged.keys().collect();
    let mut expected: Vec<&String> = fresh.keys().collect();
    let gone = "gone@1.0.0".to_owned();
    expected.push(&gone);
    assert_eq!(keys, expected);
    assert_eq!(&merged[first_key], first_value);
}
