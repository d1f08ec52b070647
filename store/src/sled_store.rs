//! The embedded sled backend: one writer thread with group commit, lock-free reads.
//!
//! Tree layout and encoding are documented in [`crate::codec`]. Appends go through the writer
//! thread (`writer`), which batches every pending request into one multi-tree transaction, and
//! the flusher thread (`flusher`), which makes it durable with one `flush` and answers. Reads
//! go straight to sled, but only up to the *durable head*: the last position whose flush
//! completed. An event is therefore never visible before it is acknowledged, even though sled
//! makes a committed transaction readable before it reaches the disk.

mod flusher;
mod plan;
mod reads;
mod recover;
mod sync;
mod writer;

pub use sync::Durability;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::codec::{self, decode_event, decode_event_ref, decode_u64, position_key, stream_key};
use crate::*;

/// The embedded sled event store.
///
/// Dropping it stops the writer thread after the requests already queued are answered.
pub struct SledStore {
    shared: Arc<Shared>,
    writer: Option<writer::Handle>,
    syncs: Arc<AtomicU64>,
    /// sled's log file, synced after a secret is written (None: [`Durability::ProcessCrash`]).
    log: Option<PathBuf>,
    /// sled's page cache bound, in bytes.
    cache: u64,
}

/// The sled trees of the layout in [`crate::codec`].
#[derive(Clone)]
pub(crate) struct Trees {
    pub(crate) events: sled::Tree,
    pub(crate) streams: sled::Tree,
    pub(crate) heads: sled::Tree,
    pub(crate) commands: sled::Tree,
    pub(crate) secrets: sled::Tree,
}

/// One opened sled database: replaced as a whole when writes resume after a failure
/// ([`recover`]), because sled 0.34 refuses every write after its first I/O error.
pub(crate) struct Instance {
    pub(crate) db: sled::Db,
    pub(crate) trees: Trees,
    /// Syncs the files after each group flush (the flusher's; a mutex so the instance can be
    /// shared).
    pub(crate) syncer: Mutex<sync::Syncer>,
}

/// Why writes fail.
#[derive(Clone)]
pub(crate) struct Failure {
    pub(crate) error: StoreError,
    /// Whether sled itself failed (it then refuses every write until the log is reopened), or
    /// the writer stopped at the reserve (sled is whole; writes resume when space returns).
    pub(crate) broken: bool,
}

/// The default bound of sled's page cache ([`SledStore::open_configured`]): 64 MiB. sled's own
/// default, 1 GiB, was part of what let a server's memory grow with its traffic (issue 27: the
/// growth over a minute of the soak load halved at 64 MiB, docs/PERFORMANCE.md); the pages a
/// command or a read needs are the recent ones, and the rest are in the OS's file cache.
pub const DEFAULT_CACHE: u64 = 64 * 1024 * 1024;

/// The default [`SledStore::set_reserve`]: 64 MiB.
pub const DEFAULT_RESERVE: u64 = 64 * 1024 * 1024;

/// State the writer publishes to readers.
pub(crate) struct Shared {
    /// The opened database; `None` only while it is being reopened.
    pub(crate) instance: RwLock<Option<Arc<Instance>>>,
    /// Why writes fail, while they do: set by the first failed transaction, flush or sync,
    /// cleared when the writer has reopened the log ([`recover`]). While it is set nothing more
    /// is published to readers.
    pub(crate) failure: Mutex<Option<Failure>>,
    /// Free bytes the writer leaves on the log's filesystem: below them it refuses writes
    /// ([`StoreError::StorageFull`]) before sled meets a full disk, so that reads, which may
    /// write to sled's log too (it consolidates pages as it reads them), keep working.
    pub(crate) reserve: AtomicU64,
    /// Bumped at each reopen: a batch committed in an older instance is never published.
    pub(crate) generation: AtomicU64,
    /// Durable head plus one; 0 when the log is empty. Readers never look past it.
    pub(crate) visible: AtomicU64,
    /// The same head, for async subscribers.
    pub(crate) head: tokio::sync::watch::Sender<Option<u64>>,
    /// Told what each group flush cost.
    pub(crate) commits: crate::CommitObservers,
}

impl Shared {
    fn visible_end(&self) -> u64 {
        self.visible.load(Ordering::Acquire)
    }

    /// The opened database (a clone of its handle: a reader never holds the lock while it reads).
    pub(crate) fn instance(&self) -> Result<Arc<Instance>, StoreError> {
        let instance = self.instance.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        instance.clone().ok_or_else(|| {
            StoreError::Unavailable("the log is being reopened after a storage failure; retry in a moment".into())
        })
    }

