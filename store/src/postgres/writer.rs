//! The writer: group commit of every pending append in one transaction under the head lock.
//!
//! One thread per store, with a connection of its own whose IO it drives on a current-thread
//! runtime, so a round trip wakes no other thread (docs/adr/0009-postgres-writer-thread.md),
//! takes every request waiting and commits them in one transaction, one WAL flush for the whole
//! batch, in one of two ways (docs/adr/0007-postgres-one-flight-append.md):
//!
//! - **One flight**, the common case: the writer knows the `$all` head its own last transaction
//!   left and the heads of the streams it touched ([`super::known`]), so it plans the batch
//!   before sending anything and sends it as one statement, a transaction of its own, in one
//!   round trip ([`FLIGHT`]; docs/adr/0009): the head claim (the head row moved on from the
//!   position it believes, which takes the row lock and fails the statement if the head is
//!   anywhere else), the events, the stream heads, the commands, the notify; the server answers
//!   once it has committed. Any other process's append moves the head, so the claim fails
//!   exactly when the knowledge may be stale; a repeated command id fails the commands insert
//!   on its primary key, and a "new" stream that has events fails on `UNIQUE (stream, version)`.
//!   Those three refusals, and nothing else, send the same batch the second way.
//! - **Two flights**, from what is committed: `BEGIN`, lock the head row, read the batch's
//!   stream heads and command ids (statements that start after the lock is held, so they see
//!   every append committed before it); plan ([`super::plan`]); then write events, heads and
//!   commands, move the head, notify, and commit. A cold writer, a stream it does not know, a
//!   head heard to have moved, a conflict or a repeat go this way, and it teaches the writer
//!   what it read.
//!
//! Positions are assigned under the head row's lock either way (docs/adr/0001). The head watch
//! moves before anyone is answered.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::watch;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls};

use super::known::{self, Known};
use super::plan::Committed;
use super::rows::{self, command_columns, event_columns};
use super::{backend, to_i64};
use crate::plan::{self as planning, Outcome, Planner};
use crate::{AppendRequest, AppendResult, Payload, RecordedEvent, StoreError};

/// Most requests one group commit takes, so one huge queue cannot delay every reply forever.
const MAX_REQUESTS: usize = 1024;
/// Most events one group commit takes (a request is never split).
const MAX_EVENTS: usize = 16 * 1024;
/// How long dropping the store waits for the writer to answer what is queued.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);
/// How long the writer tries to (re)connect before it answers the batch that the database
/// cannot be reached (what the connection pool allowed before the writer had its own).
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// A oneshot, as in the sled writer: the waiting caller parks at once instead of spinning.
type Reply = oneshot::Sender<Result<AppendResult, StoreError>>;

struct Job {
    request: AppendRequest,
    reply: Reply,
}

/// How a PostgreSQL store's group commits went since it connected
/// ([`super::PostgresStore::write_paths`]; docs/adr/0007): each batch that reached the database
/// is counted once.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WritePaths {
    /// Committed in one flight, planned from what the writer knew.
    pub one_flight: u64,
    /// Sent in one flight, refused (the head had moved, a command id was a repeat, a new stream
    /// was not new), then planned again and committed the two-flight way.
    pub fell_back: u64,
    /// Planned from what was committed, without trying one flight first.
    pub two_flights: u64,
}

#[derive(Default)]
struct Paths {
    one_flight: AtomicU64,
    fell_back: AtomicU64,
    two_flights: AtomicU64,
}

/// The store's end of the writer: its queue, and a signal that it has finished.
pub(crate) struct Handle {
    queue: Option<crossbeam_channel::Sender<Job>>,
    finished: crossbeam_channel::Receiver<()>,
    paths: Arc<Paths>,
}

