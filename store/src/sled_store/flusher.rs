//! The flusher thread: makes committed batches durable, publishes the head, answers.
//!
//! Batches arrive in commit order. The flusher takes every batch waiting, flushes once for all
//! of them (sled's flush covers everything committed before it started) and syncs the files
//! (`super::sync`: an `fsync`, so the batch survives a power loss), then publishes the
//! durable head to readers and answers each request. Answering in commit order after the flush
//! is what makes an acknowledgement mean "durable", including for conflicts and replays judged
//! against earlier, not yet durable, batches.
//!
//! A failed flush or sync (a full disk) publishes nothing: the batches' events stay invisible,
//! every request of the group is answered with the failure, and the store's `failure` is set,
//! so that the writer refuses what follows and reopens the log (dropping those events) once it
//! can. A batch committed in a database since replaced (its `generation` is older) is answered
//! as failed too, and never published.

use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

use crossbeam_channel::Receiver;

use super::writer::Reply;
use super::{sled_write_failure, write_failure, Shared};
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
    /// The generation of the database the batch was committed in.
    pub(crate) generation: u64,
}

/// Run until the writer closes the queue.
pub(crate) fn run(shared: Arc<Shared>, batches: Receiver<Flush>) {
    while let Ok(first) = batches.recv() {
        let mut group = vec![first];
        group.extend(batches.try_iter());
        // Held until the group is published: the writer cannot reopen the log meanwhile.
        let instance = shared.instance();
        let generation = shared.generation.load(Ordering::Acquire);
        let flushed = match (&instance, shared.broken()) {
            (_, Some(failure)) => Err(failure),
            (Err(error), None) => Err(error.clone()),
            (Ok(instance), None) => {
                if group.iter().any(|flush| flush.generation == generation && flush.wrote && flush.committed.is_ok()) {
                    let started = std::time::Instant::now();
                    let flushed = instance
                        .db
                        .flush()
                        .map(drop)
                        .map_err(|e| sled_write_failure("flushing the log failed", &e))
                        .and_then(|()| {
                            let mut syncer = instance.syncer.lock().unwrap_or_else(PoisonError::into_inner);
                            syncer.sync().map_err(|e| write_failure("syncing the log failed", &e))
                        });
                    let appends = group.iter().map(|flush| flush.replies.len()).sum();
                    shared.commits.report(crate::GroupCommit { duration: started.elapsed(), appends });
                    if let Err(error) = &flushed {
                        shared.fail(error);
                    }
                    flushed
                } else {
                    Ok(())
                }
            }
        };
        // Publish only what is durable, of the database still open, while writes succeed.
        if flushed.is_ok() {
            let current = group.iter().filter(|flush| flush.generation == generation);
            if let Some(end) = current.map(|flush| flush.next).max() {
                if end > shared.visible.load(Ordering::Acquire) {
                    shared.visible.store(end, Ordering::Release);
                    shared.head.send_replace(end.checked_sub(1));
                }
            }
        }
        drop(instance);
        for flush in group {
            let written = if flush.generation == generation {
                flush.committed.and_then(|()| flushed.clone())
            } else {
                Err(StoreError::Unavailable(
                    "the log was reopened after a storage failure; this write was not recorded".into(),
                ))
            };
            let results = match written {
                // The group failed: conflicts and replays judged against it fail too.
                Err(error) => flush.replies.iter().map(|_| Err(error.clone())).collect(),
                written => plan::resolve(flush.outcomes, written, []),
            };
            for (reply, result) in flush.replies.into_iter().zip(results) {
                // The caller may have gone away; its append is committed all the same.
                let _ = reply.send(result);
            }
        }
    }
}
