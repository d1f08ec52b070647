//! Herald's event log, with KurrentDB (EventStoreDB) semantics.
//!
//! Streams with versions from 0; a gap-free global position across all streams (`$all`) in
//! commit order; appends with an expected version; idempotent appends by command id; reads
//! forwards and backwards; live subscriptions that catch up and then follow. The store knows
//! nothing of the rules: payloads are opaque JSON.
//!
//! [`EventStore`] is the backend-agnostic interface; [`SledStore`] the embedded default,
//! [`PostgresStore`] the one several processes share. The conformance suite in `conformance`
//! (feature `conformance`) runs against both.
//! [`codec`] documents the on-disk layout and encodes and decodes stored events, for tools and
//! tamper tests that open the sled database directly.
//!
//! Acknowledged means durable: `append` returns (and a `submit`ted append's [`Pending`] answer
//! resolves) only after the events are flushed, and reads
//! never show an event before that point. Idempotency is checked before the expected version,
//! so a retried command gets its first answer even after the stream moved on; a command id is
//! bound to its stream, not to its exact events (a retry may carry freshly generated event ids).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod error;
mod pending;
mod plan;
mod types;
mod validate;

pub mod codec;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod postgres;
pub mod sled_store;

pub use error::StoreError;
pub use pending::{Pending, PendingFuture};
pub use postgres::{PostgresOptions, PostgresStore, WritePaths};
pub use sled_store::{Durability, SledStore, DEFAULT_CACHE, DEFAULT_RESERVE};
pub use types::*;

