//! Rows to envelopes and back: the column list every event read selects, and the conversions
//! between the store's types and PostgreSQL's.

use chrono::{DateTime, Timelike, Utc};
use tokio_postgres::Row;

use super::backend;
use crate::{Payload, RecordedEvent, StoreError, StoredCommand};

/// The columns of `herald_events` every event read selects, in [`event`]'s order.
macro_rules! event_columns {
    () => {
        "position, stream, version, id, event_type, schema, recorded_at, recorded_nanos, actor, \
         command_id, correlation_id, causation_id, rules, data::text"
    };
}
pub(crate) use event_columns;

/// The columns of `herald_commands` every command read selects, in [`command`]'s order.
macro_rules! command_columns {
    () => {
        "command_id, stream, command::text, first_version, last_version, first_position"
    };
}
pub(crate) use command_columns;

/// [`command_columns`] as a constant, for statements built with `format!`.
pub(crate) const COMMAND_COLUMNS: &str = command_columns!();

fn corrupt(what: &str, value: i64) -> StoreError {
    StoreError::Backend(format!("stored {what} {value} is negative"))
}

/// A `bigint` column as `u64`.
fn unsigned(row: &Row, index: usize, what: &str) -> Result<u64, StoreError> {
    let value: i64 = row.try_get(index).map_err(backend)?;
    u64::try_from(value).map_err(|_| corrupt(what, value))
}

/// An event from a row selected with [`event_columns`].
pub(crate) fn event(row: &Row) -> Result<RecordedEvent, StoreError> {
    let schema: i64 = row.try_get(5).map_err(backend)?;
    let recorded_at: DateTime<Utc> = row.try_get(6).map_err(backend)?;
    let nanos: i32 = row.try_get(7).map_err(backend)?;
    let data: String = row.try_get(13).map_err(backend)?;
    let position = unsigned(row, 0, "position")?;
    Ok(RecordedEvent {
        position,
        stream: row.try_get(1).map_err(backend)?,
        version: unsigned(row, 2, "version")?,
        id: row.try_get(3).map_err(backend)?,
        event_type: row.try_get(4).map_err(backend)?,
        schema: u32::try_from(schema).map_err(|_| corrupt("schema", schema))?,
        recorded_at: exact_time(recorded_at, nanos)
            .ok_or_else(|| StoreError::Backend(format!("event {position}: bad recorded_nanos {nanos}")))?,
        actor: row.try_get(8).map_err(backend)?,
        command_id: row.try_get(9).map_err(backend)?,
        correlation_id: row.try_get(10).map_err(backend)?,
        causation_id: row.try_get(11).map_err(backend)?,
        rules: row.try_get(12).map_err(backend)?,
        data: Payload::from_json(data)
            .map_err(|error| StoreError::Backend(format!("event {position}: payload is not JSON: {error}")))?,
    })
}

/// A command from a row selected with [`command_columns`].
pub(crate) fn command(row: &Row) -> Result<StoredCommand, StoreError> {
    let command_id: String = row.try_get(0).map_err(backend)?;
    let text: Option<String> = row.try_get(2).map_err(backend)?;
    let command = text
        .map(Payload::from_json)
        .transpose()
        .map_err(|error| StoreError::Backend(format!("command {command_id} is not JSON: {error}")))?;
    Ok(StoredCommand {
        stream: row.try_get(1).map_err(backend)?,
        command,
        first_version: unsigned(row, 3, "first version")?,
        last_version: unsigned(row, 4, "last version")?,
        first_position: unsigned(row, 5, "first position")?,
        command_id,
    })
}

/// `at` floored to the microsecond, the precision of `timestamptz`: flooring (not rounding)
/// keeps the second, so [`exact_time`] can put the nanoseconds back.
pub(crate) fn micros(at: DateTime<Utc>) -> DateTime<Utc> {
    at.with_nanosecond(at.nanosecond() / 1_000 * 1_000).unwrap_or(at)
}

/// The nanosecond of the second, stored beside the floored timestamp.
pub(crate) fn nanos(at: DateTime<Utc>) -> i32 {
    i32::try_from(at.nanosecond()).unwrap_or(0)
}

/// The exact time from the floored timestamp and the stored nanosecond of its second.
fn exact_time(floored: DateTime<Utc>, nanos: i32) -> Option<DateTime<Utc>> {
    floored.with_nanosecond(u32::try_from(nanos).ok()?)
}
