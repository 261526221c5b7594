//! pnpm's home, config, cache and state directories (docs/settings.md §3,
//! docs/store.md §1.2).

use std::collections::HashMap;
use std::path::PathBuf;

fn env_dir(env: &HashMap<String, String>, name: &str) -> Option<PathBuf> {
    env.get(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn home_or_root(home: Option<&PathBuf>) -> PathBuf {
    home.cloned().unwrap_or_else(|| PathBuf::from("/"))
}

/// `$PNPM_HOME` → `$XDG_DATA_HOME/pnpm` → `~/.local/share/pnpm`
/// (macOS `~/Library/pnpm`).
pub fn pnpm_home_dir(env: &HashMap<String, String>, home: Option<&PathBuf>) -> PathBuf {
    if let Some(dir) = env_dir(env, "PNPM_HOME") {
        return dir;
    }
    if let Some(dir) = env_dir(env, "XDG_DATA_HOME") {
        return dir.join("pnpm");
    }
    if cfg!(target_os = "macos") {
        return home_or_root(home).join("Library/pnpm");
    }
    home_or_root(home).join(".local/share/pnpm")
}

/// `$XDG_CONFIG_HOME/pnpm` → `~/.config/pnpm` (macOS
/// `~/Library/Preferences/pnpm`).
pub fn config_dir(env: &HashMap<String, String>, home: Option<&PathBuf>) -> PathBuf {
    if let Some(dir) = env_dir(env, "XDG_CONFIG_HOME") {
        return dir.join("pnpm");
    }
    if cfg!(target_os = "macos") {
        return home_or_root(home).join("Library/Preferences/pnpm");
    }
    home_or_root(home).join(".config/pnpm")
}

/// `$XDG_CACHE_HOME/pnpm` → `~/.cache/pnpm` (macOS `~/Library/Caches/pnpm`).
pub fn cache_dir(env: &HashMap<String, String>, home: Option<&PathBuf>) -> PathBuf {
    if let Some(dir) = env_dir(env, "XDG_CACHE_HOME") {
        return dir.join("pnpm");
    }
    if cfg!(target_os = "macos") {
        return home_or_root(home).join("Library/Caches/pnpm");
    }
    home_or_root(home).join(".cache/pnpm")
}

/// `$XDG_STATE_HOME/pnpm` → `~/.local/state/pnpm`.
pub fn state_dir(env: &HashMap<String, String>, home: Option<&PathBuf>) -> PathBuf {
    if let Some(dir) = env_dir(env, "XDG_STATE_HOME") {
        return dir.join("pnpm");
    }
    home_or_root(home).join(".local/state/pnpm")
}
