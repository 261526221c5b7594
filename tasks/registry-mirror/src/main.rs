//! Fills a tarball mirror for large compatibility and benchmark runs.
//!
//! `registry-mirror --out DIR LOCKFILE…` downloads every registry tarball that
//! the lockfiles name into `DIR/<name>/-/<file>.tgz` (the path layout of the
//! npm registry), verifies each against the lockfile's integrity, and skips
//! files already present and valid. The loopback server of `pacquet-testing`
//! then serves `DIR`, so timed runs never depend on the internet.
//!
//! With `--packuments`, each package's full registry document is kept too,
//! at `DIR/<name>/index.json` (where the loopback server serves `GET /<name>`
//! from), after checking that it lists every locked version with the
//! lockfile's integrity: the supply-chain verification reads it.

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
    /// Also keep each package's registry document (packument).
    #[arg(long)]
    packuments: bool,
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
        // pacquet's reader: it also takes pnpm 11+'s two-document form.
        let lockfile = Lockfile::parse(&text, path)?;
        all.extend(jobs(&lockfile, &registry, &args.out));
    }
    let mut locked: std::collections::BTreeMap<String, Vec<(String, String)>> = Default::default();
    for job in &all {
        let rel = job.dest.strip_prefix(&args.out).unwrap_or(&job.dest);
        let rel = rel.to_string_lossy();
        if let Some((name, file)) = rel.split_once("/-/") {
            locked
                .entry(name.to_string())
                .or_default()
                .push((file.to_string(), job.integrity.clone()));
        }
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
    if !errors.is_empty() {
        return Err(format!("{} tarballs failed", errors.len()).into());
    }
    if args.packuments {
        mirror_packuments(&client, &registry, &args.out, locked, args.concurrency).await?;
    }
    Ok(())
}

/// Whether `doc` lists every `(tarball file, integrity)` of `locked` as a
/// version with that integrity.
fn lists_locked(doc: &serde_json::Value, locked: &[(String, String)]) -> bool {
    let Some(versions) = doc.get("versions").and_then(|v| v.as_object()) else {
        return false;
    };
    locked.iter().all(|(file, integrity)| {
        versions.values().any(|v| {
            let dist = &v["dist"];
            dist["integrity"].as_str() == Some(integrity.as_str())
                && dist["tarball"]
                    .as_str()
                    .is_some_and(|t| t.ends_with(&format!("/-/{file}")))
        })
    })
}

async fn mirror_packuments(
    client: &reqwest::Client,
    registry: &str,
    out: &Path,
    locked: std::collections::BTreeMap<String, Vec<(String, String)>>,
    concurrency: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let total = locked.len();
    let results: Vec<Result<bool, String>> = futures_util::stream::iter(locked)
        .map(|(name, versions)| async move {
            let dest = out.join(&name).join("index.json");
            if let Ok(existing) = tokio::fs::read(&dest).await
                && serde_json::from_slice(&existing).is_ok_and(|d| lists_locked(&d, &versions))
            {
                return Ok(false);
            }
            let url = format!("{registry}{}", name.replace('/', "%2f"));
            let bytes = client
                .get(&url)
                .header("accept", "application/json")
                .send()
                .await
                .and_then(|r| r.error_for_status())
                .map_err(|e| format!("{url}: {e}"))?
                .bytes()
                .await
                .map_err(|e| format!("{url}: {e}"))?;
            let doc: serde_json::Value =
                serde_json::from_slice(&bytes).map_err(|e| format!("{url}: {e}"))?;
            if !lists_locked(&doc, &versions) {
                return Err(format!(
                    "{url}: does not list every locked version with its integrity"
                ));
            }
            let tmp = dest.with_extension("json.partial");
            tokio::fs::write(&tmp, &bytes)
                .await
                .map_err(|e| e.to_string())?;
            tokio::fs::rename(&tmp, &dest)
                .await
                .map_err(|e| e.to_string())?;
            Ok(true)
        })
        .buffer_unordered(concurrency)
        .collect()
        .await;
    let downloaded = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!(
        "{total} packuments: {downloaded} downloaded, {} already present",
        total - downloaded - errors.len()
    );
    for e in &errors {
        eprintln!("error: {e}");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{} packuments failed", errors.len()).into())
    }
}
