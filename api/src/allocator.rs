//! The memory allocator: mimalloc, set for a long-running server whose memory should follow its
//! data, not its uptime (issue 27 item 4), and whose write path allocates a great deal (issue 29).
//! docs/OPERATIONS.md "Memory" and docs/PERFORMANCE.md "The allocator" give the measurements.
//!
//! Why not glibc's malloc: in a profile of 32 clients writing through HTTP, glibc's malloc and
//! free (`_int_malloc`, `malloc`, `cfree`, `_int_free`, `malloc_consolidate`) took about a fifth
//! of the server's CPU, and its per-thread arenas kept freed memory resident unless limited and
//! trimmed. With mimalloc the same load ran at 1.3-1.5x the commands a second.
//!
//! One setting: transparent huge pages are turned off for the process (`PR_SET_THP_DISABLE`)
//! unless the host sets `MIMALLOC_ALLOW_THP`. mimalloc asks for huge pages on its arenas, and on
//! a kernel that grants them (`madvise` or `always` mode) a 2 MiB page is resident as soon as one
//! byte of it is touched: an idle server held 119 MiB instead of 64 MiB, and more than twice the
//! memory of the same log under glibc after a three-minute soak. Every other mimalloc option keeps
//! its default and can be set by the host with `MIMALLOC_*` variables (mimalloc reads them itself).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The environment variable that, when set, leaves transparent huge pages to mimalloc.
pub const ALLOW_THP: &str = "MIMALLOC_ALLOW_THP";

/// Apply the setting above; call first thing in `main`, before the server's threads start.
#[allow(unsafe_code)]
pub fn tune() {
    #[cfg(target_os = "linux")]
    if std::env::var_os(ALLOW_THP).is_none() {
        // SAFETY: prctl with PR_SET_THP_DISABLE takes integers only; it sets a flag of this
        // process's memory map that the kernel reads when it faults pages in.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
    }
}

/// Whether transparent huge pages are off for this process (as [`tune`] sets them).
#[allow(unsafe_code)]
pub fn huge_pages_disabled() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_GET_THP_DISABLE takes no pointer and returns 0 or 1.
        unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1 }
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// Hand the memory freed on this thread back to the system now (`mi_collect`), rather than after
/// mimalloc's purge delay. Called after a burst of work that freed much (the last live reader
/// closing).
#[allow(unsafe_code)]
pub fn trim() {
    // SAFETY: mi_collect only walks the allocator's own structures; it takes no pointers.
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
}

/// What the allocator holds, for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Bytes the allocator has committed (mapped writable) from the system, in use or kept for
    /// reuse (mimalloc's `current_commit`). Pages never touched are not resident, so this can
    /// exceed the process's RSS; its growth over time is what to watch.
    pub committed: u64,
    /// The most it ever had committed (`peak_commit`).
    pub peak_committed: u64,
}

/// [`Stats`] now (mimalloc's `mi_process_info`).
#[allow(unsafe_code)]
pub fn stats() -> Option<Stats> {
    let (mut elapsed, mut user, mut system, mut rss, mut peak_rss) = (0usize, 0usize, 0usize, 0usize, 0usize);
    let (mut committed, mut peak_committed, mut faults) = (0usize, 0usize, 0usize);
    // SAFETY: every pointer is to a local usize that outlives the call, which only writes them.
    unsafe {
        libmimalloc_sys::mi_process_info(
            &mut elapsed,
            &mut user,
            &mut system,
            &mut rss,
            &mut peak_rss,
            &mut committed,
            &mut peak_committed,
            &mut faults,
        );
    }
    Some(Stats { committed: committed as u64, peak_committed: peak_committed as u64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allocator_counts_a_live_block_as_committed_and_a_collect_keeps_it() {
        let before = stats().expect("mimalloc's process info").committed;
        let block = vec![7u8; 64 << 20];
        let during = stats().expect("mimalloc's process info").committed;
        assert!(during >= before + (64 << 20) - (1 << 20), "{before} -> {during}");
        trim();
        assert_eq!(block.iter().map(|&b| u64::from(b)).sum::<u64>(), 7 * (64 << 20), "a collect frees nothing in use");
        drop(block);
        let peak = stats().expect("mimalloc's process info").peak_committed;
        assert!(peak >= during, "the peak {peak} is at least what was committed ({during})");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn tuning_turns_huge_pages_off_unless_the_host_allows_them() {
        tune();
        assert_eq!(huge_pages_disabled(), std::env::var_os(ALLOW_THP).is_none());
    }
}