impl Handle {
    /// Start the writer on a thread of its own, connecting with `config` (docs/adr/0009).
    pub(crate) fn spawn(
        config: tokio_postgres::Config,
        channel: String,
        head: Arc<watch::Sender<Option<u64>>>,
        commits: crate::CommitObservers,
        health: Arc<super::health::Health>,
    ) -> Result<Self, StoreError> {
        // One thread drives everything an append does: its own connection's IO (the connection
        // task runs on this runtime, polled only while the writer blocks on it), the writer's
        // plan and its replies. A round trip wakes no other thread.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| StoreError::Backend(format!("cannot start the postgres writer's runtime: {error}")))?;
        let (queue, jobs) = crossbeam_channel::unbounded();
        let (finish, finished) = crossbeam_channel::bounded(1);
        let paths = Arc::new(Paths::default());
        let counted = paths.clone();
        let writer = Writer { runtime, config, channel, head, commits, health, paths: counted, session: None };
        std::thread::Builder::new()
            .name("herald-pg-writer".into())
            .spawn(move || {
                writer.run(jobs);
                let _ = finish.send(());
            })
            .map_err(|error| StoreError::Backend(format!("cannot start the postgres writer: {error}")))?;
        Ok(Self { queue: Some(queue), finished, paths })
    }

    /// How the group commits went so far.
    pub(crate) fn paths(&self) -> WritePaths {
        WritePaths {
            one_flight: self.paths.one_flight.load(Ordering::Relaxed),
            fell_back: self.paths.fell_back.load(Ordering::Relaxed),
            two_flights: self.paths.two_flights.load(Ordering::Relaxed),
        }
    }

    /// Queue an append and wait for its committed result.
    pub(crate) fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError> {
        self.submit(request)?.wait()
    }

    /// Queue an append; its answer comes once it is durable (or refused).
    pub(crate) fn submit(&self, request: AppendRequest) -> Result<crate::Pending, StoreError> {
        self.enqueue(request).map(crate::Pending::queued)
    }

    /// Queue every request, in order, then wait for each result.
    pub(crate) fn append_many(&self, requests: Vec<AppendRequest>) -> Vec<Result<AppendResult, StoreError>> {
        let answers: Vec<_> = requests.into_iter().map(|request| self.enqueue(request)).collect();
        answers
            .into_iter()
            .map(|answer| answer.and_then(|answer| answer.recv().map_err(|_| StoreError::Closed)?))
            .collect()
    }

    fn enqueue(
        &self,
        request: AppendRequest,
    ) -> Result<oneshot::Receiver<Result<AppendResult, StoreError>>, StoreError> {
        crate::validate::append_without_nul(&request)?;
        let (reply, answer) = oneshot::channel();
        let queue = self.queue.as_ref().ok_or(StoreError::Closed)?;
        queue.send(Job { request, reply }).map_err(|_| StoreError::Closed)?;
        Ok(answer)
    }

    /// Close the queue and wait (a while) for the writer to answer what is queued.
    pub(crate) fn shutdown(mut self) {
        drop(self.queue.take());
        if self.finished.recv_timeout(SHUTDOWN_WAIT).is_err() {
            tracing::warn!("the postgres writer did not finish its queue in time");
        }
    }
}

/// The writer's connection and its statements, prepared once per connection.
struct Session {
    client: Client,
    statements: Statements,
}

/// Everything the writer thread owns.
struct Writer {
    /// A current-thread runtime: the writer's thread blocks on it for each group commit, and
    /// the connection's task runs on it then.
    runtime: tokio::runtime::Runtime,
    config: tokio_postgres::Config,
    channel: String,
    head: Arc<watch::Sender<Option<u64>>>,
    commits: crate::CommitObservers,
    health: Arc<super::health::Health>,
    paths: Arc<Paths>,
    /// The connection, while it holds; `None` before the first batch and after a failure
    /// that lost it (the next batch connects anew).
    session: Option<Session>,
}

