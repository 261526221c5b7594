//! Running the builds of many packages: dependencies before dependents, at
//! most `childConcurrency` packages at a time.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use serde_json::Value;

use super::events::ScriptEvent;
use super::stage::{ScriptRun, run_stage};
use crate::ScriptsError;

/// A package in the build graph. Packages without `stages` take part only
/// through their edges (a dependent of a dependency that builds waits for
/// it even across packages that do not build).
#[derive(Debug, Clone)]
pub struct BuildNode {
    pub name: String,
    pub version: String,
    /// `name@version` or the depPath without peers; shown in errors.
    pub pkg_id: String,
    pub package_dir: PathBuf,
    pub manifest: Value,
    /// From [`crate::dependency_scripts`]; empty when the package does not
    /// build (or may not).
    pub stages: Vec<(&'static str, String)>,
    /// Indices (into the node list) of the packages it depends on.
    pub deps: Vec<usize>,
    /// A failure only skips this package (with a warning) instead of
    /// failing the install.
    pub optional: bool,
}

/// Settings shared by every script of the run.
#[derive(Clone, Copy)]
pub struct BuildOptions<'a> {
    /// Packages building at once (`childConcurrency`, min 1).
    pub child_concurrency: usize,
    pub init_cwd: &'a Path,
    pub extra_bin_dirs: &'a [PathBuf],
    pub node_gyp_bin: Option<&'a Path>,
    pub stream_output: bool,
    pub reporter: Option<&'a (dyn Fn(&ScriptEvent<'_>) + Sync)>,
    pub user_agent: Option<&'a str>,
    pub extra_env: &'a [(String, String)],
    /// Called on the worker thread after a package's stages all succeeded
    /// (e.g. to diff it and write its side-effects cache entry). An error
    /// counts as a failure of that package.
    pub after_build: Option<&'a (dyn Fn(usize) -> Result<(), ScriptsError> + Sync)>,
}

impl Default for BuildOptions<'_> {
    fn default() -> Self {
        BuildOptions {
            child_concurrency: 5,
            init_cwd: Path::new("."),
            extra_bin_dirs: &[],
            node_gyp_bin: None,
            stream_output: false,
            reporter: None,
            user_agent: None,
            extra_env: &[],
            after_build: None,
        }
    }
}

/// What happened, when no required package failed.
#[derive(Debug, Default)]
pub struct BuildReport {
    /// Packages whose stages all ran and succeeded, in completion order.
    pub built: Vec<usize>,
    /// Optional packages whose build failed: skip them and warn.
    pub failed_optional: Vec<(usize, ScriptsError)>,
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    Pending,
    Running,
    Done,
}

/// Runs every node's stages, children before parents (cycles are broken
/// at the lowest index), at most `child_concurrency` packages at a time.
/// The first failure of a non-optional package stops scheduling; running
/// builds finish, then that error is returned.
pub fn run_dependency_builds(
    nodes: &[BuildNode],
    opts: &BuildOptions<'_>,
) -> Result<BuildReport, ScriptsError> {
    let n = nodes.len();
    let concurrency = opts.child_concurrency.max(1);
    let mut waiting_on = vec![0usize; n];
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, node) in nodes.iter().enumerate() {
        let deps: BTreeSet<usize> = node
            .deps
            .iter()
            .copied()
            .filter(|&d| d < n && d != i)
            .collect();
        waiting_on[i] = deps.len();
        for d in deps {
            dependents[d].push(i);
        }
    }
    let mut state = vec![State::Pending; n];
    let mut ready: BTreeSet<usize> = (0..n).filter(|&i| waiting_on[i] == 0).collect();
    let mut report = BuildReport::default();
    let mut first_error: Option<ScriptsError> = None;
    let mut done = 0usize;
    let mut running = 0usize;

    let complete =
        |i: usize, state: &mut [State], ready: &mut BTreeSet<usize>, waiting_on: &mut [usize]| {
            state[i] = State::Done;
            for &d in &dependents[i] {
                waiting_on[d] -= 1;
                if waiting_on[d] == 0 && state[d] == State::Pending {
                    ready.insert(d);
                }
            }
        };

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Result<(), ScriptsError>)>();
        loop {
            while first_error.is_none() && running < concurrency {
                let Some(i) = ready.pop_first() else { break };
                if nodes[i].stages.is_empty() {
                    complete(i, &mut state, &mut ready, &mut waiting_on);
                    done += 1;
                    continue;
                }
                state[i] = State::Running;
                running += 1;
                let tx = tx.clone();
                scope.spawn(move || {
                    let result = build_one(&nodes[i], opts).and_then(|()| match opts.after_build {
                        Some(after) => after(i),
                        None => Ok(()),
                    });
                    let _ = tx.send((i, result));
                });
            }
            if running == 0 {
                if first_error.is_some() || done == n {
                    break;
                }
                if ready.is_empty() {
                    // Only cycles are left: start the lowest pending node.
                    match state.iter().position(|s| *s == State::Pending) {
                        Some(i) => {
                            ready.insert(i);
                        }
                        None => break,
                    }
                }
                continue;
            }
            let (i, result) = rx.recv().expect("a running build reports");
            running -= 1;
            done += 1;
            match result {
                Ok(()) => {
                    report.built.push(i);
                    complete(i, &mut state, &mut ready, &mut waiting_on);
                }
                Err(err) if nodes[i].optional => {
                    report.failed_optional.push((i, err));
                    complete(i, &mut state, &mut ready, &mut waiting_on);
                }
                Err(err) => {
                    state[i] = State::Done;
                    if first_error.is_none() {
                        first_error = Some(err);
                    }
                }
            }
        }
    });
    match first_error {
        Some(err) => Err(err),
        None => Ok(report),
    }
}

fn build_one(node: &BuildNode, opts: &BuildOptions<'_>) -> Result<(), ScriptsError> {
    for (stage, command) in &node.stages {
        run_stage(&ScriptRun {
            package_dir: &node.package_dir,
            name: &node.name,
            version: &node.version,
            pkg_id: &node.pkg_id,
            stage,
            command,
            init_cwd: opts.init_cwd,
            extra_bin_dirs: opts.extra_bin_dirs,
            node_gyp_bin: opts.node_gyp_bin,
            stream_output: opts.stream_output,
            reporter: opts.reporter,
            manifest: &node.manifest,
            user_agent: opts.user_agent,
            extra_env: opts.extra_env,
            optional: node.optional,
        })?;
    }
    Ok(())
}
