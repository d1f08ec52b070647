//! The store's own tokio runtime, and blocking on it from any thread.
//!
//! [`crate::EventStore`] is blocking and is called from plain threads, blocking pools and async
//! executors' threads alike. `Runtime::block_on` panics on an executor's thread, so each call is
//! spawned onto the store's runtime and its result awaited on a standard channel instead, which
//! blocks the calling thread only (as a sled read would).

use std::future::Future;

use crate::StoreError;

/// A small multi-threaded runtime owned by one store; shut down without waiting when dropped
/// (dropping a runtime the usual way panics inside an async context).
pub(crate) struct Runtime(Option<tokio::runtime::Runtime>);

impl Runtime {
    pub(crate) fn new() -> Result<Self, StoreError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("herald-postgres")
            .enable_all()
            .build()
            .map_err(|error| StoreError::Backend(format!("cannot start the postgres runtime: {error}")))?;
        Ok(Self(Some(runtime)))
    }

    /// Run `future` on the store's runtime and wait for its result on this thread.
    pub(crate) fn block_on<T: Send + 'static>(
        &self,
        future: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        self.spawn(async move {
            let _ = reply.send(future.await);
        })?;
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    /// Start `future` on the store's runtime.
    pub(crate) fn spawn(
        &self,
        future: impl Future<Output = ()> + Send + 'static,
    ) -> Result<tokio::task::JoinHandle<()>, StoreError> {
        Ok(self.0.as_ref().ok_or(StoreError::Closed)?.spawn(future))
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}