impl Writer {
    /// Take every job waiting as one batch, commit it, answer it; until the queue is closed
    /// and empty.
    fn run(mut self, jobs: crossbeam_channel::Receiver<Job>) {
        let mut known = Known::default();
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
            let (mut requests, replies): (Vec<AppendRequest>, Vec<Reply>) =
                batch.into_iter().map(|job| (job.request, job.reply)).unzip();
            let started = std::time::Instant::now();
            // While the database is away the batch is answered with why at once, until the
            // backoff says to try again (`health`); the writer then connects anew.
            let committed = match self.health.gate() {
                Ok(()) => {
                    // The last position this process heard of: past what `known` left means
                    // another process appended since.
                    let heard = *self.head.borrow();
                    let Self { runtime, config, channel, paths, session, .. } = &mut self;
                    runtime.block_on(commit(session, config, channel, &mut requests, &mut known, heard, paths))
                }
                Err(away) => Err(away),
            };
            self.health.note(&committed);
            let (results, last) = match committed {
                Ok(done) => done,
                Err(error) => (requests.iter().map(|_| Err(error.clone())).collect(), None),
            };
            if last.is_some() {
                self.commits.report(crate::GroupCommit { duration: started.elapsed(), appends: requests.len() });
                super::listener::publish(&self.head, last);
            }
            for (reply, result) in replies.into_iter().zip(results) {
                // The caller may have gone away; its append is committed all the same.
                let _ = reply.send(result);
            }
        }
        // Lets the connection's task send its goodbye before the runtime goes.
        drop(self.session.take());
        self.runtime.block_on(tokio::task::yield_now());
    }
}

/// A new connection for the writer, its task spawned on the writer's runtime.
async fn connect(config: &tokio_postgres::Config) -> Result<Session, StoreError> {
    let connecting = async {
        let (client, connection) = config.connect(NoTls).await.map_err(backend)?;
        tokio::spawn(async move {
            // Its error reaches the client as a closed connection, which the writer reports.
            let _ = connection.await;
        });
        // The one flight is a long statement the server would otherwise plan anew at each
        // execution (a custom plan for each set of arrays): planned once, it costs no more than
        // the seven short ones did (docs/adr/0009). A server without the setting (before
        // PostgreSQL 12) plans as it does; nothing else depends on it.
        let _ = client.batch_execute("SET plan_cache_mode = force_generic_plan").await;
        let statements = Statements::prepare(&client).await?;
        Ok(Session { client, statements })
    };
    match tokio::time::timeout(CONNECT_WAIT, connecting).await {
        Ok(session) => session,
        Err(_) => Err(StoreError::Unavailable(format!(
            "the database cannot be reached (no connection within {CONNECT_WAIT:?})"
        ))),
    }
}

/// Each request's result and, when the batch wrote, the last position it wrote.
type Committing = (Vec<Result<AppendResult, StoreError>>, Option<u64>);

/// One transaction for the batch: one flight when `known` allows, else (or when that flight is
/// refused) two. On any error the writer forgets what it knew and the connection is rolled back
/// (or dropped, and the next batch connects anew), so no batch starts inside a transaction.
async fn commit(
    session: &mut Option<Session>,
    config: &tokio_postgres::Config,
    channel: &str,
    requests: &mut [AppendRequest],
    known: &mut Known,
    heard: Option<u64>,
    paths: &Paths,
) -> Result<Committing, StoreError> {
    let live = match session.take() {
        Some(live) if !live.client.is_closed() => live,
        _ => connect(config).await?,
    };
    let Session { client, statements } = session.insert(live);
    let result = async {
        let mut counter = &paths.two_flights;
        if let Some(next) = known.fast_next(requests, heard) {
            match one_flight(client, statements, channel, requests, next, known).await? {
                Flown::Committed(done) => {
                    paths.one_flight.fetch_add(1, Ordering::Relaxed);
                    return Ok(done);
                }
                Flown::Refused => counter = &paths.fell_back,
                Flown::NotSent => {}
            }
        }
        let done = transaction(client, statements, channel, requests, known).await?;
        counter.fetch_add(1, Ordering::Relaxed);
        Ok(done)
    }
    .await;
    if result.is_err() {
        known.forget();
        if client.batch_execute("ROLLBACK").await.is_err() {
            *session = None;
        }
    }
    result
}

