//! Scalar styling. pnpm 12 reproduces the choices js-yaml made for pnpm 9–11
//! lockfiles (`noCompatMode`, no line width): plain when the text is a safe
//! plain scalar that would not read back as null/bool/int/float/timestamp,
//! single-quoted otherwise, double-quoted when it contains non-printable
//! characters, and a literal block for multi-line values.

/// Where a scalar is written: flow collections forbid `,[]{}` in plain text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    Block,
    Flow,
    /// A mapping key: never a block scalar.
    Key,
}

/// Appends `s` styled for `ctx`. `indent` is the indentation of the owning
/// mapping's keys (used by literal blocks only).
pub(crate) fn write_str(out: &mut String, s: &str, ctx: Ctx, indent: usize) {
    if s.is_empty() {
        out.push_str("''");
        return;
    }
    let printable = s.chars().all(is_printable_or_break);
    let has_break = s.contains('\n');
    if !printable || (has_break && ctx != Ctx::Block) || s.contains('\r') {
        write_double(out, s);
    } else if has_break {
        write_literal(out, s, indent);
    } else if is_plain(s, ctx == Ctx::Flow) && !is_ambiguous(s) {
        out.push_str(s);
    } else {
        out.push('\'');
        for c in s.chars() {
            if c == '\'' {
                out.push('\'');
            }
            out.push(c);
        }
        out.push('\'');
    }
}

fn is_printable(c: char) -> bool {
    let c = c as u32;
    (0x20..=0x7e).contains(&c)
        || ((0xa1..=0xd7ff).contains(&c) && c != 0x2028 && c != 0x2029)
        || ((0xe000..=0xfffd).contains(&c) && c != 0xfeff)
        || (0x10000..=0x10ffff).contains(&c)
}

fn is_printable_or_break(c: char) -> bool {
    is_printable(c) || c == '\n'
}

fn is_white(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Printable ASCII that is plain-safe anywhere after the first character.
static ORDINARY: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0x21;
    while c < 0x7f {
        t[c] = true;
        c += 1;
    }
    let special = b":#,[]{}";
    let mut i = 0;
    while i < special.len() {
        t[special[i] as usize] = false;
        i += 1;
    }
    t
};

fn is_plain_first(c: char) -> bool {
    is_printable(c) && !is_white(c) && !"-?:,[]{}#&*!|=>'\"%@`".contains(c)
}

fn is_plain(s: &str, flow: bool) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let last = s.chars().next_back().unwrap_or(first);
    if !is_plain_first(first) || is_white(last) || last == ':' {
        return false;
    }
    // Most scalars are plain ASCII without indicators: skip the per-char rules.
    if s.bytes().all(|b| ORDINARY[b as usize]) {
        return true;
    }
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if !plain_safe(c, prev, flow) {
            return false;
        }
        prev = Some(c);
    }
    true
}

/// js-yaml's `isPlainSafe`: `: ` and ` #` end a plain scalar.
fn plain_safe(c: char, prev: Option<char>, flow: bool) -> bool {
    let ns_or_white = is_printable(c);
    let ns = ns_or_white && !is_white(c);
    let base = ns_or_white && !(flow && ",[]{}".contains(c));
    let prev_colon = prev == Some(':');
    let prev_ns = prev.is_some_and(|p| is_printable(p) && !is_white(p));
    (prev_colon && ns) || (c == '#' && prev_ns) || (base && c != '#' && !prev_colon)
}

/// Would a YAML 1.2 core-schema reader (plus timestamps and `<<`) type this
/// plain scalar as something other than a string?
pub(crate) fn is_ambiguous(s: &str) -> bool {
    matches!(
        s,
        "~" | "null"
            | "Null"
            | "NULL"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "<<"
    ) || is_int(s)
        || is_float(s)
        || is_timestamp(s)
}

fn is_int(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    if b.get(i) == Some(&b'0') {
        if i + 1 == b.len() {
            return true;
        }
        let radix_digits: Option<fn(u8) -> bool> = match b.get(i + 1) {
            Some(b'b') => Some(|c| c == b'0' || c == b'1'),
            Some(b'x') => Some(|c: u8| c.is_ascii_hexdigit()),
            Some(b'o') => Some(|c| (b'0'..=b'7').contains(&c)),
            _ => None,
        };
        if let Some(ok) = radix_digits {
            let rest = &b[i + 2..];
            return rest.iter().any(|&c| c != b'_')
                && rest.iter().all(|&c| c == b'_' || ok(c))
                && rest.last() != Some(&b'_');
        }
    }
    let rest = &b[i..];
    !rest.is_empty()
        && rest[0] != b'_'
        && rest.iter().all(|&c| c == b'_' || c.is_ascii_digit())
        && rest.iter().any(u8::is_ascii_digit)
        && rest.last() != Some(&b'_')
}

