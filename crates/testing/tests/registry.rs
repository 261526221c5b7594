//! The loopback registry: routes, packuments, tarballs, counting, faults.

mod support;

use std::io::BufReader;
use std::time::{Duration, Instant};

use pacquet_testing::{Fault, Registry, sri_sha512};
use support::{connect, get, read_reply, send};

#[test]
fn serves_packuments_for_plain_and_scoped_names() {
    let registry = Registry::start_fixtures();
    assert!(registry.url().starts_with("http://127.0.0.1:"));
    assert!(registry.url().ends_with('/'));

    let plain = get(registry.addr(), "/pq-plain");
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-type"), Some("application/json"));
    let doc = plain.json();
    assert_eq!(doc["name"], "pq-plain");
    assert_eq!(doc["dist-tags"]["latest"], "1.1.0");
    let v = &doc["versions"]["1.0.0"];
    assert_eq!(v["main"], "index.js");
    assert_eq!(
        v["dist"]["tarball"],
        format!("{}pq-plain/-/pq-plain-1.0.0.tgz", registry.url())
    );
    assert!(
        v["dist"]["integrity"]
            .as_str()
            .unwrap()
            .starts_with("sha512-")
    );
    assert_eq!(v["dist"]["shasum"].as_str().unwrap().len(), 40);

    for path in ["/@pq%2fplain", "/@pq%2Fplain", "/@pq/plain"] {
        let reply = get(registry.addr(), path);
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.json()["name"], "@pq/plain");
        assert_eq!(
            reply.json()["versions"]["1.0.0"]["dist"]["tarball"],
            format!("{}@pq/plain/-/plain-1.0.0.tgz", registry.url())
        );
    }
    assert_eq!(registry.request_count("@pq/plain"), 3);
    assert_eq!(get(registry.addr(), "/pq-nope").status, 404);
}

#[test]
fn tarballs_match_their_integrity() {
    let registry = Registry::start_fixtures();
    let packages = registry.packages().unwrap();
    let pkg = packages.get("@pq/bin-map", "1.0.0").unwrap();
    let reply = get(registry.addr(), "/@pq/bin-map/-/bin-map-1.0.0.tgz");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, pkg.tarball);
    assert_eq!(sri_sha512(&reply.body), pkg.integrity);
    let doc = get(registry.addr(), "/@pq%2fbin-map").json();
    assert_eq!(
        doc["versions"]["1.0.0"]["dist"]["integrity"],
        pkg.integrity.as_str()
    );
    assert_eq!(registry.tarball_requests("@pq/bin-map", "1.0.0"), 1);
    assert_eq!(
        registry.tarball_url("@pq/bin-map", "1.0.0"),
        format!("{}@pq/bin-map/-/bin-map-1.0.0.tgz", registry.url())
    );
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection() {
    let registry = Registry::start_fixtures();
    let mut stream = connect(registry.addr());
    send(&mut stream, "/pq-dup", true);
    send(&mut stream, "/pq-dup/-/pq-dup-2.0.0.tgz", true);
    send(&mut stream, "/pq-dup/-/pq-dup-1.0.0.tgz", false);
    let mut reader = BufReader::new(stream);
    let first = read_reply(&mut reader).unwrap();
    assert_eq!(first.header("connection"), Some("keep-alive"));
    assert_eq!(first.json()["dist-tags"]["latest"], "2.0.0");
    assert_eq!(read_reply(&mut reader).unwrap().status, 200);
    let last = read_reply(&mut reader).unwrap();
    assert_eq!(last.header("connection"), Some("close"));
    assert!(
        read_reply(&mut reader).is_err(),
        "closed after Connection: close"
    );
    assert_eq!(
        registry.requests(),
        vec![
            "pq-dup",
            "pq-dup/-/pq-dup-2.0.0.tgz",
            "pq-dup/-/pq-dup-1.0.0.tgz"
        ]
    );
}

#[test]
fn handles_many_parallel_connections() {
    let registry = Registry::start_fixtures();
    let addr = registry.addr();
    let threads: Vec<_> = (0..64)
        .map(|_| {
            std::thread::spawn(move || get(addr, "/pq-many-files/-/pq-many-files-1.0.0.tgz").status)
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), 200);
    }
    assert_eq!(registry.tarball_requests("pq-many-files", "1.0.0"), 64);
    assert_eq!(registry.total_requests(), 64);
    registry.reset_requests();
    assert_eq!(registry.total_requests(), 0);
}

#[test]
fn injected_faults_apply_once_each_in_order() {
    let registry = Registry::start_fixtures();
    let path = "/pq-plain/-/pq-plain-1.0.0.tgz";
    let good = get(registry.addr(), path).body;

    registry.fail_next(path, Fault::Status(500));
    registry.fail_next(path, Fault::WrongBody);
    registry.fail_next(path, Fault::Truncate);
    registry.fail_next(path, Fault::Reset);
    registry.fail_next(path, Fault::Delay(Duration::from_millis(200)));

    assert_eq!(get(registry.addr(), path).status, 500);
    let wrong = get(registry.addr(), path);
    assert_eq!(wrong.status, 200);
    assert_eq!(wrong.body.len(), good.len());
    assert_ne!(wrong.body, good);

    let mut stream = connect(registry.addr());
    send(&mut stream, path, true);
    let err = read_reply(&mut BufReader::new(stream))
        .err()
        .expect("truncated");
    assert!(err.contains("truncated"), "{err}");

    let mut stream = connect(registry.addr());
    send(&mut stream, path, true);
    assert!(read_reply(&mut BufReader::new(stream)).is_err(), "reset");

    let started = Instant::now();
    assert_eq!(get(registry.addr(), path).body, good);
    assert!(started.elapsed() >= Duration::from_millis(200));

    assert_eq!(get(registry.addr(), path).body, good, "faults are used up");
    assert_eq!(registry.request_count(path), 7);
}

