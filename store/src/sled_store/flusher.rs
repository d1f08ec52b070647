//! The flusher thread: makes committed batches durable, publishes the head, answers.
//!
//! Batches arrive in commit order. The flusher takes every batch waiting, and waits for the
//! requests already asked of the writer when it starts (a commit under way, at most one
//! transaction long: [`super::writer::Asked`]; never for requests asked later, so a steady stream
//! cannot hold it back), flushes once for all of them (sled's flush covers everything committed before it started) and syncs the files
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

use super::writer::{Asked, Reply};
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
    /// How many requests the writer refused at once, without planning (writes were failing):
    /// such a batch has no replies and publishes nothing; it only tells the flusher that those
    /// requests were answered.
    pub(crate) refused: usize,
}

impl Flush {
    /// How many of the requests asked of the writer this batch accounts for.
    fn requests(&self) -> u64 {
        (self.replies.len() + self.refused) as u64
    }
}

/// Run until the writer closes the queue.
pub(crate) fn run(shared: Arc<Shared>, batches: Receiver<Flush>, asked: &Asked) {
    // Requests accounted for so far by the batches received.
    let mut handed = 0u64;
    while let Ok(first) = batches.recv() {
        let mut group = vec![first];
        group.extend(batches.try_iter());
        handed += group.iter().map(Flush::requests).sum::<u64>();
        // Pipelined group commit: the requests asked of the writer before this flush starts are
        // being committed (or queued for the commit under way); waiting for that commit costs
        // them less than waiting for the whole next flush, and the flush's fixed cost is shared
        // by more. Only those: what is asked later waits for the next flush. The writer hands
        // over every request it takes (committed or refused), so this ends; it is skipped while
        // writes fail. Done before the instance is taken, which a reopen waits for.
        let target = asked.so_far();
        while handed < target && shared.failure().is_none() {
            let Ok(next) = batches.recv() else { break };
            handed += next.requests();
            group.push(next);
            let more = group.len();
            group.extend(batches.try_iter());
            handed += group[more..].iter().map(Flush::requests).sum::<u64>();
        }
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
            let current = group.iter().filter(|flush| flush.generation == generation && flush.refused == 0);
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
