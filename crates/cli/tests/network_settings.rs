//! Network settings against pnpm 12: a registry whose host name no resolver
//! knows, reachable only through a forward proxy on loopback (`proxy`), and
//! a TLS registry signed by a private CA (`cafile`, `ca`, `strict-ssl`).

mod support;

use std::{
    io::{self, BufRead, BufReader, Read, Write},
    net::{TcpListener, TcpStream},
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use pacquet_testing::{DiffOptions, PnpmEnv, Registry, assert_trees_equal, prepare_project};
use support::{pacquet, pacquet_install_ok, stderr};

/// A forward proxy for absolute-URI `GET`s that sends every host to
/// 127.0.0.1, one request per connection.
struct Proxy {
    url: String,
    requests: Arc<AtomicUsize>,
}

fn start_proxy() -> Proxy {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(AtomicUsize::new(0));
    let count = requests.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let count = count.clone();
            std::thread::spawn(move || forward(conn, &count));
        }
    });
    Proxy {
        url: format!("http://127.0.0.1:{port}/"),
        requests,
    }
}

fn forward(client: TcpStream, count: &AtomicUsize) -> io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut words = line.split_whitespace();
    let (method, url) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| io::Error::other("not an absolute http URL"))?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let port: u16 = authority
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse().ok())
        .unwrap_or(80);
    let mut upstream = TcpStream::connect(("127.0.0.1", port))?;
    write!(upstream, "{method} /{path} HTTP/1.1\r\n")?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" {
            break;
        }
        let name = header.to_ascii_lowercase();
        if !name.starts_with("connection:") && !name.starts_with("proxy-connection:") {
            upstream.write_all(header.as_bytes())?;
        }
    }
    upstream.write_all(b"Connection: close\r\n\r\n")?;
    count.fetch_add(1, Ordering::SeqCst);
    io::copy(&mut upstream, &mut (&client))?;
    Ok(())
}

#[test]
fn a_registry_behind_a_proxy_installs_like_pnpm() {
    behind_a_proxy("proxy");
}

/// `http-proxy` is the proxy for an `http:` registry, as `proxy` is.
#[test]
fn http_proxy_is_the_proxy_of_an_http_registry() {
    behind_a_proxy("http-proxy");
}

/// With no `http-proxy`, pnpm 12 sends `http:` requests through the
/// `https-proxy` too.
#[test]
fn https_proxy_also_serves_an_http_registry() {
    behind_a_proxy("https-proxy");
}

