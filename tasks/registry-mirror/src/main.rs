//! Fills a tarball mirror for large compatibility and benchmark runs.
//!
//! `registry-mirror --out DIR LOCKFILE…` downloads every registry tarball that
//! the lockfiles name into `DIR/<name>/-/<file>.tgz` (the path layout of the
//! npm registry), verifies each against the lockfile's integrity, and skips
//! files already present and valid. The loopback server of `pacquet-testing`
//! then serves `DIR`, so timed runs never depend on the internet.

use std::path::{Path, PathBuf};

use clap::Parser;
use futures_util::StreamExt;
use pacquet_lockfile::{Lockfile, Resolution};

#[derive(Parser)]
struct Args {
    /// Directory to fill.
    #[arg(long)]
    out: PathBuf,
    /// Registry to download from.
    #[arg(long, default_value = "https://registry.npmjs.org/")]
    registry: String,
    /// Parallel downloads. One HTTP/2 connection carries them all, so the
    /// registry host is resolved once.
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    lockfiles: Vec<PathBuf>,
}

struct Job {
    url: String,
    dest: PathBuf,
    integrity: String,
}

/// `<name>/-/<unscoped name>-<version without build>.tgz`, as the registry lays it out.
fn registry_path(name: &str, version: &str) -> String {
    let bare = name.rsplit('/').next().unwrap_or(name);
    let version = version.split('+').next().unwrap_or(version);
    format!("{name}/-/{bare}-{version}.tgz")
}

fn jobs(lockfile: &Lockfile, registry: &str, out: &Path) -> Vec<Job> {
    lockfile
        .packages
        .iter()
        .filter_map(|(key, info)| match &info.resolution {
            Resolution::Registry { integrity } => {
                let rel = registry_path(key.name(), key.version());
                Some(Job {
                    url: format!("{registry}{rel}"),
                    dest: out.join(&rel),
                    integrity: integrity.clone(),
                })
            }
            _ => None,
        })
        .collect()
}

fn verified(bytes: &[u8], integrity: &str) -> bool {
    integrity
        .parse::<ssri::Integrity>()
        .is_ok_and(|sri| sri.check(bytes).is_ok())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let registry = if args.registry.ends_with('/') {
        args.registry.clone()
    } else {
        format!("{}/", args.registry)
    };
    let mut all = Vec::new();
    for path in &args.lockfiles {
        let text = std::fs::read_to_string(path)?;
        let lockfile: Lockfile = serde_saphyr::from_str(&text)?;
        all.extend(jobs(&lockfile, &registry, &args.out));
    }
    all.sort_by(|a, b| a.dest.cmp(&b.dest));
    all.dedup_by(|a, b| a.dest == b.dest);
    let client = reqwest::Client::builder().build()?;
    let total = all.len();
    let results: Vec<Result<bool, String>> = futures_util::stream::iter(all)
        .map(|job| {
            let client = client.clone();
            async move {
                if let Ok(existing) = tokio::fs::read(&job.dest).await
                    && verified(&existing, &job.integrity)
                {
                    return Ok(false);
                }
                let bytes = client
                    .get(&job.url)
                    .send()
                    .await
                    .and_then(|r| r.error_for_status())
                    .map_err(|e| format!("{}: {e}", job.url))?
                    .bytes()
                    .await
                    .map_err(|e| format!("{}: {e}", job.url))?;
                if !verified(&bytes, &job.integrity) {
                    return Err(format!(
                        "{}: integrity mismatch (wanted {})",
                        job.url, job.integrity
                    ));
                }
                if let Some(dir) = job.dest.parent() {
                    tokio::fs::create_dir_all(dir)
                        .await
                        .map_err(|e| e.to_string())?;
                }
                let tmp = job.dest.with_extension("tgz.partial");
                tokio::fs::write(&tmp, &bytes)
                    .await
                    .map_err(|e| e.to_string())?;
                tokio::fs::rename(&tmp, &job.dest)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(true)
            }
        })
        .buffer_unordered(args.concurrency)
        .collect()
        .await;
    let downloaded = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!(
        "{total} tarballs: {downloaded} downloaded, {} already present",
        total - downloaded - errors.len()
    );
    for e in &errors {
        eprintln!("error: {e}");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{} tarballs failed", errors.len()).into())
    }
}
