//! Planning one group commit: each request checked against committed state plus the batch.
//!
//! A request sees the streams and command ids of the requests before it in the same batch as if
//! they were already committed, so a batch commits exactly what serial appends would have. A
//! request that fails gets its own error and leaves the rest of the batch alone.

use std::collections::HashMap;

use super::{backend, Trees};
use crate::codec::{decode_command, decode_event, decode_u64, position_key};
use crate::{AppendRequest, AppendResult, ExpectedVersion, RecordedEvent, StoreError};

/// What a request in a batch turns into.
pub(crate) enum Outcome {
    /// Answered without writing: a conflict, a reused id, or a replay of a committed command.
    Done(Result<AppendResult, StoreError>),
    /// To be written in this batch's transaction.
    Write(AppendResult),
    /// A repeat of the command of an earlier request in this batch (its index).
    ReplayOf(usize),
}

/// Batch-local view of the log: the committed trees overlaid with the batch's own writes.
pub(crate) struct Planner<'a> {
    trees: &'a Trees,
    next: u64,
    /// Stream heads after the batch's earlier requests.
    heads: HashMap<String, u64>,
    /// Command ids written by the batch's earlier requests: (request index, stream).
    commands: HashMap<String, (usize, String)>,
    planned: usize,
}

impl<'a> Planner<'a> {
    /// Plan against `trees`, assigning positions from `next`.
    pub(crate) fn new(trees: &'a Trees, next: u64) -> Self {
        Self { trees, next, heads: HashMap::new(), commands: HashMap::new(), planned: 0 }
    }

    /// The next free position once every planned write is committed.
    pub(crate) fn next(&self) -> u64 {
        self.next
    }

    /// Plan the next request of the batch. A request to be written gives up its events (they
    /// move into the result instead of being copied).
    pub(crate) fn plan(&mut self, request: &mut AppendRequest) -> Outcome {
        let index = self.planned;
        self.planned += 1;
        self.try_plan(index, request).unwrap_or_else(|e| Outcome::Done(Err(e)))
    }

    fn try_plan(&mut self, index: usize, request: &mut AppendRequest) -> Result<Outcome, StoreError> {
        // Idempotency first: a repeat is answered with the first result even if the expected
        // version no longer holds (the first append is what moved the stream on).
        if let Some(command_id) = &request.command_id {
            if let Some((first, stream)) = self.commands.get(command_id) {
                return Ok(if *stream == request.stream {
                    Outcome::ReplayOf(*first)
                } else {
                    Outcome::Done(Err(StoreError::CommandIdReused { command_id: command_id.clone() }))
                });
            }
            if let Some(bytes) = self.trees.commands.get(command_id.as_bytes()).map_err(backend)? {
                return Ok(Outcome::Done(self.replay(&bytes, request)));
            }
        }
        let current = match self.heads.get(&request.stream) {
            Some(version) => Some(*version),
            None => {
                self.trees.heads.get(request.stream.as_bytes()).map_err(backend)?.map(|v| decode_u64(&v)).transpose()?
            }
        };
        let matches = match request.expected {
            ExpectedVersion::Any => true,
            ExpectedVersion::NoStream => current.is_none(),
            ExpectedVersion::StreamExists => current.is_some(),
            ExpectedVersion::Exact(version) => current == Some(version),
        };
        if !matches {
            return Ok(Outcome::Done(Err(StoreError::WrongExpectedVersion {
                stream: request.stream.clone(),
                expected: request.expected,
                actual: current,
            })));
        }
        if request.events.is_empty() {
            // Refused on the caller's thread already; kept so the arithmetic below cannot underflow.
            return Err(StoreError::Invalid("an append needs at least one event".into()));
        }
        let first_version = current.map_or(0, |v| v + 1);
        let events: Vec<RecordedEvent> = (0u64..)
            .zip(std::mem::take(&mut request.events))
            .map(|(offset, new)| RecordedEvent {
                id: new.id,
                stream: request.stream.clone(),
                version: first_version + offset,
                position: self.next + offset,
                event_type: new.event_type,
                schema: new.schema,
                recorded_at: new.recorded_at,
                actor: new.actor,
                command_id: new.command_id,
                correlation_id: new.correlation_id,
                causation_id: new.causation_id,
                rules: new.rules,
                data: new.data,
            })
            .collect();
        let count = events.len() as u64;
        let stream_version = first_version + count - 1;
        self.next += count;
        self.heads.insert(request.stream.clone(), stream_version);
        if let Some(command_id) = &request.command_id {
            self.commands.insert(command_id.clone(), (index, request.stream.clone()));
        }
        Ok(Outcome::Write(AppendResult { events, stream_version, replayed: false }))
    }

    /// The first result of a committed command, rebuilt from the events it wrote.
    fn replay(&self, stored: &[u8], request: &AppendRequest) -> Result<AppendResult, StoreError> {
        let command = decode_command(stored)?;
        if command.stream != request.stream {
            return Err(StoreError::CommandIdReused { command_id: command.command_id });
        }
        let count = command.last_version.checked_sub(command.first_version).ok_or_else(|| {
            StoreError::Backend(format!("stored command {} has its versions reversed", command.command_id))
        })?;
        let events = (0..=count)
            .map(|offset| {
                let position = command.first_position.saturating_add(offset);
                let bytes =
                    self.trees.events.get(position_key(position)).map_err(backend)?.ok_or_else(|| {
                        StoreError::Backend(format!("stored command points at missing event {position}"))
                    })?;
                decode_event(&bytes)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AppendResult { events, stream_version: command.last_version, replayed: true })
    }
}
