//! Everything around the timed runs: helper builds, tools, pacquet builds,
//! the mirror and its loopback registry, staging and check runs.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Instant;

use crate::commit::{Commit, WORKING_TREE};
use crate::report::Row;
use crate::{NodeLinker, Result, Scenario, move_aside};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ToolKind {
    Pacquet,
    Pnpm,
    Bun,
    Floor,
}

pub struct Tool {
    pub kind: ToolKind,
    pub label: String,
    pub bin: PathBuf,
    pub version: String,
    /// The pacquet commit this build measures (`None` for other tools and
    /// prebuilt binaries).
    pub commit: Option<Commit>,
}

impl Tool {
    pub fn new(kind: ToolKind, label: String, bin: PathBuf, version: String) -> Tool {
        Tool {
            kind,
            label,
            bin,
            version,
            commit: None,
        }
    }
}

/// One tool's private copy of the fixture.
pub struct Staged {
    pub project: PathBuf,
    pub command: String,
    pub prepare: String,
    /// What a successful run must have produced.
    pub expect: Expect,
    pub log: PathBuf,
}

impl Staged {
    pub fn into_row(self, tool: &Tool) -> Row {
        let mut row = Row::new(
            tool.label.clone(),
            tool.kind,
            self.command,
            self.prepare,
            tool.version.clone(),
        );
        row.commit = tool.commit.clone();
        row
    }
}

/// The check a tool's untimed first run must pass.
pub enum Expect {
    /// Every direct dependency of the fixture is in this `node_modules`.
    DirectDeps(PathBuf),
    /// This store (the `v11` dir) has an index and content files.
    Store(PathBuf),
    /// This lockfile was written.
    Lockfile(PathBuf),
}

pub struct Env {
    pub repo: PathBuf,
    pub work: PathBuf,
    mirror: PathBuf,
    trash: PathBuf,
    helpers: PathBuf,
    floor_threads: usize,
    notes: Vec<(Option<Scenario>, String)>,
    registry: Option<(Child, ChildStdin)>,
    registry_url: String,
    trash_serial: u32,
    linker: NodeLinker,
}

