//! Opening the log, and reopening it so that writes resume after a storage failure.
//!
//! sled 0.34 refuses every write after its first I/O error (a full disk, a failed flush): the
//! error is kept for the life of the opened database. The writer therefore resumes by dropping
//! the database and opening it again from disk, once the disk has room ([`resume`]). Whatever
//! the failed batches left in the log past the last published position was answered as a
//! failure and never shown to a reader, so it is dropped ([`truncate`]): a position once shown
//! never holds another event, and a write answered "not recorded" is not.
//!
//! A start on a full disk can leave a 0-byte `snap.*.generating` file (sled writes its snapshot
//! there, then renames it); sled would read it at the next start as a corrupted snapshot. It is
//! only ever an unfinished temporary file, so it is removed before every open, and the log says
//! so ([`remove_unfinished_snapshots`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::sync::{Durability, Syncer};
use super::{backend, sled_write_failure, write_failure, Instance, Shared, Trees};
use crate::codec::{self, decode_command, decode_event, position_key, stream_key};
use crate::StoreError;

/// The least free space on the log's filesystem before the writer tries to resume after a
/// full disk: two of sled's 512 KiB segments, so that the first batches after it fit.
pub(crate) const RESUME_SPACE: u64 = 1024 * 1024;

/// How long a reopen waits for readers to let go of the old database.
const READERS_GRACE: Duration = Duration::from_secs(5);

/// What the writer needs to open the log again.
pub(crate) struct Reopen {
    pub(crate) path: PathBuf,
    pub(crate) durability: Durability,
    /// sled's page cache, in bytes ([`super::SledStore::open_configured`]).
    pub(crate) cache: u64,
    pub(crate) syncs: Arc<AtomicU64>,
}

/// Open the sled database in `path`, its trees and its syncer.
pub(crate) fn open_instance(
    path: &Path,
    durability: Durability,
    cache: u64,
    syncs: &Arc<AtomicU64>,
) -> Result<Instance, StoreError> {
    remove_unfinished_snapshots(path)?;
    let db = sled::Config::new().path(path).cache_capacity(cache).open().map_err(|error| match &error {
        // sled locks its directory with a file lock: another process has it open. sled 0.34
        // reports it as an `Other` I/O error naming the lock (the OS's WouldBlock inside).
        sled::Error::Io(io)
            if io.kind() == std::io::ErrorKind::WouldBlock || io.to_string().contains("could not acquire lock") =>
        {
            StoreError::Locked(path.display().to_string())
        }
        sled::Error::Io(io) if is_full(io) => {
            StoreError::StorageFull(format!("opening the log in {} failed: {io}", path.display()))
        }
        _ => backend(error),
    })?;
    let open = |name: &str| db.open_tree(name).map_err(backend);
    let trees = Trees {
        events: open(codec::EVENTS_TREE)?,
        streams: open(codec::STREAMS_TREE)?,
        heads: open(codec::HEADS_TREE)?,
        commands: open(codec::COMMANDS_TREE)?,
        secrets: open(codec::SECRETS_TREE)?,
    };
    let syncer =
        Syncer::open(path, durability, syncs.clone()).map_err(|e| write_failure("syncing the log failed", &e))?;
    Ok(Instance { db, trees, syncer: Mutex::new(syncer) })
}

fn is_full(error: &std::io::Error) -> bool {
    matches!(error.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded)
}

/// Remove the snapshot files sled began and never finished (`snap.<lsn>.generating`): sled 0.34
/// would take one for a snapshot at the next open and refuse to start ("Read corrupted data").
pub(crate) fn remove_unfinished_snapshots(path: &Path) -> Result<(), StoreError> {
    let entries = match std::fs::read_dir(path) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(backend(format!("listing {} failed: {e}", path.display()))),
    };
    for entry in entries {
        let entry = entry.map_err(backend)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("snap.") && name.ends_with(".generating") {
            std::fs::remove_file(entry.path()).map_err(|e| {
                backend(format!("removing the unfinished snapshot {} failed: {e}", entry.path().display()))
            })?;
            tracing::warn!(
                file = %entry.path().display(),
                "removed an unfinished snapshot of the log (left by a start or stop that failed, as on a full disk); \
                 the log itself is untouched"
            );
        }
    }
    Ok(())
}

