//! The PostgreSQL backend: one log that several Herald processes share.
//!
//! Same semantics as [`crate::SledStore`], kept in five tables (`schema`). `$all` stays gap-free
//! and in commit order across processes because every appending transaction first locks the
//! one row holding the `$all` head (`herald_head`) and assigns positions under that lock, so
//! transactions that write events commit one after another in position order, and no reader can
//! see a position before every lower one is committed (docs/adr/0001-postgres-all-ordering.md).
//!
//! Within a process, appends go through one writer with group commit (`writer`), like the
//! sled backend: every request waiting is planned against the committed state and written in
//! one transaction, so one lock hold and one WAL flush serve many appends. The committed state
//! is what the writer's own last transaction left (`known`) while the head is still where it
//! left it, checked by the head claim, which takes the head lock before anything is written:
//! one statement, one round trip (docs/adr/0007, docs/adr/0009); else it is read under the
//! head lock first: two. Other processes learn of new events by `LISTEN`/`NOTIFY` (`listener`), with a poll
//! of the head as a fallback, which keeps [`EventStore::watch_head`] current for every writer.
//!
//! The trait is blocking; the store runs its reads and the listener on a small runtime of its
//! own and waits for each call's result on the caller's thread (`bridge`), so it may be called
//! from any thread, including an async executor's (as sled's reads are). The writer is a thread
//! of its own with a connection of its own, whose IO it drives itself, so an append's round trip
//! wakes no thread but the caller's and the writer's (docs/adr/0009).

mod bridge;
mod errors;
mod health;
mod known;
mod listener;
mod plan;
mod reads;
mod rows;
mod schema;
mod staging;
mod writer;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio::sync::watch;
use tokio_postgres::NoTls;

use crate::*;

pub use schema::MIGRATIONS;
pub use writer::WritePaths;

/// How to connect, beyond the URL.
#[derive(Debug, Clone)]
pub struct PostgresOptions {
    /// Keep the tables in this schema (created if missing) instead of the connection's default
    /// (`public`): several logs in one database, one per schema. Lowercase letters, digits and
    /// `_` only.
    pub schema: Option<String>,
    /// Most connections the store opens for reads (the writer and the listener have one each
    /// of their own).
    pub pool_size: usize,
    /// Whether to apply pending schema migrations when connecting; without it a database that
    /// is not at this build's schema version is refused (run `herald migrate` first).
    pub migrate: bool,
}

impl Default for PostgresOptions {
    fn default() -> Self {
        Self { schema: None, pool_size: 16, migrate: true }
    }
}

/// The PostgreSQL event store.
///
/// Dropping it lets the writer answer what is queued, then closes its connections.
pub struct PostgresStore {
    pool: Pool,
    runtime: bridge::Runtime,
    writer: Option<writer::Handle>,
    head: Arc<watch::Sender<Option<u64>>>,
    listener: tokio::task::JoinHandle<()>,
    applied: Vec<i32>,
    /// Whether the database is reachable, as last found (`/readyz`, the writer's backoff).
    health: Arc<health::Health>,
    /// Told what each group commit cost.
    commits: crate::CommitObservers,
    /// The NOTIFY channel of this log's commits.
    channel: String,
}

/// A tokio-postgres failure as a [`StoreError`]: a database away is
/// [`StoreError::Unavailable`] (`errors`).
pub(crate) fn backend(error: tokio_postgres::Error) -> StoreError {
    errors::classify(error)
}

/// A connection pool's failure as a [`StoreError`] (`errors`).
pub(crate) fn pool_error(error: deadpool_postgres::PoolError) -> StoreError {
    errors::pool(error)
}

/// A `u64` as PostgreSQL's `bigint`; values past `i64::MAX` (never stored) clamp to it.
pub(crate) fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl PostgresStore {
    /// Connect to the database at `url` (`postgres://user:password@host:port/database`) with
    /// default options, applying pending migrations.
    pub fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, PostgresOptions::default())
    }

    /// Connect with `options`.
    pub fn connect_with(url: &str, options: PostgresOptions) -> Result<Self, StoreError> {
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|error| StoreError::Invalid(format!("not a PostgreSQL URL: {error}")))?;
        if let Some(schema) = &options.schema {
            schema::check_name(schema)?;
            let mut settings = config.get_options().unwrap_or_default().to_string();
            settings.push_str(&format!(" -c search_path={schema}"));
            config.options(settings.trim());
        }
        if config.get_application_name().is_none() {
            config.application_name("herald");
        }
        let channel = format!("herald_all_{}", options.schema.as_deref().unwrap_or("public"));
        let runtime = bridge::Runtime::new()?;
        let manager =
            Manager::from_config(config.clone(), NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(2))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .create_timeout(Some(Duration::from_secs(10)))
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(|error| StoreError::Backend(format!("postgres connection pool: {error}")))?;
        let (head, applied) = {
            let (pool, options) = (pool.clone(), options.clone());
            runtime.block_on(async move {
                let mut client = pool.get().await.map_err(pool_error)?;
                if let Some(schema) = &options.schema {
                    // Quoted after `check_name`: only [a-z0-9_] reach here.
                    client
                        .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\""))
                        .await
                        .map_err(backend)?;
                }
                let applied = schema::prepare(&mut client, options.migrate).await?;
                Ok((reads::head(&client).await?, applied))
            })?
        };
        let head = Arc::new(watch::channel(head).0);
        let health = Arc::new(health::Health::default());
        let commits = crate::CommitObservers::default();
        let writer =
            writer::Handle::spawn(config.clone(), channel.clone(), head.clone(), commits.clone(), health.clone())?;
        let listener =
            runtime.spawn(listener::run(config, pool.clone(), channel.clone(), head.clone(), health.clone()))?;
        Ok(Self { pool, runtime, writer: Some(writer), head, listener, applied, health, commits, channel })
    }

    /// The schema migrations this connection applied (none when the schema was current).
    pub fn applied_migrations(&self) -> &[i32] {
        &self.applied
    }

    /// How this store's group commits went so far: in one flight, refused and then in two,
    /// or in two (docs/adr/0007-postgres-one-flight-append.md).
    pub fn write_paths(&self) -> WritePaths {
        self.writer.as_ref().map(writer::Handle::paths).unwrap_or_default()
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        if let Some(writer) = self.writer.take() {
            writer.shutdown();
        }
        self.listener.abort();
    }
}