/// What became of a batch offered to [`one_flight`].
enum Flown {
    /// Committed: each request's result.
    Committed(Committing),
    /// Sent and refused by the database (the head had moved, a command id was committed
    /// before, a new stream had events): nothing recorded, the transaction over, the requests'
    /// events given back; plan again from what is committed.
    Refused,
    /// Not sent: the plan has a conflict or a refusal to judge from what is committed (events
    /// given back), or nothing to write.
    NotSent,
}

/// The batch planned from `known` (the head at `next`) and sent in one flight, one statement.
async fn one_flight(
    client: &Client,
    statements: &Statements,
    channel: &str,
    requests: &mut [AppendRequest],
    next: u64,
    known: &mut Known,
) -> Result<Flown, StoreError> {
    let mut planner = Planner::new(&*known, next);
    let outcomes: Vec<Outcome> = requests.iter_mut().map(|request| planner.plan(request)).collect();
    let (after, heads) = (planner.next(), planner.written_heads().clone());
    drop(planner);
    if after == next || !known::all_writes(&outcomes) {
        known::restore(requests, outcomes);
        return Ok(Flown::NotSent);
    }
    let flight = {
        let writes: Vec<(&AppendRequest, &AppendResult)> = requests
            .iter()
            .zip(&outcomes)
            .filter_map(|(request, outcome)| match outcome {
                Outcome::Write(result) => Some((request, result)),
                _ => None,
            })
            .collect();
        let written = Written::new(&writes, &heads);
        let (expected, moved_to) = (to_i64(next), to_i64(after));
        let last_text = (after - 1).to_string();
        let (events, stream_heads, commands) = (written.events(), written.heads(), written.commands());
        let mut params: Vec<&(dyn ToSql + Sync)> = Vec::with_capacity(26);
        params.extend([&expected as &(dyn ToSql + Sync), &moved_to]);
        params.extend(events);
        params.extend(stream_heads);
        params.extend(commands);
        params.extend([&channel as &(dyn ToSql + Sync), &last_text]);
        // One statement, so one transaction of its own, committed (and flushed) before the
        // server answers, in one message each way (docs/adr/0009).
        client.execute(&statements.flight, &params).await
    };
    match flight {
        Ok(1) => {
            known.advance(&heads, after);
            let results = planning::resolve(outcomes, Ok(()), Vec::new());
            Ok(Flown::Committed((results, Some(after - 1))))
        }
        Err(error) if refused(&error) => {
            // The statement failed, so nothing of it is recorded.
            known::restore(requests, outcomes);
            Ok(Flown::Refused)
        }
        // A connection lost here may have lost it after the commit was applied: never an
        // acknowledgement, and the answer says how to learn the outcome.
        Err(error) => Err(failed_append(backend(error))),
        // No head row to claim, so nothing was written.
        Ok(_) => Err(StoreError::Backend("append transaction failed: the $all head row is missing".into())),
    }
}

/// Whether the one flight failed on one of the refusals that mean "plan again from
/// what is committed": the head claim found the head elsewhere (its `CASE` sets -1, which the
/// table's `CHECK (next_position >= 0)` refuses), or a unique key of the events or commands
/// (a "new" stream with events, a command id committed before). Anything else is an error.
fn refused(error: &tokio_postgres::Error) -> bool {
    let Some(db) = error.as_db_error() else { return false };
    let code = db.code();
    (*code == SqlState::CHECK_VIOLATION && db.table() == Some("herald_head"))
        || (*code == SqlState::UNIQUE_VIOLATION && matches!(db.table(), Some("herald_events" | "herald_commands")))
}

