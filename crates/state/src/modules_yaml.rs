//! `node_modules/.modules.yaml` (docs/layout.md §7): pretty JSON, 2-space
//! indent, no trailing newline, pnpm 12.21's field order.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use pacquet_planner::{
    HoistTarget, Layout, Plan, PlanOptions,
    layout::{join, relative},
};

/// The values of `.modules.yaml` that do not come from the plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModulesYaml {
    /// Absolute store dir including `/v11`.
    pub store_dir: String,
    /// RFC 1123 date (see [`crate::http_date`]).
    pub pruned_at: String,
    /// `pnpm@<version>` of the writer.
    pub package_manager: String,
    /// Effective `allowBuilds` map (written as is, `{}` when empty).
    pub allow_builds: IndexMap<String, bool>,
    /// `pkgId`s whose builds were ignored; written only when non-empty.
    pub ignored_builds: Vec<String>,
    /// Projects and packages whose scripts `--ignore-scripts` skipped, sorted.
    pub pending_builds: Vec<String>,
    /// `file:` directory deps: alias → package dirs; written only when non-empty.
    pub injected_deps: IndexMap<String, Vec<String>>,
    /// `skipped` of the previous install: pnpm 12 carries the list over,
    /// even for packages the lockfile no longer has.
    pub previous_skipped: Vec<String>,
    /// `name@version` of direct dependencies whose agent skills await
    /// approval, sorted; written only when non-empty.
    pub pending_skills: Vec<String>,
    /// `hoistedDependencies` of the previous install that a filtered
    /// install keeps: the entries the plan does not name come after its
    /// own (docs/filtering.md §5). Empty otherwise.
    pub previous_hoisted: Map<String, Value>,
}

/// Renders `.modules.yaml` for `plan` installed with `opts`.
pub fn modules_yaml(plan: &Plan, opts: &PlanOptions, state: &ModulesYaml) -> String {
    let mut hoisted: IndexMap<&str, Map<String, Value>> = IndexMap::new();
    for h in &plan.hoisted {
        let key = match &h.target {
            HoistTarget::Slot(i) => plan.slots[*i].dep_path.as_str(),
            HoistTarget::Importer(id) => id.as_str(),
        };
        hoisted
            .entry(key)
            .or_default()
            .insert(h.alias.clone(), Value::from(h.kind.as_str()));
    }
    let mut hoisted: Map<String, Value> = hoisted
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::Object(v)))
        .collect();
    for (key, value) in &state.previous_hoisted {
        if !hoisted.contains_key(key) {
            hoisted.insert(key.clone(), value.clone());
        }
    }

    // The layout fields come from the one place that also says whether a
    // recorded layout still holds, each inserted at its place in pnpm's
    // key order.
    let mut layout = layout_fields(plan, opts, &state.store_dir);
    let mut doc = Map::new();
    let mut put_layout = |doc: &mut Map<String, Value>, key: &str| {
        if let Some(value) = layout.remove(key) {
            doc.insert(key.to_owned(), value);
        }
    };
    doc.insert("hoistedDependencies".into(), Value::Object(hoisted));
    put_layout(&mut doc, "hoistPattern");
    doc.insert(
        "included".into(),
        json!({
            "dependencies": opts.included.dependencies,
            "devDependencies": opts.included.dev_dependencies,
            "optionalDependencies": opts.included.optional_dependencies,
        }),
    );
    put_layout(&mut doc, "layoutVersion");
    put_layout(&mut doc, "nodeLinker");
    doc.insert("packageManager".into(), json!(state.package_manager));
    doc.insert("pendingBuilds".into(), json!(state.pending_builds));
    if !state.ignored_builds.is_empty() {
        doc.insert("ignoredBuilds".into(), json!(state.ignored_builds));
    }
    doc.insert("prunedAt".into(), json!(state.pruned_at));
    put_layout(&mut doc, "publicHoistPattern");
    let mut skipped: Vec<&str> = plan
        .skipped
        .iter()
        .chain(&plan.skipped_below)
        .chain(&state.previous_skipped)
        .map(String::as_str)
        .collect();
    skipped.sort_unstable();
    skipped.dedup();
    doc.insert("skipped".into(), json!(skipped));
    put_layout(&mut doc, "storeDir");
    put_layout(&mut doc, "virtualStoreDir");
    put_layout(&mut doc, "virtualStoreDirMaxLength");
    if !state.injected_deps.is_empty() {
        doc.insert("injectedDeps".into(), json!(state.injected_deps));
    }
    if plan.layout == Layout::Hoisted {
        doc.insert("hoistedLocations".into(), json!(plan.hoisted_locations));
    }
    doc.insert("allowBuilds".into(), json!(state.allow_builds));
    if !state.pending_skills.is_empty() {
        doc.insert("pendingSkills".into(), json!(state.pending_skills));
    }
    serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values always serialize")
}

/// The fields of [`modules_yaml`] whose change means the tree must be
/// laid out again, as it writes them; cheap beside the whole document.
pub fn layout_fields(plan: &Plan, opts: &PlanOptions, store_dir: &str) -> Map<String, Value> {
    let mut fields = Map::new();
    if !opts.hoist_pattern.is_empty() {
        fields.insert("hoistPattern".into(), json!(opts.hoist_pattern));
    }
    fields.insert("layoutVersion".into(), json!(5));
    let linker = match plan.layout {
        Layout::Isolated => "isolated",
        Layout::Hoisted => "hoisted",
    };
    fields.insert("nodeLinker".into(), json!(linker));
    fields.insert(
        "publicHoistPattern".into(),
        json!(opts.public_hoist_pattern),
    );
    fields.insert("storeDir".into(), json!(store_dir));
    // Relative to the root's modules dir.
    fields.insert(
        "virtualStoreDir".into(),
        json!(relative(&root_modules_dir(plan, opts), opts.slots_dir())),
    );
    fields.insert(
        "virtualStoreDirMaxLength".into(),
        json!(opts.virtual_store_dir_max_length),
    );
    fields
}

fn root_modules_dir(plan: &Plan, opts: &PlanOptions) -> String {
    let root = plan
        .importers
        .iter()
        .find(|i| i.id == ".")
        .map_or("", |i| i.dir.as_str());
    join(root, &opts.modules_dir)
}
