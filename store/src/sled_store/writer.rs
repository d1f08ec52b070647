//! The single writer thread: group commit of every pending append.
//!
//! One thread owns all writes, so validation reads of committed state cannot race another
//! writer, positions come from an in-memory head with no gaps, and the sled transaction never
//! conflicts. The thread drains the queue, plans each request against the committed state plus
//! the batch's earlier requests ([`super::plan`]), and writes every valid one in one transaction.
//! It then hands the batch to the [`super::flusher`], which flushes once, publishes the durable
//! head and answers, while the writer already commits the next batch: the CPU work of one batch
//! overlaps the disk wait of the previous one.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use super::flusher::{self, Flush};
use super::plan::replay;
use super::{backend, Shared, Trees};
use crate::codec::{encode_command, encode_event, position_key, stream_key};
use crate::plan::{Outcome, Planner};
use crate::{AppendRequest, AppendResult, StoreError, StoredCommand};

/// Most requests one group commit takes, so one huge queue cannot delay every reply forever.
const MAX_REQUESTS: usize = 1024;
/// Most events one group commit takes (a request is never split).
const MAX_EVENTS: usize = 16 * 1024;

/// Where one request's answer goes: a oneshot, whose waiting thread parks at once. (A
/// crossbeam channel's `recv` first spins and yields the CPU up to ten times; with dozens of
/// callers waiting on a group commit those yields took 5% of the server's CPU:
/// docs/PERFORMANCE.md, "The service under load".)
pub(crate) type Reply = oneshot::Sender<Result<AppendResult, StoreError>>;
type Answer = oneshot::Receiver<Result<AppendResult, StoreError>>;

struct Job {
    request: AppendRequest,
    reply: Reply,
}

/// The store's end of the writer: a queue and the threads to join on shutdown.
pub(crate) struct Handle {
    queue: Option<Sender<Job>>,
    threads: Vec<JoinHandle<()>>,
}

impl Handle {
    /// Start the writer; `head` is the last position on disk.
    pub(crate) fn spawn(
        db: sled::Db,
        trees: Trees,
        shared: Arc<Shared>,
        head: Option<u64>,
        syncer: super::sync::Syncer,
    ) -> Result<Self, StoreError> {
        let (queue, jobs) = crossbeam_channel::unbounded();
        let (flushes, flush_jobs) = crossbeam_channel::unbounded();
        let flusher = std::thread::Builder::new()
            .name("herald-store-flusher".into())
            .spawn(move || flusher::run(db, syncer, shared, flush_jobs))
            .map_err(backend)?;
        let writer = Writer { trees, flusher: flushes, next: head.map_or(0, |h| h + 1) };
        // If this spawn fails, `writer` is dropped with it, which closes the flusher's queue.
        let thread = std::thread::Builder::new()
            .name("herald-store-writer".into())
            .spawn(move || writer.run(jobs))
            .map_err(backend)?;
        Ok(Self { queue: Some(queue), threads: vec![thread, flusher] })
    }

    /// Queue an append and wait for its durable result.
    pub(crate) fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError> {
        self.enqueue(request)?.recv().map_err(|_| StoreError::Closed)?
    }

    /// Queue every request, in order (the writer keeps queue order), then wait for each result.
    pub(crate) fn append_many(&self, requests: Vec<AppendRequest>) -> Vec<Result<AppendResult, StoreError>> {
        let answers: Vec<_> = requests.into_iter().map(|request| self.enqueue(request)).collect();
        answers
            .into_iter()
            .map(|answer| answer.and_then(|answer| answer.recv().map_err(|_| StoreError::Closed)?))
            .collect()
    }

    fn enqueue(&self, request: AppendRequest) -> Result<Answer, StoreError> {
        crate::validate::append(&request)?;
        let (reply, answer) = oneshot::channel();
        let queue = self.queue.as_ref().ok_or(StoreError::Closed)?;
        queue.send(Job { request, reply }).map_err(|_| StoreError::Closed)?;
        Ok(answer)
    }

