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
mod sync;
mod writer;

pub use sync::Durability;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::codec::{self, decode_event, decode_event_ref, decode_u64, position_key, stream_key};
use crate::*;

/// The embedded sled event store.
///
/// Dropping it stops the writer thread after the requests already queued are answered.
pub struct SledStore {
    db: sled::Db,
    trees: Trees,
    shared: Arc<Shared>,
    writer: Option<writer::Handle>,
    syncs: Arc<AtomicU64>,
    /// sled's log file, synced after a secret is written (None: [`Durability::ProcessCrash`]).
    log: Option<PathBuf>,
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

/// State the writer publishes to readers.
pub(crate) struct Shared {
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
        let path = path.as_ref();
        let db = sled::Config::new().path(path).open().map_err(|error| match &error {
            // sled locks its directory with a file lock: another process has it open. sled 0.34
            // reports it as an `Other` I/O error naming the lock (the OS's WouldBlock inside).
            sled::Error::Io(io)
                if io.kind() == std::io::ErrorKind::WouldBlock || io.to_string().contains("could not acquire lock") =>
            {
                StoreError::Locked(path.display().to_string())
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
        // The head is the last key of `events`: a transaction is all or nothing, so whatever
        // recovery kept is complete and (being read back from disk) durable.
        let head = match trees.events.last().map_err(backend)? {
            Some((key, _)) => Some(decode_u64(&key)?),
            None => None,
        };
        let shared = Arc::new(Shared {
            visible: AtomicU64::new(head.map_or(0, |h| h + 1)),
            head: tokio::sync::watch::channel(head).0,
            commits: crate::CommitObservers::default(),
        });
        let syncs = Arc::new(AtomicU64::new(0));
        let syncer = sync::Syncer::open(path, durability, syncs.clone()).map_err(backend)?;
        let writer = writer::Handle::spawn(db.clone(), trees.clone(), shared.clone(), head, syncer)?;
        let log = (durability == Durability::PowerLoss).then(|| path.join("db"));
        Ok(Self { db, trees, shared, writer: Some(writer), syncs, log })
    }

    /// How many times the store has synced its files to the disk since it was opened (each
    /// group flush that wrote something syncs once under [`Durability::PowerLoss`]).
    pub fn syncs(&self) -> u64 {
        self.syncs.load(Ordering::Relaxed)
    }

    /// The underlying sled database (for tools and tamper tests).
    pub fn db(&self) -> &sled::Db {
        &self.db
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
    fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError> {
        self.writer.as_ref().ok_or(StoreError::Closed)?.append(request)
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
        self.scan_stream(stream, from, direction, limit)
    }

    fn replay_stream(
        &self,
        stream: &str,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        self.replay(stream, from, visit)
    }

    fn replay_all(
        &self,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        let end = self.shared.visible_end();
        let mut count = 0;
        for entry in self.trees.events.range(position_key(from)..position_key(end.max(from))) {
            let (_, bytes) = entry.map_err(backend)?;
            count += 1;
            if visit(decode_event_ref(&bytes)?).is_break() {
                break;
            }
        }
        Ok(count)
    }

    fn read_all(&self, from: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        let end = self.shared.visible_end();
        if from >= end || limit == 0 {
            return Ok(Vec::new());
        }
        let mut out = Vec::with_capacity(limit.min(1024).min((end - from) as usize));
        for entry in self.trees.events.range(position_key(from)..position_key(end)) {
            let (_, bytes) = entry.map_err(backend)?;
            out.push(decode_event(&bytes)?);
            if out.len() >= limit {
                break;
            }
        }
        Ok(out)
    }

    fn stream_version(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        if stream.contains('\0') {
            return Ok(None);
        }
        let end = self.shared.visible_end();
        // The last index entry whose event is durable: usually the very first one looked at.
        for entry in self.trees.streams.range(stream_key(stream, 0)..=stream_key(stream, u64::MAX)).rev() {
            let (key, value) = entry.map_err(backend)?;
            if decode_u64(&value)? < end {
                return decode_u64(&key[key.len().saturating_sub(8)..]).map(Some);
            }
        }
        Ok(None)
    }

    fn head_position(&self) -> Result<Option<u64>, StoreError> {
        Ok(self.shared.visible_end().checked_sub(1))
    }

    fn stored_command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
        let Some(bytes) = self.trees.commands.get(command_id.as_bytes()).map_err(backend)? else {
            return Ok(None);
        };
        let command = codec::decode_command(&bytes)?;
        Ok((command.first_position < self.shared.visible_end()).then_some(command))
    }

    fn scan_commands(
        &self,
        visit: &mut dyn FnMut(StoredCommand) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        let end = self.shared.visible_end();
        let mut count = 0;
        for entry in self.trees.commands.iter() {
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
        self.trees.secrets.insert(key.as_bytes(), value).map_err(backend)?;
        self.db.flush().map_err(backend)?;
        if let Some(log) = &self.log {
            std::fs::File::open(log).and_then(|file| file.sync_data()).map_err(backend)?;
        }
        Ok(())
    }

    fn get_secret(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.trees.secrets.get(key.as_bytes()).map_err(backend)?.map(|value| value.to_vec()))
    }

    fn scan_secrets(&self, visit: &mut dyn FnMut(&str, &[u8]) -> std::ops::ControlFlow<()>) -> Result<u64, StoreError> {
        let mut count = 0;
        for entry in self.trees.secrets.iter() {
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
