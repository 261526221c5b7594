//! Hostile packages served by a registry and installed from a hand-written
//! lockfile: unsafe tarball entries and decompression bombs fail the install
//! naming the package, write nothing outside the project and leave no index
//! row; hostile `bin` names and targets stay inside `node_modules/.bin`.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use pacquet_testing::{PnpmEnv, Registry, sri_sha512};

use super::helpers::{index_keys, listing};
use crate::support::{pacquet, pacquet_install_ok, stderr, stdout};

/// One tar entry with its header path written byte for byte.
struct Entry<'a> {
    path: &'a [u8],
    kind: tar::EntryType,
    mode: u32,
    data: &'a [u8],
    link: &'a [u8],
    /// Size written into the header when it differs from `data.len()`.
    declared_size: Option<u64>,
}

fn file<'a>(path: &'a [u8], data: &'a [u8]) -> Entry<'a> {
    Entry {
        path,
        kind: tar::EntryType::Regular,
        mode: 0o644,
        data,
        link: b"",
        declared_size: None,
    }
}

fn header(e: &Entry<'_>) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.as_old_mut().name[..e.path.len()].copy_from_slice(e.path);
    header.as_old_mut().linkname[..e.link.len()].copy_from_slice(e.link);
    header.set_entry_type(e.kind);
    header.set_mode(e.mode);
    header.set_size(e.declared_size.unwrap_or(e.data.len() as u64));
    header.set_mtime(0);
    header.set_cksum();
    header
}

/// A gzipped tarball of `entries` (end-of-archive blocks included unless an
/// entry lies about its size).
fn tgz(entries: &[Entry<'_>]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for e in entries {
        gz.write_all(header(e).as_bytes()).unwrap();
        gz.write_all(e.data).unwrap();
        let pad = (512 - e.data.len() % 512) % 512;
        gz.write_all(&vec![0; pad]).unwrap();
    }
    if entries.iter().all(|e| e.declared_size.is_none()) {
        gz.write_all(&[0; 1024]).unwrap();
    }
    gz.finish().unwrap()
}

/// A directory mirror served by a registry plus a project depending on
/// `name@1.0.0` through a hand-written lockfile.
struct Scene {
    registry: Registry,
    root: tempfile::TempDir,
}

impl Scene {
    fn new() -> Scene {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("mirror")).unwrap();
        std::fs::create_dir_all(root.path().join("outside")).unwrap();
        let registry = Registry::start_mirror(root.path().join("mirror"));
        Scene { registry, root }
    }

    fn outside(&self) -> std::path::PathBuf {
        self.root.path().join("outside")
    }

    /// Publishes `tarball` as `name@1.0.0` and writes `<root>/<name>/project`.
    fn project(&self, name: &str, tarball: &[u8], has_bin: bool) -> (PnpmEnv, std::path::PathBuf) {
        let dir = self.root.path().join("mirror").join(name).join("-");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}-1.0.0.tgz")), tarball).unwrap();

        let base = self.root.path().join(name);
        let project = base.join("project");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            project.join("package.json"),
            format!(
                "{{\n  \"name\": \"victim\",\n  \"version\": \"1.0.0\",\n  \"private\": true,\n  \"dependencies\": {{\n    \"{name}\": \"1.0.0\"\n  }}\n}}\n"
            ),
        )
        .unwrap();
        let has_bin = if has_bin { "\n    hasBin: true" } else { "" };
        std::fs::write(
            project.join("pnpm-lock.yaml"),
            format!(
                "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .:\n    dependencies:\n      {name}:\n        specifier: 1.0.0\n        version: 1.0.0\n\npackages:\n\n  {name}@1.0.0:\n    resolution: {{integrity: {}}}{has_bin}\n\nsnapshots:\n\n  {name}@1.0.0: {{}}\n",
                sri_sha512(tarball)
            ),
        )
        .unwrap();
        std::fs::write(project.join("pnpm-workspace.yaml"), "trustLockfile: true\n").unwrap();
        pacquet_testing::write_npmrc(&project, &self.registry.url());
        let env = PnpmEnv::new(&base.join("env"), &self.registry.url());
        (env, project)
    }

    /// Everything under the scene root but the projects and environments.
    fn outside_listing(&self) -> std::collections::BTreeSet<String> {
        let names: Vec<String> = std::fs::read_dir(self.root.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("pq-evil"))
            .flat_map(|n| [format!("{n}/project"), format!("{n}/env")])
            .collect();
        let skip: Vec<&str> = names.iter().map(String::as_str).collect();
        listing(self.root.path(), &skip)
    }
}