    /// Close the queue, let the writer and flusher answer what is queued, and join them (the
    /// writer first: its exit closes the flusher's queue).
    pub(crate) fn shutdown(mut self) {
        drop(self.queue.take());
        for thread in self.threads.drain(..) {
            if thread.join().is_err() {
                tracing::error!("a herald-store writer thread panicked");
            }
        }
    }
}

struct Writer {
    trees: Trees,
    flusher: Sender<Flush>,
    /// The next `$all` position; advances only once a transaction has committed.
    next: u64,
}

impl Writer {
    fn run(mut self, jobs: Receiver<Job>) {
        while let Ok(first) = jobs.recv() {
            let mut events = first.request.events.len();
            let mut batch = vec![first];
            while batch.len() < MAX_REQUESTS && events < MAX_EVENTS {
                match jobs.try_recv() {
                    Ok(job) => {
                        events += job.request.events.len();
                        batch.push(job);
                    }
                    Err(_) => break,
                }
            }
            self.commit(batch);
        }
    }

    fn commit(&mut self, mut batch: Vec<Job>) {
        let mut planner = Planner::new(&self.trees, self.next);
        let outcomes: Vec<Outcome> = batch
            .iter_mut()
            .map(|job| match planner.plan(&mut job.request) {
                // A repeat of a committed command: its events are read back now, before the
                // batch's own writes, as the first append wrote them.
                Outcome::ReplayCommitted(stored) => Outcome::Done(replay(&self.trees, &stored)),
                outcome => outcome,
            })
            .collect();
        let next = planner.next();
        let wrote = next > self.next;
        let committed = if wrote { self.write(&batch, &outcomes, next) } else { Ok(()) };
        let replies = batch.into_iter().map(|job| job.reply).collect();
        // Every batch goes through the flusher, even one that wrote nothing: its conflicts and
        // replays were judged against earlier batches, which must be durable before anyone
        // hears of them. The flusher only stops if the store is gone.
        let _ = self.flusher.send(Flush { replies, outcomes, committed, wrote, next: self.next });
    }

    /// One transaction for the whole batch; its error is shared by every write in it.
    fn write(&mut self, batch: &[Job], outcomes: &[Outcome], next: u64) -> Result<(), StoreError> {
        let [mut events, mut streams, mut heads, mut commands]: [sled::Batch; 4] = Default::default();
        for (job, outcome) in batch.iter().zip(outcomes) {
            let Outcome::Write(result) = outcome else { continue };
            for event in &result.events {
                let key = position_key(event.position);
                events.insert(&key[..], encode_event(event));
                streams.insert(stream_key(&event.stream, event.version), &key[..]);
            }
            let (Some(first), Some(last)) = (result.events.first(), result.events.last()) else { continue };
            heads.insert(job.request.stream.as_bytes(), &last.version.to_be_bytes()[..]);
            if let Some(command_id) = &job.request.command_id {
                let stored = StoredCommand {
                    command_id: command_id.clone(),
                    stream: job.request.stream.clone(),
                    command: job.request.command.clone(),
                    first_version: first.version,
                    last_version: last.version,
                    first_position: first.position,
                };
                commands.insert(command_id.as_bytes(), encode_command(&stored));
            }
        }
        let t = &self.trees;
        (&t.events, &t.streams, &t.heads, &t.commands)
            .transaction(|(e, s, h, c)| {
                e.apply_batch(&events)?;
                s.apply_batch(&streams)?;
                h.apply_batch(&heads)?;
                c.apply_batch(&commands)?;
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .map_err(|e: TransactionError<()>| backend(format!("append transaction failed: {e:?}")))?;
        // Committed: these positions are taken whatever the flush says, or the next batch would
        // overwrite them.
        self.next = next;
        Ok(())
    }
}
