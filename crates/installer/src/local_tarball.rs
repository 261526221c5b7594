//! What resolution needs of a `file:` tarball: its `package.json` and its
//! integrity, as pnpm 12.21 records them (docs/resolution.md §13).

use std::io::Read;
use std::path::Path;

/// A `package.json` larger than this is refused rather than read.
const MANIFEST_LIMIT: u64 = 16 << 20;

/// The manifest at the root of the tarball at `path` (the one file named
/// `package.json` one directory deep, npm's `package/package.json`) and
/// the tarball's `sha512-…` integrity. The error says why it could not.
pub fn read(path: &Path) -> Result<(serde_json::Value, String), String> {
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!(
                "Could not install from \"{}\" as it does not exist.",
                path.display()
            )
        }
        _ => format!("{}: {e}", path.display()),
    })?;
    let integrity = pacquet_tarball::sha512_integrity(&bytes);
    let manifest = manifest(&bytes).map_err(|reason| format!("{}: {reason}", path.display()))?;
    Ok((manifest, integrity))
}

/// The root `package.json` of a tarball's bytes (gzipped or not).
pub fn manifest(bytes: &[u8]) -> Result<serde_json::Value, String> {
    let gz = bytes.starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn Read + '_> = if gz {
        Box::new(flate2::read::GzDecoder::new(bytes))
    } else {
        Box::new(bytes)
    };
    let mut archive = tar::Archive::new(reader);
    let entries = archive.entries().map_err(|e| e.to_string())?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let at_root = {
            let path = entry.path().map_err(|e| e.to_string())?;
            let parts: Vec<_> = path.components().collect();
            parts.len() == 2 && parts[1].as_os_str() == "package.json"
        };
        if !at_root {
            continue;
        }
        if entry.header().size().unwrap_or(0) > MANIFEST_LIMIT {
            return Err("its package.json is too large".into());
        }
        let mut text = Vec::new();
        entry
            .take(MANIFEST_LIMIT)
            .read_to_end(&mut text)
            .map_err(|e| e.to_string())?;
        return serde_json::from_slice(&text).map_err(|e| format!("package.json: {e}"));
    }
    Err("it has no package.json".into())
}

#[cfg(test)]
mod tests;
