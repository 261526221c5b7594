//! Turning settings into the planner's plain inputs.

use std::path::Path;

use pacquet_config::Config;

use super::gates::Project;
use crate::{
    HostPlatform, ImportMethod, ImporterSelection, IncludedGroups, PlanOptions,
    SupportedArchitectures, layout::relative,
};

/// Planner options for `config` and the selected `projects`.
pub fn plan_options<'a>(
    config: &Config,
    projects: &[Project],
    tarball_url: &'a (dyn Fn(&str, &str) -> String + Sync),
) -> PlanOptions<'a> {
    let (os, cpu, libc) = pacquet_config::host_platform();
    let host = HostPlatform {
        os: os.to_owned(),
        cpu: cpu.to_owned(),
        libc: libc.map(str::to_owned),
    };
    let mut opts = PlanOptions::new(host, tarball_url);
    let root = &config.workspace_root;
    opts.virtual_store_dir = relative_path(root, &config.virtual_store_dir);
    opts.modules_dir = config.modules_dir.clone();
    opts.virtual_store_dir_max_length = config.virtual_store_dir_max_length as usize;
    opts.hoist_pattern = config.hoist_pattern.clone();
    opts.public_hoist_pattern = config.public_hoist_pattern.clone();
    opts.hoist_workspace_packages = config.hoist_workspace_packages;
    opts.ignore_scripts = config.ignore_scripts;
    opts.included = IncludedGroups {
        dependencies: config.production,
        dev_dependencies: config.dev,
        optional_dependencies: config.optional,
    };
    let archs = &config.supported_architectures;
    opts.supported_architectures = SupportedArchitectures {
        os: Some(archs.os.clone()),
        cpu: Some(archs.cpu.clone()),
        libc: Some(archs.libc.clone()),
    };
    opts.importers = projects
        .iter()
        .map(|p| ImporterSelection {
            id: p.id.clone(),
            dir: relative_path(root, &p.dir),
            name: p.manifest.name.clone(),
        })
        .collect();
    opts
}

/// `packageImportMethod` as the importer understands it.
pub fn import_method(config: &Config) -> ImportMethod {
    config
        .package_import_method
        .as_str()
        .parse()
        .unwrap_or_default()
}

/// `path` relative to `root`, `/`-separated, `""` for the root itself
/// (`../x` when outside it).
pub fn relative_path(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => relative(&root.to_string_lossy(), &path.to_string_lossy()),
    }
}
