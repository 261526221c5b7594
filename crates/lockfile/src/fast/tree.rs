//! A strict reader for the YAML subset pnpm writes: block mappings, block
//! sequences of scalars, one-line flow collections and plain/quoted scalars.
//! Anything else returns `None` so the caller can use the full YAML parser,
//! which also produces the error messages.

use std::borrow::Cow;

#[derive(Debug, PartialEq)]
pub(crate) enum Node<'a> {
    /// An empty value (`key:` with nothing below it).
    Null,
    Plain(&'a str),
    Quoted(Cow<'a, str>),
    Map(Vec<(Cow<'a, str>, Node<'a>)>),
    Seq(Vec<Node<'a>>),
}

struct Line<'a> {
    indent: usize,
    text: &'a str,
    /// Index into the raw lines, which keep the blank lines block scalars need.
    raw_no: usize,
}

struct Doc<'a> {
    lines: Vec<Line<'a>>,
    raw: Vec<&'a str>,
}

/// Parses one document (no `---` markers).
pub(crate) fn parse_document(text: &str) -> Option<Node<'_>> {
    let mut lines = Vec::with_capacity(text.len() / 24);
    let raw_lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    for (raw_no, &raw) in raw_lines.iter().enumerate() {
        let content = raw.trim_start_matches(' ');
        if content.is_empty() {
            continue;
        }
        if content.starts_with(['\t', '#']) || content.ends_with([' ', '\t']) {
            return None;
        }
        lines.push(Line {
            indent: raw.len() - content.len(),
            text: content,
            raw_no,
        });
    }
    let doc = Doc {
        lines,
        raw: raw_lines,
    };
    let mut pos = 0;
    if doc.lines.first().is_none_or(|l| l.indent != 0) {
        return None;
    }
    let root = parse_map(&doc, &mut pos, 0, 0)?;
    (pos == doc.lines.len()).then_some(root)
}

/// Deepest nesting (block maps, and flow collections) the fast path takes;
/// deeper input goes to the general parser, whose budget turns it into an
/// error instead of a stack overflow. pnpm lockfiles nest about 6 deep.
const MAX_DEPTH: usize = 64;

fn is_seq_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

fn parse_map<'a>(doc: &Doc<'a>, pos: &mut usize, indent: usize, depth: usize) -> Option<Node<'a>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let lines = &doc.lines;
    let mut entries = Vec::new();
    while let Some(line) = lines.get(*pos) {
        if line.indent < indent {
            break;
        }
        if line.indent > indent || is_seq_item(line.text) {
            return None;
        }
        let (key, rest) = split_key(line.text)?;
        *pos += 1;
        let value = if rest.is_empty() {
            match lines.get(*pos) {
                Some(next) if next.indent > indent => {
                    if is_seq_item(next.text) {
                        parse_seq(doc, pos, next.indent)?
                    } else {
                        parse_map(doc, pos, next.indent, depth + 1)?
                    }
                }
                Some(next) if next.indent == indent && is_seq_item(next.text) => {
                    parse_seq(doc, pos, indent)?
                }
                _ => Node::Null,
            }
        } else if rest.starts_with(['|', '>']) {
            literal_block(doc, pos, indent, rest)?
        } else {
            inline_value(rest)?
        };
        entries.push((key, value));
    }
    if has_duplicates(&entries) {
        return None;
    }
    Some(Node::Map(entries))
}

/// pnpm writes sorted keys, so the common case is a linear scan.
fn has_duplicates(entries: &[(Cow<'_, str>, Node<'_>)]) -> bool {
    if entries.windows(2).all(|w| w[0].0 < w[1].0) {
        return false;
    }
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    !entries.iter().all(|(k, _)| seen.insert(k.as_ref()))
}

fn parse_seq<'a>(doc: &Doc<'a>, pos: &mut usize, indent: usize) -> Option<Node<'a>> {
    let lines = &doc.lines;
    let mut items = Vec::new();
    while let Some(line) = lines.get(*pos) {
        if line.indent < indent || (line.indent == indent && !is_seq_item(line.text)) {
            break;
        }
        if line.indent > indent {
            return None;
        }
        let item = line.text.strip_prefix("- ")?;
        *pos += 1;
        items.push(inline_value(item)?);
    }
    Some(Node::Seq(items))
}

