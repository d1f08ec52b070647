//! The single writer thread: group commit of every pending append.
//!
//! One thread owns all writes, so validation reads of committed state cannot race another
//! writer, positions come from an in-memory head with no gaps, and the sled transaction never
//! conflicts. The thread drains the queue, plans each request against the committed state plus
//! the batch's earlier requests ([`super::plan`]), and writes every valid one in one transaction.
//! It then hands the batch to the [`super::flusher`], which flushes once, publishes the durable
//! head and answers, while the writer already commits the next batch: the CPU work of one batch
//! overlaps the disk wait of the previous one.
//!
//! The group commit is pipelined: while one flush is in flight the writer keeps committing what
//! arrives, and the next flush takes all of it. Every request counts itself in [`Asked`] as it is
//! queued, so that when the flusher starts a flush it waits for the requests already asked of
//! the writer at that moment (at most one transaction away) instead of leaving them a whole
//! flush behind. Groups therefore grow with the number of requests waiting, with no fixed
//! delay: a lone writer's append is the only one asked, and is flushed at once.
//!
//! When a write fails (a full disk), the store's `failure` is set: the writer answers every
//! request with it at once, without planning, and every second tries to reopen the log
//! ([`super::recover::resume`]) until it succeeds, when writes resume by themselves.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::flusher::{self, Flush};
use super::plan::replay;
use super::recover::{self, Reopen};
use super::{backend, write_failure, Instance, Shared};
use crate::codec::{encode_command, encode_event, position_key, stream_key};
use crate::plan::{Outcome, Planner};
use crate::{AppendRequest, AppendResult, StoreError, StoredCommand};

/// Most requests one group commit takes, so one huge queue cannot delay every reply forever.
const MAX_REQUESTS: usize = 1024;
/// Most events one group commit takes (a request is never split).
const MAX_EVENTS: usize = 16 * 1024;
/// How often the writer tries to resume while writes fail.
const RETRY: Duration = Duration::from_secs(1);

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

/// How many requests have been queued for the writer so far (counted before each is queued):
/// the flusher compares it with the requests it has been handed to know whether a commit it
/// could still take is under way.
#[derive(Default)]
pub(crate) struct Asked(AtomicU64);

impl Asked {
    /// Requests queued so far.
    pub(crate) fn so_far(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
}

/// The store's end of the writer: a queue and the threads to join on shutdown.
pub(crate) struct Handle {
    queue: Option<Sender<Job>>,
    asked: Arc<Asked>,
    threads: Vec<JoinHandle<()>>,
}

impl Handle {
    /// Start the writer; `head` is the last position on disk.
    pub(crate) fn spawn(shared: Arc<Shared>, head: Option<u64>, reopen: Reopen) -> Result<Self, StoreError> {
        let (queue, jobs) = crossbeam_channel::unbounded();
        let (flushes, flush_jobs) = crossbeam_channel::unbounded();
        let flusher_shared = shared.clone();
        let asked = Arc::new(Asked::default());
        let flusher_asked = asked.clone();
        let flusher = std::thread::Builder::new()
            .name("herald-store-flusher".into())
            .spawn(move || flusher::run(flusher_shared, flush_jobs, &flusher_asked))
            .map_err(backend)?;
        let writer = Writer { shared, reopen, flusher: flushes, next: head.map_or(0, |h| h + 1), last_attempt: None };
        // If this spawn fails, `writer` is dropped with it, which closes the flusher's queue.
        let thread = std::thread::Builder::new()
            .name("herald-store-writer".into())
            .spawn(move || writer.run(jobs))
            .map_err(backend)?;
        Ok(Self { queue: Some(queue), asked, threads: vec![thread, flusher] })
    }

    /// Queue an append and wait for its durable result.
    pub(crate) fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError> {
        self.submit(request)?.wait()
    }

