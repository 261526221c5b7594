//! One line of an ignore file as npm-packlist evaluates it
//! (docs/packlist.md §2): a minimatch pattern with `matchBase`, `dot`,
//! `nocase` and `flipNegate`, matched whole or — for directories — as a
//! possible prefix of a match.

use globset::{GlobBuilder, GlobMatcher};

/// Longer patterns are not real file names; refusing them bounds the
/// regexes a package's `files` or ignore files can make us build.
const MAX_PATTERN: usize = 1024;

pub(super) struct Rule {
    /// A leading `!`: a match includes.
    pub negate: bool,
    /// The pattern with its braces expanded, as minimatch does.
    alternatives: Vec<Alternative>,
    /// One segment, or one and a trailing `/`: ignore-walk also tries it
    /// on the entry's own name when a parent directory asks.
    pub relative: bool,
}

/// Brace expansions beyond this are not real ignore rules.
const MAX_ALTERNATIVES: usize = 64;

struct Alternative {
    whole: GlobMatcher,
    /// Per `/`-separated segment, for prefix matches (`None`: `**`).
    segments: Vec<Option<GlobMatcher>>,
    /// No `/` in the pattern: matched against the base name only
    /// (minimatch's `matchBase`).
    base_name: bool,
}

impl Rule {
    /// `None` for blank lines, comments and patterns that do not compile.
    pub fn parse(line: &str) -> Option<Rule> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.len() > MAX_PATTERN {
            return None;
        }
        let bangs = line.len() - line.trim_start_matches('!').len();
        let pattern = &line[bangs..];
        let expanded = expand_braces(pattern);
        let relative = expanded
            .iter()
            .any(|p| match p.split('/').collect::<Vec<_>>().as_slice() {
                [_] => true,
                [_, last] => last.is_empty(),
                _ => false,
            });
        let alternatives = expanded
            .iter()
            .map(|p| Alternative::new(p))
            .collect::<Option<Vec<_>>>()?;
        Some(Rule {
            negate: bangs % 2 == 1,
            alternatives,
            relative,
        })
    }

    pub fn matches(&self, path: &str) -> bool {
        self.alternatives.iter().any(|a| a.matches(path))
    }

    pub fn matches_prefix(&self, path: &str) -> bool {
        self.alternatives.iter().any(|a| a.matches_prefix(path))
    }
}

impl Alternative {
    fn new(pattern: &str) -> Option<Alternative> {
        let segments = pattern
            .split('/')
            .map(|segment| match segment {
                "**" => Some(None),
                _ => glob(segment).map(Some),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Alternative {
            whole: glob(pattern)?,
            segments,
            base_name: !pattern.contains('/'),
        })
    }

    /// Whether the pattern matches `path` (`/`-separated; a leading `/` is
    /// part of what is matched, a trailing `/` may follow a match).
    fn matches(&self, path: &str) -> bool {
        if self.base_name {
            // `matchBase`: only the last non-empty segment is compared.
            let base = path.split('/').rev().find(|s| !s.is_empty()).unwrap_or("");
            return self.whole.is_match(base);
        }
        self.whole.is_match(path)
            || path
                .strip_suffix('/')
                .is_some_and(|dir| self.whole.is_match(dir))
    }

    /// Whether `path` could be a leading part of a match: every segment of
    /// `path` matches the pattern's segment at its place, until a `**`.
    pub fn matches_prefix(&self, path: &str) -> bool {
        if self.base_name {
            return self.matches(path);
        }
        let parts: Vec<&str> = path.split('/').collect();
        for (i, part) in parts.iter().enumerate() {
            match self.segments.get(i) {
                None => return false,
                Some(None) => return true,
                Some(Some(segment)) => {
                    if !segment.is_match(part) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

fn glob(pattern: &str) -> Option<GlobMatcher> {
    GlobBuilder::new(pattern)
        .case_insensitive(true)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

/// `a{b,c}d` → `abd`, `acd` (nested groups too; `{,x}` has an empty
/// alternative). A `{` without a matching `}` or a top-level `,` is literal.
fn expand_braces(pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    expand_into(pattern, &mut out);
    out.truncate(MAX_ALTERNATIVES);
    out
}

fn expand_into(pattern: &str, out: &mut Vec<String>) {
    if out.len() >= MAX_ALTERNATIVES {
        return;
    }
    let Some((open, close, commas)) = first_group(pattern) else {
        out.push(pattern.to_owned());
        return;
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut start = open + 1;
    for at in commas.into_iter().chain(std::iter::once(close)) {
        expand_into(&format!("{head}{}{tail}", &pattern[start..at]), out);
        start = at + 1;
    }
}

/// The first `{…}` with a top-level comma: its bounds and comma positions.
fn first_group(pattern: &str) -> Option<(usize, usize, Vec<usize>)> {
    let bytes = pattern.as_bytes();
    for open in (0..bytes.len()).filter(|&i| bytes[i] == b'{') {
        let (mut depth, mut commas) = (0usize, Vec::new());
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if !commas.is_empty() {
                            return Some((open, i, commas));
                        }
                        break;
                    }
                }
                b',' if depth == 1 => commas.push(i),
                _ => {}
            }
        }
    }
    None
}
