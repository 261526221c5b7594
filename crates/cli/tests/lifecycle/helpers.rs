//! Installing the `lifecycle` fixture project with pnpm 12 or pacquet, each
//! in its own directory with its own store (so no build is restored from
//! the other's side-effects cache), and reading what the scripts recorded.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use pacquet_testing::{PnpmEnv, Registry, prepare_project};

use crate::support::pacquet_bin;

/// The fixture project every test here installs.
pub const PROJECT: &str = "lifecycle";

/// One finished install.
pub struct Run {
    pub project: PathBuf,
    pub env: PnpmEnv,
    pub out: Output,
}

impl Run {
    /// `<package> <event>` lines in the order the scripts ran.
    pub fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.project.join("lifecycle.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The environment `<package> <event>` ran with (see `record.js`).
    pub fn recorded_env(&self, package: &str, event: &str) -> serde_json::Value {
        let file = format!("{package}.{event}.json").replace(':', "_");
        let path = self.project.join("lifecycle-env").join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} not recorded: {e}", path.display()));
        serde_json::from_str(&text).unwrap()
    }

    pub fn code(&self) -> Option<i32> {
        self.out.status.code()
    }

    /// stdout and stderr with runs of whitespace collapsed, so messages
    /// wrapped at 80 columns can be searched for.
    pub fn flat_output(&self) -> String {
        let text = format!(
            "{}\n{}",
            String::from_utf8_lossy(&self.out.stdout),
            String::from_utf8_lossy(&self.out.stderr)
        );
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }
}

/// Which installer runs.
#[derive(Clone, Copy, Debug)]
pub enum Tool {
    Pnpm,
    Pacquet,
}

/// Options of one install of the fixture.
#[derive(Default)]
pub struct Setup<'a> {
    /// `PQ_LC_FAIL`: `"<package> <event> <code>"` makes that script exit
    /// with `<code>`.
    pub fail: Option<&'a str>,
    /// Replaces the fixture's `pnpm-workspace.yaml`.
    pub workspace_yaml: Option<&'a str>,
    pub extra_args: &'a [&'a str],
}

/// Installs the fixture with `tool` under `root` (`--frozen-lockfile`).
pub fn install(tool: Tool, registry: &Registry, root: &Path, setup: &Setup<'_>) -> Run {
    let project = root.join("project");
    prepare_project(PROJECT, &project, &registry.url());
    if let Some(yaml) = setup.workspace_yaml {
        std::fs::write(project.join("pnpm-workspace.yaml"), yaml).unwrap();
    }
    let env = PnpmEnv::new(&root.join("env"), &registry.url());
    let mut args = vec!["install", "--frozen-lockfile"];
    args.extend_from_slice(setup.extra_args);
    let mut cmd = match tool {
        Tool::Pnpm => {
            if !args.iter().any(|a| a.starts_with("--reporter")) {
                args.push("--reporter=append-only");
            }
            env.command(&project, &args)
        }
        Tool::Pacquet => {
            let mut cmd = Command::new(pacquet_bin());
            env.apply_env(&mut cmd);
            cmd.current_dir(&project)
                .args(&args)
                .arg(format!("--store-dir={}", env.store_dir.display()));
            cmd
        }
    };
    cmd.env_remove("PQ_LC_FAIL");
    if let Some(fail) = setup.fail {
        cmd.env("PQ_LC_FAIL", fail);
    }
    let out = cmd.output().expect("spawn the installer");
    Run { project, env, out }
}

/// The same install with pnpm 12 and with pacquet, under `root/pnpm` and
/// `root/pacquet`.
pub fn both(registry: &Registry, root: &Path, setup: &Setup<'_>) -> (Run, Run) {
    let pnpm = install(Tool::Pnpm, registry, &root.join("pnpm"), setup);
    let pacquet = install(Tool::Pacquet, registry, &root.join("pacquet"), setup);
    (pnpm, pacquet)
}

