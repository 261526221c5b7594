//! The allocator's side of a download. `pacquet` runs on mimalloc, which
//! by default keeps freed memory for a second before returning it to the
//! OS, and on Linux lets the kernel back its arenas with 2 MiB transparent
//! huge pages. Downloads allocate and free thousands of tarball buffers
//! (cold alotta, `/usr/bin/time`, peak resident):
//!
//! | setting | peak RSS |
//! |---|---|
//! | glibc malloc | 200 MB |
//! | mimalloc defaults | ~280–297 MB |
//! | freed memory returned at once (large inflations bounded) | 215–243 MiB |
//! | and no huge pages | 163–173 MiB, no slower |
//! | and mimalloc built without 4 MiB large pages (`.cargo/config.toml`) | 146–149 MiB; ~430 more `madvise` calls (886 → 1,317) |
//! | and tarball buffers kept between tarballs (`pacquet-tarball`'s `buffers`) | 154–182 MiB (5 runs each, against 136–147); ~26,000 fewer page faults |
//! | and freed memory returned after 10 ms | 161–166 MiB (146–155 at 0 ms, 161–173 at 30 ms); 42k page faults instead of 52k (30 ms: 42k) |
//!
//! A page returned to the OS is faulted in and zeroed again when reused,
//! ~3 µs of kernel time per fault here (a cold alotta install: ~0.2 s of
//! its 2.7 CPU-s in page faults, `perf record -g`, against bun's 0.09 s);
//! a short delay keeps the pages of buffers freed and taken again at once
//! (HTTP read buffers, bodies, index rows) and still bounds what is held.
//! A 200 ms delay kept 30 MB more and was not measurably faster by hand
//! (94k against 63k faults when tarball buffers were not yet kept).
//!
//! An install without downloads keeps the defaults: returning memory at
//! once took a lockfile-change install of alotta from 38 to 51 ms, and
//! without huge pages from 54 to 82 ms (more page faults).
//!
//! A resolution from a warm metadata cache keeps them too: with mimalloc's
//! large pages off, huge pages took alotta's resolution from 55.9 to 50.6
//! and 55.2 to 49.7 ms (medians, 20 and 25 alternating runs; page faults
//! 7,467 → 563, RSS 57 → 71 MiB). One from an empty cache runs without
//! them ([`without_huge_pages`]): with the page cache warm they made no
//! difference (241 against 236 ms and 236 against 250 ms, 12 and 8 runs),
//! after dropped caches they did.

/// `mi_option_purge_delay` of mimalloc 3's `mi_option_e` (`mimalloc.h`),
/// which `libmimalloc-sys` does not name.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// While downloads run: memory freed goes back to the OS after
/// [`DOWNLOAD_PURGE_DELAY_MS`] and no new transparent huge page backs the
/// heap.
pub struct DownloadMemory {
    _huge_pages: NoHugePages,
}

/// No new transparent huge page backs the heap until dropped.
pub struct NoHugePages {
    /// Huge pages were allowed before: allowed again when dropped, so
    /// build scripts (which inherit the flag) run as they would have.
    restore: bool,
}

/// Huge pages off for a resolution from an empty metadata cache, whose
/// fresh buffers (documents by the hundred) each took a zeroed 2 MiB: with
/// them, alotta's resolution after dropped caches took 269 to 561 ms
/// (median 424, system time 471 ms), without them 298 to 357 (median 323,
/// system time 278 ms; 12 alternating runs each; two such runs while a
/// large deletion was written back: 443 against 344 and 418 against 357
/// ms). A warm resolution keeps them (see above).
pub fn without_huge_pages() -> NoHugePages {
    NoHugePages {
        restore: disable_huge_pages(),
    }
}

impl Drop for NoHugePages {
    fn drop(&mut self) {
        if self.restore {
            allow_huge_pages();
        }
    }
}

/// Milliseconds freed memory is kept during downloads (see the table).
const DOWNLOAD_PURGE_DELAY_MS: std::ffi::c_long = 10;

/// Settles the allocator for downloads until the guard is dropped; the
/// purge delay stays at [`DOWNLOAD_PURGE_DELAY_MS`]. Harmless when mimalloc
/// is linked but not the global allocator (the library's tests).
pub fn settle_for_downloads() -> DownloadMemory {
    // SAFETY: sets a plain option value; mimalloc reads it on each purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, DOWNLOAD_PURGE_DELAY_MS) }
    DownloadMemory {
        _huge_pages: without_huge_pages(),
    }
}

fn allow_huge_pages() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let _ = rustix::thread::disable_transparent_huge_pages(false);
}

/// Whether this call disabled them. Process-wide; pages already mapped
/// stay. Best effort: a kernel without THP changes nothing.
fn disable_huge_pages() -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        rustix::thread::transparent_huge_pages_are_disabled() == Ok(false)
            && rustix::thread::disable_transparent_huge_pages(true).is_ok()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    false
}

#[cfg(test)]
mod tests;
