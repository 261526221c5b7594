//! `integrated-benchmark`: pacquet against pnpm 12, bun and the filesystem
//! floor, timed by hyperfine on a loopback registry.
//!
//! See `--help` and `benchmarks/README.md`.

mod cargo_env;
mod commit;
mod machine;
mod quiet;
mod report;
mod rounds;
mod setup;
mod variant;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Parser, ValueEnum};

use crate::report::Row;
use crate::setup::{Env, Staged, Tool, ToolKind, sh_quote};

#[derive(Parser)]
#[command(
    name = "integrated-benchmark",
    about = "Time `pacquet install --frozen-lockfile` against pnpm 12, bun and the filesystem floor",
    long_about = "Time `pacquet install --frozen-lockfile` against pnpm 12, bun and the filesystem floor.

Builds the requested pacquet revisions, installs pnpm and bun into <work-dir>/tools,
fills the tarball mirror from the fixture's lockfile (registry-mirror), serves it on a
loopback registry, stages a private copy of the fixture and a private store for every
tool, runs each tool once to check it works (a failing tool is dropped with a note),
then times the tools in interleaved rounds (each round one hyperfine run of one run per tool,
the order turned by one tool each round) and writes <results-dir>/<fixture>/<scenario>.{md,json,svg}.

Every pacquet row is labelled with the commit it measured, `git describe --always --dirty`
(`working-tree`: HEAD, with -dirty when tracked files have uncommitted changes; another
revision: that commit, resolved once before building), e.g. `pacquet @ 63211bc-dirty
(working tree)`. The .md heading, the .json `benchmark` object and the .svg say it too,
with the date and the machine.

Scenarios (pnpm benchmark rows):
  cold    no store, no node_modules, lockfile present (tarballs from the loopback registry)
  warm    store filled, lockfile present, no node_modules (the headline; adds floor rows)
  repeat  store, lockfile and node_modules present, nothing changed
  lockfile-change
          store and node_modules present, installed from a lockfile with a few direct
          dependencies fewer (5 of alotta's 110, 1 of small's 15, and what only they
          reach); the timed install brings them back
  lockfile-only-fetch
          `fetch` from pnpm-lock.yaml alone into an empty store (no node_modules);
          bun has no such command
  warm-global
          as warm, with `enableGlobalVirtualStore: true`: the slots are in the store
          already (made by the check run), node_modules is set aside; bun has no such
          layout
  cold-verified, repeat-verified
          cold and repeat without `trustLockfile`: pnpm and pacquet verify the lockfile
          against registry metadata under the default policy (minimumReleaseAge 1440);
          the mirror then also keeps every package's registry document
  resolve-warm, resolve-cold
          resolution alone (`install --lockfile-only`, bun's too) from package.json
          without a lockfile: with the metadata cache the check run filled, and with
          no cache at all (documents from the loopback registry); the mirror then
          keeps every package's registry document

Before each timed run, node_modules (and for cold the store) is renamed into a trash
dir rather than deleted: ext4 is slow to reuse freshly freed inodes. The trash is
deleted after all scenarios finished, and the next run times nothing until six
minutes after that deletion (ext4 without a journal passes over inodes freed in
that window on every allocation).

Examples:
  just bench                                   # warm, alotta, working tree vs pnpm vs bun vs floor
  just bench --scenario cold --fixture small --revision main --runs 3
  just bench --scenario warm,repeat --revision working-tree,HEAD
  just bench --scenario cold,warm,repeat,lockfile-change --revision main,working-tree
  just bench --scenario cold,warm,repeat,lockfile-change --node-linker hoisted"
)]
pub struct Args {
    /// Scenarios to run, comma-separated or repeated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "warm")]
    pub scenario: Vec<Scenario>,

    /// Fixture: a directory name under benchmarks/fixtures (alotta, small) or a path
    /// to a directory with package.json and pnpm-lock.yaml.
    #[arg(long, default_value = "alotta")]
    pub fixture: String,