/// Installs `basic` from a registry only the proxy named by `.npmrc`'s
/// `key` reaches, with both tools.
fn behind_a_proxy(key: &str) {
    let registry = Registry::start_fixtures();
    let port = registry
        .url()
        .rsplit_once(':')
        .unwrap()
        .1
        .trim_end_matches('/')
        .to_owned();
    // `.invalid` never resolves (RFC 2606): only the proxy gets there.
    let hidden = format!("http://registry.invalid:{port}/");
    let proxy = start_proxy();
    let tmp = tempfile::tempdir().unwrap();
    let setup = |side: &str, with_proxy: bool| {
        let project = tmp.path().join(side).join("project");
        prepare_project("basic", &project, &hidden);
        if with_proxy {
            let npmrc = project.join(".npmrc");
            let mut text = std::fs::read_to_string(&npmrc).unwrap();
            text.push_str(&format!("{key}={}\n", proxy.url));
            std::fs::write(&npmrc, text).unwrap();
        }
        let env = PnpmEnv::new(&tmp.path().join(side).join("env"), &hidden);
        (project, env)
    };

    let (direct, direct_env) = setup("direct", false);
    let args = ["install", "--frozen-lockfile", "--config.fetch-retries=0"];
    let out = pacquet(&direct_env, &direct, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(proxy.requests.load(Ordering::SeqCst), 0);

    let (by_pnpm, pnpm_env) = setup("pnpm", true);
    pnpm_env.run_ok(&by_pnpm, &["install", "--frozen-lockfile"]);
    let through_pnpm = proxy.requests.load(Ordering::SeqCst);
    assert!(through_pnpm > 0, "pnpm 12 went through the proxy");

    let (by_pacquet, env) = setup("pacquet", true);
    pacquet_install_ok(&env, &by_pacquet, &[]);
    assert!(
        proxy.requests.load(Ordering::SeqCst) > through_pnpm,
        "pacquet went through the proxy"
    );
    let opts =
        DiffOptions::for_installs(&by_pnpm, &pnpm_env.store_dir, &by_pacquet, &env.store_dir);
    assert_trees_equal(&by_pnpm, &by_pacquet, &opts);
}

/// `no-proxy` naming the registry's host: both tools go to it directly,
/// past a proxy that accepts no connections; without it both fail.
#[test]
fn no_proxy_bypasses_the_proxy_like_pnpm() {
    let registry = Registry::start_fixtures();
    let tmp = tempfile::tempdir().unwrap();
    let dead = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        format!("http://127.0.0.1:{port}/")
    };
    for bypass in [false, true] {
        let mut trees = Vec::new();
        for side in ["pnpm", "pacquet"] {
            let root = tmp.path().join(format!("{side}-{bypass}"));
            let project = root.join("project");
            prepare_project("basic", &project, &registry.url());
            let npmrc = project.join(".npmrc");
            let mut text = std::fs::read_to_string(&npmrc).unwrap();
            text.push_str(&format!("proxy={dead}\n"));
            if bypass {
                text.push_str("no-proxy=127.0.0.1\n");
            }
            std::fs::write(&npmrc, text).unwrap();
            // pnpm 12 reads `fetchRetries` from here, not from `.npmrc`.
            support::add_settings(&project, "\nfetchRetries: 0\n");
            let env = PnpmEnv::new(&root.join("env"), &registry.url());
            let args = ["install", "--frozen-lockfile"];
            let out = if side == "pnpm" {
                env.run(&project, &args)
            } else {
                pacquet(&env, &project, &args)
            };
            let code = if bypass { 0 } else { 1 };
            assert_eq!(out.status.code(), Some(code), "{side}: {}", stderr(&out));
            trees.push((project, env));
        }
        if bypass {
            let [(a, a_env), (b, b_env)] = &trees[..] else {
                unreachable!()
            };
            let opts = DiffOptions::for_installs(a, &a_env.store_dir, b, &b_env.store_dir);
            assert_trees_equal(a, b, &opts);
        }
    }
}

/// `crates/cli/tests/fixtures/tls`: a CA certificate, and a server
/// certificate it signed for `localhost` and 127.0.0.1 with its key (see
/// the README there).
fn tls_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tls")
        .join(name)
}

/// A TLS front for the plain registry on `upstream`: `https://localhost:<port>/`;
/// with `client_auth`, only clients with a certificate the CA signed get in.
fn start_tls_front(upstream: u16, client_auth: bool) -> String {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(tls_fixture("server.pem"))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    let key = PrivateKeyDer::from_pem_file(tls_fixture("server.key")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = if client_auth {
        let mut roots = rustls::RootCertStore::empty();
        for ca in CertificateDer::pem_file_iter(tls_fixture("ca.pem")).unwrap() {
            roots.add(ca.unwrap()).unwrap();
        }
        let verifier =
            rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .unwrap();
        builder.with_client_cert_verifier(verifier)
    } else {
        builder.with_no_client_auth()
    };
    let config = builder.with_single_cert(certs, key).unwrap();
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            let config = config.clone();
            std::thread::spawn(move || {
                let conn = rustls::ServerConnection::new(config).map_err(io::Error::other)?;
                let mut tls = rustls::StreamOwned::new(conn, tcp);
                relay(&mut tls, upstream)?;
                tls.conn.send_close_notify();
                tls.flush()
            });
        }
    });
    format!("https://localhost:{port}/")
}

/// One `GET` from `client` to the registry on `upstream`, answered back.
fn relay(client: &mut (impl Read + Write), upstream: u16) -> io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if client.read(&mut byte)? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut server = TcpStream::connect(("127.0.0.1", upstream))?;
    for line in head.split("\r\n").filter(|l| !l.is_empty()) {
        if !line.to_ascii_lowercase().starts_with("connection:") {
            write!(server, "{line}\r\n")?;
        }
    }
    server.write_all(b"Connection: close\r\n\r\n")?;
    io::copy(&mut server, client)?;
    Ok(())
}

