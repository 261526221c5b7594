//! Writing one `.bin` directory.

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::commands::bin_commands;
use crate::conflict::{Claim, compare};
use crate::error::BinError;
use crate::shim::shim_script_within;

mod siblings;
mod target;
mod write;

/// pnpm never links bins as symlinks on Windows, where a script cannot run
/// through one: it writes shims there even when asked for symlinks.
const SYMLINKED_BINS: bool = cfg!(unix);

/// One package that offers bins to a `.bin` directory.
#[derive(Debug, Clone)]
pub struct BinSource<'a> {
    pub package_name: &'a str,
    /// Real directory (inside `.pnpm/<slot>/node_modules/<name>`, or a
    /// workspace project), not a path through a symlink.
    pub package_dir: &'a Path,
    pub manifest: &'a Value,
    /// A direct dependency of the directory's owner (beats hoisted ones in
    /// conflicts).
    pub direct: bool,
    /// Absolute `NODE_PATH` directories, in order; may be empty.
    pub node_path: Vec<PathBuf>,
    /// Its commands become relative symlinks to their targets instead of
    /// shims, as pnpm 12 writes them in the hoisted layout
    /// (docs/hoisted.md §5); `node_path` is then unused.
    pub symlink: bool,
    /// Where the package really is when `package_dir` is only the path the
    /// shims name (an optional dependency pnpm 12 links no sibling for):
    /// target heads are read there.
    pub real_dir: Option<&'a Path>,
    /// `NODE_PATH` directories outside it are written as given, not
    /// relative to the shim ([`crate::shim::shim_script_within`]).
    pub project: Option<&'a Path>,
}

/// A shim in place after [`link_bins`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedBin {
    /// Command name (file name in the `.bin` directory).
    pub name: String,
    /// Absolute target path inside the package.
    pub target: PathBuf,
    /// Package that won the command.
    pub package_name: String,
    /// `false` when an identical shim was already there.
    pub written: bool,
}

/// A source's commands, named inside `package_dir`; a `directories.bin`
/// is listed where the package really is.
fn commands_of(src: &BinSource<'_>) -> Vec<crate::commands::BinCommand> {
    let Some(real_dir) = src.real_dir else {
        return bin_commands(src.manifest, src.package_dir);
    };
    let mut commands = bin_commands(src.manifest, real_dir);
    for cmd in &mut commands {
        if let Ok(rel) = cmd.target.strip_prefix(real_dir) {
            cmd.target = src.package_dir.join(rel);
        }
    }
    commands
}

