//! Shared helpers: a temp home + project tree and explicit env.
#![allow(dead_code)] // each test binary uses a different subset

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pacquet_config::{CliOverrides, Config, ConfigError, LoadOptions};

pub struct Fixture {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
    pub env: HashMap<String, String>,
    pub cli: CliOverrides,
}

impl Fixture {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().to_path_buf();
        let home = root.join("home");
        let project = root.join("project");
        std::fs::create_dir_all(&home).expect("home");
        std::fs::create_dir_all(&project).expect("project");
        Fixture {
            _dir: dir,
            root,
            home,
            project,
            env: HashMap::new(),
            cli: CliOverrides::default(),
        }
    }

    pub fn write(&self, path: impl AsRef<Path>, text: &str) -> &Self {
        let path = self.root.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
        self
    }

    pub fn env(&mut self, name: &str, value: &str) -> &mut Self {
        self.env.insert(name.to_owned(), value.to_owned());
        self
    }

    pub fn try_load_in(&self, cwd: &Path) -> Result<Config, ConfigError> {
        pacquet_config::load(&LoadOptions {
            cwd: cwd.to_path_buf(),
            env: self.env.clone(),
            home: Some(self.home.clone()),
            cli: self.cli.clone(),
        })
    }

    pub fn try_load(&self) -> Result<Config, ConfigError> {
        self.try_load_in(&self.project)
    }

    pub fn load(&self) -> Config {
        self.try_load().expect("config loads")
    }
}
