//! The flusher thread: makes committed batches durable, publishes the head, answers.
//!
//! Batches arrive in commit order. The flusher takes every batch waiting, flushes once for all
//! of them (sled's flush covers everything committed before it started) and syncs the files
//! (`super::sync`: an `fsync`, so the batch survives a power loss), then publishes the
//! durable head to readers and answers each request. Answering in commit order after the flush
//! is what makes an acknowledgement mean "durable", including for conflicts and replays judged
//! against earlier, not yet durable, batches.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crossbeam_channel::Receiver;

use super::sync::Syncer;
use super::writer::Reply;
use super::Shared;
use crate::plan::{self, Outcome};
use crate::StoreError;

/// One planned and committed batch, waiting for its flush.
pub(crate) struct Flush {
    /// Each request's answer channel, in batch order.
    pub(crate) replies: Vec<Reply>,
    /// Each request's outcome, in batch order.
    pub(crate) outcomes: Vec<Outcome>,
    /// Whether the batch's transaction committed.
    pub(crate) committed: Result<(), StoreError>,
    /// Whether the batch wrote anything (else it needs no flush of its own).
    pub(crate) wrote: bool,
    /// The next free position after this batch: its durable end once flushed.
    pub(crate) next: u64,
}

/// Run until the writer closes the queue.
pub(crate) fn run(db: sled::Db, mut syncer: Syncer, shared: Arc<Shared>, batches: Receiver<Flush>) {
    while let Ok(first) = batches.recv() {
        let mut group = vec![first];
        group.extend(batches.try_iter());
        let flushed = if group.iter().any(|flush| flush.wrote && flush.committed.is_ok()) {
            let started = std::time::Instant::now();
            let flushed = db
                .flush()
                .map(drop)
                .map_err(|e| StoreError::Backend(format!("flush failed, durability unknown: {e}")))
                .and_then(|()| {
                    syncer.sync().map_err(|e| StoreError::Backend(format!("fsync failed, durability unknown: {e}")))
                });
            let appends = group.iter().map(|flush| flush.replies.len()).sum();
            shared.commits.report(crate::GroupCommit { duration: started.elapsed(), appends });
            flushed
        } else {
            Ok(())
        };
        // Publish even after a failed flush: the events are committed and readable in sled, and
        // later batches will publish past them anyway.
        if let Some(end) = group.iter().map(|flush| flush.next).max() {
            if end > shared.visible.load(Ordering::Acquire) {
                shared.visible.store(end, Ordering::Release);
                shared.head.send_replace(end.checked_sub(1));
            }
        }
        for flush in group {
            let written = flush.committed.and_then(|()| flushed.clone());
            for (reply, result) in flush.replies.into_iter().zip(plan::resolve(flush.outcomes, written, [])) {
                // The caller may have gone away; its append is committed all the same.
                let _ = reply.send(result);
            }
        }
    }
}