/// `|` / `|-` block scalars (pnpm writes multi-line `deprecated` texts so).
/// `pos` points at the line after the key.
fn literal_block<'a>(
    doc: &Doc<'a>,
    pos: &mut usize,
    parent: usize,
    header: &str,
) -> Option<Node<'a>> {
    let strip = match header {
        "|" => false,
        "|-" => true,
        _ => return None,
    };
    let first = doc.lines.get(*pos).filter(|l| l.indent > parent)?;
    let indent = first.indent;
    let mut end = *pos;
    while doc.lines.get(end).is_some_and(|l| l.indent > parent) {
        if doc.lines[end].indent < indent {
            return None;
        }
        end += 1;
    }
    let last = &doc.lines[end - 1];
    let mut text = String::new();
    for (i, raw) in doc.raw[first.raw_no..=last.raw_no].iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(raw.get(indent..).unwrap_or(""));
    }
    if !strip {
        text.push('\n');
    }
    *pos = end;
    Some(Node::Quoted(Cow::Owned(text)))
}

/// Splits `key: rest` / `key:`; `rest` is empty when the value is on later lines.
fn split_key(text: &str) -> Option<(Cow<'_, str>, &str)> {
    let (key, after) = match text.as_bytes().first()? {
        b'\'' => single_quoted(text)?,
        b'"' => double_quoted(text)?,
        _ => {
            let end = find_colon_space(text.as_bytes())
                .or_else(|| text.strip_suffix(':').map(str::len))?;
            let key = &text[..end];
            if !plain_ok(key, false) {
                return None;
            }
            (Cow::Borrowed(key), &text[end..])
        }
    };
    let rest = after.strip_prefix(':')?;
    if rest.is_empty() {
        return Some((key, rest));
    }
    let rest = rest.strip_prefix(' ')?;
    if rest.is_empty() || rest.starts_with(' ') {
        return None;
    }
    Some((key, rest))
}

/// The value after `key: ` or `- `, which must end the line.
fn inline_value(text: &str) -> Option<Node<'_>> {
    let (node, rest) = scalar_or_flow(text, false, 0)?;
    rest.is_empty().then_some(node)
}

/// Reads one value from the start of `text`; returns it and what follows.
fn scalar_or_flow(text: &str, in_flow: bool, depth: usize) -> Option<(Node<'_>, &str)> {
    match text.as_bytes().first()? {
        b'\'' => single_quoted(text).map(|(s, rest)| (Node::Quoted(s), rest)),
        b'"' => double_quoted(text).map(|(s, rest)| (Node::Quoted(s), rest)),
        b'{' if depth < MAX_DEPTH => flow_map(text, depth + 1),
        b'[' if depth < MAX_DEPTH => flow_seq(text, depth + 1),
        b'{' | b'[' => None,
        _ if in_flow => {
            let b = text.as_bytes();
            let end = (0..b.len())
                .find(|&i| {
                    SPECIAL[b[i] as usize]
                        && (matches!(b[i], b',' | b'}' | b']')
                            || (b[i] == b':' && b.get(i + 1) == Some(&b' ')))
                })
                .unwrap_or(b.len());
            let plain = &text[..end];
            plain_ok(plain, true).then_some((Node::Plain(plain), &text[end..]))
        }
        _ => plain_ok(text, false).then_some((Node::Plain(text), "")),
    }
}

/// Bytes that need a closer look inside plain scalars.
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    let listed = b": []{},";
    let mut i = 0;
    while i < listed.len() {
        t[listed[i] as usize] = true;
        i += 1;
    }
    t[0x7f] = true;
    t[0xc2] = true;
    t
};

