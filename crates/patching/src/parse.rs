//! Reading a patch file into per-file changes (docs/patches.md §1).

/// One line of a hunk, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub kind: Kind,
    pub text: String,
    /// Followed by `\ No newline at end of file`: the file ends here.
    pub no_newline: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Context,
    Delete,
    Insert,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    /// 1-based first line of the old side (0 for an empty old side).
    pub old_start: usize,
    /// The same for the new side.
    pub new_start: usize,
    pub lines: Vec<Line>,
}

/// What one `diff --git` block (or `---`/`+++` pair) does to one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FilePatch {
    /// Path before, one leading component stripped; `None` for `/dev/null`.
    pub old_path: Option<String>,
    /// Path after; `None` for `/dev/null`.
    pub new_path: Option<String>,
    pub new_mode: Option<u32>,
    pub created: bool,
    pub deleted: bool,
    pub renamed: bool,
    pub copied: bool,
    pub binary: bool,
    pub hunks: Vec<Hunk>,
    /// Opened by `diff --git`.
    from_git: bool,
    /// Its `---`/`+++` lines were read.
    paths_seen: bool,
}

/// Every file change of `text`; an error when there is none or a hunk is
/// malformed.
pub(crate) fn parse(text: &str) -> Result<Vec<FilePatch>, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut files: Vec<FilePatch> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].strip_suffix('\r').unwrap_or(lines[i]);
        if let Some(rest) = line.strip_prefix("diff --git ") {
            files.push(git_header(rest));
        } else if line.starts_with("--- ")
            && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ "))
        {
            let reuse = files
                .last()
                .is_some_and(|f| f.from_git && !f.paths_seen && f.hunks.is_empty());
            if !reuse {
                files.push(FilePatch::default());
            }
            let file = files.last_mut().expect("pushed above");
            file.paths_seen = true;
            let next = lines[i + 1].strip_suffix('\r').unwrap_or(lines[i + 1]);
            file.old_path = header_path(&line[4..]);
            file.new_path = header_path(&next[4..]);
            file.created |= file.old_path.is_none();
            file.deleted |= file.new_path.is_none();
            i += 1;
        } else if line.starts_with("@@ ") {
            let file = files
                .last_mut()
                .ok_or_else(|| format!("hunk without a file header at line {}", i + 1))?;
            let (hunk, next) = hunk(&lines, i)?;
            file.hunks.push(hunk);
            i = next;
            continue;
        } else if let Some(file) = files.last_mut() {
            extended_header(file, line);
        }
        i += 1;
    }
    if files.is_empty() {
        return Err("no valid patches found".to_owned());
    }
    Ok(files)
}

fn git_header(rest: &str) -> FilePatch {
    // `a/<path> b/<path>`; paths with spaces split at the last ` b/`.
    let (old, new) = match rest.rfind(" b/") {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => rest.split_once(' ').unwrap_or((rest, rest)),
    };
    FilePatch {
        old_path: Some(strip_component(old)),
        new_path: Some(strip_component(new)),
        from_git: true,
        ..FilePatch::default()
    }
}

fn extended_header(file: &mut FilePatch, line: &str) {
    let mode = |text: &str| u32::from_str_radix(text.trim(), 8).ok();
    if let Some(m) = line.strip_prefix("new mode ") {
        file.new_mode = mode(m);
    } else if let Some(m) = line.strip_prefix("new file mode ") {
        file.created = true;
        file.new_mode = mode(m);
    } else if line.starts_with("deleted file mode ") {
        file.deleted = true;
    } else if let Some(p) = line.strip_prefix("rename from ") {
        file.renamed = true;
        file.old_path = Some(p.to_owned());
    } else if let Some(p) = line.strip_prefix("rename to ") {
        file.renamed = true;
        file.new_path = Some(p.to_owned());
    } else if line.starts_with("copy from ") || line.starts_with("copy to ") {
        file.copied = true;
    } else if line.starts_with("GIT binary patch")
        || (line.starts_with("Binary files ") && line.ends_with(" differ"))
    {
        file.binary = true;
    }
}

/// `a/x` → `x`; `/dev/null` → `None`. A tab ends the path (`diff -u`
/// appends a timestamp after one).
fn header_path(text: &str) -> Option<String> {
    let path = text.split('\t').next().unwrap_or(text).trim_end();
    (path != "/dev/null").then(|| strip_component(path))
}

fn strip_component(path: &str) -> String {
    let path = path.trim_matches('"');
    match path.split_once('/') {
        Some((_, rest)) => rest.to_owned(),
        None => path.to_owned(),
    }
}

/// The hunk whose header is `lines[at]`, and the index after it.
fn hunk(lines: &[&str], at: usize) -> Result<(Hunk, usize), String> {
    let header = lines[at].strip_suffix('\r').unwrap_or(lines[at]);
    let bad = || format!("malformed hunk header at line {}: {header}", at + 1);
    let ranges = header
        .strip_prefix("@@ -")
        .and_then(|r| r.split_once(" @@").map(|(ranges, _)| ranges))
        .ok_or_else(bad)?;
    let (old, new) = ranges.split_once(" +").ok_or_else(bad)?;
    let (old_start, mut old_left) = range(old).ok_or_else(bad)?;
    let (new_start, mut new_left) = range(new).ok_or_else(bad)?;
    let mut hunk_lines: Vec<Line> = Vec::new();
    let mut i = at + 1;
    while old_left > 0 || new_left > 0 {
        let Some(raw) = lines.get(i) else {
            return Err(format!("hunk at line {} ends early", at + 1));
        };
        let (kind, text) = match raw.chars().next() {
            Some(' ') => (Kind::Context, &raw[1..]),
            Some('-') => (Kind::Delete, &raw[1..]),
            Some('+') => (Kind::Insert, &raw[1..]),
            Some('\\') => {
                mark_no_newline(&mut hunk_lines);
                i += 1;
                continue;
            }
            // An empty line stands for an empty context line (editors strip
            // the lone space).
            None => (Kind::Context, ""),
            Some('\r') if raw.len() == 1 => (Kind::Context, ""),
            _ => return Err(format!("unexpected line {} in a hunk: {raw}", i + 1)),
        };
        match kind {
            Kind::Context if old_left == 0 || new_left == 0 => {
                return Err(format!(
                    "hunk at line {} is longer than its header says",
                    at + 1
                ));
            }
            Kind::Context => (old_left -= 1, new_left -= 1),
            Kind::Delete if old_left == 0 => return Err(bad()),
            Kind::Delete => (old_left -= 1, ()),
            Kind::Insert if new_left == 0 => return Err(bad()),
            Kind::Insert => ((), new_left -= 1),
        };
        hunk_lines.push(Line {
            kind,
            text: text.to_owned(),
            no_newline: false,
        });
        i += 1;
    }
    if lines.get(i).is_some_and(|l| l.starts_with('\\')) {
        mark_no_newline(&mut hunk_lines);
        i += 1;
    }
    let hunk = Hunk {
        old_start,
        new_start,
        lines: hunk_lines,
    };
    Ok((hunk, i))
}

fn mark_no_newline(lines: &mut [Line]) {
    if let Some(last) = lines.last_mut() {
        last.no_newline = true;
    }
}

/// `l,s` → (l, s); `l` alone means a length of 1.
fn range(text: &str) -> Option<(usize, usize)> {
    match text.split_once(',') {
        Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
        None => Some((text.parse().ok()?, 1)),
    }
}

#[cfg(test)]
mod tests;
