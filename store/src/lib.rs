//! Herald's event log, with KurrentDB (EventStoreDB) semantics.
//!
//! Streams with versions from 0; a gap-free global position across all streams (`$all`) in
//! commit order; appends with an expected version; idempotent appends by command id; reads
//! forwards and backwards; live subscriptions that catch up and then follow. The store knows
//! nothing of the rules: payloads are opaque JSON.
//!
//! [`EventStore`] is the backend-agnostic interface; [`SledStore`] the embedded default. The
//! conformance suite in [`conformance`] (feature `conformance`) runs against every backend.
#![deny(missing_docs)]

mod error;
mod types;

pub mod sled_store;
#[cfg(feature = "conformance")]
pub mod conformance;

pub use error::StoreError;
pub use sled_store::SledStore;
pub use types::*;

/// A durable, ordered event log.
///
/// All methods block; async callers run them on a blocking thread pool.
pub trait EventStore: Send + Sync + 'static {
    /// Append events to one stream, atomically, if the stream is at the expected version.
    ///
    /// Returns only after the events are durable. When `request.command_id` was seen before,
    /// returns the first append's result with `replayed: true` and writes nothing.
    fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError>;

    /// Read up to `limit` events of a stream starting at version `from`, in `direction`.
    ///
    /// Backwards from `u64::MAX` reads from the end. A stream that does not exist reads empty.
    fn read_stream(&self, stream: &str, from: u64, direction: Direction, limit: usize) -> Result<Vec<RecordedEvent>, StoreError>;

    /// Read up to `limit` events of `$all` starting at position `from`, forwards.
    fn read_all(&self, from: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError>;

    /// The version of the last event of `stream`, or `None` when the stream does not exist.
    fn stream_version(&self, stream: &str) -> Result<Option<u64>, StoreError>;

    /// The position of the last event in `$all`, or `None` when the log is empty.
    fn head_position(&self) -> Result<Option<u64>, StoreError>;

    /// The command stored with the events it produced, by command id.
    fn stored_command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError>;

    /// A watch on the head position of `$all`, for async live subscriptions.
    fn watch_head(&self) -> tokio::sync::watch::Receiver<Option<u64>>;

    /// A blocking subscription to `$all` that starts at position `from`, catches up and follows.
    fn subscribe_all(&self, from: u64) -> Subscription<'_>
    where
        Self: Sized,
    {
        Subscription::new(self, from)
    }

    /// Keep a secret (a sealed seed) outside the readable log, under `key`.
    fn put_secret(&self, key: &str, value: &[u8]) -> Result<(), StoreError>;

    /// A secret kept with [`EventStore::put_secret`].
    fn get_secret(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;
}

/// A blocking live subscription to `$all`: catches up from a position, then follows new events.
pub struct Subscription<'a> {
    store: &'a dyn EventStore,
    next: u64,
    buffer: std::collections::VecDeque<RecordedEvent>,
    head: tokio::sync::watch::Receiver<Option<u64>>,
}

impl<'a> Subscription<'a> {
    /// Subscribe to `store` from position `from`.
    pub fn new(store: &'a dyn EventStore, from: u64) -> Self {
        Self { store, next: from, buffer: Default::default(), head: store.watch_head() }
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
            let batch = self.store.read_all(self.next, 256)?;
            if !batch.is_empty() {
                self.buffer.extend(batch);
                continue;
            }
            // Caught up: wait for the head to move past what we have read.
            let now = std::time::Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            let wait = (deadline - now).min(std::time::Duration::from_millis(50));
            let moved = self.head.borrow_and_update().is_some_and(|head| head >= self.next);
            if !moved {
                std::thread::sleep(wait);
            }
        }
    }
}