/// A write transaction's failure as answered: commit outcome unknown when the connection was
/// lost ([`super::errors::commit_unknown`]).
fn failed_append(error: StoreError) -> StoreError {
    match super::errors::commit_unknown(error) {
        StoreError::Backend(message) => StoreError::Backend(format!("append transaction failed: {message}")),
        other => other,
    }
}

/// The two-flight transaction: the committed state read under the head lock, then the writes.
async fn transaction(
    client: &Client,
    statements: &Statements,
    channel: &str,
    requests: &mut [AppendRequest],
    known: &mut Known,
) -> Result<Committing, StoreError> {
    let mut streams: Vec<&str> = requests.iter().map(|request| request.stream.as_str()).collect();
    streams.sort_unstable();
    streams.dedup();
    let command_ids: Vec<&str> = requests.iter().filter_map(|request| request.command_id.as_deref()).collect();

    // Pipelined: the reads run after the lock is granted, each with a snapshot that includes
    // every append committed before it.
    let (command_params, stream_params): ([&(dyn ToSql + Sync); 1], [&(dyn ToSql + Sync); 1]) =
        ([&command_ids], [&streams]);
    // `biased`: polled, and so sent, in this order; the first failure is the cause, the rest
    // only report the aborted transaction.
    let (begun, head, committed_commands, heads) = tokio::join!(
        biased;
        client.batch_execute("BEGIN"),
        client.query_one(&statements.lock_head, &[]),
        client.query(&statements.commands, &command_params),
        client.query(&statements.heads, &stream_params),
    );
    begun.map_err(backend)?;
    let (head, committed_commands, heads) =
        (head.map_err(backend)?, committed_commands.map_err(backend)?, heads.map_err(backend)?);
    let next: i64 = head.try_get(0).map_err(backend)?;
    let next = u64::try_from(next).map_err(|_| StoreError::Backend(format!("the $all head is {next}")))?;
    let mut committed = Committed { heads: Default::default(), commands: Default::default() };
    for row in &heads {
        let (stream, version): (String, i64) = (row.try_get(0).map_err(backend)?, row.try_get(1).map_err(backend)?);
        let version = u64::try_from(version).map_err(|_| StoreError::Backend(format!("{stream} at {version}")))?;
        committed.heads.insert(stream, version);
    }
    for row in &committed_commands {
        let command = rows::command(row)?;
        committed.commands.insert(command.command_id.clone(), command);
    }

    let found = committed.heads.clone();
    let mut planner = Planner::new(committed, next);
    let outcomes: Vec<Outcome> = requests.iter_mut().map(|request| planner.plan(request)).collect();
    let writes: Vec<(&AppendRequest, &AppendResult)> = requests
        .iter()
        .zip(&outcomes)
        .filter_map(|(request, outcome)| match outcome {
            Outcome::Write(result) => Some((request, result)),
            _ => None,
        })
        .collect();
    let wrote = !writes.is_empty();
    if wrote {
        let written = Written::new(&writes, planner.written_heads());
        let last = planner.next() - 1;
        let head_after = to_i64(planner.next());
        let last_text = last.to_string();
        let (events, heads, commands) = (written.events(), written.heads(), written.commands());
        let (head_param, notify): ([&(dyn ToSql + Sync); 1], [&(dyn ToSql + Sync); 2]) =
            ([&head_after], [&channel, &last_text]);
        let written = tokio::join!(
            biased;
            client.execute(&statements.insert_events, &events),
            client.execute(&statements.upsert_heads, &heads),
            client.execute(&statements.insert_commands, &commands),
            client.execute(&statements.set_head, &head_param),
            client.execute(&statements.notify, &notify),
            // After a failed statement COMMIT answers ROLLBACK without an error: the first
            // failure above is what is reported.
            client.batch_execute("COMMIT"),
        );
        let failed = [written.0, written.1, written.2, written.3, written.4].into_iter().find_map(Result::err);
        if let Some(error) = failed.or(written.5.err()) {
            // A connection lost here may have lost it after the COMMIT was applied: never an
            // acknowledgement, and the answer says how to learn the outcome.
            return Err(failed_append(backend(error)));
        }
    }
    // Repeats of commands committed before this batch: their events, as first written.
    let mut replays = Vec::new();
    for outcome in &outcomes {
        if let Outcome::ReplayCommitted(stored) = outcome {
            let to = stored.first_position.saturating_add(stored.last_version.saturating_sub(stored.first_version));
            let rows = client
                .query(&statements.events_between, &[&to_i64(stored.first_position), &to_i64(to)])
                .await
                // After this batch's COMMIT: its writes are recorded, and not acknowledged.
                .map_err(|error| if wrote { super::errors::commit_unknown(backend(error)) } else { backend(error) })?;
            let events = rows.iter().map(rows::event).collect::<Result<Vec<RecordedEvent>, _>>()?;
            replays.push(Ok(AppendResult { events, stream_version: stored.last_version, replayed: true }));
        }
    }
    if !wrote {
        client.batch_execute("COMMIT").await.map_err(backend)?;
    }
    let batch: Vec<&str> = requests.iter().map(|request| request.stream.as_str()).collect();
    known.learn(next, &batch, &found, planner.written_heads(), planner.next());
    let results = planning::resolve(outcomes, Ok(()), replays);
    Ok((results, wrote.then(|| planner.next() - 1)))
}

