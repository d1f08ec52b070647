//! Power-loss durability: an `fsync` of sled's files after each group flush.
//!
//! `sled::Db::flush` (0.34) writes its log with `sync_file_range` on Linux. That survives a
//! crash of the process, but it neither flushes the file's metadata nor asks the disk to empty
//! its write cache, so a power loss or a kernel crash may lose writes that were acknowledged.
//! sled also writes values larger than a segment's share (about 128 KiB) to files of their own
//! under `blobs/`, with no sync at all. After each group flush the flusher therefore calls
//! `fdatasync` on the log file (`db`) and on every blob file it has not synced yet, and `fsync`
//! on the `blobs` directory when a blob appeared, so that an acknowledged append survives a power
//! loss. Group commit keeps the cost per event small under load: one sync serves every append of
//! the group (figures in docs/PERFORMANCE.md, "Durability").

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What an acknowledged append survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// A crash of the process, a kernel crash and a power loss: sled's flush, then an `fsync` of
    /// its files. The default.
    #[default]
    PowerLoss,
    /// A crash of the process only: sled's own flush (`sync_file_range`), no `fsync`. For
    /// throwaway data (benchmarks measuring what the sync costs).
    ProcessCrash,
}

/// Syncs the store's files after a flush, and counts how often it did.
pub(crate) struct Syncer {
    durability: Durability,
    log: Option<File>,
    blobs: PathBuf,
    synced_blobs: HashSet<OsString>,
    syncs: Arc<AtomicU64>,
}

impl Syncer {
    /// Open the files of the sled database in `dir` (already opened by sled, so they exist).
    pub(crate) fn open(dir: &Path, durability: Durability, syncs: Arc<AtomicU64>) -> io::Result<Self> {
        let log = match durability {
            Durability::PowerLoss => {
                let log = File::open(dir.join("db"))?;
                // The directory entries of a new database must survive too.
                log.sync_all()?;
                File::open(dir)?.sync_all()?;
                Some(log)
            }
            Durability::ProcessCrash => None,
        };
        Ok(Self { durability, log, blobs: dir.join("blobs"), synced_blobs: HashSet::new(), syncs })
    }

    /// Make everything sled flushed durable against a power loss (a no-op for
    /// [`Durability::ProcessCrash`]).
    pub(crate) fn sync(&mut self) -> io::Result<()> {
        let Some(log) = &self.log else {
            return Ok(());
        };
        debug_assert_eq!(self.durability, Durability::PowerLoss);
        log.sync_data()?;
        self.sync_new_blobs()?;
        self.syncs.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Sync the blob files written since the last sync, and the directory that lists them.
    fn sync_new_blobs(&mut self) -> io::Result<()> {
        let entries = match std::fs::read_dir(&self.blobs) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        let mut present = HashSet::new();
        let mut new = false;
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            if !self.synced_blobs.contains(&name) {
                match File::open(entry.path()) {
                    Ok(blob) => blob.sync_data()?,
                    // sled collected it between the listing and the open: nothing to keep.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(e),
                }
                new = true;
            }
            present.insert(name);
        }
        if new {
            File::open(&self.blobs)?.sync_all()?;
        }
        // Forget the blobs sled has collected, so the set does not grow with the log.
        self.synced_blobs = present;
        Ok(())
    }
}
