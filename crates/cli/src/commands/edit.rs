//! `pacquet add`, `remove` and `update`: edit a project's `package.json`
//! as pnpm 12 does, then install (resolving what the edit changed).

use std::path::{Path, PathBuf};

use miette::Diagnostic;
use pacquet_config::Config;
use pacquet_installer::EditedManifest;
use pacquet_installer::manifest_edit::{Edit, EditError, edit};
use pacquet_resolver::spec::{Selector, Spec, parse};

use crate::args::{AddArgs, Cli, EditInstallArgs, RemoveArgs, UpdateArgs};

type Failure = Box<dyn Diagnostic + Send + Sync>;

pub fn add(cli: &Cli, args: &AddArgs, runtime: &tokio::runtime::Handle) -> Result<(), Failure> {
    change_then_install(cli, &args.install, runtime, "add", |config, manifest| {
        let locked = pacquet_installer::locked_versions(config);
        let group = if args.save_dev || args.save_peer {
            "devDependencies"
        } else if args.save_optional {
            "optionalDependencies"
        } else {
            "dependencies"
        };
        let exact = args.save_exact || config.save_exact;
        let mut edits = Vec::new();
        for raw in &args.packages {
            let (alias, specifier) =
                specifier_to_save(config, runtime, raw, exact, manifest, &locked)?;
            if args.save_peer {
                edits.push(Edit::AddPeer {
                    alias: alias.clone(),
                    specifier: specifier.clone(),
                });
            }
            edits.push(Edit::Add {
                group,
                alias,
                specifier,
            });
        }
        Ok(ManifestChange::edits(edits))
    })
}

pub fn remove(
    cli: &Cli,
    args: &RemoveArgs,
    runtime: &tokio::runtime::Handle,
) -> Result<(), Failure> {
    change_then_install(cli, &args.install, runtime, "remove", |_, manifest| {
        let has = |alias: &str| {
            pacquet_installer::manifest_edit::GROUPS
                .iter()
                .any(|group| manifest.get(group).and_then(|d| d.get(alias)).is_some())
        };
        // `-r` removes from each project the names it has (pnpm 12.21);
        // a project with none of them reports them all missing.
        let present: Vec<&String> = args
            .packages
            .iter()
            .filter(|alias| !cli.recursive || has(alias))
            .collect();
        let names = if present.is_empty() {
            args.packages.iter().collect()
        } else {
            present
        };
        let edits = names
            .into_iter()
            .map(|alias| Edit::Remove {
                alias: alias.clone(),
            })
            .collect();
        Ok(ManifestChange::edits(edits))
    })
}

pub fn update(
    cli: &Cli,
    args: &UpdateArgs,
    runtime: &tokio::runtime::Handle,
) -> Result<(), Failure> {
    change_then_install(cli, &args.install, runtime, "update", |config, manifest| {
        let wanted =
            |alias: &str| args.packages.is_empty() || args.packages.iter().any(|p| p == alias);
        let mut edits = Vec::new();
        let mut names = Vec::new();
        let mut catalog_edits = Vec::new();
        for group in pacquet_installer::manifest_edit::GROUPS {
            let Some(deps) = manifest.get(group).and_then(|d| d.as_object()) else {
                continue;
            };
            for (alias, spec) in deps {
                let Some(spec) = spec.as_str().filter(|_| wanted(alias)) else {
                    continue;
                };
                // A `catalog:` dependency moves its catalog entry
                // (docs/resolution.md §11); one the resolution would refuse
                // is left as it is.
                let Ok(catalog) = pacquet_resolver::catalog::lookup(&config.catalogs, alias, spec)
                else {
                    continue;
                };
                let current = catalog.as_ref().map_or(spec, |c| c.specifier.as_str());
                let Some((name, new)) =
                    updated_specifier(config, runtime, alias, current, args.latest)?
                else {
                    continue;
                };
                names.push(name);
                if let Some(catalog) = catalog {
                    if new != catalog.specifier {
                        catalog_edits.push(CatalogEdit {
                            catalog: catalog.catalog,
                            alias: alias.clone(),
                            specifier: new,
                            record_before: !args.latest,
                        });
                    }
                    continue;
                }
                edits.push(Edit::Add {
                    group,
                    alias: alias.clone(),
                    specifier: new,
                });
            }
        }
        Ok(ManifestChange {
            edits,
            catalog_edits,
            // pnpm 12.21 records the manifest as it was before `update`
            // wrote it, stat included; after `update --latest`, as after
            // `add`.
            record_before: !args.latest,
            update: Some(pacquet_installer::Update {
                // Empty: everything. The names asked for stay in the list
                // even when the project has none of them, so the list is
                // never empty then.
                names: if args.packages.is_empty() {
                    Vec::new()
                } else {
                    names
                        .into_iter()
                        .chain(args.packages.iter().cloned())
                        .collect()
                },
                dirs: Vec::new(),
            }),
        })
    })
}

