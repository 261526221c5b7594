//! What the numbers were measured on.

use std::fs;
use std::path::Path;
use std::process::Command;

pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub memory: String,
    pub filesystem: String,
    pub kernel: String,
    pub hyperfine: String,
    pub load: String,
}

impl Machine {
    pub fn one_line(&self) -> String {
        format!(
            "{} cores ({}), {} RAM, {} work dir, Linux {}",
            self.cores, self.cpu, self.memory, self.filesystem, self.kernel
        )
    }
}

pub fn describe(work: &Path) -> Machine {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let meminfo = fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let memory = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| format!("{:.1} GiB", kb / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown".into());
    let filesystem = output(
        Command::new("findmnt")
            .args(["-no", "FSTYPE", "-T"])
            .arg(work),
    )
    .or_else(|| output(Command::new("stat").args(["-f", "-c", "%T"]).arg(work)))
    .unwrap_or_else(|| "unknown".into());
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    let hyperfine = output(Command::new("hyperfine").arg("--version")).unwrap_or_default();
    let load = fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    Machine {
        load,
        cpu,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        memory,
        filesystem,
        kernel,
        hyperfine,
    }
}

fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}
