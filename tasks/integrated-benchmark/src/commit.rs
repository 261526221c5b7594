//! Which pacquet commit a result measured: `git describe --always --dirty`.
//!
//! The commit is resolved once, before the build, and travels with the tool
//! into its row label, the result heading, the JSON and the chart.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::Result;

/// The `--revision` value that builds this checkout as it is.
pub const WORKING_TREE: &str = "working-tree";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commit {
    /// The revision as given on the command line: `working-tree`, `main`, a sha.
    pub revision: String,
    /// The full commit id a named revision resolved to (`None` for the working tree).
    pub sha: Option<String>,
    /// `git describe --always --dirty` of the working tree, `git describe
    /// --always <sha>` of a named revision.
    pub describe: String,
}

impl Commit {
    /// This checkout: the describe of HEAD, `-dirty` when tracked files have
    /// uncommitted changes (untracked files do not count).
    pub fn of_working_tree(repo: &Path) -> Result<Commit> {
        let out = git(repo, &["describe", "--always", "--dirty"])?;
        Ok(Commit {
            revision: WORKING_TREE.to_string(),
            sha: None,
            describe: parse_describe(&out)?,
        })
    }

    /// A named revision already resolved to `sha` (`--dirty` does not apply:
    /// it is built from a clean worktree of that commit).
    pub fn of_revision(repo: &Path, revision: &str, sha: &str) -> Result<Commit> {
        let out = git(repo, &["describe", "--always", sha])?;
        Ok(Commit {
            revision: revision.to_string(),
            sha: Some(sha.to_string()),
            describe: parse_describe(&out)?,
        })
    }

    pub fn is_working_tree(&self) -> bool {
        self.revision == WORKING_TREE
    }

    /// Built with uncommitted changes: the commit alone does not reproduce it.
    pub fn is_dirty(&self) -> bool {
        self.describe.ends_with("-dirty")
    }

    /// The row label: `pacquet @ <describe>`, followed by the revision as
    /// given unless that is just the commit id itself. Distinct for
    /// `--revision working-tree,HEAD` even when the tree is clean.
    pub fn label(&self) -> String {
        let rev = self.revision.as_str();
        let plain = rev == self.describe
            || self
                .sha
                .as_deref()
                .is_some_and(|sha| is_sha_prefix(rev, sha));
        if self.is_working_tree() {
            format!("pacquet @ {} (working tree)", self.describe)
        } else if plain {
            format!("pacquet @ {}", self.describe)
        } else {
            format!("pacquet @ {} ({rev})", self.describe)
        }
    }

    /// One sentence on how the commit was determined, for the result header.
    pub fn provenance(&self) -> String {
        match &self.sha {
            None => {
                let mut s = format!(
                    "this checkout as it was built; `git describe --always --dirty` = `{}`",
                    self.describe
                );
                if self.is_dirty() {
                    s.push_str(
                        " (tracked files had uncommitted changes, so the commit alone does not \
                         reproduce this build)",
                    );
                }
                s
            }
            Some(sha) => format!(
                "`{}` resolved to {} before building; `git describe --always` = `{}`",
                self.revision,
                &sha[..sha.len().min(12)],
                self.describe
            ),
        }
    }
}

/// The one line `git describe` prints: `63211bc`, `63211bc-dirty`,
/// `v0.1.0-12-g63211bc`. Anything else (nothing, several lines, words) is an
/// error, so that no message ends up in a label.
pub fn parse_describe(stdout: &str) -> Result<String> {
    let text = stdout.trim();
    if text.is_empty() {
        return Err("git describe printed nothing".into());
    }
    if text.lines().count() > 1 || text.contains(char::is_whitespace) {
        return Err(format!("git describe printed {text:?}, not one name"));
    }
    if !text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._/+".contains(c))
    {
        return Err(format!("git describe printed {text:?}, not a commit name"));
    }
    Ok(text.to_string())
}

/// What the result heading says about pacquet, from the measured pacquet
/// rows (label, commit if known): `pacquet @ 63211bc-dirty` for one built
/// revision, the labels joined with ` vs ` for several, `None` for none.
pub fn heading(pacquets: &[(&str, Option<&Commit>)]) -> Option<String> {
    match pacquets {
        [] => None,
        [(_, Some(commit))] => Some(format!("pacquet @ {}", commit.describe)),
        [(label, None)] => Some(format!("{label}, commit unknown")),
        many => Some(
            many.iter()
                .map(|(label, _)| *label)
                .collect::<Vec<_>>()
                .join(" vs "),
        ),
    }
}

/// `rev` is (an abbreviation of) `sha` itself rather than a name for it.
fn is_sha_prefix(rev: &str, sha: &str) -> bool {
    rev.len() >= 4
        && rev.chars().all(|c| c.is_ascii_hexdigit())
        && sha.starts_with(&rev.to_ascii_lowercase())
}

fn git(repo: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .current_dir(repo)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("running git {}: {e}", args.join(" ")))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

#[cfg(test)]
mod tests;