impl Env {
    pub fn new(
        repo: PathBuf,
        work: PathBuf,
        mirror: PathBuf,
        floor_threads: Option<usize>,
        linker: NodeLinker,
    ) -> Result<Env> {
        let trash = work.join("trash");
        for dir in [
            &trash,
            &work.join("logs"),
            &work.join("bin"),
            &work.join("raw"),
        ] {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let helpers = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo.join("target"))
            .join("release");
        let floor_threads = floor_threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Env {
            repo,
            work,
            mirror,
            trash,
            helpers,
            floor_threads,
            notes: Vec::new(),
            registry: None,
            registry_url: String::new(),
            trash_serial: 0,
            linker,
        })
    }

    pub fn note(&mut self, scenario: Scenario, note: String) {
        eprintln!("note: {note}");
        self.notes.push((Some(scenario), note));
    }

    pub fn note_everywhere(&mut self, note: String) {
        eprintln!("note: {note}");
        self.notes.push((None, note));
    }

    pub fn notes_for(&self, scenario: Scenario) -> Vec<String> {
        self.notes
            .iter()
            .filter(|(s, _)| s.is_none_or(|s| s == scenario))
            .map(|(_, n)| n.clone())
            .collect()
    }

    pub fn hyperfine_json(&self, fixture: &str, scenario: Scenario) -> PathBuf {
        self.work
            .join("raw")
            .join(format!("{fixture}-{}.json", scenario.name()))
    }

    /// The loopback registry, the mirror filler and link-floor, from this checkout.
    pub fn build_helpers(&self) -> Result<()> {
        let log = self.work.join("logs/build-helpers.log");
        eprintln!("building helpers (pacquet-test-registry, registry-mirror, link-floor)");
        let mut cmd = Command::new("cargo");
        cmd.current_dir(&self.repo).args([
            "build",
            "--release",
            "-p",
            "pacquet-testing",
            "-p",
            "registry-mirror",
            "-p",
            "link-floor",
            // `--bin` filters every selected package: name all three, or
            // only the first is built.
            "--bin",
            "pacquet-test-registry",
            "--bin",
            "registry-mirror",
            "--bin",
            "link-floor",
        ]);
        logged(cmd, &log).map_err(|e| format!("building helpers failed: {e}"))
    }

    fn helper(&self, name: &str) -> PathBuf {
        self.helpers.join(name)
    }

    /// Builds `rev` (`working-tree` or a git revision) and returns it as a
    /// tool labelled with the commit it measures, resolved before the build.
    pub fn build_pacquet(&self, rev: &str) -> Result<Tool> {
        let (commit, src_dir, target_dir, slug) = if rev == WORKING_TREE {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| self.repo.join("target"));
            let commit = Commit::of_working_tree(&self.repo)
                .map_err(|e| format!("pacquet {rev} dropped: its commit is unknown: {e}"))?;
            (commit, self.repo.clone(), target, WORKING_TREE.to_string())
        } else {
            let sha = capture(
                Command::new("git")
                    .current_dir(&self.repo)
                    .args(["rev-parse", "--verify", "--quiet"])
                    .arg(format!("{rev}^{{commit}}")),
            )
            .map_err(|_| format!("pacquet {rev}: not a git revision"))?;
            let short = sha[..10.min(sha.len())].to_string();
            // Outside the checkout: cargo reads `.cargo/config.toml` from
            // every directory above the one it builds in, so a worktree
            // inside the checkout would build with the checkout's settings
            // (its `[env]`, say) instead of the revision's own.
            let trees = std::env::temp_dir().join("pacquet-bench-revisions");
            let tree = trees.join(&short);
            if !tree.join("Cargo.toml").is_file() {
                fs::create_dir_all(&trees).map_err(|e| e.to_string())?;
                capture(
                    Command::new("git")
                        .current_dir(&self.repo)
                        .args(["worktree", "add", "--detach", "--force"])
                        .arg(&tree)
                        .arg(&sha),
                )
                .map_err(|e| format!("pacquet {rev}: git worktree add failed: {e}"))?;
            }
            let commit = Commit::of_revision(&self.repo, rev, &sha)
                .map_err(|e| format!("pacquet {rev} dropped: {e}"))?;
            let target = self.work.join("revisions").join(format!("{short}-target"));
            (commit, tree, target, short)
        };
        let label = commit.label();
        let bin = self.work.join("bin").join(format!("pacquet-{slug}"));
        let log = self
            .work
            .join("logs")
            .join(format!("build-pacquet-{slug}.log"));
        // A built commit never changes; the working tree is rebuilt every time.
        if rev == WORKING_TREE || !bin.is_file() {
            eprintln!("building {label} (log: {})", log.display());
            let start = Instant::now();
            let mut cmd = Command::new("cargo");
            cmd.current_dir(&src_dir)
                .args(["build", "--release", "-p", "pacquet-cli", "--target-dir"])
                .arg(&target_dir);
            if rev != WORKING_TREE {
                for key in crate::cargo_env::checkout_keys(&self.repo) {
                    cmd.env_remove(key);
                }
            }
            logged(cmd, &log).map_err(|e| {
                format!(
                    "{label} dropped: `cargo build --release -p pacquet-cli` failed ({e}; {}; full log: {})",
                    first_error(&log),
                    log.display()
                )
            })?;
            eprintln!("built {label} in {:.0}s", start.elapsed().as_secs_f64());
            // Copy, so that a concurrent rebuild cannot swap the binary mid-run.
            let _ = fs::remove_file(&bin);
            fs::copy(target_dir.join("release/pacquet"), &bin)
                .map_err(|e| format!("{label}: copying the binary: {e}"))?;
        }
        let version = version_of(&bin, &["--version"]).unwrap_or_default();
        let mut tool = Tool::new(ToolKind::Pacquet, label, bin, version);
        tool.commit = Some(commit);
        Ok(tool)
    }

    pub fn install_pnpm(&self, version: &str) -> Result<Tool> {
        let bin = self.npm_tool("pnpm", version)?;
        Ok(Tool::new(
            ToolKind::Pnpm,
            format!("pnpm {version}"),
            bin,
            version.to_string(),
        ))
    }

    pub fn install_bun(&self, version: &str) -> Result<Tool> {
        let bin = self.npm_tool("bun", version)?;
        Ok(Tool::new(
            ToolKind::Bun,
            format!("bun {version} ({})", self.linker.name()),
            bin,
            version.to_string(),
        ))
    }

    /// `npm install --prefix <work>/tools/<name>-<version> <name>@<version>`, once.
    fn npm_tool(&self, name: &str, version: &str) -> Result<PathBuf> {
        let prefix = self.work.join("tools").join(format!("{name}-{version}"));
        let bin = prefix.join("node_modules/.bin").join(name);
        if version_of(&bin, &["--version"]).as_deref() == Some(version) {
            return Ok(bin);
        }
        eprintln!("installing {name} {version} into {}", prefix.display());
        fs::create_dir_all(&prefix).map_err(|e| e.to_string())?;
        let mut cmd = Command::new("npm");
        cmd.args(["install", "--prefix"])
            .arg(&prefix)
            .args(["--no-audit", "--no-fund", "--no-save", "--loglevel=error"])
            .arg(format!("{name}@{version}"));
        let log = self.work.join("logs").join(format!("install-{name}.log"));
        logged(cmd, &log)
            .map_err(|e| format!("{name} {version} dropped: npm install failed: {e}"))?;
        match version_of(&bin, &["--version"]) {
            Some(v) if v == version => Ok(bin),
            got => Err(format!(
                "{name} dropped: expected {version} at {}, found {got:?}",
                bin.display()
            )),
        }
    }

    /// Makes sure the mirror has every tarball of the fixture's lockfile
    /// (and, with `packuments`, every package's registry document, and
    /// those of the `extra` lockfiles).
    pub fn fill_mirror(&self, fixture: &Path, packuments: bool, extra: &[PathBuf]) -> Result<()> {
        eprintln!(
            "checking the mirror {} (registry-mirror)",
            self.mirror.display()
        );
        let mut cmd = Command::new(self.helper("registry-mirror"));
        cmd.arg("--out")
            .arg(&self.mirror)
            .arg(fixture.join("pnpm-lock.yaml"))
            .args(extra);
        if packuments {
            cmd.arg("--packuments");
        }
        logged(cmd, &self.work.join("logs/registry-mirror.log"))
            .map_err(|e| format!("filling the mirror failed: {e}"))
    }

    /// The lockfile pnpm resolves for the fixture's package.json from the
    /// npm registry, made once and kept under the work dir: what a fresh
    /// resolution needs may differ from the fixture's lockfile, so the
    /// mirror gets its documents too.
    pub fn seed_lockfile(
        &self,
        fixture: &Path,
        fixture_name: &str,
        pnpm: &Path,
    ) -> Result<PathBuf> {
        let dir = self.work.join("seed").join(fixture_name);
        let lockfile = dir.join("project/pnpm-lock.yaml");
        if lockfile.is_file() {
            return Ok(lockfile);
        }
        eprintln!("resolving {fixture_name} once from the npm registry (pnpm --lockfile-only)");
        let project = dir.join("project");
        fs::create_dir_all(&project).map_err(|e| format!("{}: {e}", project.display()))?;
        for name in ["package.json", "pnpm-workspace.yaml"] {
            if fixture.join(name).is_file() {
                fs::copy(fixture.join(name), project.join(name))
                    .map_err(|e| format!("seeding {name}: {e}"))?;
            }
        }
        let home = dir.join("home");
        let mut cmd = Command::new(pnpm);
        cmd.current_dir(&project)
            .env("HOME", &home)
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_STATE_HOME", home.join("state"))
            .args([
                "install",
                "--lockfile-only",
                "--no-frozen-lockfile",
                "--ignore-scripts",
            ]);
        logged(cmd, &dir.join("seed.log")).map_err(|e| {
            format!(
                "seeding the resolution: {e}: {}",
                tail(&dir.join("seed.log"), 3)
            )
        })?;
        Ok(lockfile)
    }

    pub fn start_registry(&mut self) -> Result<()> {
        let mut child = Command::new(self.helper("pacquet-test-registry"))
            .arg("serve")
            .arg("--mirror")
            .arg(&self.mirror)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting pacquet-test-registry: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut line)
            .map_err(|e| format!("reading the registry URL: {e}"))?;
        self.registry_url = line.trim().to_string();
        if !self.registry_url.starts_with("http://") {
            let _ = child.kill();
            return Err(format!("registry printed {line:?} instead of its URL"));
        }
        eprintln!(
            "registry: {} serving {}",
            self.registry_url,
            self.mirror.display()
        );
        self.registry = Some((child, stdin));
        Ok(())
    }

    pub fn stop_registry(&mut self) {
        if let Some((mut child, stdin)) = self.registry.take() {
            drop(stdin); // it serves until stdin closes
            let _ = child.wait();
        }
    }

    fn trash_slot(&mut self) -> PathBuf {
        self.trash_serial += 1;
        self.trash
            .join(format!("old-{}-{}", std::process::id(), self.trash_serial))
    }

    /// Renames the previous run's staging dir into the trash (deleted at the end).
    pub fn retire_old_stage(&mut self, fixture: &str) -> Result<()> {
        let old = self.work.join("stage").join(fixture);
        if old.exists() {
            let slot = self.trash_slot();
            fs::rename(&old, &slot).map_err(|e| format!("moving {} aside: {e}", old.display()))?;
        }
        Ok(())
    }

    /// Deletes everything renamed aside, now that nothing is timed any more.
    pub fn empty_trash(&self) {
        // An empty trash frees no inodes: nothing for the next run to wait out.
        let held_trees = fs::read_dir(&self.trash).is_ok_and(|mut d| d.next().is_some());
        let start = Instant::now();
        match fs::remove_dir_all(&self.trash) {
            Ok(()) => eprintln!("emptied the trash in {:.1}s", start.elapsed().as_secs_f64()),
            Err(e) => eprintln!("emptying {}: {e}", self.trash.display()),
        }
        if held_trees {
            crate::quiet::mark_deletion(&self.deletion_marker());
        }
    }

    /// Touched when the trash was last deleted (`quiet::wait_for_freed_inodes`).
    pub fn deletion_marker(&self) -> PathBuf {
        self.work.join("trash-deleted")
    }

    /// The shell command `--drop-caches` runs before every timed run: the
    /// caches dropped, then what every run reads anyway (the tools, the
    /// pacquet builds, the mirror the registry serves) read back in, so no
    /// tool pays for a cold read of its own binary. Refused when the caches
    /// cannot be dropped (not root).
    pub fn drop_caches_command(&self) -> Result<String> {
        const DROP: &str = "/proc/sys/vm/drop_caches";
        fs::OpenOptions::new()
            .write(true)
            .open(DROP)
            .map_err(|e| format!("--drop-caches: {DROP}: {e} (it needs root)"))?;
        let dirs = [
            self.work.join("tools"),
            self.work.join("bin"),
            self.mirror.clone(),
        ];
        let dirs: Vec<String> = dirs.iter().map(|d| sh_quote(d)).collect();
        Ok(format!(
            "echo 3 > {DROP} && find {} -type f -exec cat {{}} + > /dev/null",
            dirs.join(" ")
        ))
    }

    /// A private copy of the fixture, store and cache for `tool`.
    pub fn stage(
        &mut self,
        fixture: &Path,
        fixture_name: &str,
        scenario: Scenario,
        tool: &Tool,
    ) -> Result<Staged> {
        let dir = self
            .work
            .join("stage")
            .join(fixture_name)
            .join(scenario.name())
            .join(slug(&tool.label));
        let dirs = StageDirs::in_dir(&dir);
        self.stage_files(fixture, scenario, tool, &dirs)?;
        let command = install_command(
            tool,
            scenario,
            &dirs.project,
            &dirs.store,
            &dirs.cache,
            self.linker,
        )?;
        if tool.kind == ToolKind::Bun {
            self.note(
                scenario,
                format!(
                    "{}: bun.lock is made in staging by `bun pm migrate` from pnpm-lock.yaml; \
                     bun ignores pnpm-workspace.yaml (e.g. `supportedArchitectures`), so it \
                     may install fewer optional platform packages than pnpm and pacquet",
                    tool.label
                ),
            );
        }
        let prepare = prepare_script(
            scenario,
            &dirs,
            &command,
            side_files(tool.kind),
            &self.trash,
        );
        let expect = match scenario {
            Scenario::LockfileOnlyFetch => Expect::Store(dirs.store.join("v11")),
            Scenario::ResolveWarm | Scenario::ResolveCold => {
                Expect::Lockfile(dirs.project.join(match tool.kind {
                    ToolKind::Bun => "bun.lock",
                    _ => "pnpm-lock.yaml",
                }))
            }
            _ => Expect::DirectDeps(dirs.project.join("node_modules")),
        };
        Ok(Staged {
            project: dirs.project,
            command,
            prepare,
            expect,
            log: dir.join("check.log"),
        })
    }

    /// Writes the project's `pnpm-workspace.yaml` and `.npmrc`, stages the
    /// side(s) it is installed from, and copies the full side into it.
    fn stage_files(
        &mut self,
        fixture: &Path,
        scenario: Scenario,
        tool: &Tool,
        dirs: &StageDirs,
    ) -> Result<()> {
        let project = &dirs.project;
        fs::create_dir_all(project).map_err(|e| format!("{}: {e}", project.display()))?;
        let mut workspace = workspace_yaml(
            fixture,
            &dirs.store,
            &dirs.cache,
            !scenario.verifies(),
            self.linker,
        );
        if scenario == Scenario::WarmGlobal {
            workspace.push_str("enableGlobalVirtualStore: true\n");
        }
        let npmrc = format!("registry={}\n", self.registry_url);
        // Each side of the project lives in its own dir, with the bun.lock bun
        // makes from it; `project` gets copies of the side being installed.
        self.stage_side(tool, &dirs.after, fixture, &workspace, &npmrc, &dirs.cache)?;
        if scenario == Scenario::LockfileChange {
            let removed = crate::variant::write_smaller(fixture, &dirs.before)?;
            self.note(
                scenario,
                format!(
                    "{}: the previous install had {} direct dependencies fewer ({}), {} snapshots \
                     and {} packages fewer",
                    tool.label,
                    removed.direct.len(),
                    removed.direct.join(", "),
                    removed.snapshots,
                    removed.packages
                ),
            );
            let before = &dirs.before;
            self.stage_side(tool, before, before, &workspace, &npmrc, &dirs.cache)?;
        }
        for name in side_files(tool.kind) {
            fs::copy(dirs.after.join(name), project.join(name))
                .map_err(|e| format!("staging {name}: {e}"))?;
        }
        write(&project.join("pnpm-workspace.yaml"), &workspace)?;
        write(&project.join(".npmrc"), &npmrc)
    }

    /// Fills `side` with the manifest and lockfile from `from` and, for bun,
    /// the bun.lock `bun pm migrate` makes of them against this registry.
    fn stage_side(
        &self,
        tool: &Tool,
        side: &Path,
        from: &Path,
        workspace: &str,
        npmrc: &str,
        cache: &Path,
    ) -> Result<()> {
        fs::create_dir_all(side).map_err(|e| format!("{}: {e}", side.display()))?;
        if from != side {
            for name in ["package.json", "pnpm-lock.yaml"] {
                fs::copy(from.join(name), side.join(name))
                    .map_err(|e| format!("staging {name}: {e}"))?;
            }
        }
        write(&side.join("pnpm-workspace.yaml"), workspace)?;
        write(&side.join(".npmrc"), npmrc)?;
        if tool.kind != ToolKind::Bun {
            return Ok(());
        }
        // bun wants its own lockfile; it embeds full tarball URLs, so it is
        // made here, against this session's registry.
        let _ = fs::remove_file(side.join("bun.lock"));
        let mut cmd = Command::new(&tool.bin);
        cmd.current_dir(side)
            .env("BUN_INSTALL_CACHE_DIR", cache)
            .args(["pm", "migrate"]);
        logged(cmd, &side.join("migrate.log"))
            .map_err(|e| format!("`bun pm migrate` failed: {e}"))?;
        if !side.join("bun.lock").is_file() {
            return Err("`bun pm migrate` wrote no bun.lock".into());
        }
        Ok(())
    }

    /// Runs preparation and command once; the install must succeed and leave
    /// every direct dependency of the fixture in node_modules.
    pub fn check_run(&self, staged: &Staged, fixture: &Path) -> Result<()> {
        let script = format!("{}\n{}", staged.prepare, staged.command);
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&script);
        let start = Instant::now();
        logged(cmd, &staged.log).map_err(|e| {
            format!(
                "{e}: {} (log: {})",
                tail(&staged.log, 3),
                staged.log.display()
            )
        })?;
        eprintln!("  ok in {:.2}s", start.elapsed().as_secs_f64());
        match &staged.expect {
            Expect::DirectDeps(nm) => {
                let missing: Vec<String> = direct_deps(fixture)
                    .into_iter()
                    .filter(|name| fs::symlink_metadata(nm.join(name)).is_err())
                    .collect();
                if missing.is_empty() {
                    Ok(())
                } else {
                    Err(format!(
                        "exit 0 but node_modules lacks {} direct dependencies (e.g. {})",
                        missing.len(),
                        missing[..missing.len().min(3)].join(", ")
                    ))
                }
            }
            Expect::Lockfile(path) => {
                if path.is_file() {
                    Ok(())
                } else {
                    Err(format!("exit 0 but no {} was written", path.display()))
                }
            }
            Expect::Store(v11) => {
                let files = fs::read_dir(v11.join("files")).map_or(0, |d| d.count());
                if v11.join("index.db").is_file() && files > 0 {
                    Ok(())
                } else {
                    Err(format!(
                        "exit 0 but {} has no index.db or no content files",
                        v11.display()
                    ))
                }
            }
        }
    }

    /// `link-floor replay` and `cp -al` of a finished tree, as extra warm rows.
    pub fn stage_floor(&mut self, fixture_name: &str, tree: &Path, from: &str) -> Result<Vec<Row>> {
        let dir = self
            .work
            .join("stage")
            .join(fixture_name)
            .join("warm/floor");
        let src = dir.join("src/node_modules");
        fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
        // Keep a private copy of the tree: the tool's own node_modules is
        // renamed aside during its runs.
        let mut cp = Command::new("cp");
        cp.arg("-al").arg(tree).arg(&src);
        logged(cp, &dir.join("copy.log")).map_err(|e| format!("cp -al of the source tree: {e}"))?;
        let plan = dir.join("plan");
        let lf = self.helper("link-floor");
        let shape = record_plan(&lf, &src, &plan, &dir.join("record.log"))?;
        self.note(
            Scenario::Warm,
            format!("floor rows replay the tree installed by `{from}` ({shape})"),
        );
        let replay_dest = dir.join("replay");
        let cp_dest = dir.join("cpal");
        let rows = [
            (
                replay_row(&lf, &plan, self.floor_threads, &replay_dest, &self.trash),
                replay_dest.join("node_modules"),
            ),
            (
                cp_al_row(&src, &cp_dest, &self.trash),
                cp_dest.join("node_modules"),
            ),
        ];
        let mut kept = Vec::new();
        for (i, (row, made)) in rows.into_iter().enumerate() {
            if self.check_floor_row(&row, &made, &dir.join(format!("check-{i}.log"))) {
                kept.push(row);
            }
        }
        Ok(kept)
    }

    /// Runs a floor row's preparation and command once; it must succeed and
    /// make the tree `made`. A row that does not is dropped with a note.
    fn check_floor_row(&mut self, row: &Row, made: &Path, log: &Path) -> bool {
        let script = format!("{}\n{}", row.prepare, row.command);
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&script);
        match logged(cmd, log) {
            Ok(()) if made.is_dir() => return true,
            Ok(()) => self.note(
                Scenario::Warm,
                format!("{} dropped: no tree made", row.name),
            ),
            Err(e) => self.note(
                Scenario::Warm,
                format!("{} dropped: {e}: {}", row.name, tail(log, 3)),
            ),
        }
        false
    }
}