/// A durable, ordered event log.
///
/// All methods block but [`EventStore::submit`], which queues an append and hands back its
/// answer to await; async callers run the others on a blocking thread pool, unless
/// [`EventStore::reads_are_local`] says they answer from this process's memory or disk.
pub trait EventStore: Send + Sync + 'static {
    /// Append events to one stream, atomically, if the stream is at the expected version.
    ///
    /// Returns only after the events are durable. When `request.command_id` was seen before,
    /// returns the first append's result with `replayed: true` and writes nothing.
    fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError>;

    /// Queue the append [`EventStore::append`] would make and return its answer to wait for or
    /// await, without blocking this thread on the write.
    ///
    /// The same guarantee: the [`Pending`] resolves only once the events are durable (flushed
    /// and synced with their group commit), with the same result or error `append` would have
    /// returned; nothing reads them before that. A request the store refuses before queueing it
    /// (malformed, the store closed) may be refused here at once instead of by the handle.
    /// Dropping the handle does not withdraw the append. Backends with a writer thread queue to it and return at once; the default appends
    /// synchronously and returns the handle already answered.
    fn submit(&self, request: AppendRequest) -> Result<Pending, StoreError> {
        Ok(Pending::answered(self.append(request)))
    }

    /// Whether reads answer from this process (memory, or a local disk through the page cache),
    /// in microseconds, so that an async caller may make them on its executor's thread instead
    /// of handing them to a blocking pool. False (the default) for a store over the network,
    /// whose every read is a round trip.
    fn reads_are_local(&self) -> bool {
        false
    }

    /// Append several requests, each atomically and judged as [`EventStore::append`] judges it,
    /// in order: whatever request `i` writes comes before what request `i + 1` writes in `$all`.
    ///
    /// One result per request. For bulk writes (an import, a replay into a new store): backends
    /// with group commit write the lot in few transactions instead of one each. The default
    /// appends one after another.
    fn append_many(&self, requests: Vec<AppendRequest>) -> Vec<Result<AppendResult, StoreError>> {
        requests.into_iter().map(|request| self.append(request)).collect()
    }

    /// Read up to `limit` events of a stream starting at version `from`, in `direction`.
    ///
    /// Backwards from `u64::MAX` reads from the end. A stream that does not exist reads empty.
    fn read_stream(
        &self,
        stream: &str,
        from: u64,
        direction: Direction,
        limit: usize,
    ) -> Result<Vec<RecordedEvent>, StoreError>;

    /// Feed the events of `stream` from version `from` on, in order, to `visit`, one at a time,
    /// until the stream ends or `visit` breaks.
    ///
    /// For replays that fold events into state (loading an aggregate, rebuilding a projection):
    /// each event is lent to the visitor, borrowed from the store's own buffer (no envelope or
    /// payload is copied or parsed), and nothing is collected, so memory stays flat. Returns how
    /// many events were visited (including the one that broke). The default reads pages;
    /// backends override it with a streaming scan.
    fn replay_stream(
        &self,
        stream: &str,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        let (mut next, mut count) = (from, 0);
        loop {
            let page = self.read_stream(stream, next, Direction::Forwards, 256)?;
            let Some(last) = page.last() else { return Ok(count) };
            next = last.version + 1;
            for event in &page {
                count += 1;
                if visit(event.as_ref()).is_break() {
                    return Ok(count);
                }
            }
        }
    }

    /// Feed the events of `$all` from position `from` on, in commit order, to `visit`, one at a
    /// time, until the durable head or until `visit` breaks: [`EventStore::replay_stream`] for
    /// the whole log (rebuilding read models). Returns how many events were visited.
    fn replay_all(
        &self,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        let (mut next, mut count) = (from, 0);
        loop {
            let page = self.read_all(next, 1024)?;
            let Some(last) = page.last() else { return Ok(count) };
            next = last.position + 1;
            for event in &page {
                count += 1;
                if visit(event.as_ref()).is_break() {
                    return Ok(count);
                }
            }
        }
    }

    /// Read up to `limit` events of `$all` starting at position `from`, forwards.
    fn read_all(&self, from: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError>;

    /// The version of the last event of `stream`, or `None` when the stream does not exist.
    fn stream_version(&self, stream: &str) -> Result<Option<u64>, StoreError>;

    /// The position of the last event in `$all`, or `None` when the log is empty.
    fn head_position(&self) -> Result<Option<u64>, StoreError>;

    /// The command stored with the events it produced, by command id.
    fn stored_command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError>;

    /// Feed every stored command to `visit`, in no promised order, until it breaks (exports).
    /// Returns how many were visited. The default reports that the backend cannot list them.
    fn scan_commands(
        &self,
        _visit: &mut dyn FnMut(StoredCommand) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        Err(StoreError::Invalid("this store cannot list its commands".into()))
    }

    /// Why writes fail, while they do and the store knows why (a full disk:
    /// [`StoreError::StorageFull`]); `None` while they succeed. For `/readyz`.
    fn write_failure(&self) -> Option<StoreError> {
        None
    }

    /// A watch on the head position of `$all`, for async live subscriptions.
    fn watch_head(&self) -> tokio::sync::watch::Receiver<Option<u64>>;

    /// Have `observer` called after each group commit that wrote something (the server's
    /// `herald_store_flush_duration_seconds`). Once per store; answers whether it was installed
    /// (a backend without group commit answers `false`).
    fn observe_commits(&self, observer: CommitObserver) -> bool {
        let _ = observer;
        false
    }

    /// A blocking subscription to `$all` that starts at position `from`, catches up and follows.
    fn subscribe_all(&self, from: u64) -> Subscription<'_>
    where
        Self: Sized,
    {
        Subscription::new(self, from)
    }

    /// Keep a secret (a sealed seed) outside the readable log, under `key`.
    fn put_secret(&self, key: &str, value: &[u8]) -> Result<(), StoreError>;

    /// Keep a secret like [`EventStore::put_secret`], but durable only as late as the first
    /// append acknowledged after this call returns (by any caller), not at once: for a secret
    /// that only appends written after it make meaningful (a stream's sealed seed, sealed just
    /// before the stream's first event, which commits to it), so that it rides that append's group
    /// commit instead of a flush and sync of its own. A crash before then loses the secret and,
    /// with it, everything that could refer to it. Backends without a cheaper way keep it durable
    /// at once (the default).
    fn put_secret_before_append(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.put_secret(key, value)
    }

    /// A secret kept with [`EventStore::put_secret`].
    fn get_secret(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Take or renew the lease `key` for `holder` for `ttl`: true when `holder` holds it now
    /// (it was free, expired, or already `holder`'s). Several processes sharing one log use it so
    /// that one of them does a job at a time (a webhook subscription's deliveries), and another
    /// takes over when the holder stops renewing. The default suits a log one process opens
    /// (sled's file lock): that process always holds every lease.
    fn try_lease(&self, key: &str, holder: &str, ttl: std::time::Duration) -> Result<bool, StoreError> {
        let _ = (key, holder, ttl);
        Ok(true)
    }

    /// Feed every secret, key and value, to `visit` until it breaks (exports). Returns how many
    /// were visited. The default reports that the backend cannot list them.
    fn scan_secrets(
        &self,
        _visit: &mut dyn FnMut(&str, &[u8]) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        Err(StoreError::Invalid("this store cannot list its secrets".into()))
    }
}

/// A blocking live subscription to `$all`: catches up from a position, then follows new events.
///
/// Catching up reads `$all` in pages. Once caught up it waits on [`EventStore::watch_head`],
/// which is cheap to poll, and re-reads only when the head moves, or every
/// [`Subscription::POLL`] at the latest, for backends whose watch cannot see every writer (several
/// processes sharing one database).
pub struct Subscription<'a> {
    store: &'a dyn EventStore,
    next: u64,
    buffer: std::collections::VecDeque<RecordedEvent>,
    head: tokio::sync::watch::Receiver<Option<u64>>,
}

