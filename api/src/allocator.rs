//! The C allocator (glibc's malloc) set for a long-running server whose memory should follow its
//! data, not its uptime (issue 27 item 4; docs/OPERATIONS.md "Memory").
//!
//! glibc gives threads up to eight arenas per core, each a heap of its own that returns memory to
//! the system only from its top. Herald's requests run on actix's workers and tokio's blocking
//! pool, so the buffers of one request (a page of events, a rendered view, a snapshot save) are
//! freed into whichever arena the thread had, where the holes stay resident. Two measures:
//! - at most [`ARENAS`] arenas (`M_ARENA_MAX`), unless `MALLOC_ARENA_MAX` is set (glibc reads it
//!   itself; set it to compare);
//! - every `HERALD_MALLOC_TRIM_SECS` seconds (default [`TRIM_EVERY`], `0` never) a thread calls
//!   `malloc_trim(0)`, which hands the free pages inside every arena back to the system.
//!
//! Elsewhere (another libc or OS) both are nothing.
//!
//! mimalloc was tried in its place (issue 29; docs/adr/0006): the write path ran 1.2-1.3x faster,
//! but it held about 1.7x the memory for the same read models, and memory freed on an idle
//! worker thread stayed resident (a burst of 300 live readers left 240 MiB behind, where the
//! bound is a quarter of their 300 MiB), which breaks the promise that memory returns when live
//! readers close. So glibc it is, until that is solved.

/// Arenas when `MALLOC_ARENA_MAX` is not set.
pub const ARENAS: i32 = 2;

/// Seconds between trims when `HERALD_MALLOC_TRIM_SECS` is not set.
pub const TRIM_EVERY: u64 = 10;

/// Apply both; call first thing in `main`, before any thread starts.
#[allow(unsafe_code)]
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
            // SAFETY: mallopt only sets the allocator's parameter; no thread allocates yet.
            unsafe {
                libc::mallopt(libc::M_ARENA_MAX, ARENAS);
            }
        }
        let every = std::env::var("HERALD_MALLOC_TRIM_SECS")
            .ok()
            .and_then(|secs| secs.trim().parse::<u64>().ok())
            .unwrap_or(TRIM_EVERY);
        if every > 0 {
            let _ = std::thread::Builder::new().name("herald-malloc-trim".into()).spawn(move || loop {
                std::thread::sleep(std::time::Duration::from_secs(every));
                trim();
            });
        }
    }
}

/// Hand the allocator's free pages back to the system (`malloc_trim(0)`).
#[allow(unsafe_code)]
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// What the C allocator holds, from `mallinfo2` (glibc 2.33 and later), for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Bytes handed out and not freed (arenas' chunks in use and large blocks mapped alone).
    pub in_use: u64,
    /// Bytes freed but kept by the arenas (resident until reused or trimmed).
    pub free: u64,
}

/// [`Stats`] now; `None` where the allocator is not glibc's.
#[allow(unsafe_code)]
pub fn stats() -> Option<Stats> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallinfo2 returns a struct by value; it locks and reads each arena.
        let info = unsafe { libc::mallinfo2() };
        Some(Stats { in_use: (info.uordblks + info.hblkhd) as u64, free: info.fordblks as u64 })
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn the_allocator_counts_a_live_block_in_use_and_a_trim_keeps_it() {
        let before = stats().expect("glibc's mallinfo2").in_use;
        let block = vec![7u8; 64 << 20];
        let during = stats().expect("glibc's mallinfo2").in_use;
        assert!(during >= before + (64 << 20), "{before} -> {during}");
        trim();
        assert_eq!(block.iter().map(|&b| u64::from(b)).sum::<u64>(), 7 * (64 << 20), "trim frees nothing in use");
        drop(block);
    }
}