/// Writes shims for all commands of `sources` into `bin_dir` and returns
/// them sorted by name.
///
/// * `bin_dir` is created when there is at least one shim to write.
/// * A command offered by several packages goes to the winner of
///   docs/layout.md §5 (direct, then owner, then smaller name); within one
///   package the first command of a name wins.
/// * Each target is opened once: its head picks the runtime, and a mode
///   lacking any exec bit gets `|= 0o111` (not for workspace projects, whose
///   `package_dir` has no `node_modules` component: pnpm 12.21 leaves
///   those alone).
/// * A missing target still gets a shim (a later build may create it),
///   except in the package's own `<package_dir>/node_modules/.bin`, where
///   pnpm skips it. Any other read error (a directory, …) is an error.
/// * A shim file already holding identical bytes is not rewritten (its mode
///   is fixed to `0755` if needed); anything else at that path is replaced.
/// * A source with `symlink` set gets relative symlinks instead of shims.
pub fn link_bins(bin_dir: &Path, sources: &[BinSource<'_>]) -> Result<Vec<LinkedBin>, BinError> {
    link_bins_at(bin_dir, bin_dir, sources)
}

/// [`link_bins`] into `bin_dir` for shims that name `named_dir` as their
/// place: a directory being made elsewhere (a staged slot of the global
/// virtual store) before it is renamed there.
pub fn link_bins_at(
    bin_dir: &Path,
    named_dir: &Path,
    sources: &[BinSource<'_>],
) -> Result<Vec<LinkedBin>, BinError> {
    let winners = resolve(sources);
    if winners.is_empty() {
        return Ok(Vec::new());
    }
    let mut dir_ready = false;
    let mut heads: HashMap<PathBuf, Option<Vec<u8>>> = HashMap::new();
    let mut linked = Vec::with_capacity(winners.len());
    for (name, (index, target)) in winners {
        let src = &sources[index];
        let head = match heads.get(&target) {
            Some(head) => head.clone(),
            None => {
                let chmod = !is_workspace_project(src.package_dir);
                let real = match (src.real_dir, target.strip_prefix(src.package_dir)) {
                    (Some(real_dir), Ok(rel)) => real_dir.join(rel),
                    _ => target.clone(),
                };
                let head = target::read_head(&real, chmod)?;
                heads.insert(target.clone(), head.clone());
                head
            }
        };
        let own_bin_dir = named_dir.parent() == Some(&src.package_dir.join("node_modules"))
            && named_dir.file_name() == Some(".bin".as_ref());
        if head.is_none() && own_bin_dir {
            continue;
        }
        if !dir_ready {
            std::fs::create_dir_all(bin_dir).map_err(|source| BinError::CreateDir {
                path: bin_dir.to_path_buf(),
                source,
            })?;
            dir_ready = true;
        }
        // A shebang line ending in CR (`#!/usr/bin/env node\r\n`) would
        // run `node\r` through a symlink: pnpm 12.21 writes a shim instead
        // (jscodeshift 0.14's `bin/jscodeshift.js`, in react-native's tree).
        let crlf_shebang = head.as_deref().is_some_and(|h| {
            h.starts_with(b"#!")
                && h.split(|&b| b == b'\n')
                    .next()
                    .is_some_and(|l| l.ends_with(b"\r"))
        });
        let written = if src.symlink && SYMLINKED_BINS && !crlf_shebang {
            write::write_symlink(&bin_dir.join(&name), &relative_target(named_dir, &target))?
        } else {
            let target_head = head.as_deref().unwrap_or_default();
            let script =
                shim_script_within(named_dir, &target, target_head, &src.node_path, src.project);
            let shim_path = bin_dir.join(&name);
            let written = write::write_shim(&shim_path, script.as_bytes())?;
            let siblings = siblings::Siblings {
                shim_path: &shim_path,
                target: &target,
                target_head,
                node_path: &src.node_path,
                powershell: src.package_name != "pnpm",
            };
            siblings::write_siblings(&siblings)? || written
        };
        linked.push(LinkedBin {
            name,
            target,
            package_name: src.package_name.to_owned(),
            written,
        });
    }
    Ok(linked)
}

/// Command name → (source index, target) of the winning package.
fn resolve(sources: &[BinSource<'_>]) -> BTreeMap<String, (usize, PathBuf)> {
    let mut winners: BTreeMap<String, (usize, PathBuf)> = BTreeMap::new();
    let claim = |i: usize| Claim {
        package_name: sources[i].package_name,
        direct: sources[i].direct,
    };
    for (index, src) in sources.iter().enumerate() {
        for cmd in commands_of(src) {
            match winners.get_mut(&cmd.name) {
                None => {
                    winners.insert(cmd.name, (index, cmd.target));
                }
                Some(current) => {
                    if current.0 != index
                        && compare(&cmd.name, claim(index), claim(current.0)).is_gt()
                    {
                        *current = (index, cmd.target);
                    }
                }
            }
        }
    }
    winners
}

/// Workspace projects and `link:` directories live outside any
/// `node_modules`; store packages always inside one.
fn is_workspace_project(package_dir: &Path) -> bool {
    !package_dir
        .components()
        .any(|c| c == Component::Normal("node_modules".as_ref()))
}

/// `target` relative to `dir` (both absolute and lexically normal).
fn relative_target(dir: &Path, target: &Path) -> PathBuf {
    let from: Vec<Component<'_>> = dir.components().collect();
    let to: Vec<Component<'_>> = target.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    out
}
