//! Running one lifecycle stage of one package with `sh -c`.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::env::{lifecycle_path_dirs, node_execpath, package_env_vars};
use super::events::{ScriptEvent, ScriptSource, log_prefix};
use crate::ScriptsError;
use crate::error::ScriptFailure;
use crate::side_effects::{node_arch, node_platform};

static NULL: Value = Value::Null;

/// Product pnpm 12 puts first in `npm_config_user_agent`; some packages
/// check it to tell which package manager installs them.
pub const USER_AGENT_PRODUCT: &str = "pnpm/12.21.0";

/// One stage (`preinstall`, `install`, `postinstall`) of one package.
#[derive(Clone, Copy)]
pub struct ScriptRun<'a> {
    /// Where the package is linked; the script's working directory.
    pub package_dir: &'a Path,
    pub name: &'a str,
    pub version: &'a str,
    /// Shown in errors: `name@version`, or the depPath for non-registry deps.
    pub pkg_id: &'a str,
    pub stage: &'a str,
    pub command: &'a str,
    /// The project (workspace) root: `INIT_CWD`.
    pub init_cwd: &'a Path,
    /// pnpm's extra bin paths, after the ancestor `node_modules/.bin` dirs
    /// ([`super::lifecycle_path_dirs`]).
    pub extra_bin_dirs: &'a [PathBuf],
    /// A directory with a `node-gyp` executable, put on `PATH` before
    /// `extra_bin_dirs` (pnpm: its bundled `dist/node-gyp-bin`).
    pub node_gyp_bin: Option<&'a Path>,
    /// Print pnpm-style lines to stdout as they come (when no `reporter`).
    pub stream_output: bool,
    /// Receives every event (start, output lines, finish) when set.
    pub reporter: Option<&'a (dyn Fn(&ScriptEvent<'_>) + Sync)>,
    /// The package's `package.json`, for `npm_package_*`.
    pub manifest: &'a Value,
    /// `npm_config_user_agent`; default
    /// `pnpm/12.21.0 npm/? node/? <platform> <arch>` as pnpm 12 sets it.
    pub user_agent: Option<&'a str>,
    /// `scriptShell`: run the script as `<shell> -c <script>` instead of
    /// with `sh` (`cmd` on Windows).
    pub shell: Option<&'a Path>,
    /// The name of the package's own modules directory: `node_modules` for
    /// a dependency, the `modulesDir` setting for a project (its
    /// `<modules_dir>/.bin` leads `PATH`).
    pub modules_dir: &'a str,
    /// `unsafePerm`: when false, the script's `TMPDIR` is the package's
    /// `node_modules/.tmp` (see [`default_unsafe_perm`]).
    pub unsafe_perm: bool,
    /// Set last, overriding anything above (e.g. `npm_execpath`).
    pub extra_env: &'a [(String, String)],
    /// The package is an optional dependency (reported with the events).
    pub optional: bool,
}

/// pnpm 12's `unsafePerm` when the setting is not given: true, except for
/// root on Unix (checked with pnpm 12.21 as root and as `nobody`).
pub fn default_unsafe_perm() -> bool {
    #[cfg(unix)]
    {
        !rustix::process::getuid().is_root()
    }
    #[cfg(not(unix))]
    {
        true
    }
}

impl Default for ScriptRun<'_> {
    fn default() -> Self {
        ScriptRun {
            package_dir: Path::new("."),
            name: "",
            version: "",
            pkg_id: "",
            stage: "",
            command: "",
            init_cwd: Path::new("."),
            extra_bin_dirs: &[],
            node_gyp_bin: None,
            stream_output: false,
            reporter: None,
            manifest: &NULL,
            user_agent: None,
            shell: None,
            modules_dir: "node_modules",
            unsafe_perm: false,
            extra_env: &[],
            optional: false,
        }
    }
}

/// A stage that exited 0.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptOutcome {
    /// Interleaved stdout and stderr lines.
    pub output: String,
    pub duration: Duration,
}

/// Runs `sh -c <command>` in the package directory with pnpm 12's script
/// environment. A non-zero exit is `ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED`
/// (``<pkg_id> <stage>: `<command>` exited with exit status: <n>``) carrying
/// the captured output.
pub fn run_stage(opts: &ScriptRun<'_>) -> Result<ScriptOutcome, ScriptsError> {
    let started = Instant::now();
    let prefix = log_prefix(opts.package_dir, opts.init_cwd);
    let source = ScriptSource {
        pkg_id: opts.pkg_id,
        wd: opts.package_dir,
        optional: opts.optional,
    };
    let emit = |event: &ScriptEvent<'_>| {
        if let Some(reporter) = opts.reporter {
            reporter(event);
        } else if opts.stream_output {
            println!("{}", event.to_line());
        }
    };
    emit(&ScriptEvent::Started {
        prefix: &prefix,
        stage: opts.stage,
        command: opts.command,
        source,
    });
    let spawn_err = |source| ScriptsError::Spawn {
        pkg_id: opts.pkg_id.to_string(),
        stage: opts.stage.to_string(),
        source,
    };
    let child = command(opts)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_err)?;
    let on_line = |line: &str, is_err: bool| {
        emit(&ScriptEvent::Output {
            prefix: &prefix,
            stage: opts.stage,
            line,
            stderr: is_err,
            source,
        });
    };
    let (status, output) = wait_with_output(child, &on_line).map_err(spawn_err)?;
    emit(&ScriptEvent::Finished {
        prefix: &prefix,
        stage: opts.stage,
        success: status.success(),
        exit_code: status.code(),
        source,
    });
    if !status.success() {
        return Err(lifecycle_failure(opts, status, output));
    }
    Ok(ScriptOutcome {
        output,
        duration: started.elapsed(),
    })
}