    /// Why writes fail, if they do.
    pub(crate) fn failure(&self) -> Option<StoreError> {
        self.failing().map(|failure| failure.error)
    }

    /// Why writes fail, and whether sled itself failed.
    pub(crate) fn failing(&self) -> Option<Failure> {
        self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Why sled refuses writes, if it does (it then needs a reopen).
    pub(crate) fn broken(&self) -> Option<StoreError> {
        self.failing().filter(|failure| failure.broken).map(|failure| failure.error)
    }

    /// Record that sled failed a write (the first cause wins until writes resume).
    pub(crate) fn fail(&self, error: &StoreError) {
        let mut failure = self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !failure.as_ref().is_some_and(|failure| failure.broken) {
            tracing::error!(error = %error, "the log's writes fail; reads go on, writes are refused until they resume");
            *failure = Some(Failure { error: error.clone(), broken: true });
        }
    }

    /// Record that the writer stopped at the reserve.
    pub(crate) fn stop_at_reserve(&self, error: &StoreError) {
        let mut failure = self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if failure.is_none() {
            tracing::error!(error = %error, "the disk is nearly full: writes are refused until space is freed; reads go on");
            *failure = Some(Failure { error: error.clone(), broken: false });
        }
    }

    /// A read's error, told as a passing one while sled refuses writes (its reads may fail
    /// then too: it writes as it reads).
    pub(crate) fn read_error(&self, error: StoreError) -> StoreError {
        match (self.broken(), error) {
            (Some(_), StoreError::Backend(detail)) => StoreError::Unavailable(format!(
                "reading the log failed while its disk is full ({detail}); reads and writes resume once space is freed"
            )),
            (_, error) => error,
        }
    }
}

/// A storage error of sled, told apart: a full disk (or quota) is [`StoreError::StorageFull`],
/// any other failure of the log's disk [`StoreError::Unavailable`]; both say nothing was
/// recorded, which the store makes true by never publishing the write (and dropping it from the
/// log when writes resume).
pub(crate) fn write_failure(context: &str, error: &std::io::Error) -> StoreError {
    if matches!(error.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded) {
        StoreError::StorageFull(format!(
            "{context}: {error}; this write was not recorded, and writes resume by themselves once space is freed"
        ))
    } else {
        StoreError::Unavailable(format!(
            "{context}: {error}; this write was not recorded, and writes resume by themselves once the disk answers"
        ))
    }
}

/// [`write_failure`] for a sled error.
pub(crate) fn sled_write_failure(context: &str, error: &sled::Error) -> StoreError {
    match error {
        sled::Error::Io(io) => write_failure(context, io),
        other => StoreError::Unavailable(format!("{context}: {other}; this write was not recorded")),
    }
}

/// Apply one batch to each tree of the log (events, streams, heads, commands) in one
/// transaction: an append's group commit, or dropping what failed group commits left. `what`
/// names it in the error.
pub(crate) fn apply_to_log(trees: &Trees, batches: &[sled::Batch; 4], what: &str) -> Result<(), StoreError> {
    use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};
    let [events, streams, heads, commands] = batches;
    (&trees.events, &trees.streams, &trees.heads, &trees.commands)
        .transaction(|(e, s, h, c)| {
            e.apply_batch(events)?;
            s.apply_batch(streams)?;
            h.apply_batch(heads)?;
            c.apply_batch(commands)?;
            Ok::<(), ConflictableTransactionError<()>>(())
        })
        .map_err(|e: TransactionError<()>| match e {
            TransactionError::Storage(e) => sled_write_failure(&format!("{what} failed"), &e),
            TransactionError::Abort(()) => backend(format!("{what} aborted")),
        })
}

