//! A tiny blocking HTTP/1.1 client for the registry tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A parsed response.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("json body")
    }
}

pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// One `GET` on a fresh connection.
pub fn get(addr: SocketAddr, path: &str) -> Reply {
    let mut stream = connect(addr);
    send(&mut stream, path, false);
    read_reply(&mut BufReader::new(stream)).expect("reply")
}

pub fn send(stream: &mut TcpStream, path: &str, keep_alive: bool) {
    let conn = if keep_alive { "keep-alive" } else { "close" };
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: {conn}\r\n\r\n"
    )
    .unwrap();
    stream.flush().unwrap();
}

/// Reads one response; `Err` describes an incomplete one.
pub fn read_reply<R: BufRead>(reader: &mut R) -> Result<Reply, String> {
    let mut status_line = String::new();
    reader
        .read_line(&mut status_line)
        .map_err(|e| e.to_string())?;
    if status_line.is_empty() {
        return Err("connection closed before a status line".into());
    }
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("bad status line")?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (k, v) = line.split_once(':').ok_or("bad header")?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .ok_or("no content-length")?;
    let mut body = vec![0; len];
    let mut got = 0;
    while got < len {
        match reader.read(&mut body[got..]) {
            Ok(0) => return Err(format!("body truncated at {got} of {len} bytes")),
            Ok(n) => got += n,
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(Reply {
        status,
        headers,
        body,
    })
}