    /// pacquet revisions to benchmark, comma-separated or repeated. `working-tree`
    /// builds this checkout (`cargo build --release -p pacquet-cli`); anything else
    /// (HEAD, main, a commit) is checked out in a git worktree under
    /// $TMPDIR/pacquet-bench-revisions (outside the checkout, so that the checkout's
    /// `.cargo/config.toml` does not apply) and built there with its own target dir
    /// under <work-dir>/revisions (cached by commit). Each is labelled
    /// `pacquet @ <git describe --always --dirty>`; several are timed in the same
    /// interleaved rounds, so their rows are comparable.
    #[arg(long, value_delimiter = ',', default_value = "working-tree")]
    pub revision: Vec<String>,

    /// Also benchmark this prebuilt pacquet binary (repeatable).
    #[arg(long, value_name = "PATH")]
    pub pacquet_bin: Vec<PathBuf>,

    /// Benchmark no pacquet build at all (only the other tools).
    #[arg(long)]
    pub no_pacquet: bool,

    /// Tools to compare against, comma-separated. `floor` (warm only) adds
    /// `link-floor replay` and `cp -al` of pnpm's finished tree.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "pnpm,bun,floor"
    )]
    pub with: Vec<Other>,

    /// Layout every tool installs: `hoisted` adds `nodeLinker: hoisted` to the
    /// staged pnpm-workspace.yaml (pacquet, pnpm), runs bun with `--linker
    /// hoisted`, and writes results under <results-dir>/<fixture>-hoisted.
    #[arg(long, value_enum, default_value = "isolated")]
    pub node_linker: NodeLinker,

    /// Timed runs per tool (rounds, each timing every tool once).
    #[arg(long, default_value_t = 5)]
    pub runs: u32,

    /// Before every run (after its preparation): write back, drop the page
    /// cache, dentries and inodes (`echo 3 > /proc/sys/vm/drop_caches`, needs
    /// root), then read the tools, the pacquet builds and the mirror back in,
    /// so every run starts with the same free memory. Without it, runs slow
    /// down as earlier runs' trees fill the page cache and the kernel must
    /// reclaim for every new page (docs/benchmarks.md §9). Only with scenarios
    /// that start without a store and caches (cold, cold-verified,
    /// lockfile-only-fetch, resolve-cold): the others are refused.
    #[arg(long)]
    pub drop_caches: bool,

    /// Untimed warm-up rounds (each run after its own preparation).
    #[arg(long, default_value_t = 1)]
    pub warmup: u32,

    /// Threads for `link-floor replay` (default: available cores).
    #[arg(long)]
    pub floor_threads: Option<usize>,

    /// Tarball mirror served by the loopback registry; filled from the fixture's
    /// lockfile by registry-mirror when anything is missing.
    #[arg(long, env = "BENCH_MIRROR", value_name = "DIR")]
    pub mirror: Option<PathBuf>,

    /// Scratch directory: tools, builds, staged projects, stores, trash.
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,

    /// Where the Markdown, JSON and SVG results go.
    #[arg(long, value_name = "DIR")]
    pub results_dir: Option<PathBuf>,

    /// pnpm version to install into <work-dir>/tools.
    #[arg(long, default_value = "12.21.0")]
    pub pnpm_version: String,

    /// bun version to install into <work-dir>/tools.
    #[arg(long, default_value = "1.4.5")]
    pub bun_version: String,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum, Debug)]
pub enum Scenario {
    Cold,
    Warm,
    Repeat,
    LockfileChange,
    LockfileOnlyFetch,
    WarmGlobal,
    ColdVerified,
    RepeatVerified,
    ResolveWarm,
    ResolveCold,
}