/// Where one tool's staging dir keeps what.
struct StageDirs {
    /// Where the timed install runs.
    project: PathBuf,
    store: PathBuf,
    cache: PathBuf,
    /// The fixture's manifest and lockfile (and bun.lock): what is installed.
    after: PathBuf,
    /// lockfile-change only: the smaller variant, installed before each run.
    before: PathBuf,
}

impl StageDirs {
    fn in_dir(dir: &Path) -> StageDirs {
        StageDirs {
            project: dir.join("project"),
            store: dir.join("store"),
            cache: dir.join("cache"),
            after: dir.join("after"),
            before: dir.join("before"),
        }
    }
}

/// The fixture's `pnpm-workspace.yaml` (if any) pointed at the tool's own
/// store and cache, trusting the lockfile unless `trust` is off, with the
/// layout to install.
fn workspace_yaml(
    fixture: &Path,
    store: &Path,
    cache: &Path,
    trust: bool,
    linker: NodeLinker,
) -> String {
    let mut workspace = fs::read_to_string(fixture.join("pnpm-workspace.yaml")).unwrap_or_default();
    if !workspace.is_empty() && !workspace.ends_with('\n') {
        workspace.push('\n');
    }
    workspace.push_str(&format!(
        "# Added by integrated-benchmark.\nstoreDir: {}\ncacheDir: {}\n{}",
        yaml_str(store),
        yaml_str(cache),
        if trust { "trustLockfile: true\n" } else { "" }
    ));
    if linker == NodeLinker::Hoisted {
        workspace.push_str("nodeLinker: hoisted\n");
    }
    workspace
}