/// What a command does to the project's manifest before installing.
struct ManifestChange {
    edits: Vec<Edit>,
    /// Entries of `pnpm-workspace.yaml`'s catalogs to rewrite.
    catalog_edits: Vec<CatalogEdit>,
    /// The state file records the manifest as it was before the change.
    record_before: bool,
    update: Option<pacquet_installer::Update>,
}

/// Why [`change_manifest`] changed nothing: names to remove the project
/// lacks, or another failure.
enum Refusal {
    Missing(String),
    Other(Failure),
}

impl From<Failure> for Refusal {
    fn from(e: Failure) -> Refusal {
        Refusal::Other(e)
    }
}

/// What [`change_manifest`] did to one project.
struct Changed {
    /// The manifest as the install records it; `None`: the file is as it
    /// was.
    manifest: Option<EditedManifest>,
    /// The file's text before it was written, to put back if the install
    /// fails.
    original: Option<(PathBuf, String)>,
    update: Option<pacquet_installer::Update>,
    catalog_edits: Vec<CatalogEdit>,
}

/// A catalog entry's new specifier.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CatalogEdit {
    catalog: String,
    alias: String,
    specifier: String,
    /// The state file records the entry as it was before the change
    /// (`update` without `--latest`, as for manifests).
    record_before: bool,
}

impl ManifestChange {
    fn edits(edits: Vec<Edit>) -> ManifestChange {
        ManifestChange {
            edits,
            catalog_edits: Vec::new(),
            record_before: false,
            update: None,
        }
    }
}

/// Loads the settings, writes the change `plan` makes of each project's
/// manifest, and installs.
fn change_then_install(
    cli: &Cli,
    flags: &EditInstallArgs,
    runtime: &tokio::runtime::Handle,
    command: &'static str,
    plan: impl Fn(&Config, &serde_json::Value) -> Result<ManifestChange, Failure>,
) -> Result<(), Failure> {
    let install = flags.install_args();
    let (mut config, cwd) = super::install::load(cli, &install)?;
    let mut edited = Vec::new();
    // Every file written, as it was: pnpm 12.21 leaves them untouched when
    // the install fails, so they are put back then.
    let mut originals: Vec<(PathBuf, String)> = Vec::new();
    let mut catalog_edits: Vec<CatalogEdit> = Vec::new();
    let mut missing: Option<String> = None;
    let mut removed_somewhere = false;
    let mut update: Option<pacquet_installer::Update> = None;
    let dirs = project_dirs(cli, &config, &cwd, command)?;
    // pnpm 12.21's `update --filter` moves only the selected projects'
    // trees; without a filter, the whole workspace's (docs/resolution.md
    // §11).
    let filtered = !cli.filter.is_empty() || !cli.filter_prod.is_empty() || cli.recursive;
    // pnpm 12.21 changes nothing, and succeeds, when no project matches.
    if dirs.is_empty() {
        return Ok(());
    }
    for dir in dirs {
        let changed = match change_manifest(&config, &dir, &plan) {
            // `remove -r` removes what each project has; it fails only
            // when none has any (pnpm 12.21).
            Err(Refusal::Missing(names)) if cli.recursive => {
                missing.get_or_insert(names);
                continue;
            }
            Err(Refusal::Missing(names)) => {
                return Err(Box::new(EditCommandError::CannotRemove { names }));
            }
            Err(Refusal::Other(e)) => return Err(e),
            Ok(changed) => changed,
        };
        removed_somewhere = true;
        let Changed {
            manifest,
            original,
            update: change,
            catalog_edits: catalogs,
        } = changed;
        edited.extend(manifest);
        originals.extend(original);
        for edit in catalogs {
            if !catalog_edits.contains(&edit) {
                catalog_edits.push(edit);
            }
        }
        if let Some(more) = change {
            let update = update.get_or_insert_with(Default::default);
            update.names.extend(more.names);
            update.names.sort();
            update.names.dedup();
            if filtered {
                update.dirs.push(dir);
            }
        }
    }
    if let (Some(names), false) = (missing, removed_somewhere) {
        return Err(Box::new(EditCommandError::CannotRemove { names }));
    }
    let result = edit_catalogs(&mut config, &catalog_edits, &mut originals).and_then(|()| {
        super::install::install_loaded(cli, &install, &config, &cwd, runtime, edited, update)
    });
    if result.is_err() {
        for (path, text) in originals.iter().rev() {
            let _ = pacquet_state::write_atomic(path, text.as_bytes());
        }
    }
    result
}

