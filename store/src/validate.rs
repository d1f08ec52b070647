//! Checks on an append that need no state, made on the caller's thread by every backend.

use crate::{AppendRequest, StoreError};

/// Refuse an append that no backend may write: no events, or an empty, reserved (`$…`) or
/// NUL-containing stream name.
pub(crate) fn append(request: &AppendRequest) -> Result<(), StoreError> {
    if request.events.is_empty() {
        return Err(StoreError::Invalid("an append needs at least one event".into()));
    }
    if request.stream.is_empty() {
        return Err(StoreError::Invalid("the stream name is empty".into()));
    }
    if request.stream.starts_with('$') {
        return Err(StoreError::Invalid(format!("stream {} is reserved: names starting with $ are", request.stream)));
    }
    if request.stream.contains('\0') {
        return Err(StoreError::Invalid("a stream name cannot contain NUL".into()));
    }
    Ok(())
}

/// [`append`], and no NUL in any text field: PostgreSQL's `text` cannot hold one, and a value
/// refused by the database inside a group commit would fail every request of the batch.
pub(crate) fn append_without_nul(request: &AppendRequest) -> Result<(), StoreError> {
    append(request)?;
    let nul = |field: &str, value: &str| {
        if value.contains('\0') {
            Err(StoreError::Invalid(format!("the {field} cannot contain NUL")))
        } else {
            Ok(())
        }
    };
    if let Some(command_id) = &request.command_id {
        nul("command id", command_id)?;
    }
    for event in &request.events {
        nul("event type", &event.event_type)?;
        nul("actor", &event.actor)?;
        nul("rules", &event.rules)?;
        for (field, value) in [
            ("event's command id", &event.command_id),
            ("correlation id", &event.correlation_id),
            ("causation id", &event.causation_id),
        ] {
            if let Some(value) = value {
                nul(field, value)?;
            }
        }
    }
    Ok(())
}