/// The files a side consists of, as the tool reads them.
fn side_files(kind: ToolKind) -> &'static [&'static str] {
    if kind == ToolKind::Bun {
        &["package.json", "pnpm-lock.yaml", "bun.lock"]
    } else {
        &["package.json", "pnpm-lock.yaml"]
    }
}

/// The timed command: `tool`'s frozen install (or `fetch`) in `project`.
fn install_command(
    tool: &Tool,
    scenario: Scenario,
    project: &Path,
    store: &Path,
    cache: &Path,
    linker: NodeLinker,
) -> Result<String> {
    let p = sh_quote(project);
    let bin = sh_quote(&tool.bin);
    Ok(match (tool.kind, scenario) {
        (ToolKind::Pacquet, Scenario::LockfileOnlyFetch) => {
            format!("cd {p} && {bin} fetch --store-dir {}", sh_quote(store))
        }
        (ToolKind::Pnpm, Scenario::LockfileOnlyFetch) => format!("cd {p} && {bin} fetch"),
        (ToolKind::Bun, Scenario::LockfileOnlyFetch) => {
            return Err("bun has no command that fills its cache from a lockfile alone".into());
        }
        (ToolKind::Bun, Scenario::WarmGlobal) => {
            return Err("bun has no global virtual store".into());
        }
        (ToolKind::Pacquet, Scenario::ResolveWarm | Scenario::ResolveCold) => format!(
            "cd {p} && {bin} install --lockfile-only --store-dir {}",
            sh_quote(store)
        ),
        (ToolKind::Pnpm, Scenario::ResolveWarm | Scenario::ResolveCold) => {
            format!("cd {p} && {bin} install --lockfile-only --no-frozen-lockfile --ignore-scripts")
        }
        (ToolKind::Bun, Scenario::ResolveWarm | Scenario::ResolveCold) => format!(
            "cd {p} && BUN_INSTALL_CACHE_DIR={} {bin} install --lockfile-only --ignore-scripts",
            sh_quote(cache)
        ),
        (ToolKind::Pacquet, _) => format!(
            "cd {p} && {bin} install --frozen-lockfile --ignore-scripts --store-dir {}",
            sh_quote(store)
        ),
        (ToolKind::Pnpm, _) => {
            format!("cd {p} && {bin} install --frozen-lockfile --ignore-scripts")
        }
        (ToolKind::Bun, _) => format!(
            "cd {p} && BUN_INSTALL_CACHE_DIR={} {bin} install --linker {} --frozen-lockfile --ignore-scripts",
            sh_quote(cache),
            linker.name()
        ),
        (ToolKind::Floor, _) => unreachable!("floor rows are staged by stage_floor"),
    })
}