    /// Queue an append; its answer comes once it is durable (or refused).
    pub(crate) fn submit(&self, request: AppendRequest) -> Result<crate::Pending, StoreError> {
        self.enqueue(request).map(crate::Pending::queued)
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
        // Counted before it is queued, so the flusher never sees it handed over uncounted. (A
        // failed send means the writer is gone, and the flusher with it.)
        self.asked.0.fetch_add(1, Ordering::AcqRel);
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
    shared: Arc<Shared>,
    reopen: Reopen,
    flusher: Sender<Flush>,
    /// The next `$all` position; advances only once a transaction has committed.
    next: u64,
    /// When the writer last tried to resume writes.
    last_attempt: Option<Instant>,
}

impl Writer {
    fn run(mut self, jobs: Receiver<Job>) {
        loop {
            let first = if self.shared.failure().is_some() {
                match jobs.recv_timeout(RETRY) {
                    Ok(job) => Some(job),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match jobs.recv() {
                    Ok(job) => Some(job),
                    Err(_) => break,
                }
            };
            if self.shared.failure().is_some() {
                self.try_resume();
            }
            let Some(first) = first else { continue };
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
            match self.shared.failure() {
                // Refused at once, nothing planned: the failed batches' effects are not
                // published, so nothing may be judged against them.
                Some(failure) => self.refuse(batch, &failure),
                None => self.commit(batch),
            }
        }
    }

    /// Whether the log's filesystem has more than the reserve free; if not, writes stop
    /// (`StorageFull`) until it has.
    fn room(&self) -> Result<(), StoreError> {
        let reserve = self.shared.reserve.load(Ordering::Relaxed);
        if reserve == 0 {
            return Ok(());
        }
        let free =
            fs2::available_space(&self.reopen.path).map_err(|e| write_failure("reading the free space failed", &e))?;
        if free >= reserve {
            return Ok(());
        }
        let error = StoreError::StorageFull(format!(
            "{free} bytes free beside the log, below the {reserve} bytes Herald leaves free; this write was not \
             recorded, and writes resume by themselves once space is freed"
        ));
        self.shared.stop_at_reserve(&error);
        Err(error)
    }

    /// Resume writes if the last try was long enough ago: at the reserve, once there is room
    /// again; after sled failed, by reopening the log.
    fn try_resume(&mut self) {
        if self.last_attempt.is_some_and(|at| at.elapsed() < RETRY) {
            return;
        }
        self.last_attempt = Some(Instant::now());
        if self.shared.broken().is_none() {
            let reserve = self.shared.reserve.load(Ordering::Relaxed);
            match fs2::available_space(&self.reopen.path) {
                Ok(free) if free >= reserve => {
                    *self.shared.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
                    self.last_attempt = None;
                    tracing::info!(free_bytes = free, "there is room beside the log again: writes resume");
                }
                Ok(_) => {}
                Err(error) => tracing::debug!(error = %error, "reading the free space failed"),
            }
            return;
        }
        match recover::resume(&self.shared, &self.reopen) {
            Ok(next) => {
                self.next = next;
                self.last_attempt = None;
            }
            Err(error) => tracing::debug!(error = %error, "writes still fail"),
        }
    }

    fn commit(&mut self, mut batch: Vec<Job>) {
        let instance = match self.shared.instance().and_then(|instance| self.room().map(|()| instance)) {
            Ok(instance) => instance,
            Err(error) => return self.refuse(batch, &error),
        };
        let generation = self.shared.generation.load(Ordering::Acquire);
        let mut planner = Planner::new(&instance.trees, self.next);
        let outcomes: Vec<Outcome> = batch
            .iter_mut()
            .map(|job| match planner.plan(&mut job.request) {
                // A repeat of a committed command: its events are read back now, before the
                // batch's own writes, as the first append wrote them.
                Outcome::ReplayCommitted(stored) => Outcome::Done(replay(&instance.trees, &stored)),
                outcome => outcome,
            })
            .collect();
        let next = planner.next();
        let wrote = next > self.next;
        let committed = if wrote { self.write(&instance, &batch, &outcomes, next) } else { Ok(()) };
        if let Err(error) = &committed {
            self.shared.fail(error);
        }
        let replies = batch.into_iter().map(|job| job.reply).collect();
        // Every batch goes through the flusher, even one that wrote nothing: its conflicts and
        // replays were judged against earlier batches, which must be durable before anyone
        // hears of them. The flusher only stops if the store is gone.
        let _ =
            self.flusher.send(Flush { replies, outcomes, committed, wrote, next: self.next, generation, refused: 0 });
    }

    /// Answer every request of `batch` with `error` at once, and tell the flusher they were
    /// handled, so that it does not wait for them.
    fn refuse(&self, batch: Vec<Job>, error: &StoreError) {
        let refused = batch.len();
        batch.into_iter().for_each(|job| drop(job.reply.send(Err(error.clone()))));
        let generation = self.shared.generation.load(Ordering::Acquire);
        let _ = self.flusher.send(Flush {
            replies: Vec::new(),
            outcomes: Vec::new(),
            committed: Ok(()),
            wrote: false,
            next: self.next,
            generation,
            refused,
        });
    }

    /// One transaction for the whole batch; its error is shared by every write in it.
    fn write(&mut self, instance: &Instance, batch: &[Job], outcomes: &[Outcome], next: u64) -> Result<(), StoreError> {
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
        super::apply_to_log(&instance.trees, &[events, streams, heads, commands], "the append's transaction")?;
        // Committed: these positions are taken whatever the flush says, or the next batch would
        // overwrite them.
        self.next = next;
        Ok(())
    }
}
