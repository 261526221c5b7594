//! Minimal HTTP/1.1 request reading and response writing.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Longest request head accepted.
const MAX_HEAD: usize = 64 * 1024;

/// A parsed request head.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// Request target as sent (path plus query).
    pub target: String,
    pub keep_alive: bool,
    /// `Authorization` header value, if any.
    pub authorization: Option<String>,
    /// `If-None-Match` header value, if any.
    pub if_none_match: Option<String>,
}

/// Reads one request (head and discarded body). `Ok(None)` on a clean EOF
/// before any byte; `Err` on malformed input or I/O failure.
pub async fn read_request<R: AsyncBufRead + Unpin>(
    reader: &mut R,
) -> std::io::Result<Option<Request>> {
    let mut lines = Vec::new();
    let mut total = 0;
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line).await?;
        if n == 0 {
            if lines.is_empty() {
                return Ok(None);
            }
            return Err(invalid("connection closed inside a request head"));
        }
        total += n;
        if total > MAX_HEAD {
            return Err(invalid("request head too large"));
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        if line.is_empty() {
            if lines.is_empty() {
                continue; // tolerate stray CRLF between requests
            }
            break;
        }
        lines.push(line);
    }
    let mut parts = lines[0].split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(invalid("bad request line"));
    };
    let mut content_length = 0u64;
    let mut connection = None;
    let mut authorization = None;
    let mut if_none_match = None;
    for header in &lines[1..] {
        let Some((key, value)) = header.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                content_length = value.parse().map_err(|_| invalid("bad content-length"))?
            }
            "connection" => connection = Some(value.to_ascii_lowercase()),
            "authorization" => authorization = Some(value.to_string()),
            "if-none-match" => if_none_match = Some(value.to_string()),
            _ => {}
        }
    }
    if content_length > 0 {
        let mut body = reader.take(content_length);
        tokio::io::copy(&mut body, &mut tokio::io::sink()).await?;
    }
    let keep_alive = match connection.as_deref() {
        Some(c) if c.contains("close") => false,
        Some(c) if c.contains("keep-alive") => true,
        _ => version.eq_ignore_ascii_case("HTTP/1.1"),
    };
    Ok(Some(Request {
        method: method.to_string(),
        target: target.to_string(),
        keep_alive,
        authorization,
        if_none_match,
    }))
}

fn invalid(msg: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, msg.to_string())
}

/// A response ready to write.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// Sent as `ETag` when set.
    pub etag: Option<String>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            body,
            etag: None,
        }
    }

    pub fn text(status: u16, text: &str) -> Response {
        Response::new(status, "text/plain", text.as_bytes().to_vec())
    }
}

/// Writes the status line and headers (with the body's full length).
pub async fn write_head<W: AsyncWrite + Unpin>(
    w: &mut W,
    resp: &Response,
    keep_alive: bool,
) -> std::io::Result<()> {
    let etag = resp
        .etag
        .as_ref()
        .map(|e| format!("ETag: {e}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{etag}Connection: {}\r\n\r\n",
        resp.status,
        reason(resp.status),
        resp.content_type,
        resp.body.len(),
        if keep_alive { "keep-alive" } else { "close" },
    );
    w.write_all(head.as_bytes()).await
}

/// Writes a whole response; the body is skipped for `HEAD`.
pub async fn write_response<W: AsyncWrite + Unpin>(
    w: &mut W,
    resp: &Response,
    keep_alive: bool,
    head_only: bool,
) -> std::io::Result<()> {
    write_head(w, resp, keep_alive).await?;
    if !head_only {
        w.write_all(&resp.body).await?;
    }
    w.flush().await
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

/// Decodes `%XX` escapes (any case); invalid escapes are kept verbatim.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
            if let Ok(b) = u8::from_str_radix(hex, 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_scoped_names() {
        assert_eq!(percent_decode("/@pq%2ffoo"), "/@pq/foo");
        assert_eq!(percent_decode("/@pq%2Ffoo"), "/@pq/foo");
        assert_eq!(percent_decode("/a%2"), "/a%2");
        assert_eq!(percent_decode("/a%zz"), "/a%zz");
    }

    #[tokio::test]
    async fn reads_pipelined_requests_and_bodies() {
        let raw = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabcGET /c HTTP/1.0\r\n\r\n";
        let mut reader = tokio::io::BufReader::new(&raw[..]);
        let a = read_request(&mut reader).await.unwrap().unwrap();
        assert_eq!(
            (a.method.as_str(), a.target.as_str(), a.keep_alive),
            ("GET", "/a", true)
        );
        let b = read_request(&mut reader).await.unwrap().unwrap();
        assert_eq!((b.target.as_str(), b.keep_alive), ("/b", false));
        let c = read_request(&mut reader).await.unwrap().unwrap();
        assert_eq!((c.target.as_str(), c.keep_alive), ("/c", false));
        assert!(read_request(&mut reader).await.unwrap().is_none());
    }
}
