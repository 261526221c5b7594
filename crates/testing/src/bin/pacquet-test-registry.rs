//! `pacquet-test-registry`: the loopback test registry for manual use.
//!
//! ```text
//! pacquet-test-registry serve [--port N] [--packages DIR | --mirror DIR] [--overlay FILE]
//! pacquet-test-registry regenerate [PROJECT…]
//! ```
//!
//! `serve` prints the registry URL and serves until stdin closes or the
//! process is killed. `--overlay FILE` reads a JSON object of package name
//! to merge patch ([`Registry::patch_packument`]). `regenerate` rewrites the fixture projects' lockfiles
//! with pnpm 12 (see `pacquet_testing::regenerate`).

use std::io::Read;
use std::path::PathBuf;

use pacquet_testing::Registry;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("serve") => serve(&args[1..]),
        Some("regenerate") => {
            for path in pacquet_testing::regenerate::regenerate_lockfiles(&args[1..]) {
                println!("wrote {}", path.display());
            }
        }
        _ => {
            eprintln!(
                "usage: pacquet-test-registry serve [--port N] [--packages DIR | --mirror DIR] [--overlay FILE]"
            );
            eprintln!("       pacquet-test-registry regenerate [PROJECT…]");
            std::process::exit(2);
        }
    }
}

fn serve(args: &[String]) {
    let mut port = 0u16;
    let mut packages = pacquet_testing::packages_dir();
    let mut mirror: Option<PathBuf> = None;
    let mut overlay: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| {
            eprintln!("{flag} needs a value");
            std::process::exit(2)
        });
        match flag.as_str() {
            "--port" => port = value.parse().expect("port number"),
            "--packages" => packages = PathBuf::from(value),
            "--mirror" => mirror = Some(PathBuf::from(value)),
            "--overlay" => overlay = Some(PathBuf::from(value)),
            other => {
                eprintln!("unknown flag {other}");
                std::process::exit(2);
            }
        }
    }
    let registry = match mirror {
        Some(dir) => Registry::start_mirror_on_port(dir, port),
        None => Registry::start_on_port(packages, port),
    };
    if let Some(path) = overlay {
        let text = std::fs::read_to_string(&path).expect("read overlay");
        let patches: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).expect("overlay is a JSON object");
        for (name, patch) in patches {
            registry.patch_packument(&name, patch);
        }
    }
    println!("{}", registry.url());
    // Serve until stdin reaches EOF (or the process is killed).
    let mut sink = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut sink);
    drop(registry);
}