const PACKAGE_JSON: &[u8] = br#"{"name":"pq-evil","version":"1.0.0"}"#;

#[test]
fn unsafe_tarballs_fail_the_install_and_write_nothing() {
    let scene = Scene::new();
    let outside = scene.outside();
    let absolute = format!("{}/absolute.txt", outside.display());
    let bomb_zeros = vec![0u8; 1 << 20];
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "pq-evil-dotdot",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                file(b"package/../../../../../../outside/dotdot.txt", b"pwned"),
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            "pq-evil-absolute",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                file(absolute.as_bytes(), b"pwned"),
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            "pq-evil-symlink",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    kind: tar::EntryType::Symlink,
                    link: outside.to_str().unwrap().as_bytes(),
                    ..file(b"package/link", b"")
                },
                file(b"package/link/through-symlink.txt", b"pwned"),
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            // One entry claiming 5 GiB of zeros: inflated it would pass the
            // 4 GiB unpacked-size cap (and pacquet's memory).
            "pq-evil-bomb",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    declared_size: Some(5 << 30),
                    ..file(b"package/zeros", &bomb_zeros)
                },
            ]),
            "ERR_PACQUET_TARBALL_TOO_LARGE",
        ),
        (
            "pq-evil-hardlink",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    kind: tar::EntryType::Link,
                    link: b"/etc/passwd",
                    ..file(b"package/passwd", b"")
                },
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            "pq-evil-device",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    kind: tar::EntryType::Char,
                    ..file(b"package/null", b"")
                },
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            "pq-evil-fifo",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    kind: tar::EntryType::Fifo,
                    ..file(b"package/pipe", b"")
                },
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            // `lib` as a file and as the directory of `lib/index.js`.
            "pq-evil-file-dir",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                file(b"package/lib", b"file"),
                file(b"package/lib/index.js", b"inside"),
            ]),
            "ERR_PACQUET_TARBALL_UNSAFE_ENTRY",
        ),
        (
            // A GNU long name declaring 3 GiB: read as the tar crate does,
            // it would be buffered whole.
            "pq-evil-longname",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    kind: tar::EntryType::GNULongName,
                    declared_size: Some(3 << 30),
                    ..file(b"././@LongLink", &bomb_zeros)
                },
            ]),
            "ERR_PACQUET_TARBALL_TOO_LARGE",
        ),
        (
            "pq-evil-pax",
            tgz(&[
                file(b"package/package.json", PACKAGE_JSON),
                Entry {
                    kind: tar::EntryType::XHeader,
                    declared_size: Some(3 << 30),
                    ..file(b"PaxHeader/x", &bomb_zeros)
                },
            ]),
            "ERR_PACQUET_TARBALL_TOO_LARGE",
        ),
    ];
    let scenes: Vec<_> = cases
        .iter()
        .map(|(name, tarball, _)| scene.project(name, tarball, false))
        .collect();
    let before = scene.outside_listing();
    for ((name, _, code), (env, project)) in cases.iter().zip(scenes) {
        let out = pacquet(&env, &project, &["install", "--frozen-lockfile"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(&format!("Error: {code}")), "{name}: {err}");
        assert!(err.contains(&format!("{name}@1.0.0")), "{name}: {err}");
        assert!(
            !project
                .join(format!(
                    "node_modules/.pnpm/{name}@1.0.0/node_modules/{name}/package.json"
                ))
                .exists(),
            "{name} was installed"
        );
        let keys = index_keys(&env.store_dir);
        assert!(
            keys.iter().all(|k| !k.contains(name)),
            "{name} has an index row: {keys:?}"
        );
        // Refused for good: not retried.
        assert_eq!(
            scene
                .registry
                .request_count(&pacquet_testing::tarball_path(name, "1.0.0")),
            1,
            "{name}"
        );
    }
    assert_eq!(scene.outside_listing(), before);
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "something was written into {}",
        outside.display()
    );
}

