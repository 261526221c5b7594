//! Applying a file's hunks to its text with pnpm's tolerances
//! (docs/patches.md §3): lines compare without trailing whitespace, and a
//! hunk that does not fit at its recorded line is tried up to 20 lines
//! either side.

use crate::parse::{Hunk, Kind, Line};

/// How far from its recorded line a hunk is tried.
const MAX_OFFSET: isize = 20;

/// `text` with every hunk applied, or the 1-based number of the first hunk
/// that fits nowhere. The text is handled as `split('\n')`, so a line keeps
/// whatever `\r` it had and a missing final newline stays missing.
pub(crate) fn apply_hunks(text: &str, hunks: &[Hunk]) -> Result<String, usize> {
    let lines: Vec<&str> = text.split('\n').collect();
    // Every hunk is located in the original text before any is applied, so
    // the recorded line numbers all refer to the same text.
    let mut found = Vec::with_capacity(hunks.len());
    for (n, hunk) in hunks.iter().enumerate() {
        let pre: Vec<&str> = side(hunk, Kind::Delete).collect();
        let start = hunk.old_start as isize - 1;
        let at = offsets()
            .map(|offset| start + offset)
            .find(|&at| fits(&lines, &pre, at))
            .ok_or(n + 1)?;
        found.push((n, at as usize, hunk));
    }
    // Context lines stay the file's own (a CRLF line keeps its `\r`); only
    // deleted lines go and inserted lines come from the patch.
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut next = 0;
    for (n, at, hunk) in found {
        if at < next {
            return Err(n + 1);
        }
        out.extend(lines[next..at].iter().map(|l| (*l).to_owned()));
        next = at;
        for line in &hunk.lines {
            match line.kind {
                Kind::Context => {
                    out.push(lines[next].to_owned());
                    next += 1;
                }
                Kind::Delete => next += 1,
                Kind::Insert => out.push(line.text.clone()),
            }
        }
        end_of_file(&mut out, hunk, &lines, &mut next);
    }
    out.extend(lines[next..].iter().map(|l| (*l).to_owned()));
    Ok(out.join("\n"))
}

/// `0, -1, 1, -2, 2, …, ±MAX_OFFSET`.
fn offsets() -> impl Iterator<Item = isize> {
    std::iter::once(0).chain((1..=MAX_OFFSET).flat_map(|o| [-o, o]))
}

/// The old side (context and deleted lines) or the new side (context and
/// inserted lines) of `hunk`.
fn side(hunk: &Hunk, changed: Kind) -> impl Iterator<Item = &str> {
    hunk.lines
        .iter()
        .filter(move |l| l.kind == Kind::Context || l.kind == changed)
        .map(|l| l.text.as_str())
}

fn fits(lines: &[&str], pre: &[&str], at: isize) -> bool {
    let Ok(at) = usize::try_from(at) else {
        return false;
    };
    at + pre.len() <= lines.len()
        && pre
            .iter()
            .zip(&lines[at..])
            .all(|(want, have)| want.trim_end() == have.trim_end())
}

/// `\ No newline at end of file` on one side only: the final newline is
/// added (the old side lacked it) or removed (the new side lacks it). In the
/// `split('\n')` form a final newline is the trailing empty element.
fn end_of_file(out: &mut Vec<String>, hunk: &Hunk, lines: &[&str], next: &mut usize) {
    let marked = |kind: Kind| {
        hunk.lines
            .iter()
            .any(|l| l.no_newline && (l.kind == kind || l.kind == Kind::Context))
    };
    match (marked(Kind::Delete), marked(Kind::Insert)) {
        (true, false) if *next == lines.len() => out.push(String::new()),
        (false, true) if *next + 1 == lines.len() && lines[*next].is_empty() => *next += 1,
        _ => {}
    }
}

/// `hunks` undone: deletions and insertions swap sides. A file whose hunks
/// do not apply but whose reversed hunks do is already patched.
pub(crate) fn reversed(hunks: &[Hunk]) -> Vec<Hunk> {
    hunks
        .iter()
        .map(|hunk| Hunk {
            old_start: hunk.new_start,
            new_start: hunk.old_start,
            lines: hunk
                .lines
                .iter()
                .map(|l| Line {
                    kind: match l.kind {
                        Kind::Delete => Kind::Insert,
                        Kind::Insert => Kind::Delete,
                        Kind::Context => Kind::Context,
                    },
                    ..l.clone()
                })
                .collect(),
        })
        .collect()
}