/// `basic` from the TLS registry, `.npmrc` lines added, installed by both
/// tools when `pnpm_too`.
struct TlsRun {
    _tmp: tempfile::TempDir,
    by_pnpm: PathBuf,
    pnpm_env: PnpmEnv,
    by_pacquet: PathBuf,
    env: PnpmEnv,
}

fn tls_projects(npmrc: &str) -> TlsRun {
    tls_projects_with(npmrc, false)
}

fn tls_projects_with(npmrc: &str, client_auth: bool) -> TlsRun {
    let registry = Registry::start_fixtures();
    let port: u16 = registry
        .url()
        .rsplit_once(':')
        .unwrap()
        .1
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let url = start_tls_front(port, client_auth);
    std::mem::forget(registry);
    let tmp = tempfile::tempdir().unwrap();
    let setup = |side: &str| {
        let project = tmp.path().join(side).join("project");
        prepare_project("basic", &project, &url);
        let path = project.join(".npmrc");
        let mut text = std::fs::read_to_string(&path).unwrap();
        // `{NERF}`: the registry's `//host:port/` credential prefix.
        let nerf = url.split_once(':').map_or(url.as_str(), |(_, rest)| rest);
        text.push_str(&npmrc.replace("{NERF}", nerf));
        std::fs::write(&path, text).unwrap();
        (
            project,
            PnpmEnv::new(&tmp.path().join(side).join("env"), &url),
        )
    };
    let (by_pnpm, pnpm_env) = setup("pnpm");
    let (by_pacquet, env) = setup("pacquet");
    TlsRun {
        _tmp: tmp,
        by_pnpm,
        pnpm_env,
        by_pacquet,
        env,
    }
}

impl TlsRun {
    fn both_install_alike(&self) {
        self.pnpm_env
            .run_ok(&self.by_pnpm, &["install", "--frozen-lockfile"]);
        pacquet_install_ok(&self.env, &self.by_pacquet, &[]);
        let opts = DiffOptions::for_installs(
            &self.by_pnpm,
            &self.pnpm_env.store_dir,
            &self.by_pacquet,
            &self.env.store_dir,
        );
        assert_trees_equal(&self.by_pnpm, &self.by_pacquet, &opts);
    }
}

#[test]
fn a_registry_signed_by_a_private_ca_installs_with_cafile() {
    let cafile = tls_fixture("ca.pem");
    tls_projects(&format!("cafile={}\n", cafile.display())).both_install_alike();
}

#[test]
fn a_registry_signed_by_a_private_ca_installs_with_ca() {
    tls_projects(&format!("ca=\"{}\"\n", npmrc_pem("ca.pem"))).both_install_alike();
}

#[test]
fn strict_ssl_off_accepts_an_unknown_issuer() {
    tls_projects("strict-ssl=false\n").both_install_alike();
}