impl Scenario {
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Cold => "cold",
            Scenario::Warm => "warm",
            Scenario::Repeat => "repeat",
            Scenario::LockfileChange => "lockfile-change",
            Scenario::LockfileOnlyFetch => "lockfile-only-fetch",
            Scenario::WarmGlobal => "warm-global",
            Scenario::ColdVerified => "cold-verified",
            Scenario::RepeatVerified => "repeat-verified",
            Scenario::ResolveWarm => "resolve-warm",
            Scenario::ResolveCold => "resolve-cold",
        }
    }

    /// Whether every timed run starts without a store and caches, so it
    /// reads nothing the previous run left (the only ones `--drop-caches`
    /// allows: elsewhere it would time reading the store back from disk).
    pub fn starts_empty(self) -> bool {
        matches!(
            self,
            Scenario::Cold
                | Scenario::ColdVerified
                | Scenario::LockfileOnlyFetch
                | Scenario::ResolveCold
        )
    }

    /// Whether the timed command resolves (no lockfile to start from).
    pub fn resolves(self) -> bool {
        matches!(self, Scenario::ResolveWarm | Scenario::ResolveCold)
    }

    /// Whether the lockfile is verified against registry metadata (no
    /// `trustLockfile`).
    pub fn verifies(self) -> bool {
        matches!(self, Scenario::ColdVerified | Scenario::RepeatVerified)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Scenario::Cold => {
                "No store, no node_modules, lockfile present: every tarball comes from the \
                 loopback registry (pnpm benchmark row \"lockfile\", the CI first install)."
            }
            Scenario::Warm => {
                "Store filled, lockfile present, no node_modules (pnpm benchmark row \
                 \"cache + lockfile\"): the work is linking the tree out of the store."
            }
            Scenario::Repeat => {
                "Store, lockfile and node_modules all present and nothing changed (pnpm \
                 benchmark row \"cache + lockfile + node_modules\")."
            }
            Scenario::LockfileChange => {
                "Store and node_modules present, installed from a lockfile that lacks a few \
                 direct dependencies (and everything only they reach); the lockfile and \
                 package.json then gain them back: a branch switch that adds packages."
            }
            Scenario::LockfileOnlyFetch => {
                "`fetch` with only pnpm-lock.yaml, into an empty store, no node_modules: the \
                 Docker layer that fills the store before an offline install."
            }
            Scenario::WarmGlobal => {
                "As warm, with `enableGlobalVirtualStore: true`: every slot is already in \
                 the store's `links`, `node_modules` is gone; the install links the project \
                 into the slots."
            }
            Scenario::ColdVerified => {
                "As cold (no store, no cache, no node_modules), without `trustLockfile`: \
                 pnpm 12's default supply-chain verification of the lockfile against every \
                 package's registry document (minimumReleaseAge 1440) is part of the install."
            }
            Scenario::RepeatVerified => {
                "As repeat, without `trustLockfile`: the recorded verification of the \
                 unchanged lockfile must be found and trusted."
            }
            Scenario::ResolveWarm => {
                "package.json without a lockfile, metadata cache filled (by the check run \
                 and the warm-up): `install --lockfile-only` resolves and writes the \
                 lockfile; nothing is installed."
            }
            Scenario::ResolveCold => {
                "As resolve-warm with no metadata cache and no store: every registry \
                 document comes from the loopback registry."
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum, Debug)]
pub enum NodeLinker {
    Isolated,
    Hoisted,
}

impl NodeLinker {
    pub fn name(self) -> &'static str {
        match self {
            NodeLinker::Isolated => "isolated",
            NodeLinker::Hoisted => "hoisted",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum, Debug)]
pub enum Other {
    Pnpm,
    Bun,
    Floor,
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(args) {
        eprintln!("integrated-benchmark: {e}");
        std::process::exit(1);
    }
}

type Result<T, E = String> = std::result::Result<T, E>;

