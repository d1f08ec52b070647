//! Planning one group commit: the append rules, once, for every backend.
//!
//! Each request of a batch is checked against the committed log plus the batch's earlier
//! requests, so a batch commits exactly what serial appends would have, and a request that fails
//! gets its own error and leaves the rest of the batch alone. The rules, in order:
//!
//! 1. **Idempotency first**: a command id seen before (earlier in the batch or committed) is a
//!    repeat, answered with the first result even if the expected version no longer holds (the
//!    first append is what moved the stream on); the same id on another stream is refused.
//! 2. **Expected version** against the stream's head (the batch's own writes included).
//! 3. Positions follow on from the batch's `next`, versions from the stream's head.
//!
//! A backend says what is committed through [`CommittedLog`] (sled reads its trees; PostgreSQL
//! reads, under the `$all` head lock, the rows the batch touches) and turns the [`Outcome`]s into
//! writes and answers. The conformance suite runs both backends through these rules.

use std::collections::HashMap;

use crate::{AppendRequest, AppendResult, ExpectedVersion, RecordedEvent, StoreError, StoredCommand};

/// What a backend's committed log tells the planner.
pub(crate) trait CommittedLog {
    /// The last version of `stream`, or `None` if it has no events.
    fn stream_head(&self, stream: &str) -> Result<Option<u64>, StoreError>;
    /// The command committed under `command_id`, if any.
    fn command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError>;
}

/// What a request in a batch turns into.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Answered without writing: a conflict or a reused command id.
    Done(Result<AppendResult, StoreError>),
    /// To be written in this batch's transaction.
    Write(AppendResult),
    /// A repeat of the command of an earlier request in this batch (its index).
    ReplayOf(usize),
    /// A repeat of a command committed before this batch: the backend reads its events back.
    ReplayCommitted(StoredCommand),
}

/// The committed log overlaid with the batch's own writes.
pub(crate) struct Planner<C> {
    committed: C,
    next: u64,
    /// Stream heads after the batch's earlier requests.
    heads: HashMap<String, u64>,
    /// Command ids written by the batch's earlier requests: (request index, stream).
    commands: HashMap<String, (usize, String)>,
    planned: usize,
}

impl<C: CommittedLog> Planner<C> {
    /// Plan against `committed`, assigning positions from `next`.
    pub(crate) fn new(committed: C, next: u64) -> Self {
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

    /// Plan the next request of the batch. A request to be written gives up its events (they
    /// move into the result instead of being copied).
    pub(crate) fn plan(&mut self, request: &mut AppendRequest) -> Outcome {
        let index = self.planned;
        self.planned += 1;
        self.try_plan(index, request).unwrap_or_else(|e| Outcome::Done(Err(e)))
    }

    fn try_plan(&mut self, index: usize, request: &mut AppendRequest) -> Result<Outcome, StoreError> {
        if let Some(command_id) = &request.command_id {
            if let Some((first, stream)) = self.commands.get(command_id) {
                return Ok(if *stream == request.stream {
                    Outcome::ReplayOf(*first)
                } else {
                    Outcome::Done(Err(StoreError::CommandIdReused { command_id: command_id.clone() }))
                });
            }
            if let Some(stored) = self.committed.command(command_id)? {
                return Ok(if stored.stream == request.stream {
                    Outcome::ReplayCommitted(stored)
                } else {
                    Outcome::Done(Err(StoreError::CommandIdReused { command_id: command_id.clone() }))
                });
            }
        }
        let current = match self.heads.get(&request.stream) {
            Some(version) => Some(*version),
            None => self.committed.stream_head(&request.stream)?,
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
        Ok(Outcome::Write(AppendResult { events, stream_version, replayed: false }))
    }
}

/// Each request's answer once the batch's write went as `written` says; `replayed` answers the
/// [`Outcome::ReplayCommitted`] repeats, in batch order (read back by the backend).
pub(crate) fn resolve(
    outcomes: Vec<Outcome>,
    written: Result<(), StoreError>,
    replayed: impl IntoIterator<Item = Result<AppendResult, StoreError>>,
) -> Vec<Result<AppendResult, StoreError>> {
    let mut replayed = replayed.into_iter();
    let mut results: Vec<Result<AppendResult, StoreError>> = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        let result = match outcome {
            Outcome::Done(result) => result,
            Outcome::Write(result) => written.clone().map(|()| result),
            Outcome::ReplayOf(first) => match results.get(first) {
                Some(Ok(result)) => Ok(AppendResult { replayed: true, ..result.clone() }),
                Some(Err(error)) => Err(error.clone()),
                None => Err(StoreError::Backend("replay of an unknown request in the batch".into())),
            },
            Outcome::ReplayCommitted(_) => replayed
                .next()
                .unwrap_or_else(|| Err(StoreError::Backend("a replayed command was not read back".into()))),
        };
        results.push(result);
    }
    results
}

#[cfg(test)]
pub(crate) mod tests {
    //! The rules on a batch against a log held in maps: what both backends' planners share. The
    //! conformance suite checks the same rules end to end on sled and PostgreSQL.

    use super::*;

    #[derive(Default)]
    struct Log {
        heads: HashMap<String, u64>,
        commands: HashMap<String, StoredCommand>,
    }

    impl CommittedLog for Log {
        fn stream_head(&self, stream: &str) -> Result<Option<u64>, StoreError> {
            Ok(self.heads.get(stream).copied())
        }
        fn command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
            Ok(self.commands.get(command_id).cloned())
        }
    }