/// What runs before each timed `command` to put the project back into the
/// scenario's starting state; old trees are moved into `trash`.
fn prepare_script(
    scenario: Scenario,
    dirs: &StageDirs,
    command: &str,
    side_files: &[&str],
    trash: &Path,
) -> String {
    let nm = dirs.project.join("node_modules");
    match scenario {
        Scenario::Cold | Scenario::ColdVerified | Scenario::LockfileOnlyFetch => {
            [&nm, &dirs.store, &dirs.cache]
                .iter()
                .map(|p| move_aside(p, trash))
                .collect::<Vec<_>>()
                .join("; ")
        }
        Scenario::Warm | Scenario::WarmGlobal => move_aside(&nm, trash),
        Scenario::Repeat | Scenario::RepeatVerified => "true".to_string(),
        // No lockfile of any tool; the cold one also has no cache or store.
        Scenario::ResolveWarm | Scenario::ResolveCold => {
            let mut aside = vec![
                dirs.project.join("pnpm-lock.yaml"),
                dirs.project.join("bun.lock"),
                nm,
            ];
            if scenario == Scenario::ResolveCold {
                aside.extend([dirs.store.clone(), dirs.cache.clone()]);
            }
            aside
                .iter()
                .map(|p| move_aside(p, trash))
                .collect::<Vec<_>>()
                .join("; ")
        }
        // The untimed install of the smaller side, then the full side's files.
        Scenario::LockfileChange => format!(
            "{} && {} && ({command}) >/dev/null 2>&1 && {}",
            move_aside(&nm, trash),
            copy_side(&dirs.before, side_files, &dirs.project),
            copy_side(&dirs.after, side_files, &dirs.project)
        ),
    }
}