/// Without the CA the certificate is untrusted: exit 1 with a diagnostic
/// naming the settings that would fix it, and nothing installed.
#[test]
fn an_untrusted_certificate_is_refused_with_the_settings_to_use() {
    let run = tls_projects("");
    let args = ["install", "--frozen-lockfile", "--config.fetch-retries=0"];
    let out = pacquet(&run.env, &run.by_pacquet, &args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // Wrapped lines joined without spaces (the help may break `strict-ssl`).
    let flat: String = text.split_whitespace().collect();
    assert!(flat.contains("certificateisnottrusted"), "{text}");
    assert!(flat.contains("`cafile`"), "{text}");
    assert!(flat.contains("strict-ssl=false"), "{text}");
    assert!(!run.by_pacquet.join("node_modules/pq-plain").exists());
}

/// With no `ca` or `cafile`, the system's roots decide, read when the
/// first certificate is checked: `SSL_CERT_FILE` naming the private CA
/// (and an empty `SSL_CERT_DIR`) makes the same registry trusted.
#[test]
fn the_system_roots_decide_without_ca_settings() {
    let run = tls_projects("");
    let no_certs = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(support::pacquet_bin());
    run.env.apply_env(&mut cmd);
    let out = cmd
        .current_dir(&run.by_pacquet)
        .args(["install", "--frozen-lockfile", "--config.fetch-retries=0"])
        .arg(format!("--store-dir={}", run.env.store_dir.display()))
        .env("SSL_CERT_FILE", tls_fixture("ca.pem"))
        .env("SSL_CERT_DIR", no_certs.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(run.by_pacquet.join("node_modules/pq-plain").exists());
}

/// `.npmrc` keeps a PEM on one line, its newlines written as `\n`.
fn npmrc_pem(file: &str) -> String {
    let pem = std::fs::read_to_string(tls_fixture(file)).unwrap();
    pem.trim_end().replace('\n', "\\n")
}

/// A registry that wants a client certificate: `cert` and `key` give it.
#[test]
fn a_client_certificate_is_presented_from_cert_and_key() {
    let cafile = tls_fixture("ca.pem");
    let npmrc = format!(
        "cafile={}\ncert=\"{}\"\nkey=\"{}\"\n",
        cafile.display(),
        npmrc_pem("client.pem"),
        npmrc_pem("client.key")
    );
    tls_projects_with(&npmrc, true).both_install_alike();
    // Without them the registry turns pacquet away.
    let run = tls_projects_with(&format!("cafile={}\n", cafile.display()), true);
    let args = ["install", "--frozen-lockfile", "--config.fetch-retries=0"];
    let out = pacquet(&run.env, &run.by_pacquet, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// TLS settings of the registry alone (`//host:port/:cafile`, `:certfile`,
/// `:keyfile`, or the PEMs inline), as teams set them for a private
/// registry: pnpm 12 and pacquet install alike, each field replacing the
/// global one.
#[test]
fn per_registry_ca_and_client_certificate() {
    let cafile = tls_fixture("ca.pem");
    let npmrc = format!(
        "{{NERF}}:cafile={}\n{{NERF}}:certfile={}\n{{NERF}}:keyfile={}\n",
        cafile.display(),
        tls_fixture("client.pem").display(),
        tls_fixture("client.key").display(),
    );
    tls_projects_with(&npmrc, true).both_install_alike();
    // The PEM values inline work as well.
    let npmrc = format!(
        "{{NERF}}:ca=\"{}\"\n{{NERF}}:cert=\"{}\"\n{{NERF}}:key=\"{}\"\n",
        npmrc_pem("ca.pem"),
        npmrc_pem("client.pem"),
        npmrc_pem("client.key")
    );
    tls_projects_with(&npmrc, true).both_install_alike();
    // A registry with only a `ca` of its own still gets the global client
    // certificate (checked with pnpm 12.21).
    let npmrc = format!(
        "cert=\"{}\"\nkey=\"{}\"\n{{NERF}}:cafile={}\n",
        npmrc_pem("client.pem"),
        npmrc_pem("client.key"),
        cafile.display(),
    );
    tls_projects_with(&npmrc, true).both_install_alike();
    // The registry's own CA replaces the global one.
    let npmrc = format!(
        "ca=\"{}\"\n{{NERF}}:cafile={}\n",
        npmrc_pem("client.pem"),
        cafile.display(),
    );
    tls_projects_with(&npmrc, false).both_install_alike();
    // Without a client certificate the registry turns pacquet away.
    let run = tls_projects_with(&format!("{{NERF}}:cafile={}\n", cafile.display()), true);
    let args = ["install", "--frozen-lockfile", "--config.fetch-retries=0"];
    let out = pacquet(&run.env, &run.by_pacquet, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// A `cafile` that cannot be read, or `cert` without `key`, is refused
/// before anything is fetched or written.
#[test]
fn unusable_tls_settings_are_refused_by_name() {
    for npmrc in ["cafile=/nonexistent/ca.pem\n", "cert=\"x\"\n"] {
        let run = tls_projects(npmrc);
        let out = pacquet(&run.env, &run.by_pacquet, &["install", "--frozen-lockfile"]);
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{npmrc}: {text}");
        assert!(
            text.contains("ERR_PACQUET_NETWORK_SETTING"),
            "{npmrc}: {text}"
        );
        assert!(!run.by_pacquet.join("node_modules").exists(), "{npmrc}");
    }
}
