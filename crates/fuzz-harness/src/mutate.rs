//! A small deterministic mutator for the stable smoke run: libFuzzer-like
//! byte edits plus format-aware ones (YAML tokens, tar header fields),
//! driven by a seeded xorshift generator so every run tests the same inputs.

/// xorshift64*: tiny, fast and reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Fragments worth splicing into lockfiles: YAML syntax, pnpm key shapes,
/// path tricks.
const YAML_TOKENS: &[&str] = &[
    "\n",
    "\n  ",
    "\n    ",
    ": ",
    "- ",
    "'",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "---\n",
    "...\n",
    "#",
    "~",
    "null",
    "true",
    "9.0",
    "'6.0'",
    "@",
    "(",
    ")",
    "/",
    "../",
    "link:",
    "file:",
    "npm:",
    "workspace:",
    "sha512-",
    "resolution: {integrity: x}",
    "version: ",
    "\t",
    "\u{feff}",
    "\\u0000",
    "? ",
    "|\n",
    ">-\n",
    "<<: *a\n",
];

/// Tar type flags, including links, devices, sparse and extension headers.
const TAR_TYPES: &[u8] = b"0125677LKxgSDMV\0";

/// Numbers worth writing into octal header fields.
const TAR_NUMBERS: &[&[u8]] = &[
    b"00000000000\0",
    b"00000001000\0",
    b"77777777777\0",
    b"7777777\0",
    b"\x80\0\0\0\0\0\0\x01\0\0\0\0",
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
    b"-1\0",
];

/// The kind of input, for format-aware edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Msgpack,
    Tar,
}

/// Returns a mutated copy of `seed` (1 to 4 stacked edits), sometimes
/// spliced with `other`.
pub fn mutate(seed: &[u8], other: &[u8], format: Format, rng: &mut Rng) -> Vec<u8> {
    let mut data = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        edit(&mut data, other, format, rng);
    }
    data
}

fn edit(data: &mut Vec<u8>, other: &[u8], format: Format, rng: &mut Rng) {
    if data.is_empty() {
        data.push(rng.next_u64() as u8);
        return;
    }
    let at = rng.below(data.len());
    match rng.below(10) {
        0 => data[at] ^= 1 << rng.below(8),
        1 => data[at] = rng.next_u64() as u8,
        2 => {
            let len = 1 + rng.below(16.min(data.len() - at));
            data.drain(at..at + len);
        }
        3 => {
            let len = 1 + rng.below(64.min(data.len() - at));
            let copy = data[at..at + len].to_vec();
            let to = rng.below(data.len());
            data.splice(to..to, copy);
        }
        4 if !other.is_empty() => {
            let from = rng.below(other.len());
            let len = 1 + rng.below(256.min(other.len() - from));
            data.splice(at..at, other[from..from + len].iter().copied());
        }
        5 => data.truncate(at),
        6 => {
            let n = [0u8, 1, 0x7f, 0x80, 0xff][rng.below(5)];
            data[at] = n;
        }
        _ => format_edit(data, at, format, rng),
    }
}

fn format_edit(data: &mut Vec<u8>, at: usize, format: Format, rng: &mut Rng) {
    match format {
        Format::Yaml => {
            let token = YAML_TOKENS[rng.below(YAML_TOKENS.len())].as_bytes();
            if rng.below(2) == 0 {
                data.splice(at..at, token.iter().copied());
            } else {
                let end = (at + token.len()).min(data.len());
                data.splice(at..end, token.iter().copied());
            }
        }
        Format::Msgpack => {
            // Type bytes with lengths: str8/16/32, bin, array/map 16/32, ext.
            const MARKERS: &[u8] = &[
                0xc0, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0,
                0xd3, 0xd4, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
                0xbf,
            ];
            data[at] = MARKERS[rng.below(MARKERS.len())];
            if rng.below(2) == 0 {
                let len = 4.min(data.len() - at - 1);
                for b in &mut data[at + 1..at + 1 + len] {
                    *b = [0x00, 0xff, 0x7f][rng.below(3)];
                }
            }
        }
        Format::Tar => {
            // Edit a field of the 512-byte header `at` falls in (the first
            // input byte is the harness's form selector).
            let start = 1 + (at.saturating_sub(1) / 512) * 512;
            if start + 512 > data.len() {
                data[at] ^= 0xff;
                return;
            }
            let header = &mut data[start..start + 512];
            match rng.below(5) {
                0 => header[156] = TAR_TYPES[rng.below(TAR_TYPES.len())],
                1 => {
                    let value = TAR_NUMBERS[rng.below(TAR_NUMBERS.len())];
                    header[124..124 + value.len()].copy_from_slice(value);
                }
                2 => {
                    let name: &[u8] =
                        [&b"package/../x\0"[..], b"/etc/x\0", b"package//a\0", b"\0"][rng.below(4)];
                    header[..name.len()].copy_from_slice(name);
                }
                3 => header[257..263].copy_from_slice(b"ustar\0"),
                _ => {
                    let value = TAR_NUMBERS[rng.below(TAR_NUMBERS.len())];
                    header[100..100 + value.len().min(8)]
                        .copy_from_slice(&value[..value.len().min(8)]);
                }
            }
            // Keep the checksum valid half the time so edits get past it.
            if rng.below(2) == 0 {
                let sum: u32 = header[..148]
                    .iter()
                    .chain(&[b' '; 8])
                    .chain(&header[156..])
                    .map(|&b| u32::from(b))
                    .sum();
                let text = format!("{sum:06o}\0 ");
                header[148..156].copy_from_slice(text.as_bytes());
            }
        }
    }
}
