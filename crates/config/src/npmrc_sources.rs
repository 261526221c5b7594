//! Reading the `.npmrc` chain (docs/settings.md §1.2) into what pnpm 11+ uses.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ConfigError;
use crate::env_replace::{env_replace, has_placeholder};
use crate::keys::to_camel;
use crate::layer::Layer;
use crate::npmrc::{NpmrcKey, classify, is_credential_field, parse_ini};

/// One `.npmrc`-format file.
#[derive(Debug, Clone)]
pub struct NpmrcFile {
    pub path: PathBuf,
    /// Repository-controlled (workspace `.npmrc`): no `${…}` expansion for
    /// registry URLs, proxies and credentials.
    pub repository_controlled: bool,
}

/// What the `.npmrc` chain contributes.
#[derive(Debug, Default)]
pub struct NpmrcData {
    /// `registry`, proxy and TLS keys as a camelCase settings layer.
    pub layer: Layer,
    /// `@scope` → registry, highest priority first.
    pub scoped_registries: Vec<(String, String)>,
    /// `//…` keys, highest priority first.
    pub per_registry: Vec<(String, String)>,
}

/// Reads `files` (highest priority first); missing files are skipped.
pub fn read_npmrc_files(
    files: &[NpmrcFile],
    env: &HashMap<String, String>,
) -> Result<NpmrcData, ConfigError> {
    let mut data = NpmrcData::default();
    for file in files {
        let text = match std::fs::read_to_string(&file.path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) if err.kind() == std::io::ErrorKind::IsADirectory => continue,
            Err(source) => {
                return Err(ConfigError::ReadFile {
                    path: file.path.clone(),
                    source,
                });
            }
        };
        for (key, value) in parse_ini(&text) {
            let Some((key, value)) = accept_line(file, key, value, env)? else {
                continue;
            };
            apply(&mut data, key, value);
        }
    }
    Ok(data)
}

fn accept_line(
    file: &NpmrcFile,
    key: String,
    value: String,
    env: &HashMap<String, String>,
) -> Result<Option<(String, String)>, ConfigError> {
    if !file.repository_controlled {
        return Ok(Some((env_replace(&key, env), env_replace(&value, env))));
    }
    let kind = classify(&key);
    if kind == NpmrcKey::PerRegistry && key.ends_with(":tokenHelper") {
        tracing::warn!(
            "Ignored project-level auth setting {key:?}: tokenHelper is only accepted from user-level config."
        );
        return Ok(None);
    }
    if !has_placeholder(&key) && !has_placeholder(&value) {
        return Ok(Some((key, value)));
    }
    match kind {
        NpmrcKey::Registry => Err(ConfigError::RegistryEnvNotExpanded {
            key,
            source_name: file.path.display().to_string(),
        }),
        NpmrcKey::Proxy => {
            tracing::warn!(
                "Ignored project-level request destination {key:?}: environment variables are not expanded in repository-controlled registry or proxy URLs."
            );
            Ok(None)
        }
        NpmrcKey::PerRegistry => {
            tracing::warn!(
                "Ignored project-level auth setting {key:?}: environment variables are not expanded in repository-controlled registry credentials. See https://pnpm.io/npmrc"
            );
            Ok(None)
        }
        NpmrcKey::Network if is_credential_field(&key) => {
            tracing::warn!(
                "Ignored project-level auth setting {key:?}: environment variables are not expanded in repository-controlled registry credentials. See https://pnpm.io/npmrc"
            );
            Ok(None)
        }
        NpmrcKey::Network => Ok(Some((env_replace(&key, env), env_replace(&value, env)))),
        NpmrcKey::Ignored => Ok(None),
    }
}

fn apply(data: &mut NpmrcData, key: String, value: String) {
    match classify(&key) {
        NpmrcKey::Registry if key == "registry" => {
            data.layer
                .entry("registry".to_owned())
                .or_insert(Value::String(value));
        }
        NpmrcKey::Registry => {
            let scope = key.trim_end_matches(":registry").to_owned();
            if !data.scoped_registries.iter().any(|(s, _)| *s == scope) {
                data.scoped_registries.push((scope, value));
            }
        }
        NpmrcKey::PerRegistry => data.per_registry.push((key, value)),
        NpmrcKey::Proxy | NpmrcKey::Network => {
            let camel = match key.as_str() {
                "noproxy" => "noProxy".to_owned(),
                _ => to_camel(&key),
            };
            let value = match (camel.as_str(), value.as_str()) {
                ("strictSsl", "true") => Value::Bool(true),
                ("strictSsl", "false") => Value::Bool(false),
                ("noProxy", "true") => Value::Bool(true),
                _ => Value::String(value),
            };
            data.layer.entry(camel).or_insert(value);
        }
        NpmrcKey::Ignored => {}
    }
}

/// The `.npmrc` chain: workspace `.npmrc`, `<config dir>/auth.ini`, then the
/// user file (`npmrcAuthFile` → `NPM_CONFIG_USERCONFIG` → `~/.npmrc`).
pub fn npmrc_chain(
    workspace_root: &Path,
    config_dir: &Path,
    user_file: Option<PathBuf>,
) -> Vec<NpmrcFile> {
    let mut files = vec![
        NpmrcFile {
            path: workspace_root.join(".npmrc"),
            repository_controlled: true,
        },
        NpmrcFile {
            path: config_dir.join("auth.ini"),
            repository_controlled: false,
        },
    ];
    if let Some(path) = user_file {
        files.push(NpmrcFile {
            path,
            repository_controlled: false,
        });
    }
    files
}
