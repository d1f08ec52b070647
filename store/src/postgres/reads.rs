//! Reads: streams, `$all`, heads, commands and secrets.
//!
//! Every read is a plain committed read. `$all` needs no filter to stay gap-free: positions are
//! assigned under the head lock, so a committed position implies every lower one is committed
//! (docs/adr/0001-postgres-all-ordering.md).

use std::ops::ControlFlow;

use deadpool_postgres::{Object, Pool};
use futures_util::StreamExt;

use super::rows::{self, event_columns, COMMAND_COLUMNS};
use super::{backend, bridge::Runtime, pool_error, to_i64};
use crate::{Direction, EventRef, RecordedEvent, StoreError, StoredCommand};

/// Events a replay of `$all` reads at a time.
const REPLAY_PAGE: usize = 2048;
/// Pages a replay has read or in flight ahead of the one visited: while the caller visits one,
/// the server produces the next and the store's runtime decodes the one after on another
/// connection, so the three run at once instead of in turn (paging does them in turn).
const REPLAY_AHEAD: usize = 2;
/// Commands a scan reads at a time.
const COMMAND_PAGE: i64 = 1024;

/// The last position of `$all`, `None` for an empty log.
pub(crate) async fn head(client: &Object) -> Result<Option<u64>, StoreError> {
    let statement = client.prepare_cached("SELECT next_position FROM herald_head").await.map_err(backend)?;
    let next: i64 = client.query_one(&statement, &[]).await.map_err(backend)?.try_get(0).map_err(backend)?;
    Ok(u64::try_from(next).ok().and_then(|next| next.checked_sub(1)))
}

/// Up to `limit` events of `$all` from `from`, at most up to `to` (inclusive).
async fn all_between(pool: &Pool, from: u64, to: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let statement = client
        .prepare_cached(concat!(
            "SELECT ",
            event_columns!(),
            " FROM herald_events WHERE position >= $1 AND position <= $2 ORDER BY position LIMIT $3"
        ))
        .await
        .map_err(backend)?;
    let rows = client.query(&statement, &[&to_i64(from), &to_i64(to), &to_i64(limit as u64)]).await.map_err(backend)?;
    rows.iter().map(rows::event).collect()
}

/// [`crate::EventStore::read_all`].
pub(crate) async fn all(pool: &Pool, from: u64, limit: usize) -> Result<Vec<RecordedEvent>, StoreError> {
    all_between(pool, from, u64::MAX, limit).await
}

/// [`crate::EventStore::read_stream`].
pub(crate) async fn stream(
    pool: &Pool,
    stream: &str,
    from: u64,
    direction: Direction,
    limit: usize,
) -> Result<Vec<RecordedEvent>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let sql = match direction {
        Direction::Forwards => concat!(
            "SELECT ",
            event_columns!(),
            " FROM herald_events WHERE stream = $1 AND version >= $2 ORDER BY version LIMIT $3"
        ),
        Direction::Backwards => concat!(
            "SELECT ",
            event_columns!(),
            " FROM herald_events WHERE stream = $1 AND version <= $2 ORDER BY version DESC LIMIT $3"
        ),
    };
    let statement = client.prepare_cached(sql).await.map_err(backend)?;
    let rows = client.query(&statement, &[&stream, &to_i64(from), &to_i64(limit as u64)]).await.map_err(backend)?;
    rows.iter().map(rows::event).collect()
}

/// [`crate::EventStore::stream_version`].
pub(crate) async fn stream_version(pool: &Pool, stream: &str) -> Result<Option<u64>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let statement =
        client.prepare_cached("SELECT version FROM herald_streams WHERE stream = $1").await.map_err(backend)?;
    let Some(row) = client.query_opt(&statement, &[&stream]).await.map_err(backend)? else { return Ok(None) };
    let version: i64 = row.try_get(0).map_err(backend)?;
    u64::try_from(version).map(Some).map_err(|_| StoreError::Backend(format!("{stream} has version {version}")))
}

/// [`crate::EventStore::stored_command`].
pub(crate) async fn command(pool: &Pool, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let statement = client
        .prepare_cached(&format!("SELECT {COMMAND_COLUMNS} FROM herald_commands WHERE command_id = $1"))
        .await
        .map_err(backend)?;
    client.query_opt(&statement, &[&command_id]).await.map_err(backend)?.as_ref().map(rows::command).transpose()
}

/// [`crate::EventStore::put_secret`].
pub(crate) async fn put_secret(pool: &Pool, key: &str, value: &[u8]) -> Result<(), StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let statement = client
        .prepare_cached(
            "INSERT INTO herald_secrets (key, value) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        )
        .await
        .map_err(backend)?;
    client.execute(&statement, &[&key, &value]).await.map_err(backend)?;
    Ok(())
}

