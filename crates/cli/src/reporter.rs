//! Turns install events into output: a live progress line on a terminal,
//! plain lines on a pipe (as pnpm prints them), nothing with `silent`, and
//! pnpm's ndjson records with `ndjson`.

use std::{
    io::Write,
    sync::{
        Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Instant, SystemTime, UNIX_EPOCH},
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pacquet_installer::reporter::{DirectDependency, Event, Origin, Reporter, ScriptEvent};

#[derive(Default)]
struct Counters {
    resolved: AtomicUsize,
    reused: AtomicUsize,
    downloaded: AtomicUsize,
    added: AtomicUsize,
}

impl Counters {
    fn line(&self) -> String {
        format!(
            "Progress: resolved {}, reused {}, downloaded {}, added {}",
            self.resolved.load(Ordering::Relaxed),
            self.reused.load(Ordering::Relaxed),
            self.downloaded.load(Ordering::Relaxed),
            self.added.load(Ordering::Relaxed),
        )
    }
}

/// pnpm's default reporter: progress counters, then a summary.
pub struct DefaultReporter {
    counters: Counters,
    bar: Option<ProgressBar>,
    /// Script lines in pnpm's colors (`color`; by default a terminal
    /// without `NO_COLOR`).
    color: bool,
    started: Instant,
    out: Mutex<std::io::Stdout>,
}

impl DefaultReporter {
    pub fn new(is_tty: bool, color: bool) -> Self {
        let bar = is_tty.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stdout());
            bar.set_style(
                ProgressStyle::with_template("{msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        DefaultReporter {
            counters: Counters::default(),
            bar,
            color,
            started: Instant::now(),
            out: Mutex::new(std::io::stdout()),
        }
    }

    fn tick(&self) {
        if let Some(bar) = &self.bar {
            bar.set_message(self.counters.line());
        }
    }

    fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => {
                if let Ok(mut out) = self.out.lock() {
                    let _ = writeln!(out, "{text}");
                }
            }
        }
    }

    fn summary(&self, added: usize, direct: &[DirectDependency]) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let mut text = String::new();
        if added > 0 {
            text.push_str(&format!(
                "Packages: +{added}\n{}\n",
                "+".repeat(added.min(80))
            ));
        }
        text.push_str(&self.counters.line());
        text.push_str(", done\n");
        for group in ["dependencies", "optionalDependencies", "devDependencies"] {
            let mut deps: Vec<&DirectDependency> =
                direct.iter().filter(|d| d.group == group).collect();
            if deps.is_empty() {
                continue;
            }
            deps.sort_by(|a, b| a.alias.cmp(&b.alias));
            text.push_str(&format!("\n{group}:\n"));
            for d in deps {
                if let Some(path) = d.version.strip_prefix("link:") {
                    text.push_str(&format!("+ {} <- {path}\n", d.alias));
                } else if d.alias == d.name {
                    text.push_str(&format!("+ {} {}\n", d.alias, d.version));
                } else {
                    text.push_str(&format!("+ {} <- {} {}\n", d.alias, d.name, d.version));
                }
            }
        }
        let secs = self.started.elapsed().as_secs_f64();
        let took = if secs < 1.0 {
            format!("{}ms", (secs * 1000.0).round())
        } else {
            format!("{secs:.1}s")
        };
        text.push_str(&format!(
            "\nDone in {took} using pacquet v{}",
            env!("CARGO_PKG_VERSION")
        ));
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{text}");
        }
    }
}

impl Reporter for DefaultReporter {
    fn report(&self, event: Event<'_>) {
        match event {
            Event::Resolved { total } => {
                self.counters.resolved.store(total, Ordering::Relaxed);
                self.tick();
            }
            Event::Fetched { origin, .. } => {
                match origin {
                    Origin::Store => self.counters.reused.fetch_add(1, Ordering::Relaxed),
                    Origin::Network => self.counters.downloaded.fetch_add(1, Ordering::Relaxed),
                };
                self.tick();
            }
            Event::Imported { .. } => {
                self.counters.added.fetch_add(1, Ordering::Relaxed);
                self.tick();
            }
            // pnpm 12's default reporter prints neither.
            Event::SkippedOptional { .. } | Event::OptionalBuildFailed { .. } => {}
            // pnpm 12 says it only on an install with no previous
            // `lock.yaml`.
            Event::ImportMethod {
                method,
                stores: Some((store_dir, virtual_store_dir)),
            } => {
                let verb = match method {
                    "copy" => "copied",
                    "clone" => "cloned",
                    _ => "hard linked",
                };
                self.println(&format!(
                    "Packages are {verb} from the content-addressable store to the virtual store.\n  \
                     Content-addressable store is at: {}\n  \
                     Virtual store is at:             {virtual_store_dir}",
                    store_dir.display()
                ));
            }
            Event::ImportMethod { stores: None, .. } => {}
            Event::Summary { added, direct } => self.summary(added, direct),
            Event::ScriptOutput { line, script } => {
                if self.color {
                    self.println(&colored_script_line(script));
                } else {
                    self.println(line);
                }
            }
            Event::Warning { message } => self.println(&format!("[WARN] {message}")),
            Event::Info { message } => self.println(message),
            Event::LockfileVerified { entries, millis } => self.println(&format!(
                "✓ Lockfile passes supply-chain policies ({} in {})",
                entries_label(entries),
                crate::durations::pretty_ms(millis)
            )),
            Event::LockfileVerificationCached { verified_at } => self.println(&format!(
                "✓ Lockfile passes supply-chain policies ({})",
                cached_verdict(verified_at)
            )),
            Event::PendingSkills { packages } => self.println(&format!(
                "Agent skills awaiting approval: {}.\nRun \"pnpm approve\" to review them.",
                skill_package_names(packages)
            )),
            Event::UpToDate => {
                self.println("Lockfile is up to date, resolution step is skipped");
                self.println("Already up to date");
            }
        }
    }
}

