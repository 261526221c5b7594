//! What the benchmarks share.

/// Deterministic source-like bytes: words from a small vocabulary, so the
/// archive compresses about as much as JavaScript does.
pub fn text(seed: u64, len: usize) -> Vec<u8> {
    const WORDS: [&str; 12] = [
        "function ",
        "return ",
        "const ",
        "value",
        " = ",
        "(a, b)",
        ";\n",
        "{ ",
        " }",
        "module",
        ".exports",
        "if (x) ",
    ];
    let mut state = seed | 1;
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.extend_from_slice(WORDS[(state % WORDS.len() as u64) as usize].as_bytes());
    }
    out.truncate(len);
    out
}