/// Shell copying `side`'s files into `project`.
fn copy_side(side: &Path, side_files: &[&str], project: &Path) -> String {
    let p = sh_quote(project);
    side_files
        .iter()
        .map(|name| format!("cp {} {p}/", sh_quote(&side.join(name))))
        .collect::<Vec<_>>()
        .join(" && ")
}

/// `link-floor record` of `src` into `plan`, logged to `log`; returns the
/// shape it reports (what follows `recorded `, up to ` from `).
fn record_plan(lf: &Path, src: &Path, plan: &Path, log: &Path) -> Result<String> {
    let mut record = Command::new(lf);
    record.arg("record").arg(src).arg("--plan").arg(plan);
    logged(record, log).map_err(|e| format!("link-floor record: {e}"))?;
    let shape = fs::read_to_string(log).unwrap_or_default();
    Ok(shape
        .trim()
        .trim_start_matches("recorded ")
        .split(" from ")
        .next()
        .unwrap_or("")
        .to_string())
}

/// The `link-floor replay` row: `threads` threads making `dest/node_modules`
/// from `plan`.
fn replay_row(lf: &Path, plan: &Path, threads: usize, dest: &Path, trash: &Path) -> Row {
    Row::new(
        format!("floor: link-floor -j{threads}"),
        ToolKind::Floor,
        format!(
            "{} replay --plan {} -j {} {}",
            sh_quote(lf),
            sh_quote(plan),
            threads,
            sh_quote(&dest.join("node_modules"))
        ),
        move_aside(dest, trash),
        "mkdir + link(2) + symlink".into(),
    )
}

