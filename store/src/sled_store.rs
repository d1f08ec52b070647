//! The sled backend (placeholder: the real implementation is being written).

use std::path::Path;

use crate::*;

/// The embedded sled event store.
pub struct SledStore {
    db: sled::Db,
    head: tokio::sync::watch::Sender<Option<u64>>,
}

impl SledStore {
    /// Open (or create) a store in `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let db = sled::open(path).map_err(|e| StoreError::Backend(e.to_string()))?;
        let (head, _) = tokio::sync::watch::channel(None);
        Ok(Self { db, head })
    }

    /// The underlying sled database (for tools and tamper tests).
    pub fn db(&self) -> &sled::Db {
        &self.db
    }
}

impl EventStore for SledStore {
    fn append(&self, _request: AppendRequest) -> Result<AppendResult, StoreError> {
        Err(StoreError::Closed)
    }
    fn read_stream(&self, _: &str, _: u64, _: Direction, _: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        Ok(vec![])
    }
    fn read_all(&self, _: u64, _: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        Ok(vec![])
    }
    fn stream_version(&self, _: &str) -> Result<Option<u64>, StoreError> {
        Ok(None)
    }
    fn head_position(&self) -> Result<Option<u64>, StoreError> {
        Ok(None)
    }
    fn stored_command(&self, _: &str) -> Result<Option<StoredCommand>, StoreError> {
        Ok(None)
    }
    fn watch_head(&self) -> tokio::sync::watch::Receiver<Option<u64>> {
        self.head.subscribe()
    }
    fn put_secret(&self, _: &str, _: &[u8]) -> Result<(), StoreError> {
        Ok(())
    }
    fn get_secret(&self, _: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(None)
    }
}
