//! The allocator's side of a download. `pacquet` runs on mimalloc, which
//! by default keeps freed memory for a second before returning it to the
//! OS. Downloads allocate and free thousands of tarball buffers: a cold
//! install of alotta then peaked at ~280 MB resident (glibc: 200 MB), at
//! 241–258 MB when freed memory goes back at once. An install without
//! downloads keeps the default: returning memory at once cost a
//! lockfile-change install of alotta 38 → 51 ms.

/// `mi_option_purge_delay` of mimalloc 3's `mi_option_e` (`mimalloc.h`),
/// which `libmimalloc-sys` does not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// From now on, memory freed is returned to the OS at once. Harmless when
/// mimalloc is linked but not the global allocator (the library's tests).
pub fn release_freed_memory_at_once() {
    // SAFETY: sets a plain option value; mimalloc reads it on each purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}