/// Every script the fixture runs on a clean install, in pnpm 12's order,
/// except `pq-lc-optional postinstall`, which runs concurrently with
/// `pq-lc-leaf`'s stages.
pub const EXPECTED_ORDER: [&str; 17] = [
    // The root's early stages, before anything is linked.
    "pq-project-lifecycle pnpm:devPreinstall",
    "pq-project-lifecycle preinstall",
    // Dependency builds, dependencies first.
    "pq-lc-leaf preinstall",
    "pq-lc-leaf install",
    "pq-lc-leaf postinstall",
    "pq-lc-mid postinstall",
    // Projects: lib before app (a devDependency of it), the root last (it
    // depends on app).
    "pq-lc-lib preinstall",
    "pq-lc-lib postinstall",
    "pq-lc-lib prepare",
    "pq-lc-app install",
    "pq-lc-app postinstall",
    "pq-lc-app postprepare",
    "pq-project-lifecycle install",
    "pq-project-lifecycle postinstall",
    "pq-project-lifecycle preprepare",
    "pq-project-lifecycle prepare",
    "pq-project-lifecycle postprepare",
];

pub const OPTIONAL_BUILD: &str = "pq-lc-optional postinstall";

/// `log` without the optional package's build.
pub fn without_optional(log: &[String]) -> Vec<&str> {
    log.iter()
        .map(String::as_str)
        .filter(|l| *l != OPTIONAL_BUILD)
        .collect()
}

pub fn assert_success(run: &Run, tool: Tool) {
    assert!(
        run.out.status.success(),
        "{tool:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        run.out.status,
        String::from_utf8_lossy(&run.out.stdout),
        String::from_utf8_lossy(&run.out.stderr)
    );
}

const HOOK: &str = "--import=data:text/javascript,";

/// Values that name pnpm's own files or the calling shell.
const NOT_COMPARED: [&str; 4] = ["npm_execpath", "npm_config_node_gyp", "_", "OLDPWD"];

/// The recorded environment with the project and env dirs replaced by
/// placeholders, `PATH` without pnpm's bundled `node-gyp-bin` (pacquet
/// bundles no node-gyp).
pub fn normalized(run: &Run, package: &str, event: &str) -> (String, BTreeMap<String, String>) {
    let recorded = run.recorded_env(package, event);
    let project = run.project.to_string_lossy().into_owned();
    let env_root = run.env.root.to_string_lossy().into_owned();
    let map = |s: &str| s.replace(&project, "<project>").replace(&env_root, "<env>");
    let mut out = BTreeMap::new();
    for (key, value) in recorded["env"].as_object().unwrap() {
        if NOT_COMPARED.contains(&key.as_str()) {
            continue;
        }
        let mut value = map(value.as_str().unwrap_or_default());
        // The global virtual store's resolve hook: pnpm's program and
        // pacquet's are each their own (docs/layout.md §16.8).
        if key == "NODE_OPTIONS"
            && let Some(at) = value.find(HOOK)
        {
            value = format!("{}{HOOK}<hook>", &value[..at]);
        }
        if key == "PATH" {
            value = value
                .split(':')
                .filter(|dir| !dir.ends_with("/node-gyp-bin"))
                .collect::<Vec<_>>()
                .join(":");
        }
        out.insert(key.clone(), value);
    }
    (map(recorded["cwd"].as_str().unwrap()), out)
}

/// Compares every recorded script environment of the two runs; returns how
/// many were compared.
pub fn assert_same_envs(pnpm: &Run, pacquet: &Run) -> usize {
    let mut compared = 0;
    for line in pnpm.log() {
        let (package, event) = line.split_once(' ').unwrap();
        let (their_cwd, theirs) = normalized(pnpm, package, event);
        let (our_cwd, ours) = normalized(pacquet, package, event);
        assert_eq!(our_cwd, their_cwd, "{line}: cwd");
        let differing: Vec<String> = theirs
            .keys()
            .chain(ours.keys())
            .filter(|k| theirs.get(*k) != ours.get(*k))
            .map(|k| format!("{k}: pnpm {:?}, pacquet {:?}", theirs.get(k), ours.get(k)))
            .collect();
        assert!(differing.is_empty(), "{line}:\n{}", differing.join("\n"));
        compared += 1;
    }
    compared
}