pub(crate) fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl SledStore {
    /// Open (or create) a store in `path`, durable against a power loss
    /// ([`Durability::PowerLoss`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        Self::open_with(path, Durability::default())
    }

    /// Open (or create) a store in `path` with the given durability.
    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<Self, StoreError> {
        Self::open_configured(path, durability, DEFAULT_CACHE)
    }

    /// Open (or create) a store in `path` with the given durability, sled keeping at most
    /// `cache` bytes of the log's pages in memory ([`DEFAULT_CACHE`]; sled's own default is
    /// 1 GiB). The cache only spares reads of the disk: every answer is the same with any size.
    pub fn open_configured(path: impl AsRef<Path>, durability: Durability, cache: u64) -> Result<Self, StoreError> {
        let path = path.as_ref();
        let syncs = Arc::new(AtomicU64::new(0));
        let instance = recover::open_instance(path, durability, cache, &syncs)?;
        // The head is the last key of `events`: a transaction is all or nothing, so whatever
        // recovery kept is complete and (being read back from disk) durable.
        let head = match instance.trees.events.last().map_err(backend)? {
            Some((key, _)) => Some(decode_u64(&key)?),
            None => None,
        };
        let shared = Arc::new(Shared {
            instance: RwLock::new(Some(Arc::new(instance))),
            failure: Mutex::new(None),
            reserve: AtomicU64::new(DEFAULT_RESERVE),
            generation: AtomicU64::new(0),
            visible: AtomicU64::new(head.map_or(0, |h| h + 1)),
            head: tokio::sync::watch::channel(head).0,
            commits: crate::CommitObservers::default(),
        });
        let reopen = recover::Reopen { path: path.to_path_buf(), durability, cache, syncs: syncs.clone() };
        let writer = writer::Handle::spawn(shared.clone(), head, reopen)?;
        let log = (durability == Durability::PowerLoss).then(|| path.join("db"));
        Ok(Self { shared, writer: Some(writer), syncs, log, cache })
    }

    /// The most bytes of the log's pages sled keeps in memory (the bound it was opened with).
    pub fn cache_capacity(&self) -> u64 {
        self.cache
    }

    /// How many times the store has synced its files to the disk since it was opened (each
    /// group flush that wrote something syncs once under [`Durability::PowerLoss`]).
    pub fn syncs(&self) -> u64 {
        self.syncs.load(Ordering::Relaxed)
    }

    /// The underlying sled database (for tools and tamper tests).
    pub fn db(&self) -> Result<sled::Db, StoreError> {
        Ok(self.shared.instance()?.db.clone())
    }

    /// Whether sled itself failed a write (not only the writer stopping at the reserve): the
    /// log is then reopened before writes resume.
    pub fn needs_reopen(&self) -> bool {
        self.shared.broken().is_some()
    }

    /// How many times the log was reopened so that writes resume after sled failed a write.
    pub fn reopens(&self) -> u64 {
        self.shared.generation.load(Ordering::Acquire)
    }

    /// Set the free bytes the writer leaves on the log's filesystem ([`DEFAULT_RESERVE`]):
    /// below them writes are refused with [`StoreError::StorageFull`], nothing recorded, so that
    /// sled never meets a full disk it caused; they resume once there is that much free again.
    pub fn set_reserve(&self, bytes: u64) {
        self.shared.reserve.store(bytes, Ordering::Relaxed);
    }
}

impl Drop for SledStore {
    fn drop(&mut self) {
        if let Some(writer) = self.writer.take() {
            writer.shutdown();
        }
    }
}

impl EventStore for SledStore {
    fn write_failure(&self) -> Option<StoreError> {
        self.shared.failure()
    }

    fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError> {
        self.writer.as_ref().ok_or(StoreError::Closed)?.append(request)
    }

    fn submit(&self, request: AppendRequest) -> Result<crate::Pending, StoreError> {
        self.writer.as_ref().ok_or(StoreError::Closed)?.submit(request)
    }

    /// sled keeps its trees in this process: a read is a lookup in its cache or a page read
    /// from the local disk, never a round trip.
    fn reads_are_local(&self) -> bool {
        true
    }

    fn append_many(&self, requests: Vec<AppendRequest>) -> Vec<Result<AppendResult, StoreError>> {
        match self.writer.as_ref() {
            Some(writer) => writer.append_many(requests),
            None => requests.iter().map(|_| Err(StoreError::Closed)).collect(),
        }
    }

    fn read_stream(
        &self,
        stream: &str,
        from: u64,
        direction: Direction,
        limit: usize,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        self.scan_stream(stream, from, direction, limit).map_err(|e| self.shared.read_error(e))
    }

    fn replay_stream(
        &self,
        stream: &str,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        self.replay(stream, from, visit).map_err(|e| self.shared.read_error(e))
    }

    fn replay_all(
        &self,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        let mut read = || -> Result<u64, StoreError> {
            let end = self.shared.visible_end();
            let mut count = 0;
            for entry in self.shared.instance()?.trees.events.range(position_key(from)..position_key(end.max(from))) {
                let (_, bytes) = entry.map_err(backend)?;
                count += 1;
                if visit(decode_event_ref(&bytes)?).is_break() {
                    break;
                }
            }
            Ok(count)
        };
        read().map_err(|e| self.shared.read_error(e))
    }