/// The `cp -al` row: coreutils hard-linking `src` to `dest/node_modules`.
fn cp_al_row(src: &Path, dest: &Path, trash: &Path) -> Row {
    Row::new(
        "floor: cp -al".into(),
        ToolKind::Floor,
        format!(
            "cp -al {} {}",
            sh_quote(src),
            sh_quote(&dest.join("node_modules"))
        ),
        format!(
            "mkdir -p {} && {}",
            sh_quote(dest),
            move_aside(&dest.join("node_modules"), trash)
        ),
        "GNU coreutils".into(),
    )
}

/// Runs `cmd` with stdout and stderr into `log`.
fn logged(mut cmd: Command, log: &Path) -> Result<()> {
    if let Some(dir) = log.parent() {
        let _ = fs::create_dir_all(dir);
    }
    let file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let status = cmd
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .status()
        .map_err(|e| format!("could not start {:?}: {e}", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("exited with {status}"))
    }
}

/// Trimmed stdout of a successful command.
fn capture(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

pub fn version_of(bin: &Path, args: &[&str]) -> Option<String> {
    if !bin.is_file() {
        return None;
    }
    capture(Command::new(bin).args(args)).ok()
}

fn tail(log: &Path, n: usize) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join(" / ")
}

fn first_error(log: &Path) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let errors = text.lines().filter(|l| l.starts_with("error")).count();
    match text.lines().find(|l| l.starts_with("error")) {
        Some(line) => format!("{errors} error lines, first: `{}`", line.trim()),
        None => tail(log, 2),
    }
}

fn direct_deps(fixture: &Path) -> Vec<String> {
    let text = fs::read_to_string(fixture.join("package.json")).unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    ["dependencies", "devDependencies"]
        .iter()
        .filter_map(|k| json.get(k).and_then(|v| v.as_object()))
        .flat_map(|deps| deps.keys().cloned())
        .collect()
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Single-quoted for sh.
pub fn sh_quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', r"'\''"))
}

fn yaml_str(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', "''"))
}