/// Writes `edits` into the workspace's `pnpm-workspace.yaml` (each entry's
/// line in place) and into the loaded settings. An entry not written as a
/// block mapping line is left as it is, with a warning.
fn edit_catalogs(
    config: &mut Config,
    edits: &[CatalogEdit],
    originals: &mut Vec<(PathBuf, String)>,
) -> Result<(), Failure> {
    if edits.is_empty() {
        return Ok(());
    }
    let path = config.workspace_root.join("pnpm-workspace.yaml");
    let read_error = |source| {
        Box::new(EditCommandError::Read {
            path: path.clone(),
            source,
        }) as Failure
    };
    let mut text = std::fs::read_to_string(&path).map_err(read_error)?;
    originals.push((path.clone(), text.clone()));
    for edit in edits {
        match pacquet_config::catalog_edit::set_catalog_entry(
            &text,
            &edit.catalog,
            &edit.alias,
            &edit.specifier,
        ) {
            Some(changed) => text = changed,
            None => {
                eprintln!(
                    "[WARN] {}: catalog entry {} of catalog {} is not written one per line; left as it is",
                    path.display(),
                    edit.alias,
                    edit.catalog
                );
                continue;
            }
        }
        if edit.record_before && config.catalogs_as_loaded.is_none() {
            config.catalogs_as_loaded = Some(config.catalogs.clone());
        }
        if let Some(entry) = config
            .catalogs
            .get_mut(&edit.catalog)
            .and_then(|c| c.get_mut(&edit.alias))
        {
            entry.clone_from(&edit.specifier);
        }
    }
    pacquet_state::write_atomic(&path, text.as_bytes()).map_err(|source| {
        Box::new(EditCommandError::Write {
            path: path.clone(),
            source,
        }) as Failure
    })
}

/// Writes the change `plan` makes of the manifest in `dir`; returns what
/// changed.
fn change_manifest(
    config: &Config,
    dir: &Path,
    plan: &impl Fn(&Config, &serde_json::Value) -> Result<ManifestChange, Failure>,
) -> Result<Changed, Refusal> {
    let path = dir.join("package.json");
    let text = std::fs::read_to_string(&path).map_err(|source| {
        Box::new(EditCommandError::Read {
            path: path.clone(),
            source,
        }) as Failure
    })?;
    let invalid = |reason: String| {
        Box::new(EditCommandError::Invalid {
            path: path.clone(),
            reason,
        }) as Failure
    };
    let manifest: serde_json::Value =
        serde_json::from_str(text.strip_prefix('\u{feff}').unwrap_or(&text))
            .map_err(|e| invalid(e.to_string()))?;
    let change = plan(config, &manifest)?;
    let before = change
        .record_before
        .then(|| pacquet_installer::read_manifest(&path))
        .flatten();
    let written = edit(&text, &change.edits).map_err(|e| match e {
        EditError::Missing(names) => Refusal::Missing(names.join("', '")),
        EditError::NotJson(reason) => invalid(reason).into(),
        EditError::NotAnObject => invalid("not a JSON object".to_owned()).into(),
    })?;
    // An edit that changes nothing leaves the file as it is, formatting
    // included (pnpm 12.21: `add` of a dependency the project has as is).
    if serde_json::from_str::<serde_json::Value>(&written.text).is_ok_and(|after| after == manifest)
    {
        return Ok(Changed {
            manifest: None,
            original: None,
            update: change.update,
            catalog_edits: change.catalog_edits,
        });
    }
    pacquet_state::write_atomic(&path, written.text.as_bytes()).map_err(|source| {
        Box::new(EditCommandError::Write {
            path: path.clone(),
            source,
        }) as Failure
    })?;
    let mut edited = EditedManifest {
        dir: dir.to_path_buf(),
        manifest: written.in_memory,
        stat_before: None,
    };
    if let Some((stat, manifest)) = before {
        edited.manifest = manifest;
        edited.stat_before = Some(stat);
    }
    Ok(Changed {
        manifest: Some(edited),
        original: Some((path, text)),
        update: change.update,
        catalog_edits: change.catalog_edits,
    })
}

