//! Faults the registry can inject into its next response for a path.

use std::time::Duration;

/// What to do instead of (or before) the normal response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Answer with this status code and a short text body.
    Status(u16),
    /// Send the headers with the full `Content-Length`, then only the first
    /// half of the body, then close the connection.
    Truncate,
    /// Accept the request and never answer (until the registry is dropped).
    Stall,
    /// Send the headers with the full `Content-Length` and the first half of
    /// the body, then keep the connection open without sending more.
    StallMidBody,
    /// Answer 200 with a body of the right length but different bytes (the
    /// last byte flipped), so integrity checks fail.
    WrongBody,
    /// Close the connection without answering.
    Reset,
    /// Wait this long, then answer normally.
    Delay(Duration),
}