/// Waits for `child` while a thread per pipe reads its stdout and stderr
/// line by line (so neither pipe fills up and stalls it), handing each line
/// to `on_line` with whether it came from stderr. Returns the exit status
/// and the lines interleaved as they arrived.
fn wait_with_output(
    mut child: Child,
    on_line: &(dyn Fn(&str, bool) + Sync),
) -> std::io::Result<(ExitStatus, String)> {
    let output = Mutex::new(String::new());
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let status = std::thread::scope(|s| {
        let output = &output;
        s.spawn(move || pump_lines(stdout, false, output, on_line));
        s.spawn(move || pump_lines(stderr, true, output, on_line));
        child.wait()
    })?;
    Ok((status, output.into_inner().unwrap()))
}

/// Reads `stream` to its end a line at a time, appending each line (without
/// its line ending, then `\n`) to `output` before passing it to `on_line`.
fn pump_lines(
    stream: impl Read,
    is_err: bool,
    output: &Mutex<String>,
    on_line: &(dyn Fn(&str, bool) + Sync),
) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    while reader.read_until(b'\n', &mut buf).unwrap_or(0) > 0 {
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches(['\n', '\r']);
        output.lock().unwrap().push_str(&format!("{line}\n"));
        on_line(line, is_err);
        buf.clear();
    }
}

/// `ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED` for a stage that exited
/// with `status`, carrying its `output`.
fn lifecycle_failure(opts: &ScriptRun<'_>, status: ExitStatus, output: String) -> ScriptsError {
    ScriptsError::LifecycleScriptFailed(Box::new(ScriptFailure {
        pkg_id: opts.pkg_id.to_string(),
        stage: opts.stage.to_string(),
        command: opts.command.to_string(),
        status: status_text(status),
        exit_code: status.code(),
        output,
    }))
}

/// How the stage ended, in the words pnpm's message uses.
fn status_text(status: ExitStatus) -> String {
    match (status.code(), signal(status)) {
        (Some(code), _) => format!("exited with exit status: {code}"),
        (None, Some(signal)) => format!("was terminated by signal: {signal}"),
        (None, None) => "failed".to_string(),
    }
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

/// Windows processes end with an exit code only.
#[cfg(not(unix))]
fn signal(_status: ExitStatus) -> Option<i32> {
    None
}

/// `<shell> -c <script>`, `sh` unless `scriptShell` names another.
#[cfg(unix)]
fn shell(script: &str, script_shell: Option<&Path>) -> Command {
    let mut cmd = Command::new(script_shell.unwrap_or(Path::new("sh")));
    cmd.arg("-c").arg(script);
    cmd
}

/// `%ComSpec% /d /s /c "<script>"`, the script passed verbatim as npm's
/// `@npmcli/run-script` passes it on Windows (`/s` strips the outer quotes;
/// `cmd` does not parse the quoting `std` would add).
/// Another `scriptShell` gets `-c <script>` as on Unix.
#[cfg(windows)]
fn shell(script: &str, script_shell: Option<&Path>) -> Command {
    use std::os::windows::process::CommandExt;
    if let Some(script_shell) = script_shell {
        let mut cmd = Command::new(script_shell);
        cmd.arg("-c").arg(script);
        return cmd;
    }
    let comspec = std::env::var_os("ComSpec").unwrap_or_else(|| OsString::from("cmd.exe"));
    let mut cmd = Command::new(comspec);
    cmd.raw_arg("/d /s /c").raw_arg(format!("\"{script}\""));
    cmd
}

/// The shell command with cwd and environment, not yet spawned.
pub(crate) fn command(opts: &ScriptRun<'_>) -> Command {
    let dir = opts.package_dir;
    let mut cmd = shell(opts.command, opts.shell);
    cmd.current_dir(dir);

    let mut path_dirs = lifecycle_path_dirs(
        dir,
        opts.modules_dir,
        opts.node_gyp_bin,
        opts.extra_bin_dirs,
    );
    if let Some(inherited) = std::env::var_os("PATH") {
        path_dirs.extend(std::env::split_paths(&inherited));
    }
    let path = std::env::join_paths(path_dirs).unwrap_or_else(|_| OsString::from(""));
    cmd.env("PATH", path);

    if !opts.unsafe_perm {
        let tmp = dir.join("node_modules/.tmp");
        // Best effort, as a missing TMPDIR only matters to scripts that use it.
        let _ = std::fs::create_dir_all(&tmp);
        cmd.env("TMPDIR", &tmp);
    }
    cmd.env("PWD", dir)
        .env("INIT_CWD", opts.init_cwd)
        .env("PNPM_SCRIPT_SRC_DIR", dir)
        .env("npm_command", "install")
        .env("npm_lifecycle_event", opts.stage)
        .env("npm_lifecycle_script", opts.command)
        .env("npm_package_json", dir.join("package.json"))
        .env("pnpm_config_verify_deps_before_run", "false");
    let default_agent;
    let agent = match opts.user_agent {
        Some(agent) => agent,
        None => {
            default_agent = format!(
                "{USER_AGENT_PRODUCT} npm/? node/? {} {}",
                node_platform(),
                node_arch()
            );
            &default_agent
        }
    };
    cmd.env("npm_config_user_agent", agent);
    if let Some(node) = node_execpath() {
        cmd.env("NODE", node).env("npm_node_execpath", node);
    }
    if !opts.name.is_empty() {
        cmd.env("npm_package_name", opts.name);
    }
    if !opts.version.is_empty() {
        cmd.env("npm_package_version", opts.version);
    }
    for (key, value) in package_env_vars(opts.manifest) {
        cmd.env(key, value);
    }
    for (key, value) in opts.extra_env {
        cmd.env(key, value);
    }
    cmd
}
