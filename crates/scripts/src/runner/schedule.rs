//! Running the builds of many packages: dependencies before dependents, at
//! most `childConcurrency` packages at a time.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::thread::Scope;

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
    /// `PATH` entries of this package before the shared
    /// [`BuildOptions::extra_bin_dirs`] (the hoisted layout's
    /// [`crate::bin_dirs_in_parent_dirs`]).
    pub bin_dirs: Vec<PathBuf>,
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
    /// `scriptShell` ([`ScriptRun::shell`]).
    pub shell: Option<&'a Path>,
    /// [`ScriptRun::modules_dir`].
    pub modules_dir: &'a str,
    /// `unsafePerm` ([`ScriptRun::unsafe_perm`]).
    pub unsafe_perm: bool,
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
            shell: None,
            modules_dir: "node_modules",
            unsafe_perm: false,
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

/// A finished build as a worker thread reports it.
type Finished = (usize, Result<(), ScriptsError>);

/// Runs every node's stages, children before parents (cycles are broken
/// at the lowest index), at most `child_concurrency` packages at a time.
/// The first failure of a non-optional package stops scheduling; running
/// builds finish, then that error is returned.
pub fn run_dependency_builds(
    nodes: &[BuildNode],
    opts: &BuildOptions<'_>,
) -> Result<BuildReport, ScriptsError> {
    let concurrency = opts.child_concurrency.max(1);
    let mut graph = Graph::new(nodes);
    let mut report = BuildReport::default();
    let mut first_error: Option<ScriptsError> = None;
    let mut done = 0usize;
    let mut running = 0usize;

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        loop {
            while first_error.is_none() && running < concurrency {
                let Some(i) = graph.ready.pop_first() else {
                    break;
                };
                if nodes[i].stages.is_empty() {
                    // Nothing to run: it only passes completion on to its dependents.
                    graph.complete(i);
                    done += 1;
                    continue;
                }
                graph.state[i] = State::Running;
                running += 1;
                spawn_build(scope, &nodes[i], i, opts, tx.clone());
            }
            if running == 0 {
                if first_error.is_some() || done == nodes.len() || !graph.unblock_cycle() {
                    break;
                }
                continue;
            }
            let (i, result) = rx.recv().expect("a running build reports");
            running -= 1;
            done += 1;
            if let Err(err) = record(&mut graph, &mut report, i, nodes[i].optional, result) {
                first_error.get_or_insert(err);
            }
        }
    });
    match first_error {
        Some(err) => Err(err),
        None => Ok(report),
    }
}

/// Where every package stands in the build order.
struct Graph {
    state: Vec<State>,
    /// How many of its dependencies each package still waits for.
    waiting_on: Vec<usize>,
    /// The packages that wait for each package.
    dependents: Vec<Vec<usize>>,
    /// Packages free to start, lowest index first.
    ready: BTreeSet<usize>,
}

impl Graph {
    /// Edges to packages outside the list or to the package itself are
    /// ignored; duplicate edges count once.
    fn new(nodes: &[BuildNode]) -> Graph {
        let n = nodes.len();
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
        let ready = (0..n).filter(|&i| waiting_on[i] == 0).collect();
        Graph {
            state: vec![State::Pending; n],
            waiting_on,
            dependents,
            ready,
        }
    }

    /// Marks `i` done and readies the dependents it was the last wait of.
    fn complete(&mut self, i: usize) {
        self.state[i] = State::Done;
        for &d in &self.dependents[i] {
            self.waiting_on[d] -= 1;
            if self.waiting_on[d] == 0 && self.state[d] == State::Pending {
                self.ready.insert(d);
            }
        }
    }

    /// With nothing running, an empty ready set means only cycles are
    /// left: readies the lowest pending node. False when none is pending.
    fn unblock_cycle(&mut self) -> bool {
        if !self.ready.is_empty() {
            return true;
        }
        match self.state.iter().position(|s| *s == State::Pending) {
            Some(i) => {
                self.ready.insert(i);
                true
            }
            None => false,
        }
    }
}

/// Builds node `i` on a thread of `scope`, then runs `after_build`; the
/// outcome goes to `tx`.
fn spawn_build<'scope>(
    scope: &'scope Scope<'scope, '_>,
    node: &'scope BuildNode,
    i: usize,
    opts: &'scope BuildOptions<'scope>,
    tx: Sender<Finished>,
) {
    scope.spawn(move || {
        let result = build_one(node, opts).and_then(|()| match opts.after_build {
            Some(after) => after(i),
            None => Ok(()),
        });
        let _ = tx.send((i, result));
    });
}

/// Files a finished build in the report. A success or an optional failure
/// releases its dependents; a required failure is handed back and its
/// dependents stay blocked.
fn record(
    graph: &mut Graph,
    report: &mut BuildReport,
    i: usize,
    optional: bool,
    result: Result<(), ScriptsError>,
) -> Result<(), ScriptsError> {
    match result {
        Ok(()) => {
            report.built.push(i);
            graph.complete(i);
        }
        Err(err) if optional => {
            report.failed_optional.push((i, err));
            graph.complete(i);
        }
        Err(err) => {
            graph.state[i] = State::Done;
            return Err(err);
        }
    }
    Ok(())
}

fn build_one(node: &BuildNode, opts: &BuildOptions<'_>) -> Result<(), ScriptsError> {
    let joined: Vec<PathBuf>;
    let extra_bin_dirs = if node.bin_dirs.is_empty() {
        opts.extra_bin_dirs
    } else {
        joined = [node.bin_dirs.as_slice(), opts.extra_bin_dirs].concat();
        &joined
    };
    for (stage, command) in &node.stages {
        run_stage(&ScriptRun {
            package_dir: &node.package_dir,
            name: &node.name,
            version: &node.version,
            pkg_id: &node.pkg_id,
            stage,
            command,
            init_cwd: opts.init_cwd,
            extra_bin_dirs,
            node_gyp_bin: opts.node_gyp_bin,
            stream_output: opts.stream_output,
            reporter: opts.reporter,
            manifest: &node.manifest,
            user_agent: opts.user_agent,
            shell: opts.shell,
            modules_dir: opts.modules_dir,
            unsafe_perm: opts.unsafe_perm,
            extra_env: opts.extra_env,
            optional: node.optional,
        })?;
    }
    Ok(())
}