    fn read_all(&self, from: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let read = || -> Result<Vec<RecordedEvent>, StoreError> {
            let end = self.shared.visible_end();
            if from >= end || limit == 0 {
                return Ok(Vec::new());
            }
            let mut out = Vec::with_capacity(limit.min(1024).min((end - from) as usize));
            let instance = self.shared.instance()?;
            for entry in instance.trees.events.range(position_key(from)..position_key(end)) {
                let (_, bytes) = entry.map_err(backend)?;
                out.push(decode_event(&bytes)?);
                if out.len() >= limit {
                    break;
                }
            }
            Ok(out)
        };
        read().map_err(|e| self.shared.read_error(e))
    }

    fn stream_version(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        let read = || -> Result<Option<u64>, StoreError> {
            if stream.contains('\0') {
                return Ok(None);
            }
            let end = self.shared.visible_end();
            // The last index entry whose event is durable: usually the very first one looked at.
            let instance = self.shared.instance()?;
            for entry in instance.trees.streams.range(stream_key(stream, 0)..=stream_key(stream, u64::MAX)).rev() {
                let (key, value) = entry.map_err(backend)?;
                if decode_u64(&value)? < end {
                    return decode_u64(&key[key.len().saturating_sub(8)..]).map(Some);
                }
            }
            Ok(None)
        };
        read().map_err(|e| self.shared.read_error(e))
    }

    fn head_position(&self) -> Result<Option<u64>, StoreError> {
        Ok(self.shared.visible_end().checked_sub(1))
    }

    fn stored_command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
        let read = || -> Result<Option<StoredCommand>, StoreError> {
            let Some(bytes) = self.shared.instance()?.trees.commands.get(command_id.as_bytes()).map_err(backend)?
            else {
                return Ok(None);
            };
            let command = codec::decode_command(&bytes)?;
            Ok((command.first_position < self.shared.visible_end()).then_some(command))
        };
        read().map_err(|e| self.shared.read_error(e))
    }

    fn scan_commands(
        &self,
        visit: &mut dyn FnMut(StoredCommand) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        let end = self.shared.visible_end();
        let mut count = 0;
        let instance = self.shared.instance()?;
        for entry in instance.trees.commands.iter() {
            let command = codec::decode_command(&entry.map_err(backend)?.1)?;
            if command.first_position >= end {
                continue; // Not durable yet.
            }
            count += 1;
            if visit(command).is_break() {
                break;
            }
        }
        Ok(count)
    }

    fn watch_head(&self) -> tokio::sync::watch::Receiver<Option<u64>> {
        self.shared.head.subscribe()
    }

    fn observe_commits(&self, observer: crate::CommitObserver) -> bool {
        self.shared.commits.set(observer)
    }

    fn put_secret(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        if let Some(failure) = self.shared.failure() {
            return Err(failure);
        }
        let instance = self.shared.instance()?;
        let written = instance
            .trees
            .secrets
            .insert(key.as_bytes(), value)
            .and_then(|_| instance.db.flush())
            .map_err(|e| sled_write_failure("writing a secret failed", &e))
            .and_then(|_| match &self.log {
                Some(log) => std::fs::File::open(log)
                    .and_then(|file| file.sync_data())
                    .map_err(|e| write_failure("syncing a secret failed", &e)),
                None => Ok(()),
            });
        if let Err(error) = &written {
            // sled refuses every write after an I/O error: the writer must reopen the log.
            self.shared.fail(error);
        }
        written
    }

    /// Written to sled now; the next group commit's flush (which covers every write sled took
    /// before it started) and `fdatasync` of the log make it durable, before any append queued
    /// after this returns is acknowledged.
    fn put_secret_before_append(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        if let Some(failure) = self.shared.failure() {
            return Err(failure);
        }
        let instance = self.shared.instance()?;
        let written = instance
            .trees
            .secrets
            .insert(key.as_bytes(), value)
            .map(drop)
            .map_err(|e| sled_write_failure("writing a secret failed", &e));
        if let Err(error) = &written {
            self.shared.fail(error);
        }
        written
    }

    fn get_secret(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.shared.instance()?.trees.secrets.get(key.as_bytes()).map_err(backend)?.map(|value| value.to_vec()))
    }

    fn scan_secrets(&self, visit: &mut dyn FnMut(&str, &[u8]) -> std::ops::ControlFlow<()>) -> Result<u64, StoreError> {
        let mut count = 0;
        let instance = self.shared.instance()?;
        for entry in instance.trees.secrets.iter() {
            let (key, value) = entry.map_err(backend)?;
            let key =
                std::str::from_utf8(&key).map_err(|_| StoreError::Backend("a secret's key is not UTF-8".into()))?;
            count += 1;
            if visit(key, &value).is_break() {
                break;
            }
        }
        Ok(count)
    }
}
