//! Killing an install at a point it cannot have passed yet, and checking
//! that the kill landed there: a timer alone races the install's end, and
//! an install that finished first would test nothing.

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Child;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pacquet_testing::{Fault, PnpmEnv, Registry};

use super::helpers::{kill_group, spawn_install};

/// Written last by a finished install (after its scripts).
const FINAL_STATE: &str = "node_modules/.pnpm-workspace-state-v1.json";

/// How long a kill point may take to arrive before the test gives up.
const PATIENCE: Duration = Duration::from_secs(60);

/// Time left to the install's other work once a stalled tarball was asked
/// for; it cannot finish meanwhile, so this only decides how far it gets.
const SETTLE: Duration = Duration::from_millis(50);

#[derive(Debug, Clone)]
pub enum KillAt {
    /// When `PACQUET_PHASES` reports phase `.0` done (the next one has
    /// begun), plus `.1`: only where the rest takes well longer than `.1`.
    Phase(&'static str, Duration),
    /// Once the registry got the request for `<.0>@1.0.0`'s tarball, which
    /// it answers with the stalling fault `.1`; plus [`SETTLE`].
    Stalled(&'static str, Fault),
    /// When file `.0` (relative to the project) appears.
    File(&'static str),
}

/// Starts an install of `project`, SIGKILLs its process group at `at`, and
/// asserts that the signal killed it before it finished.
pub fn interrupt(at: &KillAt, registry: &Registry, env: &PnpmEnv, project: &Path) {
    registry.clear_faults();
    if let KillAt::Stalled(name, fault) = at {
        registry.fail_next(&pacquet_testing::tarball_path(name, "1.0.0"), fault.clone());
    }
    let mut child = spawn_install(env, project);
    let (lines, stderr) = read_lines(&mut child);
    let reached = match at {
        KillAt::Phase(name, extra) => wait_for_phase(&lines, name).map(|()| {
            std::thread::sleep(*extra);
        }),
        KillAt::Stalled(name, _) => {
            let asked = || registry.tarball_requests(name, "1.0.0") > 0;
            poll(&mut child, asked).map(|()| std::thread::sleep(SETTLE))
        }
        KillAt::File(rel) => poll(&mut child, || project.join(rel).exists()),
    };
    let status = kill_group(&mut child);
    let stderr = stderr.join().unwrap();
    if let Err(why) = reached {
        panic!("kill point {at:?} never came: {why}\n--- stderr\n{stderr}");
    }
    assert_eq!(
        status.signal(),
        Some(libc::SIGKILL),
        "the kill at {at:?} did not land: the install ended with {status} first\n--- stderr\n{stderr}"
    );
    assert!(
        !project.join(FINAL_STATE).exists(),
        "the install killed at {at:?} had already written {FINAL_STATE}: it had finished"
    );
}

/// Forwards the child's stderr lines; the thread returns all of them.
fn read_lines(child: &mut Child) -> (mpsc::Receiver<String>, std::thread::JoinHandle<String>) {
    let stderr = child.stderr.take().expect("stderr piped");
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            all.push_str(&line);
            all.push('\n');
            let _ = tx.send(line);
        }
        all
    });
    (rx, thread)
}

/// Waits for `phase <name> … ms` (`Phases::mark`).
fn wait_for_phase(lines: &mpsc::Receiver<String>, name: &str) -> Result<(), String> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines
            .recv_timeout(left)
            .map_err(|e| format!("no phase {name} line ({e})"))?;
        let mut words = line.split_whitespace();
        if words.next() == Some("phase") && words.next() == Some(name) {
            return Ok(());
        }
    }
}

/// Polls `done` every millisecond while the install runs.
fn poll(child: &mut Child, mut done: impl FnMut() -> bool) -> Result<(), String> {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        if let Some(status) = child.try_wait().unwrap() {
            return Err(format!("the install ended with {status}"));
        }
        if Instant::now() > deadline {
            return Err(format!("still waiting after {PATIENCE:?}"));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(())
}