fn run(args: Args) -> Result<()> {
    refuse_mixed_drops(args.drop_caches, &args.scenario)?;
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .map_err(|e| format!("repo root: {e}"))?;
    let work = abs(&repo, args.work_dir.clone(), "benchmarks/work");
    let results = abs(&repo, args.results_dir.clone(), "benchmarks/results");
    let mirror = abs(&repo, args.mirror.clone(), "benchmarks/work/mirror");
    let fixture = find_fixture(&repo, &args.fixture)?;
    let mut fixture_name = fixture
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "fixture".into());
    // Results, stages and labels of the two layouts never mix.
    if args.node_linker == NodeLinker::Hoisted {
        fixture_name.push_str("-hoisted");
    }
    preflight(&fixture)?;
    for dir in [&work, &results] {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut env = Env::new(repo, work, mirror, args.floor_threads, args.node_linker)?;

    // Everything that is not timed comes first: helpers, tools, builds, mirror.
    env.build_helpers()?;
    let tools = prepare_tools(&mut env, &args);
    let resolves = args.scenario.iter().any(|s| s.resolves());
    let mut seeds = Vec::new();
    if resolves {
        let pnpm = tools
            .iter()
            .find(|t| t.kind == ToolKind::Pnpm)
            .ok_or("resolve scenarios need pnpm (--with pnpm) to seed the mirror's documents")?;
        seeds.push(env.seed_lockfile(&fixture, &fixture_name, &pnpm.bin)?);
    }
    env.fill_mirror(
        &fixture,
        resolves || args.scenario.iter().any(|s| s.verifies()),
        &seeds,
    )?;
    env.start_registry()?;
    env.retire_old_stage(&fixture_name)?;

    let machine = machine::describe(&env.work);
    eprintln!("machine: {}", machine.one_line());
    let dir = results.join(&fixture_name);
    let mut outcome = Ok(());
    for &scenario in &args.scenario {
        let floor = scenario == Scenario::Warm && args.with.contains(&Other::Floor);
        match run_scenario(
            &mut env,
            &args,
            &fixture,
            &fixture_name,
            scenario,
            &tools,
            floor,
        ) {
            Ok(rows) => {
                let written =
                    write_report(&env, &args, &dir, &fixture_name, scenario, &rows, &machine)?;
                eprintln!("wrote {}", written.display());
            }
            Err(e) => {
                eprintln!("{} failed: {e}", scenario.name());
                outcome = Err(format!("scenario {} failed: {e}", scenario.name()));
            }
        }
    }
    env.stop_registry();
    env.empty_trash();
    outcome
}

/// `name` under benchmarks/fixtures if there is such a directory, else
/// `name` as a path; canonical either way.
fn find_fixture(repo: &Path, name: &str) -> Result<PathBuf> {
    let named = repo.join("benchmarks/fixtures").join(name);
    let dir = if named.is_dir() {
        named
    } else {
        PathBuf::from(name)
    };
    dir.canonicalize()
        .map_err(|e| format!("fixture {name}: {e}"))
}

/// Fails before anything is built when the fixture has no lockfile or
/// hyperfine is missing.
fn preflight(fixture: &Path) -> Result<()> {
    if !fixture.join("pnpm-lock.yaml").is_file() {
        return Err(format!("{} has no pnpm-lock.yaml", fixture.display()));
    }
    if Command::new("hyperfine").arg("--version").output().is_err() {
        return Err("hyperfine not found (apt-get install -y hyperfine)".into());
    }
    Ok(())
}

/// The tools to time, in row order: pacquet builds, prebuilt pacquets,
/// pnpm, bun. One that cannot be built or installed is dropped with a note.
fn prepare_tools(env: &mut Env, args: &Args) -> Vec<Tool> {
    let mut tools = if args.no_pacquet {
        Vec::new()
    } else {
        build_revisions(env, &args.revision)
    };
    tools.extend(prebuilt(&env.repo, &args.pacquet_bin));
    if args.with.contains(&Other::Pnpm) {
        match env.install_pnpm(&args.pnpm_version) {
            Ok(tool) => tools.push(tool),
            Err(note) => env.note_everywhere(note),
        }
    }
    if args.with.contains(&Other::Bun) {
        match env.install_bun(&args.bun_version) {
            Ok(tool) => tools.push(tool),
            Err(note) => env.note_everywhere(note),
        }
    }
    tools
}

/// Builds every `--revision` and says which commit each one measures.
fn build_revisions(env: &mut Env, revisions: &[String]) -> Vec<Tool> {
    let mut tools = Vec::new();
    for rev in revisions {
        match env.build_pacquet(rev) {
            Ok(tool) => tools.push(tool),
            Err(note) => env.note_everywhere(note),
        }
    }
    for tool in &tools {
        if let Some(commit) = &tool.commit {
            eprintln!("{}: {}", tool.label, commit.provenance());
        }
    }
    tools
}

/// The `--pacquet-bin` binaries, numbered when there are several.
fn prebuilt(repo: &Path, bins: &[PathBuf]) -> Vec<Tool> {
    let mut tools = Vec::new();
    for (i, bin) in bins.iter().enumerate() {
        let bin = abs(repo, Some(bin.clone()), "pacquet");
        let label = if bins.len() == 1 {
            "pacquet (prebuilt)".to_string()
        } else {
            format!("pacquet (prebuilt {})", i + 1)
        };
        let version = setup::version_of(&bin, &["--version"]).unwrap_or_default();
        tools.push(Tool::new(ToolKind::Pacquet, label, bin, version));
    }
    tools
}