/// `a, b` from `a@1.0.0`, `b@2.0.0` (already sorted).
fn skill_package_names(packages: &[String]) -> String {
    let names: Vec<&str> = packages
        .iter()
        .map(|p| match p.rfind('@') {
            Some(at) if at > 0 => &p[..at],
            _ => p.as_str(),
        })
        .collect();
    names.join(", ")
}

fn entries_label(entries: usize) -> String {
    if entries == 1 {
        "1 entry".into()
    } else {
        format!("{entries} entries")
    }
}

/// `verified 2h ago`, or `previously verified` for a date that cannot be
/// read (pnpm 12's wording).
fn cached_verdict(verified_at: &str) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    match pacquet_state::parse_iso_date(verified_at) {
        Some(at) => format!(
            "verified {} ago",
            crate::durations::pretty_ms_compact((now - at).max(0) as u64)
        ),
        None => "previously verified".into(),
    }
}

/// A script line as pnpm 12 colors it on a terminal: the prefix cyan, the
/// stage bright cyan, stderr output gray.
fn colored_script_line(event: &ScriptEvent<'_>) -> String {
    const CYAN: &str = "\x1b[36m";
    const BRIGHT_CYAN: &str = "\x1b[96m";
    const GRAY: &str = "\x1b[90m";
    const RESET: &str = "\x1b[39m";
    let head =
        |prefix: &str, stage: &str| format!("{CYAN}{prefix}{RESET} {BRIGHT_CYAN}{stage}{RESET}");
    match event {
        ScriptEvent::Started {
            prefix,
            stage,
            command,
            ..
        } => format!("{}$ {command}", head(prefix, stage)),
        ScriptEvent::Output {
            prefix,
            stage,
            line,
            stderr: true,
            ..
        } => format!("{}: {GRAY}{line}{RESET}", head(prefix, stage)),
        ScriptEvent::Output {
            prefix,
            stage,
            line,
            stderr: false,
            ..
        } => format!("{}: {line}", head(prefix, stage)),
        ScriptEvent::Finished {
            prefix,
            stage,
            success,
            ..
        } => format!(
            "{}: {}",
            head(prefix, stage),
            if *success { "Done" } else { "Failed" }
        ),
    }
}

/// The fields of pnpm 12's `pnpm:lifecycle` records: a start carries the
/// script, an output line its stream, an exit the code.
fn lifecycle_record(event: &ScriptEvent<'_>) -> serde_json::Value {
    use serde_json::json;
    match event {
        ScriptEvent::Started {
            stage,
            command,
            source,
            ..
        } => json!({
            "depPath": source.pkg_id, "optional": source.optional, "script": command,
            "stage": stage, "wd": source.wd,
        }),
        ScriptEvent::Output {
            stage,
            line,
            stderr,
            source,
            ..
        } => json!({
            "depPath": source.pkg_id, "line": line, "stage": stage,
            "stdio": if *stderr { "stderr" } else { "stdout" }, "wd": source.wd,
        }),
        ScriptEvent::Finished {
            stage,
            exit_code,
            source,
            ..
        } => json!({
            "depPath": source.pkg_id, "exitCode": exit_code, "optional": source.optional,
            "stage": stage, "wd": source.wd,
        }),
    }
}

/// `--reporter=ndjson`: one JSON record per event, with pnpm's event names,
/// on stderr as pnpm 12 writes them.
pub struct NdjsonReporter {
    pid: u32,
    hostname: String,
    prefix: String,
    started: u128,
    out: Mutex<std::io::Stderr>,
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

impl NdjsonReporter {
    pub fn new(prefix: String) -> Self {
        let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
        NdjsonReporter {
            pid: std::process::id(),
            hostname,
            prefix,
            started: now_ms(),
            out: Mutex::new(std::io::stderr()),
        }
    }

    fn emit(&self, name: &str, level: &str, fields: serde_json::Value) {
        let mut record = serde_json::json!({
            "time": now_ms() as u64,
            "hostname": self.hostname,
            "pid": self.pid,
            "name": name,
            "level": level,
        });
        if let (Some(obj), serde_json::Value::Object(extra)) = (record.as_object_mut(), fields) {
            obj.extend(extra);
        }
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{record}");
        }
    }
}

