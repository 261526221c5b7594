//! Reading a bin target's head and making it executable, on one open file.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::Path;

use crate::error::BinError;

/// Bytes pnpm 12.21 reads to find the runtime: a longer shebang line is cut
/// here, as pnpm cuts it.
pub(crate) const HEAD_LEN: usize = 512;

/// The first [`HEAD_LEN`] bytes of `target`, or
/// `None` when it does not exist. With `chmod`, a mode lacking an exec bit
/// gets `|= 0o111`.
pub(super) fn read_head(target: &Path, chmod: bool) -> Result<Option<Vec<u8>>, BinError> {
    let read_err = |source| BinError::ReadTarget {
        path: target.to_path_buf(),
        source,
    };
    let mut file = match File::open(target) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read_err(e)),
    };
    let mut head = Vec::with_capacity(HEAD_LEN);
    (&mut file)
        .take(HEAD_LEN as u64)
        .read_to_end(&mut head)
        .map_err(read_err)?;
    if chmod {
        make_executable(&file).map_err(|source| BinError::Chmod {
            path: target.to_path_buf(),
            source,
        })?;
    }
    Ok(Some(head))
}

#[cfg(unix)]
fn make_executable(file: &File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = file.metadata()?.permissions().mode();
    if mode & 0o111 != 0o111 {
        file.set_permissions(std::fs::Permissions::from_mode((mode | 0o111) & 0o7777))?;
    }
    Ok(())
}

/// Windows has no exec bits: the `.cmd`/`.ps1` shims name the runtime.
#[cfg(not(unix))]
fn make_executable(_file: &File) -> std::io::Result<()> {
    Ok(())
}
