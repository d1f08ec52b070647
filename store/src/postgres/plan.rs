//! Planning one group commit against the state read under the head lock.
//!
//! The same rules as the sled backend's planner: idempotency first (a repeat gets the first
//! result even after its stream moved on), then the expected version, each request seeing the
//! batch's earlier requests as if they were committed. What is committed was read once for the
//! whole batch, after the head lock was taken, so no other process can change it meanwhile.

use std::collections::HashMap;

use crate::{AppendRequest, AppendResult, ExpectedVersion, RecordedEvent, StoreError, StoredCommand};

/// What a request in a batch turns into.
pub(crate) enum Outcome {
    /// Answered without writing: a conflict or a reused command id.
    Done(Result<AppendResult, StoreError>),
    /// To be written in this batch's transaction.
    Write(AppendResult),
    /// A repeat of the command of an earlier request in this batch (its index).
    ReplayOf(usize),
    /// A repeat of a command committed before this batch: its events are read back.
    ReplayCommitted(StoredCommand),
}

/// The committed state the batch's requests touch, read under the head lock.
pub(crate) struct Committed {
    /// The next free position.
    pub(crate) next: u64,
    /// Last versions of the batch's streams that exist.
    pub(crate) heads: HashMap<String, u64>,
    /// The batch's command ids that were seen before.
    pub(crate) commands: HashMap<String, StoredCommand>,
}

/// The committed state overlaid with the batch's own writes.
pub(crate) struct Planner {
    committed: Committed,
    next: u64,
    /// Stream heads after the batch's earlier requests.
    heads: HashMap<String, u64>,
    /// Command ids written by the batch's earlier requests: (request index, stream).
    commands: HashMap<String, (usize, String)>,
    planned: usize,
}

impl Planner {
    pub(crate) fn new(committed: Committed) -> Self {
        let next = committed.next;
        Self { committed, next, heads: HashMap::new(), commands: HashMap::new(), planned: 0 }
    }

    /// The next free position once every planned write is committed.
    pub(crate) fn next(&self) -> u64 {
        self.next
    }

    /// Each written stream's last version after the batch.
    pub(crate) fn written_heads(&self) -> &HashMap<String, u64> {
        &self.heads
    }

    /// Plan the next request; a request to be written gives up its events to the result.
    pub(crate) fn plan(&mut self, request: &mut AppendRequest) -> Outcome {
        let index = self.planned;
        self.planned += 1;
        if let Some(command_id) = &request.command_id {
            if let Some((first, stream)) = self.commands.get(command_id) {
                return if *stream == request.stream {
                    Outcome::ReplayOf(*first)
                } else {
                    Outcome::Done(Err(StoreError::CommandIdReused { command_id: command_id.clone() }))
                };
            }
            if let Some(stored) = self.committed.commands.get(command_id) {
                return if stored.stream == request.stream {
                    Outcome::ReplayCommitted(stored.clone())
                } else {
                    Outcome::Done(Err(StoreError::CommandIdReused { command_id: command_id.clone() }))
                };
            }
        }
        let current = self.heads.get(&request.stream).or_else(|| self.committed.heads.get(&request.stream)).copied();
        let matches = match request.expected {
            ExpectedVersion::Any => true,
            ExpectedVersion::NoStream => current.is_none(),
            ExpectedVersion::StreamExists => current.is_some(),
            ExpectedVersion::Exact(version) => current == Some(version),
        };
        if !matches {
            return Outcome::Done(Err(StoreError::WrongExpectedVersion {
                stream: request.stream.clone(),
                expected: request.expected,
                actual: current,
            }));
        }
        if request.events.is_empty() {
            // Refused on the caller's thread already; kept so the arithmetic below cannot underflow.
            return Outcome::Done(Err(StoreError::Invalid("an append needs at least one event".into())));
        }
        let first_version = current.map_or(0, |version| version + 1);
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
        Outcome::Write(AppendResult { events, stream_version, replayed: false })
    }
}
