//! Store errors.

/// Why an append or read failed.
///
/// `Clone` so one failed group commit can report the same error to every request in it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// The stream was not at the expected version; nothing was written.
    #[error("wrong expected version for stream {stream}: expected {expected}, actual {actual:?}")]
    WrongExpectedVersion {
        /// The stream appended to.
        stream: String,
        /// What the caller expected.
        expected: crate::ExpectedVersion,
        /// The stream's actual last version, `None` when it does not exist.
        actual: Option<u64>,
    },
    /// A command id was reused for a different stream.
    ///
    /// Only the stream is compared: a retry of the same command may carry new event ids (the
    /// decider ran again), and it must still get the first result.
    #[error("command id {command_id} was already used for a different append")]
    CommandIdReused {
        /// The reused id.
        command_id: String,
    },
    /// The request itself is unusable (empty event list, bad stream name).
    #[error("invalid append: {0}")]
    Invalid(String),
    /// The backend failed (disk, corruption); the message keeps the cause.
    #[error("storage backend: {0}")]
    Backend(String),
    /// Another process holds the log open (sled allows one process at a time: a running server).
    #[error("the log in {0} is in use by another process (a running herald server?)")]
    Locked(String),
    /// The disk holding the log is full (or over quota): writes are refused, with nothing
    /// recorded, until space is freed; reads go on. Writes resume by themselves.
    #[error("the disk holding the log is full: {0}")]
    StorageFull(String),
    /// The store cannot write for now (its disk failed a write, or it is reconnecting); nothing
    /// was recorded. Retrying later may succeed.
    #[error("the store cannot write for now: {0}")]
    Unavailable(String),
    /// The store is shutting down.
    #[error("the store is closed")]
    Closed,
}