/// The batch's writes as column arrays, one parameter per column (`UNNEST` inserts them all in
/// one statement).
struct Written<'a> {
    positions: Vec<i64>,
    streams: Vec<&'a str>,
    versions: Vec<i64>,
    ids: Vec<uuid::Uuid>,
    types: Vec<&'a str>,
    schemas: Vec<i64>,
    recorded_at: Vec<DateTime<Utc>>,
    recorded_nanos: Vec<i32>,
    actors: Vec<&'a str>,
    command_ids: Vec<Option<&'a str>>,
    correlation_ids: Vec<Option<&'a str>>,
    causation_ids: Vec<Option<&'a str>>,
    rules: Vec<&'a str>,
    data: Vec<&'a str>,
    head_streams: Vec<&'a str>,
    head_versions: Vec<i64>,
    commands: Commands<'a>,
}

#[derive(Default)]
struct Commands<'a> {
    ids: Vec<&'a str>,
    streams: Vec<&'a str>,
    bodies: Vec<Option<&'a str>>,
    first_versions: Vec<i64>,
    last_versions: Vec<i64>,
    first_positions: Vec<i64>,
}

impl<'a> Written<'a> {
    /// The parameters of `insert_events`.
    fn events(&self) -> [&(dyn ToSql + Sync); 14] {
        [
            &self.positions,
            &self.streams,
            &self.versions,
            &self.ids,
            &self.types,
            &self.schemas,
            &self.recorded_at,
            &self.recorded_nanos,
            &self.actors,
            &self.command_ids,
            &self.correlation_ids,
            &self.causation_ids,
            &self.rules,
            &self.data,
        ]
    }

    /// The parameters of `upsert_heads`.
    fn heads(&self) -> [&(dyn ToSql + Sync); 2] {
        [&self.head_streams, &self.head_versions]
    }

    /// The parameters of `insert_commands`.
    fn commands(&self) -> [&(dyn ToSql + Sync); 6] {
        [
            &self.commands.ids,
            &self.commands.streams,
            &self.commands.bodies,
            &self.commands.first_versions,
            &self.commands.last_versions,
            &self.commands.first_positions,
        ]
    }