/// Writes the scenario's results into `dir`; returns the Markdown path.
fn write_report(
    env: &Env,
    args: &Args,
    dir: &Path,
    fixture_name: &str,
    scenario: Scenario,
    rows: &[Row],
    machine: &machine::Machine,
) -> Result<PathBuf> {
    let date = report::utc_now();
    report::write(&report::Report {
        dir,
        fixture: fixture_name,
        scenario,
        args,
        rows,
        notes: &env.notes_for(scenario),
        machine,
        work: &env.work,
        repo: &env.repo,
        hyperfine_json: &env.hyperfine_json(fixture_name, scenario),
        date: &date,
    })
}

/// `--drop-caches` only with scenarios that start empty: the scenarios
/// timed after dropped runs in the same invocation stayed slow (a
/// lockfile-change after the dropped cold runs: pacquet 0.36–0.42 s instead
/// of ~0.04 s, every tool alike; docs/benchmarks.md §9).
fn refuse_mixed_drops(drop_caches: bool, scenarios: &[Scenario]) -> Result<()> {
    let others: Vec<&str> = scenarios
        .iter()
        .filter(|s| !s.starts_empty())
        .map(|s| s.name())
        .collect();
    if drop_caches && !others.is_empty() {
        return Err(format!(
            "--drop-caches slows the scenarios timed after it (a lockfile-change ran ~10 \
             times as long); run {} in an invocation without it",
            others.join(", ")
        ));
    }
    Ok(())
}

/// `given` resolved against the current directory, or `default` under the repo.
fn abs(repo: &Path, given: Option<PathBuf>, default: &str) -> PathBuf {
    match given {
        Some(path) if path.is_absolute() => path,
        Some(path) => std::env::current_dir()
            .map(|cwd| cwd.join(&path))
            .unwrap_or(path),
        None => repo.join(default),
    }
}

/// Stages every tool, checks it once, and times the survivors with hyperfine.
fn run_scenario(
    env: &mut Env,
    args: &Args,
    fixture: &Path,
    fixture_name: &str,
    scenario: Scenario,
    tools: &[Tool],
    floor: bool,
) -> Result<Vec<Row>> {
    eprintln!("== {fixture_name}: {} ==", scenario.name());
    let mut rows: Vec<Row> = Vec::new();
    let mut floor_source: Option<(PathBuf, String)> = None;
    for tool in tools {
        let Some(staged) = stage_and_check(env, fixture, fixture_name, scenario, tool) else {
            continue;
        };
        // pnpm's tree is the reference for the floor; bun's or pacquet's
        // will do when pnpm is not there.
        let better = tool.kind == ToolKind::Pnpm || floor_source.is_none();
        if floor && better {
            floor_source = Some((staged.project.join("node_modules"), tool.label.clone()));
        }
        rows.push(staged.into_row(tool));
    }
    if let Some((src, from)) = floor_source {
        match env.stage_floor(fixture_name, &src, &from) {
            Ok(mut floor_rows) => rows.append(&mut floor_rows),
            Err(why) => env.note(scenario, format!("floor rows dropped: {why}")),
        }
    } else if floor {
        env.note(
            scenario,
            "floor rows dropped: no tool produced a tree to replay".to_string(),
        );
    }
    if rows.is_empty() {
        return Err("no tool passed its check run".into());
    }
    if let Some(waited) = quiet::wait_for_freed_inodes(&env.deletion_marker()) {
        env.note(scenario, waited);
    }
    if let Some(busy) = quiet::wait_for_quiet_disk() {
        env.note(scenario, busy);
    }
    let settle = if args.drop_caches {
        let command = env.drop_caches_command()?;
        env.note(
            scenario,
            "before every run the page cache was dropped and the tools, builds and mirror \
             read back in (`--drop-caches`)"
                .to_string(),
        );
        Some(command)
    } else {
        None
    };
    let json = env.hyperfine_json(fixture_name, scenario);
    hyperfine(&json, args.runs, args.warmup, &rows, settle.as_deref())?;
    report::fill_times(&json, &mut rows)?;
    Ok(rows)
}

