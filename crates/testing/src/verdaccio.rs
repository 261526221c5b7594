//! Verdaccio, the private registry and pull-through cache teams run, on
//! loopback: started by a test, stopped when dropped. Installed by
//! `tasks/install-tools.sh` into `.tools/verdaccio` (5.x; 6.x needs Node.js
//! 22). Its uplink points at a dead port, so it serves only what a test
//! publishes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `$PACQUET_VERDACCIO`, else `<workspace>/.tools/verdaccio/node_modules/.bin/verdaccio`.
pub fn verdaccio_bin() -> PathBuf {
    let bin = match std::env::var_os("PACQUET_VERDACCIO") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::paths::workspace_root().join(".tools/verdaccio/node_modules/.bin/verdaccio"),
    };
    assert!(
        bin.exists(),
        "verdaccio not found at {}: run tasks/install-tools.sh (or set PACQUET_VERDACCIO)",
        bin.display()
    );
    bin
}

/// A running Verdaccio. Packages under `@private/*` need a logged-in user;
/// everything else is public to read.
pub struct Verdaccio {
    child: Child,
    port: u16,
}

impl Verdaccio {
    /// Starts Verdaccio with its storage and users under `dir`.
    pub fn start(dir: &Path) -> Verdaccio {
        std::fs::create_dir_all(dir.join("storage")).unwrap();
        // A port that was free a moment ago.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dead = TcpListener::bind("127.0.0.1:0").unwrap();
        let dead_port = dead.local_addr().unwrap().port();
        drop(dead);
        let config = format!(
            "storage: {storage}\n\
             auth:\n  htpasswd:\n    file: {htpasswd}\n    max_users: 100\n\
             uplinks:\n  dead:\n    url: http://127.0.0.1:{dead_port}/\n    max_fails: 1\n    timeout: 1s\n\
             packages:\n  '@private/*':\n    access: $authenticated\n    publish: $authenticated\n\
             \x20 '**':\n    access: $all\n    publish: $authenticated\n    proxy: dead\n\
             log: {{ type: stdout, format: pretty, level: warn }}\n",
            storage = dir.join("storage").display(),
            htpasswd = dir.join("htpasswd").display(),
        );
        let config_path = dir.join("config.yaml");
        std::fs::write(&config_path, config).unwrap();
        let log = std::fs::File::create(dir.join("verdaccio.log")).unwrap();
        let child = Command::new(verdaccio_bin())
            .arg("--config")
            .arg(&config_path)
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .stdin(Stdio::null())
            .spawn()
            .expect("spawn verdaccio");
        let verdaccio = Verdaccio { child, port };
        let deadline = Instant::now() + Duration::from_secs(30);
        while request(port, "GET", "/-/ping", None, None).is_none() {
            assert!(
                Instant::now() < deadline,
                "verdaccio did not start: {}",
                std::fs::read_to_string(dir.join("verdaccio.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        verdaccio
    }

    /// `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// The `//127.0.0.1:<port>/` prefix of `.npmrc` credential keys.
    pub fn nerf_dart(&self) -> String {
        format!("//127.0.0.1:{}/", self.port)
    }

    /// Creates a user and returns its token.
    pub fn add_user(&self, name: &str, password: &str) -> String {
        let body = format!(r#"{{"name":"{name}","password":"{password}"}}"#);
        let path = format!("/-/user/org.couchdb.user:{name}");
        let (status, text) =
            request(self.port, "PUT", &path, Some(&body), None).expect("verdaccio");
        assert!(status == 201 || status == 200, "add user: {status} {text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["token"].as_str().expect("a token").to_owned()
    }

    /// `npm publish <package_dir>` with `token`.
    pub fn publish(&self, package_dir: &Path, token: &str, work: &Path) {
        let userconfig = work.join("publish.npmrc");
        std::fs::write(
            &userconfig,
            format!("{}:_authToken={token}\n", self.nerf_dart()),
        )
        .unwrap();
        let out = Command::new("npm")
            .arg("publish")
            .arg(package_dir)
            .arg("--registry")
            .arg(self.url())
            .arg("--userconfig")
            .arg(&userconfig)
            .env("npm_config_cache", work.join("npm-cache"))
            .output()
            .expect("spawn npm");
        assert!(
            out.status.success(),
            "npm publish {}: {}",
            package_dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Verdaccio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on loopback: `(status, body)`, `None` when nothing
/// listens.
fn request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let body = body.unwrap_or("");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).ok()?;
    let status: u16 = status_line.split_whitespace().nth(1)?.parse().ok()?;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if line
            .to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
        {
            chunked = true;
        }
    }
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).ok()?;
    let text = String::from_utf8_lossy(&rest).into_owned();
    let text = if chunked { dechunk(&text) } else { text };
    Some((status, text))
}

fn dechunk(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}
