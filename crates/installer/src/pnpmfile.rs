//! The pnpmfile's `readPackage` hook for an install: applied to each
//! project's manifest once per install (for the lockfile checks and for
//! resolution alike), and to the packages' manifests while resolving
//! (docs/pnpmfile.md).

use std::{collections::HashMap, path::PathBuf, sync::Mutex};

use pacquet_config::Config;
use pacquet_hooks::Pnpmfile;
use pacquet_lockfile::ProjectManifest;
use pacquet_resolver::ResolveError;

use crate::{
    InstallError,
    gates::Project,
    reporter::{Event, Reporter},
};

/// The loaded pnpmfile, what it made of each project's manifest, and
/// where its logs go.
pub(crate) struct Hooks<'a> {
    pnpmfile: Pnpmfile,
    reporter: &'a dyn Reporter,
    projects: Mutex<HashMap<PathBuf, ProjectManifest>>,
}

impl<'a> Hooks<'a> {
    /// The workspace's pnpmfile loaded in `node`; `None` without one.
    pub(crate) fn load(
        config: &Config,
        reporter: &'a dyn Reporter,
    ) -> Result<Option<Hooks<'a>>, InstallError> {
        let Some(path) = crate::gates::pnpmfile_path(config) else {
            return Ok(None);
        };
        let pnpmfile = Pnpmfile::load(&path, &config.workspace_root)
            .map_err(|e| InstallError::Resolve(e.into()))?;
        Ok(Some(Hooks {
            pnpmfile,
            reporter,
            projects: Mutex::default(),
        }))
    }

    pub(crate) fn has_read_package(&self) -> bool {
        self.pnpmfile.has_read_package()
    }

    /// Refuses hooks a resolution cannot honour.
    pub(crate) fn check_resolvable(&self) -> Result<(), InstallError> {
        self.pnpmfile
            .check_resolvable()
            .map_err(|e| InstallError::Resolve(e.into()))
    }

    /// `readPackage` on `manifest`, its logs shown as pnpm 12.21 shows
    /// them (`readPackage: <message>`).
    fn run(&self, manifest: serde_json::Value) -> Result<serde_json::Value, ResolveError> {
        let out = self.pnpmfile.read_package(&manifest)?;
        for log in &out.logs {
            self.reporter.report(Event::Info {
                message: &format!("readPackage: {log}"),
            });
        }
        Ok(out.manifest)
    }

    /// Replaces each project's manifest with what `readPackage` makes of
    /// its `package.json`, calling the hook once per project per install.
    pub(crate) fn apply_to_projects(&self, projects: &mut [Project]) -> Result<(), InstallError> {
        if !self.has_read_package() {
            return Ok(());
        }
        let mut hooked = self.projects.lock().map_err(|_| InstallError::Internal {
            what: "the pnpmfile's project cache was poisoned".into(),
        })?;
        for project in projects {
            if let Some(manifest) = hooked.get(&project.dir) {
                project.manifest = manifest.clone();
                continue;
            }
            let path = project.dir.join("package.json");
            let read_error = |message: String| {
                InstallError::Lockfile(pacquet_lockfile::LockfileError::ParseManifest {
                    path: path.clone(),
                    message,
                })
            };
            let text = std::fs::read_to_string(&path).map_err(|e| read_error(e.to_string()))?;
            let json: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
                .map_err(|e| read_error(e.to_string()))?;
            let manifest =
                ProjectManifest::from_value(&self.run(json).map_err(InstallError::Resolve)?);
            hooked.insert(project.dir.clone(), manifest.clone());
            project.manifest = manifest;
        }
        Ok(())
    }
}

impl pacquet_resolver::remote::ReadPackage for Hooks<'_> {
    fn read_package(&self, manifest: serde_json::Value) -> Result<serde_json::Value, ResolveError> {
        self.run(manifest)
    }
}