/// Reopen the log so that writes resume; returns the next free position (the published end).
///
/// Called by the writer thread only, while writes fail. Fails (and is tried again later) while
/// the disk is still full, while readers hold the old database, or when the open fails.
pub(crate) fn resume(shared: &Shared, reopen: &Reopen) -> Result<u64, StoreError> {
    if let Some(StoreError::StorageFull(_)) = shared.failure() {
        let free =
            fs2::available_space(&reopen.path).map_err(|e| write_failure("reading the free space failed", &e))?;
        let needed = RESUME_SPACE.max(shared.reserve.load(Ordering::Relaxed));
        if free < needed {
            return Err(StoreError::StorageFull(format!(
                "{free} bytes free beside the log, writes resume from {needed}"
            )));
        }
    }
    let old = shared.instance.write().unwrap_or_else(PoisonError::into_inner).take();
    let Some(mut old) = old else {
        return Err(StoreError::Unavailable("no log to reopen".into()));
    };
    // Readers and the flusher hold clones for the length of one call: wait for them to let go,
    // so that sled closes its files (and its lock) when the last handle drops.
    let started = Instant::now();
    let old = loop {
        match Arc::try_unwrap(old) {
            Ok(instance) => break instance,
            Err(shared_old) if started.elapsed() < READERS_GRACE => {
                old = shared_old;
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(shared_old) => {
                *shared.instance.write().unwrap_or_else(PoisonError::into_inner) = Some(shared_old);
                return Err(StoreError::Unavailable("readers held the log too long to reopen it".into()));
            }
        }
    };
    drop(old);
    // Nothing is published while writes fail, so this is stable now.
    let visible = shared.visible.load(Ordering::Acquire);
    let instance = open_instance(&reopen.path, reopen.durability, reopen.cache, &reopen.syncs)?;
    truncate(&instance, visible)?;
    let mut slot = shared.instance.write().unwrap_or_else(PoisonError::into_inner);
    // Batches still queued for the flusher belong to the old database: never published.
    shared.generation.fetch_add(1, Ordering::AcqRel);
    *slot = Some(Arc::new(instance));
    drop(slot);
    *shared.failure.lock().unwrap_or_else(PoisonError::into_inner) = None;
    tracing::info!(next_position = visible, "the log was reopened: writes resume");
    Ok(visible)
}

/// Drop every event at `from` or later (with its index entries, its stream's head and its
/// command record): they were written by batches that failed, answered as not recorded and
/// never shown to a reader.
fn truncate(instance: &Instance, from: u64) -> Result<(), StoreError> {
    let trees = &instance.trees;
    let [mut events, mut streams, mut heads, mut commands]: [sled::Batch; 4] = Default::default();
    let mut first_dropped = std::collections::HashMap::<String, u64>::new();
    let mut dropped = 0u64;
    for entry in trees.events.range(position_key(from)..) {
        let (key, bytes) = entry.map_err(backend)?;
        let event = decode_event(&bytes)?;
        events.remove(key);
        streams.remove(stream_key(&event.stream, event.version));
        if let Some(command_id) = &event.command_id {
            if let Some(stored) = trees.commands.get(command_id.as_bytes()).map_err(backend)? {
                if decode_command(&stored)?.first_position >= from {
                    commands.remove(command_id.as_bytes());
                }
            }
        }
        let first = first_dropped.entry(event.stream).or_insert(event.version);
        *first = (*first).min(event.version);
        dropped += 1;
    }
    if dropped == 0 {
        return Ok(());
    }
    for (stream, version) in &first_dropped {
        match version.checked_sub(1) {
            Some(last) => heads.insert(stream.as_bytes(), &last.to_be_bytes()[..]),
            None => heads.remove(stream.as_bytes()),
        }
    }
    super::apply_to_log(trees, &[events, streams, heads, commands], "dropping unacknowledged events")?;
    instance.db.flush().map_err(|e| sled_write_failure("flushing the log failed", &e))?;
    instance
        .syncer
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .sync()
        .map_err(|e| write_failure("syncing the log failed", &e))?;
    tracing::warn!(
        from_position = from,
        events = dropped,
        "dropped events that failed batches had left in the log: they were answered as not recorded and never shown"
    );
    Ok(())
}