/// js-yaml's float pattern:
/// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)? | \.[0-9_]+([eE][-+]?[0-9]+)? | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`,
/// not ending in `_`.
fn is_float(s: &str) -> bool {
    if s.ends_with('_') {
        return false;
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let b = s.as_bytes();
    let digits = |from: usize, allow_underscore: bool| {
        b[from..]
            .iter()
            .take_while(|&&c| c.is_ascii_digit() || (allow_underscore && c == b'_'))
            .count()
    };
    let exponent_ok = |at: usize| {
        if at == b.len() {
            return true;
        }
        if !matches!(b[at], b'e' | b'E') {
            return false;
        }
        let mut j = at + 1;
        if matches!(b.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let n = digits(j, false);
        n > 0 && j + n == b.len()
    };
    if b.first() == Some(&b'.') {
        let n = digits(1, true);
        return n > 0 && exponent_ok(1 + n);
    }
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += digits(i, true);
    if b.get(i) == Some(&b'.') {
        i += 1 + digits(i + 1, true);
    }
    exponent_ok(i)
}

/// `YYYY-MM-DD`, optionally followed by a time (js-yaml's timestamp type).
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let d = |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    if b.len() < 8 || !d(0..4) || b[4] != b'-' {
        return false;
    }
    if b.len() == 10 && d(5..7) && b[7] == b'-' && d(8..10) {
        return true;
    }
    // Full form: month/day of 1–2 digits, then [Tt] or spaces, then h:mm:ss.
    let rest = &s[5..];
    let mut parts = rest.splitn(2, '-');
    let month = parts.next().unwrap_or("");
    let Some(after) = parts.next() else {
        return false;
    };
    let day_len = after.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=2).contains(&month.len())
        || !month.bytes().all(|c| c.is_ascii_digit())
        || !(1..=2).contains(&day_len)
    {
        return false;
    }
    let time = &after[day_len..];
    let time = if let Some(t) = time.strip_prefix(['T', 't']) {
        t
    } else {
        let t = time.trim_start_matches([' ', '\t']);
        if t.len() == time.len() {
            return false;
        }
        t
    };
    let t = time.as_bytes();
    let h = t.iter().take_while(|c| c.is_ascii_digit()).count();
    let two_digits = |at: usize| {
        t.get(at..at + 2)
            .is_some_and(|x| x.iter().all(u8::is_ascii_digit))
    };
    if !(1..=2).contains(&h)
        || t.get(h) != Some(&b':')
        || !two_digits(h + 1)
        || t.get(h + 3) != Some(&b':')
        || !two_digits(h + 4)
    {
        return false;
    }
    let mut i = h + 6;
    if t.get(i) == Some(&b'.') {
        i += 1 + t[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    if i == t.len() {
        return true;
    }
    // Optional zone: spaces, then `Z` or `±h[h][:mm]`, then the end.
    i += t[i..]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    match t.get(i) {
        Some(b'Z') => i + 1 == t.len(),
        Some(b'+' | b'-') => {
            let hh = t[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            let rest = &t[i + 1 + hh..];
            (1..=2).contains(&hh)
                && (rest.is_empty()
                    || (rest.len() == 3 && rest[0] == b':' && two_digits(t.len() - 2)))
        }
        _ => false,
    }
}

fn write_double(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if is_printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push_str(&format!("\\U{:08X}", c as u32)),
        }
    }
    out.push('"');
}

/// `|` block with js-yaml's chomping and indentation indicators.
fn write_literal(out: &mut String, s: &str, indent: usize) {
    out.push('|');
    if s.starts_with([' ', '\n']) {
        out.push('2');
    }
    let trailing = s.len() - s.trim_end_matches('\n').len();
    match trailing {
        0 => out.push('-'),
        1 => {}
        _ => out.push('+'),
    }
    let body = s.trim_end_matches('\n');
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.extend(std::iter::repeat_n(' ', indent + 2));
            out.push_str(line);
        }
    }
    for _ in 1..trailing {
        out.push('\n');
    }
}
