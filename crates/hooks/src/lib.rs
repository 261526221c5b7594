//! A project's pnpmfile (`.pnpmfile.cjs`, `.pnpmfile.mjs` or the
//! `pnpmfile` setting), run in Node.js: which hooks it has, and its
//! `readPackage` hook applied to manifests while resolving
//! (docs/pnpmfile.md).
//!
//! One `node` process per install serves every call: the pnpmfile is
//! loaded once, and each manifest is one line of JSON each way.

mod error;

use std::{
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    sync::Mutex,
};

pub use error::HookError;
use serde_json::Value;

/// The program `node` runs: loads the pnpmfile, then answers requests.
const BRIDGE: &str = include_str!("bridge.js");

/// The hooks pacquet runs. Others change what pnpm resolves or fetches
/// in ways pacquet does not reproduce, and are refused.
const SUPPORTED: [&str; 1] = ["readPackage"];

/// Exports beside `hooks` that only other commands read.
const HARMLESS_EXPORTS: [&str; 1] = ["finders"];

/// A loaded pnpmfile.
pub struct Pnpmfile {
    path: PathBuf,
    hooks: Vec<String>,
    /// Hooks and exports pacquet does not run.
    unsupported: Vec<String>,
    io: Mutex<Io>,
    child: Mutex<Child>,
}

struct Io {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// A manifest after `readPackage`, and what the hook logged.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPackage {
    pub manifest: Value,
    pub logs: Vec<String>,
}

impl Pnpmfile {
    /// Starts `node` on the pnpmfile at `path` (run in `dir`) and reads
    /// which hooks it defines. A pnpmfile that fails to load is refused.
    pub fn load(path: &Path, dir: &Path) -> Result<Pnpmfile, HookError> {
        let shown = path.display().to_string();
        let mut child = Command::new("node")
            .arg("-e")
            .arg(BRIDGE)
            .arg(path)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| HookError::NoNode {
                pnpmfile: shown.clone(),
                reason: source.to_string(),
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(HookError::NoNode {
                pnpmfile: shown,
                reason: "its standard streams could not be opened".into(),
            });
        };
        let mut io = Io {
            stdin,
            stdout: BufReader::new(stdout),
        };
        let hello = io.receive(&shown)?;
        if let Some(failed) = hello.get("failed").and_then(Value::as_str) {
            let _ = child.kill();
            return Err(HookError::Execution {
                pnpmfile: shown,
                message: failed.to_owned(),
            });
        }
        let names = |key: &str| strings(hello.get(key));
        let hooks = names("hooks");
        let unsupported = hooks
            .iter()
            .filter(|h| !SUPPORTED.contains(&h.as_str()))
            .cloned()
            .chain(
                names("exports")
                    .into_iter()
                    .filter(|e| !HARMLESS_EXPORTS.contains(&e.as_str())),
            )
            .collect();
        Ok(Pnpmfile {
            path: path.to_owned(),
            hooks,
            unsupported,
            io: Mutex::new(io),
            child: Mutex::new(child),
        })
    }

    /// Refuses what a resolution cannot honour: hooks other than
    /// `readPackage`, and `resolvers`/`fetchers` exports.
    pub fn check_resolvable(&self) -> Result<(), HookError> {
        if self.unsupported.is_empty() {
            return Ok(());
        }
        Err(HookError::Unsupported {
            pnpmfile: self.path.display().to_string(),
            hooks: self.unsupported.join(", "),
        })
    }

    /// Whether the pnpmfile defines `readPackage`.
    pub fn has_read_package(&self) -> bool {
        self.hooks.iter().any(|h| h == "readPackage")
    }

    /// `readPackage` applied to `manifest` (pnpm adds the four dependency
    /// groups it lacks, as `{}`, before the hook sees it).
    pub fn read_package(&self, manifest: &Value) -> Result<ReadPackage, HookError> {
        let shown = self.path.display().to_string();
        let mut io = self.io.lock().map_err(|_| HookError::Execution {
            pnpmfile: shown.clone(),
            message: "an earlier call panicked".into(),
        })?;
        let request = serde_json::json!({ "pkg": manifest });
        writeln!(io.stdin, "{request}")
            .and_then(|()| io.stdin.flush())
            .map_err(|e| HookError::Execution {
                pnpmfile: shown.clone(),
                message: format!("node stopped answering: {e}"),
            })?;
        let answer = io.receive(&shown)?;
        let logs = strings(answer.get("logs"));
        if let Some(failed) = answer.get("failed").and_then(Value::as_str) {
            return Err(HookError::Execution {
                pnpmfile: shown,
                message: failed.to_owned(),
            });
        }
        if let Some(bad) = answer.get("bad").and_then(Value::as_str) {
            return Err(HookError::BadResult {
                pnpmfile: shown,
                message: bad.to_owned(),
            });
        }
        match answer.get("pkg") {
            Some(manifest @ Value::Object(_)) => Ok(ReadPackage {
                manifest: manifest.clone(),
                logs,
            }),
            _ => Err(HookError::BadResult {
                pnpmfile: shown,
                message: "readPackage hook did not return a package manifest object.".into(),
            }),
        }
    }
}

/// The strings of a JSON array (none for anything else).
fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

impl Io {
    /// One line of JSON from the bridge.
    fn receive(&mut self, pnpmfile: &str) -> Result<Value, HookError> {
        let mut line = String::new();
        let read = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| HookError::Execution {
                pnpmfile: pnpmfile.to_owned(),
                message: format!("node stopped answering: {e}"),
            })?;
        if read == 0 {
            return Err(HookError::Execution {
                pnpmfile: pnpmfile.to_owned(),
                message: "node exited before answering".into(),
            });
        }
        serde_json::from_str(&line).map_err(|e| HookError::Execution {
            pnpmfile: pnpmfile.to_owned(),
            message: format!("unreadable answer from node: {e}"),
        })
    }
}

impl Drop for Pnpmfile {
    fn drop(&mut self) {
        if let Ok(mut child) = self.child.lock() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[cfg(test)]
mod tests;