#[test]
fn hostile_bin_names_and_targets_stay_inside_the_project() {
    let scene = Scene::new();
    let outside = scene.outside();
    let target = outside.join("target.sh");
    std::fs::write(&target, "#!/bin/sh\necho outside\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
    let manifest = format!(
        r#"{{"name":"pq-evil-bins","version":"1.0.0","bin":{{"ok":"cli.js","../../x":"cli.js","../../../../../../outside/up":"cli.js","{abs}/abs-bin":"cli.js","/etc/pq-evil-x":"cli.js","escape-target":"../../../../../../outside/target.sh","@scope/../../scoped":"cli.js"}}}}"#,
        abs = outside.display()
    );
    let tarball = tgz(&[
        file(b"package/package.json", manifest.as_bytes()),
        Entry {
            mode: 0o755,
            ..file(
                b"package/cli.js",
                b"#!/usr/bin/env node\nconsole.log('ok')\n",
            )
        },
    ]);
    let (env, project) = scene.project("pq-evil-bins", &tarball, true);
    let project_before = listing(&project, &["node_modules"]);
    let before = scene.outside_listing();

    let out = pacquet_install_ok(&env, &project, &[]);
    let _ = stdout(&out);

    assert!(project.join("node_modules/.bin/ok").exists());
    assert_eq!(
        scene.outside_listing(),
        before,
        "written outside the project"
    );
    assert!(!Path::new("/etc/pq-evil-x").exists());
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode, 0o644,
        "the bin target outside the package was chmod-ed"
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "#!/bin/sh\necho outside\n"
    );
    // Inside the project only node_modules is new, and the hostile names
    // appear nowhere but in a `.bin` directory.
    let project_after = listing(&project, &["node_modules"]);
    assert_eq!(project_after, project_before);
    assert!(project.join("node_modules").is_dir());
    for rel in listing(&project.join("node_modules"), &[]) {
        let path = Path::new(&rel);
        let name = path.file_name().unwrap().to_string_lossy();
        if ["x", "up", "abs-bin", "pq-evil-x", "scoped", "escape-target"].contains(&name.as_ref()) {
            let parent = path.parent().and_then(Path::file_name);
            assert_eq!(
                parent.map(|p| p.to_string_lossy().into_owned()).as_deref(),
                Some(".bin"),
                "node_modules/{rel} is outside a .bin directory"
            );
        }
    }
}

/// A path listed twice keeps its last entry, with pnpm 12 as with pacquet
/// (tar's append semantics; refusing would break packages pnpm installs).
#[test]
fn duplicate_entries_keep_the_last_one_as_pnpm_does() {
    let scene = Scene::new();
    let tarball = tgz(&[
        file(
            b"package/package.json",
            br#"{"name":"pq-evil-dup","version":"1.0.0"}"#,
        ),
        Entry {
            mode: 0o755,
            ..file(b"package/dup.js", b"first\n")
        },
        file(b"package/dup.js", b"second, and last\n"),
    ]);
    let (env, project) = scene.project("pq-evil-dup", &tarball, false);
    pacquet_install_ok(&env, &project, &[]);

    let pnpm_project = project.with_file_name("pnpm-project");
    std::fs::create_dir_all(&pnpm_project).unwrap();
    for name in [
        "package.json",
        "pnpm-lock.yaml",
        "pnpm-workspace.yaml",
        ".npmrc",
    ] {
        std::fs::copy(project.join(name), pnpm_project.join(name)).unwrap();
    }
    let pnpm_env = PnpmEnv::new(&project.with_file_name("pnpm-env"), &scene.registry.url());
    pnpm_env.run_ok(&pnpm_project, &["install", "--frozen-lockfile"]);

    let installed = "node_modules/pq-evil-dup/dup.js";
    for dir in [&project, &pnpm_project] {
        let path = dir.join(installed);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "second, and last\n",
            "{}",
            path.display()
        );
    }
    let mode = |dir: &Path| {
        std::fs::metadata(dir.join(installed))
            .unwrap()
            .permissions()
            .mode()
    };
    assert_eq!(mode(&project), mode(&pnpm_project));
}