#[test]
fn stall_holds_the_response_until_the_registry_is_dropped() {
    use std::io::Read;
    let registry = Registry::start_fixtures();
    registry.fail_next("pq-dup", Fault::Stall);
    let mut stream = connect(registry.addr());
    send(&mut stream, "/pq-dup", true);
    stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let mut buf = [0u8; 64];
    let err = stream
        .read(&mut buf)
        .expect_err("nothing arrives while stalled");
    assert!(
        matches!(
            err.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
        "{err}"
    );

    drop(registry);
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    match stream.read(&mut buf) {
        Ok(0) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        other => panic!("stalled connection should close on drop, got {other:?}"),
    }
}

#[test]
fn stall_mid_body_sends_half_the_body_then_nothing() {
    use std::io::Read;
    let registry = Registry::start_fixtures();
    let path = "/pq-plain/-/pq-plain-1.0.0.tgz";
    let good = get(registry.addr(), path).body;
    registry.fail_next(path, Fault::StallMidBody);
    let mut stream = connect(registry.addr());
    send(&mut stream, path, true);
    stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    // Read until the server goes quiet: everything sent must be the head
    // plus exactly the first half of the body.
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    let err = loop {
        match stream.read(&mut buf) {
            Ok(0) => panic!("the connection closed instead of stalling"),
            Ok(n) => received.extend_from_slice(&buf[..n]),
            Err(e) => break e,
        }
    };
    assert!(
        matches!(
            err.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
        "{err}"
    );
    let head_end = received
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head")
        + 4;
    let head = String::from_utf8_lossy(&received[..head_end]).to_lowercase();
    assert!(
        head.contains(&format!("content-length: {}", good.len())),
        "{head}"
    );
    assert_eq!(&received[head_end..], &good[..good.len() / 2]);
}

#[test]
fn mirror_mode_serves_files_from_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let tgz = dir.path().join("@scope/name/-");
    std::fs::create_dir_all(&tgz).unwrap();
    std::fs::write(tgz.join("name-1.0.0.tgz"), b"tarball bytes").unwrap();
    std::fs::write(
        dir.path().join("@scope/name/index.json"),
        br#"{"name":"@scope/name"}"#,
    )
    .unwrap();
    let registry = Registry::start_mirror(dir.path());
    assert!(registry.packages().is_none());
    let reply = get(registry.addr(), "/@scope/name/-/name-1.0.0.tgz");
    assert_eq!(
        (reply.status, reply.body.as_slice()),
        (200, &b"tarball bytes"[..])
    );
    assert_eq!(
        get(registry.addr(), "/@scope%2fname").json()["name"],
        "@scope/name"
    );
    assert_eq!(
        get(registry.addr(), "/@scope/name/-/name-2.0.0.tgz").status,
        404
    );
    assert_eq!(get(registry.addr(), "/../etc/passwd").status, 404);
    // A document is served from memory only while its file is unchanged.
    std::fs::write(
        dir.path().join("@scope/name/index.json"),
        br#"{"name":"@scope/name","dist-tags":{"latest":"2.0.0"}}"#,
    )
    .unwrap();
    assert_eq!(
        get(registry.addr(), "/@scope%2fname").json()["dist-tags"]["latest"],
        "2.0.0"
    );
    std::fs::remove_file(dir.path().join("@scope/name/index.json")).unwrap();
    assert_eq!(get(registry.addr(), "/@scope%2fname").status, 404);
}

#[test]
fn head_other_methods_and_garbage() {
    use std::io::Write;
    let registry = Registry::start_fixtures();

    let mut stream = connect(registry.addr());
    write!(
        stream,
        "HEAD /pq-dup HTTP/1.1\r\nHost: x\r\n\r\nGET /pq-dup HTTP/1.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    std::io::BufRead::read_line(&mut reader, &mut status).unwrap();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let mut length = None;
    loop {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut reader, &mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = Some(v.trim().parse::<usize>().unwrap());
        }
    }
    assert!(length.unwrap() > 0);
    let after_head = read_reply(&mut reader).unwrap();
    assert_eq!(after_head.body.len(), length.unwrap(), "HEAD sent no body");

    let mut stream = connect(registry.addr());
    write!(
        stream,
        "PUT /pq-dup HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    )
    .unwrap();
    assert_eq!(read_reply(&mut BufReader::new(stream)).unwrap().status, 405);

    let mut stream = connect(registry.addr());
    write!(stream, "NONSENSE\r\n\r\n").unwrap();
    assert_eq!(read_reply(&mut BufReader::new(stream)).unwrap().status, 400);
}