/// [`crate::EventStore::get_secret`].
pub(crate) async fn get_secret(pool: &Pool, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let statement = client.prepare_cached("SELECT value FROM herald_secrets WHERE key = $1").await.map_err(backend)?;
    client.query_opt(&statement, &[&key]).await.map_err(backend)?.map(|row| row.try_get(0).map_err(backend)).transpose()
}

/// [`crate::EventStore::try_lease`]: the lease is a row of `herald_secrets` holding
/// `<holder>|<expiry in ms since the epoch, by the database's clock>`, taken or renewed in one
/// conditional upsert (the row is locked while it is decided), so two instances never both get it.
pub(crate) async fn try_lease(pool: &Pool, key: &str, holder: &str, ttl_ms: i64) -> Result<bool, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let statement = client
        .prepare_cached(
            "INSERT INTO herald_secrets (key, value) \
             VALUES ($1, convert_to($2::text || '|' || ((extract(epoch FROM clock_timestamp()) * 1000)::bigint + $3::bigint)::text, 'UTF8')) \
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value \
             WHERE split_part(convert_from(herald_secrets.value, 'UTF8'), '|', 1) = $2::text \
                OR split_part(convert_from(herald_secrets.value, 'UTF8'), '|', 2)::bigint \
                   < (extract(epoch FROM clock_timestamp()) * 1000)::bigint \
             RETURNING key",
        )
        .await
        .map_err(backend)?;
    let taken = client.query_opt(&statement, &[&key, &holder, &ttl_ms]).await.map_err(backend)?;
    Ok(taken.is_some())
}

/// Every secret, by key.
pub(crate) async fn all_secrets(pool: &Pool) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
    let client = pool.get().await.map_err(pool_error)?;
    let rows = client.query("SELECT key, value FROM herald_secrets ORDER BY key", &[]).await.map_err(backend)?;
    rows.iter().map(|row| Ok((row.try_get(0).map_err(backend)?, row.try_get(1).map_err(backend)?))).collect()
}

/// [`crate::EventStore::replay_all`]: `$all` up to the head as it was when the replay started,
/// in ranges of [`REPLAY_PAGE`] positions, [`REPLAY_AHEAD`] ranges read at once on the store's
/// runtime (each on a connection of its own) and handed over in order while the caller visits.
/// Every position from `from` to the head is in exactly one range, so nothing depends on `$all`
/// being dense.
pub(crate) fn replay_all(
    runtime: &Runtime,
    pool: &Pool,
    from: u64,
    visit: &mut dyn FnMut(EventRef<'_>) -> ControlFlow<()>,
) -> Result<u64, StoreError> {
    let reader = pool.clone();
    let Some(end) = runtime.block_on(async move { head(&reader.get().await.map_err(pool_error)?).await })? else {
        return Ok(0);
    };
    if from > end {
        return Ok(0);
    }
    let (pages, incoming) = std::sync::mpsc::sync_channel::<Result<Vec<RecordedEvent>, StoreError>>(REPLAY_AHEAD);
    let reader = pool.clone();
    runtime.spawn(async move {
        let span = REPLAY_PAGE as u64;
        let mut read = futures_util::stream::iter((from..=end).step_by(REPLAY_PAGE))
            .map(|first| {
                let reader = reader.clone();
                async move { all_between(&reader, first, first.saturating_add(span - 1).min(end), REPLAY_PAGE).await }
            })
            .buffered(REPLAY_AHEAD);
        while let Some(page) = read.next().await {
            let failed = page.is_err();
            // A closed channel means the visitor stopped: read no further.
            if pages.send(page).is_err() || failed {
                return;
            }
        }
    })?;
    let mut count = 0;
    for page in incoming {
        for event in &page? {
            count += 1;
            if visit(event.as_ref()).is_break() {
                return Ok(count);
            }
        }
    }
    Ok(count)
}

/// [`crate::EventStore::scan_commands`]: every command in `$all` order (each has its own first
/// position), a page at a time.
pub(crate) fn scan_commands(
    runtime: &Runtime,
    pool: &Pool,
    visit: &mut dyn FnMut(StoredCommand) -> ControlFlow<()>,
) -> Result<u64, StoreError> {
    let mut after: i64 = -1;
    let mut count = 0;
    loop {
        let (reader, from) = (pool.clone(), after);
        let page = runtime.block_on(async move {
            let client = reader.get().await.map_err(pool_error)?;
            let statement = client
                .prepare_cached(&format!(
                    "SELECT {COMMAND_COLUMNS} FROM herald_commands WHERE first_position > $1 \
                     ORDER BY first_position LIMIT $2"
                ))
                .await
                .map_err(backend)?;
            let rows = client.query(&statement, &[&from, &COMMAND_PAGE]).await.map_err(backend)?;
            rows.iter().map(rows::command).collect::<Result<Vec<_>, _>>()
        })?;
        let Some(last) = page.last() else { return Ok(count) };
        after = to_i64(last.first_position);
        for command in page {
            count += 1;
            if visit(command).is_break() {
                return Ok(count);
            }
        }
    }
}
