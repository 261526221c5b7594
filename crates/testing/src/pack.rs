//! Deterministic `npm pack`: a package source directory to `.tgz` bytes.
//!
//! Entries are the directory's regular files, sorted by path, under
//! `package/`; no directory entries (as npm). Every header has the same mtime
//! (npm's 1985-10-26T08:15:00Z), uid/gid 0 and empty user/group names. The
//! mode is 0755 when the committed file has any exec bit (git records it),
//! else 0644. The gzip layer is [`crate::gzip::gzip_stored`]. Same files in,
//! same bytes out, on any machine.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// npm's fixed tarball mtime, 1985-10-26T08:15:00Z.
pub const TAR_MTIME: u64 = 499_162_500;

/// One file of a package: path relative to the package root (with `/`),
/// whether it is executable, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackFile {
    pub path: String,
    pub executable: bool,
    pub contents: Vec<u8>,
}

/// Packs `dir` into gzip'd tar bytes (see the module doc).
pub fn pack_dir(dir: &Path) -> io::Result<Vec<u8>> {
    Ok(pack_files(&collect_files(dir)?))
}

/// Every regular file under `dir`, sorted by relative path.
pub fn collect_files(dir: &Path) -> io::Result<Vec<PackFile>> {
    let mut paths = Vec::new();
    walk(dir, dir, &mut paths)?;
    paths.sort();
    paths
        .into_iter()
        .map(|(rel, abs)| {
            let meta = fs::metadata(&abs)?;
            Ok(PackFile {
                path: rel,
                executable: is_executable(&meta),
                contents: fs::read(&abs)?,
            })
        })
        .collect()
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

/// A Windows checkout has no exec bits to read.
#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(root, &path, out)?;
        } else {
            let rel = path.strip_prefix(root).expect("under root");
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push((rel.join("/"), path));
        }
    }
    Ok(())
}

/// Packs an explicit file list (already sorted by the caller or not: they
/// are sorted here).
pub fn pack_files(files: &[PackFile]) -> Vec<u8> {
    let mut sorted: Vec<&PackFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut builder = tar::Builder::new(Vec::new());
    builder.mode(tar::HeaderMode::Deterministic);
    for file in sorted {
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(file.contents.len() as u64);
        header.set_mode(if file.executable { 0o755 } else { 0o644 });
        header.set_mtime(TAR_MTIME);
        header.set_uid(0);
        header.set_gid(0);
        header
            .set_username("")
            .and_then(|_| header.set_groupname(""))
            .expect("empty names fit");
        let path = format!("package/{}", file.path);
        builder
            .append_data(&mut header, path, file.contents.as_slice())
            .expect("tar into memory");
    }
    let tar = builder.into_inner().expect("tar into memory");
    crate::gzip::gzip_stored(&tar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn file(path: &str, executable: bool, body: &str) -> PackFile {
        PackFile {
            path: path.into(),
            executable,
            contents: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn same_files_in_any_order_give_same_bytes() {
        let a = vec![file("b.js", false, "b"), file("a/x.js", true, "x")];
        let b = vec![file("a/x.js", true, "x"), file("b.js", false, "b")];
        assert_eq!(pack_files(&a), pack_files(&b));
    }

    #[test]
    fn entries_carry_modes_prefix_and_fixed_metadata() {
        let bytes = pack_files(&[
            file("bin/cli", true, "#!/bin/sh\n"),
            file("index.js", false, ""),
        ]);
        let mut tar = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut tar)
            .unwrap();
        let mut archive = tar::Archive::new(tar.as_slice());
        let seen: Vec<(String, u32, u64)> = archive
            .entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let h = e.header();
                (
                    e.path().unwrap().to_string_lossy().into_owned(),
                    h.mode().unwrap(),
                    h.mtime().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                ("package/bin/cli".to_string(), 0o755, TAR_MTIME),
                ("package/index.js".to_string(), 0o644, TAR_MTIME),
            ]
        );
    }
}