impl<'a> Subscription<'a> {
    /// Longest wait between two reads of `$all` once caught up.
    pub const POLL: std::time::Duration = std::time::Duration::from_millis(50);
    /// How often the head watch is checked while waiting.
    const TICK: std::time::Duration = std::time::Duration::from_millis(1);
    /// Events read from `$all` at a time.
    const PAGE: usize = 256;

    /// Subscribe to `store` from position `from`.
    pub fn new(store: &'a dyn EventStore, from: u64) -> Self {
        Self { store, next: from, buffer: Default::default(), head: store.watch_head() }
    }

    /// The position of the next event this subscription will deliver (a checkpoint to resume from).
    pub fn position(&self) -> u64 {
        self.buffer.front().map_or(self.next, |event| event.position)
    }

    /// The next event, waiting up to `timeout` for one to be committed.
    ///
    /// `Ok(None)` means no event arrived within the timeout; call again to keep following.
    pub fn next_timeout(&mut self, timeout: std::time::Duration) -> Result<Option<RecordedEvent>, StoreError> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(event) = self.buffer.pop_front() {
                self.next = event.position + 1;
                return Ok(Some(event));
            }
            let batch = self.store.read_all(self.next, Self::PAGE)?;
            if !batch.is_empty() {
                self.buffer.extend(batch);
                continue;
            }
            if std::time::Instant::now() >= deadline {
                return Ok(None);
            }
            self.wait_for_head((std::time::Instant::now() + Self::POLL).min(deadline));
        }
    }

    /// Sleep until the head moves to or past the next position, or `until`.
    ///
    /// Only a *change* of the watch ends the wait early: a head that is already past `next` while
    /// the read came back empty must not turn this into a busy loop.
    fn wait_for_head(&mut self, until: std::time::Instant) {
        loop {
            let changed = self.head.has_changed().unwrap_or(false);
            if changed && self.head.borrow_and_update().is_some_and(|head| head >= self.next) {
                return;
            }
            let now = std::time::Instant::now();
            if now >= until {
                return;
            }
            std::thread::sleep((until - now).min(Self::TICK));
        }
    }
}