    /// An append of `count` events to `stream`, without a command id.
    pub(crate) fn request(stream: &str, expected: ExpectedVersion, count: usize) -> AppendRequest {
        let event = |n: usize| crate::NewEvent {
            id: uuid::Uuid::now_v7(),
            event_type: "test.Happened".into(),
            schema: 1,
            recorded_at: chrono::Utc::now(),
            actor: "test".into(),
            command_id: None,
            correlation_id: None,
            causation_id: None,
            rules: "test@1".into(),
            data: serde_json::json!({ "n": n }).into(),
        };
        AppendRequest {
            stream: stream.into(),
            expected,
            events: (0..count).map(event).collect(),
            command_id: None,
            command: None,
        }
    }

    fn with_command(mut request: AppendRequest, command_id: &str) -> AppendRequest {
        request.command_id = Some(command_id.into());
        request
    }

    #[test]
    fn a_batch_sees_its_earlier_requests_as_committed() {
        let mut planner = Planner::new(Log::default(), 10);
        let Outcome::Write(first) = planner.plan(&mut request("s-1", ExpectedVersion::NoStream, 2)) else {
            panic!("the first append to a new stream is written")
        };
        assert_eq!((first.stream_version, first.events[0].position, first.events[1].position), (1, 10, 11));
        match planner.plan(&mut request("s-1", ExpectedVersion::NoStream, 1)) {
            Outcome::Done(Err(StoreError::WrongExpectedVersion { actual: Some(1), .. })) => {}
            other => panic!("the stream exists once the batch's first request wrote it: {other:?}"),
        }
        let Outcome::Write(second) = planner.plan(&mut request("s-1", ExpectedVersion::Exact(1), 1)) else {
            panic!("the version the batch's own write left is the one to expect")
        };
        assert_eq!((second.stream_version, second.events[0].position), (2, 12));
        assert_eq!(planner.next(), 13);
        assert_eq!(planner.written_heads().get("s-1"), Some(&2));
    }

    #[test]
    fn a_repeated_command_is_answered_before_its_expected_version_is_checked() {
        let mut log = Log::default();
        log.heads.insert("s-1".into(), 5);
        let stored = StoredCommand {
            command_id: "c-1".into(),
            stream: "s-1".into(),
            command: None,
            first_version: 3,
            last_version: 4,
            first_position: 40,
        };
        log.commands.insert("c-1".into(), stored.clone());
        let mut planner = Planner::new(log, 50);
        // The stream moved on to 5 since; the repeat still gets the first result.
        match planner.plan(&mut with_command(request("s-1", ExpectedVersion::Exact(2), 2), "c-1")) {
            Outcome::ReplayCommitted(found) => assert_eq!(found, stored),
            other => panic!("a committed command is replayed: {other:?}"),
        }
        match planner.plan(&mut with_command(request("s-2", ExpectedVersion::Any, 1), "c-1")) {
            Outcome::Done(Err(StoreError::CommandIdReused { command_id })) => assert_eq!(command_id, "c-1"),
            other => panic!("the same id on another stream is refused: {other:?}"),
        }
        assert!(matches!(
            planner.plan(&mut with_command(request("s-3", ExpectedVersion::Any, 1), "c-2")),
            Outcome::Write(_)
        ));
        assert!(matches!(
            planner.plan(&mut with_command(request("s-3", ExpectedVersion::NoStream, 1), "c-2")),
            Outcome::ReplayOf(2)
        ));
        assert_eq!(planner.next(), 51, "nothing but c-2's one event is written");
    }

    #[test]
    fn resolve_answers_each_request_from_its_outcome() {
        let mut planner = Planner::new(Log::default(), 0);
        let written = planner.plan(&mut with_command(request("s-1", ExpectedVersion::Any, 1), "c-1"));
        let repeat = planner.plan(&mut with_command(request("s-1", ExpectedVersion::Any, 1), "c-1"));
        let conflict = planner.plan(&mut request("s-1", ExpectedVersion::NoStream, 1));
        let stored = StoredCommand {
            command_id: "c-0".into(),
            stream: "s-0".into(),
            command: None,
            first_version: 0,
            last_version: 0,
            first_position: 0,
        };
        let outcomes = vec![written, repeat, conflict, Outcome::ReplayCommitted(stored)];
        let replayed = AppendResult { events: vec![], stream_version: 0, replayed: true };
        let results = resolve(outcomes, Ok(()), [Ok(replayed.clone())]);
        assert!(matches!(&results[0], Ok(result) if !result.replayed));
        assert!(matches!(&results[1], Ok(result) if result.replayed && result.stream_version == 0));
        assert!(matches!(&results[2], Err(StoreError::WrongExpectedVersion { .. })));
        assert_eq!(results[3].as_ref().ok(), Some(&replayed));
        // A failed write fails every write of the batch and the repeats of them.
        let mut planner = Planner::new(Log::default(), 0);
        let outcomes = vec![
            planner.plan(&mut with_command(request("s-1", ExpectedVersion::Any, 1), "c-1")),
            planner.plan(&mut with_command(request("s-1", ExpectedVersion::Any, 1), "c-1")),
        ];
        let failed = resolve(outcomes, Err(StoreError::Backend("disk".into())), []);
        assert!(failed.iter().all(Result::is_err));
    }
}