/// Position of the first `: ` (the end of a plain key).
fn find_colon_space(b: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = b[from..].iter().position(|&c| c == b':') {
        let at = from + i;
        if b.get(at + 1) == Some(&b' ') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Only plain scalars that cannot mean anything but their text here.
fn plain_ok(s: &str, in_flow: bool) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if b"-?:,[]{}#&*!|>'\"%@`".contains(&first) || last == b':' || last == b' ' {
        return false;
    }
    // One pass: no `: `, ` #`, control characters (ASCII or C1), and no flow
    // indicators inside flow collections.
    for (i, &c) in b.iter().enumerate() {
        if !SPECIAL[c as usize] {
            continue;
        }
        let next = b.get(i + 1).copied();
        let bad = match c {
            b':' => next == Some(b' '),
            b' ' => next == Some(b'#'),
            b'[' | b']' | b'{' | b'}' | b',' => in_flow,
            0xc2 => next.is_some_and(|n| (0x80..=0x9f).contains(&n)),
            _ => true,
        };
        if bad {
            return false;
        }
    }
    true
}

fn single_quoted(text: &str) -> Option<(Cow<'_, str>, &str)> {
    let body = text.strip_prefix('\'')?;
    let mut owned: Option<String> = None;
    let mut start = 0;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\'' {
            if bytes.get(i + 1) == Some(&b'\'') {
                owned
                    .get_or_insert_with(String::new)
                    .push_str(&body[start..=i]);
                i += 2;
                start = i;
                continue;
            }
            let value = match owned {
                Some(mut s) => {
                    s.push_str(&body[start..i]);
                    Cow::Owned(s)
                }
                None => Cow::Borrowed(&body[..i]),
            };
            return Some((value, &body[i + 1..]));
        }
        i += 1;
    }
    None
}

fn double_quoted(text: &str) -> Option<(Cow<'_, str>, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((Cow::Owned(out), &body[i + 1..])),
            '\\' => {
                let (_, e) = chars.next()?;
                let simple = match e {
                    '0' => '\0',
                    'a' => '\x07',
                    'b' => '\x08',
                    't' => '\t',
                    'n' => '\n',
                    'v' => '\x0b',
                    'f' => '\x0c',
                    'r' => '\r',
                    'e' => '\x1b',
                    ' ' => ' ',
                    '"' => '"',
                    '/' => '/',
                    '\\' => '\\',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    'x' | 'u' | 'U' => {
                        let len = match e {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = (0..len)
                            .map(|_| chars.next().map(|(_, h)| h))
                            .collect::<Option<_>>()?;
                        char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
                    }
                    _ => return None,
                };
                out.push(simple);
            }
            c => out.push(c),
        }
    }
    None
}

fn skip_spaces(s: &str) -> &str {
    s.trim_start_matches(' ')
}

fn flow_map(text: &str, depth: usize) -> Option<(Node<'_>, &str)> {
    let mut rest = skip_spaces(text.strip_prefix('{')?);
    let mut entries = Vec::new();
    if let Some(after) = rest.strip_prefix('}') {
        return Some((Node::Map(entries), after));
    }
    loop {
        let (key, after) = scalar_or_flow(rest, true, depth)?;
        let key = match key {
            Node::Plain(s) => Cow::Borrowed(s),
            Node::Quoted(s) => s,
            _ => return None,
        };
        rest = skip_spaces(after.strip_prefix(": ")?);
        let (value, after) = scalar_or_flow(rest, true, depth)?;
        entries.push((key, value));
        rest = skip_spaces(after);
        if let Some(after) = rest.strip_prefix(", ") {
            rest = skip_spaces(after);
        } else if let Some(after) = rest.strip_prefix('}') {
            if has_duplicates(&entries) {
                return None;
            }
            return Some((Node::Map(entries), after));
        } else {
            return None;
        }
    }
}

fn flow_seq(text: &str, depth: usize) -> Option<(Node<'_>, &str)> {
    let mut rest = skip_spaces(text.strip_prefix('[')?);
    let mut items = Vec::new();
    if let Some(after) = rest.strip_prefix(']') {
        return Some((Node::Seq(items), after));
    }
    loop {
        let (value, after) = scalar_or_flow(rest, true, depth)?;
        items.push(value);
        rest = skip_spaces(after);
        if let Some(after) = rest.strip_prefix(", ") {
            rest = skip_spaces(after);
        } else if let Some(after) = rest.strip_prefix(']') {
            return Some((Node::Seq(items), after));
        } else {
            return None;
        }
    }
}
