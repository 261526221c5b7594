//! The crate's error types.

use std::path::PathBuf;

/// Why a row could not be decoded. Callers treat every variant as a cache miss.
#[derive(Debug, thiserror::Error, miette::Diagnostic, PartialEq)]
pub enum DecodeError {
    #[error("index row ends unexpectedly at byte {offset}")]
    #[diagnostic(code(pacquet_store_index::truncated))]
    Truncated { offset: usize },

    #[error("unsupported msgpack byte 0x{byte:02x} at offset {offset}")]
    #[diagnostic(code(pacquet_store_index::unsupported_type))]
    UnsupportedType { byte: u8, offset: usize },

    #[error("expected {expected} at offset {offset}")]
    #[diagnostic(code(pacquet_store_index::unexpected_type))]
    UnexpectedType {
        expected: &'static str,
        offset: usize,
    },

    #[error("string at offset {offset} is not valid UTF-8")]
    #[diagnostic(code(pacquet_store_index::invalid_utf8))]
    InvalidUtf8 { offset: usize },

    #[error("index row is missing the `{field}` field")]
    #[diagnostic(
        code(pacquet_store_index::missing_field),
        help("the row was probably written by another tool; it will be re-fetched")
    )]
    MissingField { field: &'static str },

    #[error("{len} trailing bytes after the index row")]
    #[diagnostic(code(pacquet_store_index::trailing_bytes))]
    TrailingBytes { len: usize },

    #[error("index row nests deeper than {max} levels")]
    #[diagnostic(code(pacquet_store_index::too_deep))]
    TooDeep { max: usize },
}

/// Errors surfaced by the store index (reads never fail; see [`crate::prefetch`]).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum StoreIndexError {
    #[error("cannot create the store directory {path}")]
    #[diagnostic(code(pacquet_store_index::create_dir))]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("cannot open the store index {path}")]
    #[diagnostic(
        code(pacquet_store_index::open),
        help("check the permissions of the store directory")
    )]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },

    #[error("cannot start the store index writer thread")]
    #[diagnostic(code(pacquet_store_index::spawn))]
    Spawn(#[source] std::io::Error),

    #[error("the store index writer thread panicked")]
    #[diagnostic(code(pacquet_store_index::writer_panicked))]
    WriterPanicked,
}