    /// The columns of `writes`, each a request (its events already moved into its result) and
    /// what it writes; `heads` are the written streams' last versions.
    fn new(
        writes: &[(&'a AppendRequest, &'a AppendResult)],
        heads: &'a std::collections::HashMap<String, u64>,
    ) -> Self {
        let count = writes.iter().map(|(_, result)| result.events.len()).sum();
        let mut written = Self {
            positions: Vec::with_capacity(count),
            streams: Vec::with_capacity(count),
            versions: Vec::with_capacity(count),
            ids: Vec::with_capacity(count),
            types: Vec::with_capacity(count),
            schemas: Vec::with_capacity(count),
            recorded_at: Vec::with_capacity(count),
            recorded_nanos: Vec::with_capacity(count),
            actors: Vec::with_capacity(count),
            command_ids: Vec::with_capacity(count),
            correlation_ids: Vec::with_capacity(count),
            causation_ids: Vec::with_capacity(count),
            rules: Vec::with_capacity(count),
            data: Vec::with_capacity(count),
            head_streams: heads.keys().map(String::as_str).collect(),
            head_versions: heads.values().map(|version| to_i64(*version)).collect(),
            commands: Commands::default(),
        };
        for event in writes.iter().flat_map(|(_, result)| &result.events) {
            written.positions.push(to_i64(event.position));
            written.streams.push(&event.stream);
            written.versions.push(to_i64(event.version));
            written.ids.push(event.id);
            written.types.push(&event.event_type);
            written.schemas.push(i64::from(event.schema));
            written.recorded_at.push(rows::micros(event.recorded_at));
            written.recorded_nanos.push(rows::nanos(event.recorded_at));
            written.actors.push(&event.actor);
            written.command_ids.push(event.command_id.as_deref());
            written.correlation_ids.push(event.correlation_id.as_deref());
            written.causation_ids.push(event.causation_id.as_deref());
            written.rules.push(&event.rules);
            written.data.push(event.data.get());
        }
        for (request, result) in writes {
            let (Some(command_id), Some(first), Some(last)) =
                (request.command_id.as_deref(), result.events.first(), result.events.last())
            else {
                continue;
            };
            written.commands.ids.push(command_id);
            written.commands.streams.push(&request.stream);
            written.commands.bodies.push(request.command.as_ref().map(Payload::get));
            written.commands.first_versions.push(to_i64(first.version));
            written.commands.last_versions.push(to_i64(last.version));
            written.commands.first_positions.push(to_i64(first.position));
        }
        written
    }
}

/// The writer's statements, prepared once per connection ([`Session`]).
struct Statements {
    lock_head: tokio_postgres::Statement,
    flight: tokio_postgres::Statement,
    commands: tokio_postgres::Statement,
    heads: tokio_postgres::Statement,
    insert_events: tokio_postgres::Statement,
    upsert_heads: tokio_postgres::Statement,
    insert_commands: tokio_postgres::Statement,
    set_head: tokio_postgres::Statement,
    notify: tokio_postgres::Statement,
    events_between: tokio_postgres::Statement,
}