impl EventStore for PostgresStore {
    fn append(&self, request: AppendRequest) -> Result<AppendResult, StoreError> {
        self.writer.as_ref().ok_or(StoreError::Closed)?.append(request)
    }

    fn submit(&self, request: AppendRequest) -> Result<crate::Pending, StoreError> {
        self.writer.as_ref().ok_or(StoreError::Closed)?.submit(request)
    }

    fn append_many(&self, requests: Vec<AppendRequest>) -> Vec<Result<AppendResult, StoreError>> {
        match self.writer.as_ref() {
            Some(writer) => writer.append_many(requests),
            None => requests.iter().map(|_| Err(StoreError::Closed)).collect(),
        }
    }

    fn read_stream(
        &self,
        stream: &str,
        from: u64,
        direction: Direction,
        limit: usize,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let (pool, stream) = (self.pool.clone(), stream.to_string());
        self.runtime.block_on(async move { reads::stream(&pool, &stream, from, direction, limit).await })
    }

    fn replay_all(
        &self,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        reads::replay_all(&self.runtime, &self.pool, from, visit)
    }

    fn read_all(&self, from: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let pool = self.pool.clone();
        self.runtime.block_on(async move { reads::all(&pool, from, limit).await })
    }

    fn stream_version(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        let (pool, stream) = (self.pool.clone(), stream.to_string());
        self.runtime.block_on(async move { reads::stream_version(&pool, &stream).await })
    }

    fn head_position(&self) -> Result<Option<u64>, StoreError> {
        let pool = self.pool.clone();
        let head = self.runtime.block_on(async move {
            let client = pool.get().await.map_err(pool_error)?;
            reads::head(&client).await
        });
        self.health.note(&head);
        head
    }

    fn write_failure(&self) -> Option<StoreError> {
        self.health.failure()
    }

    fn stored_command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
        let (pool, command_id) = (self.pool.clone(), command_id.to_string());
        self.runtime.block_on(async move { reads::command(&pool, &command_id).await })
    }

    fn scan_commands(
        &self,
        visit: &mut dyn FnMut(StoredCommand) -> std::ops::ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        reads::scan_commands(&self.runtime, &self.pool, visit)
    }

    fn watch_head(&self) -> tokio::sync::watch::Receiver<Option<u64>> {
        self.head.subscribe()
    }

    fn observe_commits(&self, observer: crate::CommitObserver) -> bool {
        self.commits.set(observer)
    }

    fn put_secret(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        if key.contains('\0') {
            return Err(StoreError::Invalid("a secret's key cannot contain NUL".into()));
        }
        let (pool, key, value) = (self.pool.clone(), key.to_string(), value.to_vec());
        self.runtime.block_on(async move { reads::put_secret(&pool, &key, &value).await })
    }

    fn get_secret(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if key.contains('\0') {
            return Ok(None);
        }
        let (pool, key) = (self.pool.clone(), key.to_string());
        self.runtime.block_on(async move { reads::get_secret(&pool, &key).await })
    }

    fn try_lease(&self, key: &str, holder: &str, ttl: std::time::Duration) -> Result<bool, StoreError> {
        if key.contains('\0') || holder.contains('\0') || holder.contains('|') {
            return Err(StoreError::Invalid("a lease's key or holder cannot contain NUL or |".into()));
        }
        let (pool, key, holder) = (self.pool.clone(), format!("lease:{key}"), holder.to_string());
        let ttl_ms = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
        self.runtime.block_on(async move { reads::try_lease(&pool, &key, &holder, ttl_ms).await })
    }

    fn scan_secrets(&self, visit: &mut dyn FnMut(&str, &[u8]) -> std::ops::ControlFlow<()>) -> Result<u64, StoreError> {
        let pool = self.pool.clone();
        let secrets = self.runtime.block_on(async move { reads::all_secrets(&pool).await })?;
        let mut count = 0;
        for (key, value) in &secrets {
            count += 1;
            if visit(key, value).is_break() {
                break;
            }
        }
        Ok(count)
    }
}