/// `(package name, specifier to write)` for a registry dependency `update`
/// touches: `^x.y.z` and `~x.y.z` ranges (and, with `--latest`, exact
/// versions) take the version picked, keeping their prefix; other ranges
/// stay. `None` for what is not on a registry.
fn updated_specifier(
    config: &Config,
    runtime: &tokio::runtime::Handle,
    alias: &str,
    spec: &str,
    latest: bool,
) -> Result<Option<(String, String)>, Failure> {
    let Spec::Registry(registry) = parse(alias, spec) else {
        return Ok(None);
    };
    let raw = registry.selector_raw().to_owned();
    let simple_prefix = simple_prefix(&raw);
    let (selector, prefix) = match (&registry.selector, latest) {
        (Selector::Tag(_), _) => return Ok(Some((registry.name, spec.to_owned()))),
        (_, true) => (
            "latest".to_owned(),
            simple_prefix.unwrap_or(config.save_prefix.as_str()),
        ),
        (Selector::Version(_), false) => return Ok(Some((registry.name, spec.to_owned()))),
        (Selector::Range(_), false) => match simple_prefix {
            Some(prefix) => (raw.clone(), prefix),
            None => return Ok(Some((registry.name, spec.to_owned()))),
        },
    };
    // `update` moves past what the lockfile has: no preferences.
    let picked = pacquet_installer::pick_version(config, runtime, &registry.name, &selector, &[])
        .map_err(|e| Box::new(e) as Failure)?;
    let written = format!("{prefix}{picked}");
    let specifier = if spec.trim_start().starts_with("npm:") {
        format!("npm:{}@{written}", registry.name)
    } else {
        written
    };
    Ok(Some((registry.name, specifier)))
}

/// The prefix of a range that is `^x.y.z`, `~x.y.z` or an exact version.
fn simple_prefix(range: &str) -> Option<&'static str> {
    ["^", "~", ""].into_iter().find(|p| {
        range
            .strip_prefix(p)
            .is_some_and(|rest| !rest.is_empty() && nodejs_semver::Version::parse(rest).is_ok())
    })
}

/// The projects an edit applies to: those `--filter` selects, else the
/// workspace root with `-w`, else the directory the command runs in (pnpm
/// 12.21 adds to a workspace's root without `-w` too).
fn project_dirs(
    cli: &Cli,
    config: &Config,
    cwd: &Path,
    command: &'static str,
) -> Result<Vec<PathBuf>, Failure> {
    // `-r -w`: the root alone, installed alone, as `--filter` of the root
    // (pnpm 12.21).
    if cli.recursive && cli.workspace_root {
        return Ok(vec![config.workspace_root.clone()]);
    }
    // `-r`: every project; `add` leaves the root out (pnpm 12.21).
    if cli.recursive {
        let projects =
            pacquet_installer::read_projects(config).map_err(|e| Box::new(e) as Failure)?;
        let all = projects.iter().map(|p| p.dir.clone());
        let mut dirs: Vec<PathBuf> = if command == "add" {
            all.filter(|d| *d != config.workspace_root).collect()
        } else {
            all.collect()
        };
        // A single project is its own selection.
        if dirs.is_empty() {
            dirs.push(config.workspace_root.clone());
        }
        return Ok(dirs);
    }
    if !cli.filter.is_empty() || !cli.filter_prod.is_empty() {
        let filter = super::install::selection(cli, config, cwd);
        let projects =
            pacquet_installer::read_projects(config).map_err(|e| Box::new(e) as Failure)?;
        let selection = pacquet_installer::select_projects(&filter, config, &projects)
            .map_err(|e| Box::new(e) as Failure)?;
        // In workspace order, the root first.
        let dirs: Vec<PathBuf> = projects
            .iter()
            .filter(|p| selection.selected.contains(&p.dir))
            .map(|p| p.dir.clone())
            .collect();
        return Ok(dirs);
    }
    if cli.workspace_root {
        return Ok(vec![config.workspace_root.clone()]);
    }
    Ok(vec![cwd.to_path_buf()])
}