impl Statements {
    async fn prepare(client: &Client) -> Result<Self, StoreError> {
        let prepare = |sql: &'static str| async move { client.prepare(sql).await.map_err(backend) };
        Ok(Self {
            lock_head: prepare("SELECT next_position FROM herald_head FOR UPDATE").await?,
            flight: prepare(FLIGHT).await?,
            commands: prepare(concat!(
                "SELECT ",
                command_columns!(),
                " FROM herald_commands WHERE command_id = ANY($1)"
            ))
            .await?,
            heads: prepare("SELECT stream, version FROM herald_streams WHERE stream = ANY($1)").await?,
            insert_events: prepare(
                "INSERT INTO herald_events (position, stream, version, id, event_type, schema, recorded_at, \
                 recorded_nanos, actor, command_id, correlation_id, causation_id, rules, data) \
                 SELECT position, stream, version, id, event_type, schema, recorded_at, recorded_nanos, actor, \
                 command_id, correlation_id, causation_id, rules, data::json \
                 FROM UNNEST($1::int8[], $2::text[], $3::int8[], $4::uuid[], $5::text[], $6::int8[], \
                 $7::timestamptz[], $8::int4[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], \
                 $14::text[]) AS e(position, stream, version, id, event_type, schema, recorded_at, recorded_nanos, \
                 actor, command_id, correlation_id, causation_id, rules, data)",
            )
            .await?,
            upsert_heads: prepare(
                "INSERT INTO herald_streams (stream, version) SELECT * FROM UNNEST($1::text[], $2::int8[]) \
                 ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version",
            )
            .await?,
            insert_commands: prepare(
                "INSERT INTO herald_commands (command_id, stream, command, first_version, last_version, \
                 first_position) SELECT command_id, stream, command::json, first_version, last_version, \
                 first_position FROM UNNEST($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], \
                 $6::int8[]) AS c(command_id, stream, command, first_version, last_version, first_position)",
            )
            .await?,
            set_head: prepare("UPDATE herald_head SET next_position = $1").await?,
            notify: prepare("SELECT pg_notify($1, $2)").await?,
            events_between: prepare(concat!(
                "SELECT ",
                event_columns!(),
                " FROM herald_events WHERE position >= $1 AND position <= $2 ORDER BY position"
            ))
            .await?,
        })
    }
}

/// The one flight (docs/adr/0007, docs/adr/0009) as one statement: the head claim, the events,
/// the stream heads, the commands and the notify. Outside `BEGIN` it is a transaction of its
/// own, committed before the server answers.
///
/// The claim moves the head on from `$1` to `$2` if it is at `$1`, and otherwise sets it to -1,
/// which `CHECK (next_position >= 0)` refuses (`refused`). An UPDATE waits for another
/// transaction holding the row and then judges the row as that one left it (READ COMMITTED), so
/// a head moved meanwhile is seen. Every insert, and the notify, reads the claim's row, so the
/// claim has taken the head row's lock (and passed its check) before any row is written: the
/// positions are written under the lock, as in docs/adr/0001, and no insert waits on another
/// writer's rows while that writer waits for this one's head lock.
const FLIGHT: &str = "WITH claimed AS (\
    UPDATE herald_head SET next_position = CASE WHEN next_position = $1::int8 THEN $2::int8 ELSE -1 END \
    RETURNING next_position), \
  events AS (INSERT INTO herald_events (position, stream, version, id, event_type, schema, recorded_at, \
    recorded_nanos, actor, command_id, correlation_id, causation_id, rules, data) \
    SELECT e.position, e.stream, e.version, e.id, e.event_type, e.schema, e.recorded_at, e.recorded_nanos, e.actor, \
    e.command_id, e.correlation_id, e.causation_id, e.rules, e.data::json \
    FROM claimed, UNNEST($3::int8[], $4::text[], $5::int8[], $6::uuid[], $7::text[], $8::int8[], \
    $9::timestamptz[], $10::int4[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], \
    $16::text[]) AS e(position, stream, version, id, event_type, schema, recorded_at, recorded_nanos, \
    actor, command_id, correlation_id, causation_id, rules, data)), \
  heads AS (INSERT INTO herald_streams (stream, version) SELECT h.stream, h.version \
    FROM claimed, UNNEST($17::text[], $18::int8[]) AS h(stream, version) \
    ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version), \
  commands AS (INSERT INTO herald_commands (command_id, stream, command, first_version, last_version, \
    first_position) SELECT c.command_id, c.stream, c.command::json, c.first_version, c.last_version, \
    c.first_position FROM claimed, UNNEST($19::text[], $20::text[], $21::text[], $22::int8[], $23::int8[], \
    $24::int8[]) AS c(command_id, stream, command, first_version, last_version, first_position)) \
  SELECT pg_notify($25, $26) FROM claimed";
