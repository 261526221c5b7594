//! Which I/O errors mean what to the import methods, per platform.

use std::io::{Error, ErrorKind};

pub(crate) fn is_cross_device(e: &Error) -> bool {
    e.kind() == ErrorKind::CrossesDevices
}

/// The blob reached the filesystem's hard-link limit.
#[cfg(unix)]
pub(crate) fn is_link_limit(e: &Error) -> bool {
    e.raw_os_error() == Some(libc::EMLINK) || e.kind() == ErrorKind::TooManyLinks
}

/// `ERROR_TOO_MANY_LINKS` (NTFS: 1023 links), which `std` maps.
#[cfg(not(unix))]
pub(crate) fn is_link_limit(e: &Error) -> bool {
    e.kind() == ErrorKind::TooManyLinks
}

/// Errors that mean "this method cannot work here", not "this file is bad".
#[cfg(unix)]
pub(crate) fn is_capability_error(e: &Error) -> bool {
    is_cross_device(e) || matches!(e.raw_os_error(), Some(libc::EPERM) | Some(libc::EACCES))
}

/// Windows: another volume, access denied, or a filesystem without hard
/// links or clones (FAT, NTFS for clones): `ERROR_INVALID_FUNCTION`,
/// `ERROR_NOT_SUPPORTED`.
#[cfg(not(unix))]
pub(crate) fn is_capability_error(e: &Error) -> bool {
    const ERROR_INVALID_FUNCTION: i32 = 1;
    const ERROR_NOT_SUPPORTED: i32 = 50;
    is_cross_device(e)
        || e.kind() == ErrorKind::PermissionDenied
        || matches!(
            e.raw_os_error(),
            Some(ERROR_INVALID_FUNCTION | ERROR_NOT_SUPPORTED)
        )
}

#[cfg(unix)]
pub(crate) fn is_clone_unsupported(e: &Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EOPNOTSUPP) | Some(libc::EINVAL) | Some(libc::ENOTTY) | Some(libc::ENOSYS)
    )
        // macOS' `clonefile` off APFS (`ENOTSUP` is `EOPNOTSUPP` on Linux).
        || e.raw_os_error() == Some(libc::ENOTSUP)
}

/// Windows block cloning (`FSCTL_DUPLICATE_EXTENTS_TO_FILE`) outside ReFS
/// and Dev Drives: `ERROR_INVALID_PARAMETER`, or `reflink-copy`'s own
/// refusals (a cluster size ReFS cannot clone), which carry no OS code.
#[cfg(not(unix))]
pub(crate) fn is_clone_unsupported(e: &Error) -> bool {
    const ERROR_INVALID_PARAMETER: i32 = 87;
    e.kind() == ErrorKind::Unsupported
        || e.raw_os_error() == Some(ERROR_INVALID_PARAMETER)
        || (e.raw_os_error().is_none() && e.kind() == ErrorKind::Other)
}