/// `(alias, specifier)` to write for `raw` (`name`, `name@selector`,
/// `alias@npm:name@selector`): a dist-tag (or none, `latest`) becomes
/// `savePrefix` (none with `--save-exact`) + the version it picks; an exact
/// version is kept; a range becomes its `^`/`~` (else `savePrefix`) + the
/// version it picks. A bare name the
/// project already depends on keeps its specifier; a range prefers the
/// versions `locked` has and the project's specifier selects (pnpm 12.21,
/// docs/resolution.md §11).
fn specifier_to_save(
    config: &Config,
    runtime: &tokio::runtime::Handle,
    raw: &str,
    exact: bool,
    manifest: &serde_json::Value,
    locked: &std::collections::HashMap<String, Vec<String>>,
) -> Result<(String, String), Failure> {
    // A tarball URL or git repository is saved as given, under the name
    // its manifest has (pnpm 12.21).
    if let Some(name) = pacquet_installer::exotic_package_name(config, runtime, raw)
        .map_err(|e| Box::new(e) as Failure)?
    {
        return Ok((name, raw.to_owned()));
    }
    let (alias, given) = match raw[1.min(raw.len())..].find('@') {
        Some(at) => (&raw[..at + 1], Some(&raw[at + 2..])),
        None => (raw, None),
    };
    let current = ["dependencies", "devDependencies", "optionalDependencies"]
        .iter()
        .find_map(|group| manifest.get(group)?.get(alias)?.as_str());
    if let (None, Some(current)) = (given, current) {
        return Ok((alias.to_owned(), current.to_owned()));
    }
    let prefix = if exact {
        ""
    } else {
        config.save_prefix.as_str()
    };
    let given = given.unwrap_or("latest");
    let (name, selector, npm) = match parse(alias, given) {
        Spec::Registry(spec) => {
            let npm = given.trim_start().starts_with("npm:");
            let selector = spec.selector_raw().to_owned();
            (spec.name, (spec.selector, selector), npm)
        }
        // `workspace:`, `link:`, `file:` and the like are written as given.
        Spec::Other(_) => return Ok((alias.to_owned(), given.to_owned())),
    };
    let (selector, raw_selector) = selector;
    // A range never becomes exact: one written with `^` or `~` keeps it,
    // another takes `savePrefix`, `saveExact` or not (pnpm 12.21:
    // `pq-plain@1` → `^1.1.0`, `pq-plain@~1` → `~1.1.0`, and with
    // `saveExact` `pq-plain@1` → `^1.1.0`, `pq-deep-1@^1.0.0` → `^1.0.0`).
    let prefix = match &selector {
        Selector::Range(_) => match raw_selector.trim_start().chars().next() {
            Some('^') => "^",
            Some('~') => "~",
            _ => config.save_prefix.as_str(),
        },
        // A dist-tag for a dependency the project has takes the prefix of
        // its `^x.y.z`, `~x.y.z` or exact specifier (pnpm 12.21: `~1.0.0`
        // and `@latest` → `~1.1.0`).
        Selector::Tag(_) if !exact => current.and_then(simple_prefix).unwrap_or(prefix),
        _ => prefix,
    };
    let written = if matches!(selector, Selector::Version(_)) {
        raw_selector
    } else {
        let preferred: Vec<String> = locked
            .get(&name)
            .into_iter()
            .flatten()
            .cloned()
            .chain(current.map(str::to_owned))
            .collect();
        let picked = pacquet_installer::pick_version(
            config,
            runtime,
            &name,
            if raw_selector.is_empty() {
                "latest"
            } else {
                &raw_selector
            },
            &preferred,
        )
        .map_err(|e| Box::new(e) as Failure)?;
        format!("{prefix}{picked}")
    };
    let specifier = if npm {
        format!("npm:{name}@{written}")
    } else {
        written
    };
    Ok((alias.to_owned(), specifier))
}

#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum EditCommandError {
    #[error("Cannot remove '{names}': no such dependency found")]
    #[diagnostic(
        code(ERR_PNPM_CANNOT_REMOVE_MISSING_DEPS),
        help("Check the names against the project's package.json; nothing was changed.")
    )]
    CannotRemove { names: String },

    #[error("cannot read {}: {source}", path.display())]
    #[diagnostic(
        code(ERR_PNPM_NO_PKG_MANIFEST),
        help("Run the command in a project's directory.")
    )]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },

    #[error("{} is not valid: {reason}", path.display())]
    #[diagnostic(
        code(ERR_PNPM_JSON_PARSE),
        help("Fix package.json; nothing was changed.")
    )]
    Invalid { path: PathBuf, reason: String },

    #[error("cannot write {}: {source}", path.display())]
    #[diagnostic(
        code(ERR_PACQUET_WRITE_MANIFEST),
        help("Check that the project directory is writable; package.json was left as it was.")
    )]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}