/// `tool` staged for the scenario, if staging and its check run both
/// succeeded; otherwise it is dropped with a note saying why.
fn stage_and_check(
    env: &mut Env,
    fixture: &Path,
    fixture_name: &str,
    scenario: Scenario,
    tool: &Tool,
) -> Option<Staged> {
    let staged = match env.stage(fixture, fixture_name, scenario, tool) {
        Ok(staged) => staged,
        Err(why) => {
            env.note(
                scenario,
                format!("{} dropped: staging failed: {why}", tool.label),
            );
            return None;
        }
    };
    eprintln!("check run: {}", tool.label);
    match env.check_run(&staged, fixture) {
        Ok(()) => Some(staged),
        Err(why) => {
            env.note(
                scenario,
                format!("{} dropped: its check run failed: {why}", tool.label),
            );
            None
        }
    }
}

/// Times every row in interleaved rounds (`rounds`): `warmup` untimed
/// rounds, then `runs` timed ones, each one hyperfine run of one run per
/// row in that round's order. The timed rounds' exports are merged into
/// `json`, in row order. `settle` runs after each row's preparation.
fn hyperfine(
    json: &Path,
    runs: u32,
    warmup: u32,
    rows: &[Row],
    settle: Option<&str>,
) -> Result<()> {
    eprintln!(
        "hyperfine: {} commands interleaved, {} timed rounds after {} warm-up round(s)",
        rows.len(),
        runs,
        warmup
    );
    let mut timed = Vec::new();
    for round in 0..warmup + runs {
        let order = rounds::order(round, rows.len());
        let round_json = json.with_extension(format!("round-{round}.json"));
        hyperfine_round(&round_json, order.iter().map(|&i| &rows[i]), settle)?;
        let (label, nth) = if round < warmup {
            ("warm-up round", round + 1)
        } else {
            ("round", round - warmup + 1)
        };
        let names: Vec<&str> = order.iter().map(|&i| rows[i].name.as_str()).collect();
        eprintln!("{label} {nth}: {}", names.join(" → "));
        if round >= warmup {
            let text = fs::read_to_string(&round_json)
                .map_err(|e| format!("{}: {e}", round_json.display()))?;
            let doc: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| format!("{}: {e}", round_json.display()))?;
            timed.push(doc);
        }
    }
    let names: Vec<String> = rows.iter().map(|row| row.name.clone()).collect();
    let merged = rounds::merge(&names, &timed)?;
    let text = serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())? + "\n";
    fs::write(json, text).map_err(|e| format!("{}: {e}", json.display()))
}

/// A row's preparation as hyperfine runs it: then `sync` (so that no run
/// pays for writing back the previous runs' trees: without it the rows
/// timed last were penalised, warm alotta's link-floor 1.16 s after pnpm and
/// bun, 0.47 s alone), then `settle` (`--drop-caches`), which must come
/// after the write-back to drop what it wrote.
fn prepare_command(prepare: &str, settle: Option<&str>) -> String {
    match settle {
        Some(settle) => format!("{prepare}; sync; {settle}"),
        None => format!("{prepare}; sync"),
    }
}

/// One hyperfine run of one run per row, in the order given.
fn hyperfine_round<'r>(
    json: &Path,
    rows: impl Iterator<Item = &'r Row> + Clone,
    settle: Option<&str>,
) -> Result<()> {
    let mut cmd = Command::new("hyperfine");
    cmd.args(["--runs", "1", "--warmup", "0", "--style", "basic"])
        .args(["--time-unit", "second"])
        .arg("--export-json")
        .arg(json);
    for row in rows.clone() {
        cmd.args(["--prepare", &prepare_command(&row.prepare, settle)]);
    }
    for row in rows.clone() {
        cmd.args(["--command-name", &row.name]);
    }
    for row in rows {
        cmd.arg(&row.command);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("running hyperfine: {e}"))?;
    if !status.success() {
        return Err(format!("hyperfine exited with {status}"));
    }
    Ok(())
}

/// Shell snippet moving `path` (if present) into a fresh directory under `trash`.
pub fn move_aside(path: &Path, trash: &Path) -> String {
    let p = sh_quote(path);
    format!(
        "if [ -e {p} ]; then t=$(mktemp -d {}/XXXXXXXX) && mv {p} \"$t\"/; fi",
        sh_quote(trash)
    )
}

#[cfg(test)]
mod tests;