impl Reporter for NdjsonReporter {
    fn report(&self, event: Event<'_>) {
        use serde_json::json;
        let prefix = &self.prefix;
        match event {
            Event::Resolved { .. } => {
                self.emit("pnpm:stage", "debug", json!({"prefix": prefix, "stage": "importing_started"}))
            }
            Event::Fetched { package_id, origin } => {
                let status = match origin {
                    Origin::Store => "found_in_store",
                    Origin::Network => "fetched",
                };
                self.emit(
                    "pnpm:progress",
                    "debug",
                    json!({"status": "resolved", "packageId": package_id, "requester": prefix}),
                );
                self.emit("pnpm:progress", "debug", json!({"status": status, "packageId": package_id, "requester": prefix}));
            }
            Event::Imported { package_id } => self.emit(
                "pnpm:progress",
                "debug",
                json!({"status": "imported", "packageId": package_id, "requester": prefix, "method": "hardlink"}),
            ),
            Event::SkippedOptional { package_id, reason } => self.emit(
                "pnpm:skipped-optional-dependency",
                "debug",
                json!({"details": reason, "package": {"id": package_id}, "prefix": prefix, "reason": "unsupported_platform"}),
            ),
            Event::OptionalBuildFailed {
                package_id,
                details,
            } => self.emit(
                "pnpm:skipped-optional-dependency",
                "debug",
                json!({"details": details, "package": {"id": package_id}, "prefix": prefix, "reason": "build_failure"}),
            ),
            Event::ImportMethod { method, .. } => {
                self.emit("pnpm:package-import-method", "debug", json!({"method": method}))
            }
            Event::Summary { added, direct } => {
                self.emit("pnpm:stats", "debug", json!({"prefix": prefix, "added": added}));
                self.emit("pnpm:stats", "debug", json!({"prefix": prefix, "removed": 0}));
                for d in direct {
                    let dependency_type = match d.group {
                        "devDependencies" => "dev",
                        "optionalDependencies" => "optional",
                        _ => "prod",
                    };
                    self.emit(
                        "pnpm:root",
                        "debug",
                        json!({"prefix": prefix, "added": {"name": d.alias, "realName": d.name, "version": d.version, "dependencyType": dependency_type}}),
                    );
                }
                self.emit("pnpm:summary", "debug", json!({"prefix": prefix}));
                self.emit(
                    "pnpm:execution-time",
                    "debug",
                    json!({"startedAt": self.started as u64, "endedAt": now_ms() as u64}),
                );
            }
            Event::ScriptOutput { script, .. } => {
                self.emit("pnpm:lifecycle", "debug", lifecycle_record(script))
            }
            Event::Warning { message } => {
                self.emit("pnpm", "warn", json!({"message": message, "prefix": prefix}))
            }
            Event::Info { message } => {
                self.emit("pnpm", "info", json!({"message": message, "prefix": prefix}))
            }
            Event::LockfileVerified { entries, millis } => self.emit(
                "pnpm:lockfile-verification",
                "debug",
                json!({"status": "done", "entries": entries, "elapsedMs": millis}),
            ),
            Event::LockfileVerificationCached { verified_at } => self.emit(
                "pnpm:lockfile-verification",
                "debug",
                json!({"status": "cached", "verifiedAt": verified_at}),
            ),
            Event::PendingSkills { packages } => self.emit(
                "pnpm:pending-skills",
                "debug",
                json!({"packages": packages}),
            ),
            Event::UpToDate => self.emit(
                "pnpm",
                "info",
                json!({"message": "Already up to date", "prefix": prefix}),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacquet_installer::reporter::ScriptSource;

    fn source() -> ScriptSource<'static> {
        ScriptSource {
            pkg_id: "/p",
            wd: std::path::Path::new("/p"),
            optional: false,
        }
    }

    #[test]
    fn script_lines_have_pnpm_12_terminal_colors() {
        // Recorded from pnpm 12.21 on a terminal (`script -q`, no NO_COLOR).
        let started = ScriptEvent::Started {
            prefix: ".",
            stage: "install",
            command: "echo line1",
            source: source(),
        };
        assert_eq!(
            colored_script_line(&started),
            "\x1b[36m.\x1b[39m \x1b[96minstall\x1b[39m$ echo line1"
        );
        let err = ScriptEvent::Output {
            prefix: ".",
            stage: "install",
            line: "line2",
            stderr: true,
            source: source(),
        };
        assert_eq!(
            colored_script_line(&err),
            "\x1b[36m.\x1b[39m \x1b[96minstall\x1b[39m: \x1b[90mline2\x1b[39m"
        );
        let done = ScriptEvent::Finished {
            prefix: ".",
            stage: "postinstall",
            success: false,
            exit_code: Some(4),
            source: source(),
        };
        assert_eq!(
            colored_script_line(&done),
            "\x1b[36m.\x1b[39m \x1b[96mpostinstall\x1b[39m: Failed"
        );
    }
}
