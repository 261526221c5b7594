//! `pnpm-workspace.yaml` and the global `config.yaml`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ConfigError;
use crate::layer::Layer;
use crate::recognized::is_recognized_workspace_key;
use crate::yaml_types::typed;

/// The file that marks a workspace root.
pub const WORKSPACE_MANIFEST: &str = "pnpm-workspace.yaml";

/// Nearest ancestor of `cwd` (inclusive) that contains `pnpm-workspace.yaml`.
pub fn find_workspace_dir(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| dir.join(WORKSPACE_MANIFEST).is_file())
        .map(Path::to_path_buf)
}

/// Reads `pnpm-workspace.yaml`; unknown keys are warned about and dropped.
pub fn read_workspace_yaml(path: &Path) -> Result<Layer, ConfigError> {
    let text = read(path)?;
    let layer = parse_yaml(&text).map_err(|err| {
        let (line, column) = err
            .location()
            .map(|loc| (loc.line(), loc.column()))
            .unwrap_or((0, 0));
        ConfigError::InvalidWorkspaceYaml {
            path: path.to_path_buf(),
            line,
            column,
            message: err.to_string(),
        }
    })?;
    let layer = known_only(layer, "pnpm-workspace.yaml");
    typed(layer).map_err(|(key, message)| ConfigError::InvalidSettingType {
        path: path.to_path_buf(),
        key,
        message,
    })
}

/// Reads the global `config.yaml` if it exists.
pub fn read_config_yaml(path: &Path) -> Result<Layer, ConfigError> {
    if !path.is_file() {
        return Ok(Layer::new());
    }
    let text = read(path)?;
    let layer = parse_yaml(&text).map_err(|err| ConfigError::InvalidConfigYaml {
        path: path.to_path_buf(),
        message: err.to_string(),
    })?;
    let layer = known_only(layer, &path.display().to_string());
    typed(layer).map_err(|(key, message)| ConfigError::InvalidSettingType {
        path: path.to_path_buf(),
        key,
        message,
    })
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::ReadFile {
        path: path.to_path_buf(),
        source,
    })
}

fn parse_yaml(text: &str) -> Result<Layer, serde_saphyr::Error> {
    if text.trim().is_empty() {
        return Ok(Layer::new());
    }
    let value: Value = serde_saphyr::from_str(text)?;
    Ok(match value {
        Value::Object(map) => map.into_iter().collect(),
        _ => Layer::new(),
    })
}

fn known_only(layer: Layer, file: &str) -> Layer {
    let mut unknown = Vec::new();
    let known = layer
        .into_iter()
        .filter(|(key, _)| {
            let ok = is_recognized_workspace_key(key);
            if !ok {
                unknown.push(format!("{key:?}"));
            }
            ok
        })
        .collect();
    if !unknown.is_empty() {
        tracing::warn!(
            "The following settings in {file} are not recognized by this version of pacquet and were ignored: {}.",
            unknown.join(", ")
        );
    }
    known
}
