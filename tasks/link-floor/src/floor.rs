//! The tool itself: `record`, `replay` and `clone` on Unix.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Parser, Subcommand};
use rayon::prelude::*;

const MAGIC: &[u8] = b"link-floor-plan v1\n";

#[derive(Parser)]
#[command(
    name = "link-floor",
    about = "Recreate a finished node_modules tree with only mkdir, link(2) and symlink"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Walk SRC (without following symlinks) and write its shape to a plan file.
    Record {
        /// The finished tree, e.g. a project's node_modules.
        src: PathBuf,
        /// Where to write the plan.
        #[arg(long)]
        plan: PathBuf,
    },
    /// Recreate a recorded tree at DEST (which must not exist).
    Replay {
        /// Plan written by `record`.
        #[arg(long)]
        plan: PathBuf,
        /// Destination root (created, with missing parents).
        dest: PathBuf,
        /// Worker threads (default: available cores).
        #[arg(short = 'j', long)]
        threads: Option<usize>,
    },
    /// Record SRC and replay it at DEST, printing the time of each step.
    Clone {
        src: PathBuf,
        dest: PathBuf,
        #[arg(short = 'j', long)]
        threads: Option<usize>,
    },
}

/// The shape of a tree: paths relative to `root`, directories in pre-order.
#[derive(Default)]
struct Plan {
    root: PathBuf,
    dirs: Vec<PathBuf>,
    files: Vec<PathBuf>,
    symlinks: Vec<(PathBuf, PathBuf)>,
}

fn record(root: &Path) -> io::Result<Plan> {
    let root = fs::canonicalize(root)?;
    let mut plan = Plan {
        root: root.clone(),
        ..Plan::default()
    };
    walk(&root, Path::new(""), &mut plan)?;
    Ok(plan)
}

fn walk(abs: &Path, rel: &Path, plan: &mut Plan) -> io::Result<()> {
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(abs)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type()?;
        let child_rel = rel.join(entry.file_name());
        if kind.is_dir() {
            plan.dirs.push(child_rel.clone());
            walk(&entry.path(), &child_rel, plan)?;
        } else if kind.is_symlink() {
            let target = fs::read_link(entry.path())?;
            plan.symlinks.push((child_rel, target));
        } else if kind.is_file() {
            plan.files.push(child_rel);
        } else {
            return Err(io::Error::other(format!(
                "{}: neither directory, file nor symlink",
                entry.path().display()
            )));
        }
    }
    Ok(())
}

fn write_plan(plan: &Plan, path: &Path) -> io::Result<()> {
    let mut out = BufWriter::new(fs::File::create(path)?);
    out.write_all(MAGIC)?;
    put(&mut out, plan.root.as_os_str())?;
    for dir in &plan.dirs {
        out.write_all(b"d")?;
        put(&mut out, dir.as_os_str())?;
    }
    for file in &plan.files {
        out.write_all(b"f")?;
        put(&mut out, file.as_os_str())?;
    }
    for (link, target) in &plan.symlinks {
        out.write_all(b"l")?;
        put(&mut out, link.as_os_str())?;
        put(&mut out, target.as_os_str())?;
    }
    out.flush()
}

fn put(out: &mut impl Write, s: &OsStr) -> io::Result<()> {
    out.write_all(s.as_bytes())?;
    out.write_all(b"\0")
}

fn read_plan(path: &Path) -> io::Result<Plan> {
    let bytes = fs::read(path)?;
    let bad = || io::Error::other(format!("{}: not a link-floor plan", path.display()));
    let body = bytes.strip_prefix(MAGIC).ok_or_else(bad)?;
    let mut fields = body.split(|&b| b == 0);
    let as_path = |b: &[u8]| PathBuf::from(OsStr::from_bytes(b));
    let mut plan = Plan {
        root: as_path(fields.next().ok_or_else(bad)?),
        ..Plan::default()
    };
    while let Some(field) = fields.next() {
        match field.split_first() {
            None => break, // the empty tail after the last NUL
            Some((b'd', rel)) => plan.dirs.push(as_path(rel)),
            Some((b'f', rel)) => plan.files.push(as_path(rel)),
            Some((b'l', rel)) => {
                let target = fields.next().ok_or_else(bad)?;
                plan.symlinks.push((as_path(rel), as_path(target)));
            }
            Some(_) => return Err(bad()),
        }
    }
    Ok(plan)
}

fn replay(plan: &Plan, dest: &Path, threads: usize) -> io::Result<()> {
    if let Some(parent) = dest.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::create_dir(dest)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;
    pool.install(|| {
        // Directories level by level: a level's parents all exist.
        let mut levels: Vec<Vec<&PathBuf>> = Vec::new();
        for dir in &plan.dirs {
            let depth = dir.components().count();
            if levels.len() < depth {
                levels.resize_with(depth, Vec::new);
            }
            levels[depth - 1].push(dir);
        }
        for level in &levels {
            level
                .par_iter()
                .with_min_len(16)
                .try_for_each(|rel| fs::create_dir(dest.join(rel)).map_err(|e| ctx(e, rel)))?;
        }
        rayon::join(
            || {
                plan.files.par_iter().with_min_len(64).try_for_each(|rel| {
                    fs::hard_link(plan.root.join(rel), dest.join(rel)).map_err(|e| ctx(e, rel))
                })
            },
            || {
                plan.symlinks
                    .par_iter()
                    .with_min_len(64)
                    .try_for_each(|(rel, target)| {
                        std::os::unix::fs::symlink(target, dest.join(rel)).map_err(|e| ctx(e, rel))
                    })
            },
        )
        .0
        .and(Ok(()))
    })?;
    Ok(())
}

fn ctx(e: io::Error, rel: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", rel.display()))
}

fn threads(requested: Option<usize>) -> usize {
    requested
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn summary(plan: &Plan) -> String {
    format!(
        "{} dirs, {} files, {} symlinks",
        plan.dirs.len(),
        plan.files.len(),
        plan.symlinks.len()
    )
}

fn run(cli: Cli) -> io::Result<()> {
    match cli.command {
        Command::Record { src, plan } => {
            let recorded = record(&src)?;
            write_plan(&recorded, &plan)?;
            eprintln!(
                "recorded {} from {}",
                summary(&recorded),
                recorded.root.display()
            );
        }
        Command::Replay {
            plan,
            dest,
            threads: n,
        } => {
            let plan = read_plan(&plan)?;
            replay_checked(&plan, &dest, threads(n))?;
        }
        Command::Clone {
            src,
            dest,
            threads: n,
        } => {
            let start = Instant::now();
            let plan = record(&src)?;
            eprintln!(
                "record: {} in {:.3}s",
                summary(&plan),
                start.elapsed().as_secs_f64()
            );
            let start = Instant::now();
            replay_checked(&plan, &dest, threads(n))?;
            eprintln!(
                "replay: {:.3}s on {} threads",
                start.elapsed().as_secs_f64(),
                threads(n)
            );
        }
    }
    Ok(())
}

fn replay_checked(plan: &Plan, dest: &Path, threads: usize) -> io::Result<()> {
    // A stale plan whose source moved would otherwise fail on the first link.
    if !plan.root.is_dir() {
        return Err(io::Error::other(format!(
            "source tree {} is gone",
            plan.root.display()
        )));
    }
    replay(plan, dest, threads)
}

pub(crate) fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("link-floor: {e}");
        std::process::exit(1);
    }
}
