//! What the writer knows from its own last transaction: the `$all` head it left and the heads
//! of the streams it read or wrote, so the common append is planned before anything is sent and
//! goes in one flight (docs/adr/0007-postgres-one-flight-append.md).
//!
//! The knowledge is exact while nobody else has committed: every appending transaction, in
//! any process, moves the head (docs/adr/0001). So the one flight moves the head only if it is
//! still the one [`Known`] believes (the guard in `writer`), and a moved head means someone
//! else wrote: the batch is planned again, the two-flight way, from what is committed.

use std::collections::{HashMap, HashSet};

use crate::plan::{CommittedLog, Outcome};
use crate::{AppendRequest, ExpectedVersion, NewEvent, StoreError, StoredCommand};

/// Most streams remembered; past it the map starts again empty (a stream forgotten costs one
/// two-flight append, which learns it again).
pub(crate) const STREAMS: usize = 4096;

/// The head and stream heads as of this writer's last transaction.
#[derive(Debug, Default)]
pub(crate) struct Known {
    /// The `$all` next position that transaction left; `None` when unknown (at start, after a
    /// failure).
    next: Option<u64>,
    /// Streams' last versions as of `next`: `None` for a stream known to have no events.
    streams: HashMap<String, Option<u64>>,
}

impl Known {
    /// Know nothing: the next batch reads what is committed.
    pub(crate) fn forget(&mut self) {
        self.next = None;
        self.streams.clear();
    }

    /// The head to plan `requests` from in one flight, or `None` when they need the committed
    /// state read first: the head is unknown, or another process is heard to have moved it
    /// (`heard`, the last position the store's watch holds), or a request's stream is unknown
    /// and the request does not expect it to be new. A new stream (`NoStream`) is planned as
    /// new: if it has events after all, its version 0 is taken and the insert fails on
    /// `UNIQUE (stream, version)`, which sends the batch the two-flight way.
    pub(crate) fn fast_next(&self, requests: &[AppendRequest], heard: Option<u64>) -> Option<u64> {
        let next = self.next?;
        if heard.is_some_and(|last| last >= next) {
            return None;
        }
        let mut new: HashSet<&str> = HashSet::new();
        for request in requests {
            let stream = request.stream.as_str();
            if self.streams.contains_key(stream) || new.contains(stream) {
                continue;
            }
            if request.expected != ExpectedVersion::NoStream {
                return None;
            }
            new.insert(stream);
        }
        Some(next)
    }

    /// After a transaction that read, under the head lock, the head `read_next` and the heads
    /// of `streams` (`found`; the others have no events), and then committed up to `after`,
    /// leaving `written` as the written streams' heads.
    pub(crate) fn learn(
        &mut self,
        read_next: u64,
        streams: &[&str],
        found: &HashMap<String, u64>,
        written: &HashMap<String, u64>,
        after: u64,
    ) {
        if self.next != Some(read_next) {
            // Someone else committed since: any stream may have moved.
            self.streams.clear();
        }
        self.make_room(streams.len());
        for stream in streams {
            self.streams.insert((*stream).to_string(), found.get(*stream).copied());
        }
        self.advance(written, after);
    }

    /// After a transaction planned from [`Self::fast_next`] committed up to `after`.
    pub(crate) fn advance(&mut self, written: &HashMap<String, u64>, after: u64) {
        self.make_room(written.len());
        for (stream, version) in written {
            self.streams.insert(stream.clone(), Some(*version));
        }
        self.next = Some(after);
    }

    fn make_room(&mut self, coming: usize) {
        if self.streams.len().saturating_add(coming) > STREAMS {
            self.streams.clear();
        }
    }
}

/// The planner's view of the committed log in one flight: the known heads, and no command
/// committed (a repeated command id fails the commands insert on its primary key, and the
/// batch goes the two-flight way, which replays it).
impl CommittedLog for &Known {
    fn stream_head(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.streams.get(stream).copied().flatten())
    }

    fn command(&self, _command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
        Ok(None)
    }
}

/// Whether every outcome of a one-flight plan may be written as planned: only writes and
/// repeats within the batch. A conflict, or a refused id, was judged on what this writer knows
/// and may be wrong (a command committed before is a repeat, not a conflict), so it is judged
/// again the two-flight way.
pub(crate) fn all_writes(outcomes: &[Outcome]) -> bool {
    outcomes.iter().all(|outcome| matches!(outcome, Outcome::Write(_) | Outcome::ReplayOf(_)))
}

/// Give each request back the events its plan took ([`crate::plan::Planner::plan`] moves them
/// into the result), so the batch can be planned again.
pub(crate) fn restore(requests: &mut [AppendRequest], outcomes: Vec<Outcome>) {
    for (request, outcome) in requests.iter_mut().zip(outcomes) {
        if let Outcome::Write(result) = outcome {
            request.events = result
                .events
                .into_iter()
                .map(|event| NewEvent {
                    id: event.id,
                    event_type: event.event_type,
                    schema: event.schema,
                    recorded_at: event.recorded_at,
                    actor: event.actor,
                    command_id: event.command_id,
                    correlation_id: event.correlation_id,
                    causation_id: event.causation_id,
                    rules: event.rules,
                    data: event.data,
                })
                .collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Planner;

    /// One event to `stream` (the planner's tests' request).
    fn request(stream: &str, expected: ExpectedVersion) -> AppendRequest {
        crate::plan::tests::request(stream, expected, 1)
    }

    fn warm() -> Known {
        let mut known = Known::default();
        let found = HashMap::from([("s-1".to_string(), 4)]);
        known.learn(10, &["s-1", "s-2"], &found, &HashMap::new(), 10);
        known
    }

    #[test]
    fn a_cold_writer_or_an_unknown_stream_reads_the_committed_state_first() {
        let cold = Known::default();
        assert_eq!(cold.fast_next(&[request("s-1", ExpectedVersion::NoStream)], None), None);
        let known = warm();
        assert_eq!(known.fast_next(&[request("s-1", ExpectedVersion::Exact(4))], None), Some(10));
        assert_eq!(known.fast_next(&[request("s-2", ExpectedVersion::Any)], None), Some(10), "known to be empty");
        assert_eq!(known.fast_next(&[request("s-3", ExpectedVersion::Any)], None), None);
        assert_eq!(known.fast_next(&[request("s-3", ExpectedVersion::Exact(0))], None), None);
        assert_eq!(
            known.fast_next(
                &[request("s-3", ExpectedVersion::NoStream), request("s-3", ExpectedVersion::Exact(0))],
                None
            ),
            Some(10),
            "a stream the batch creates is the batch's own"
        );
    }

    #[test]
    fn a_head_heard_past_what_the_writer_left_means_another_process_wrote() {
        let known = warm();
        let batch = [request("s-1", ExpectedVersion::Any)];
        assert_eq!(known.fast_next(&batch, Some(9)), Some(10), "the writer's own last commit");
        assert_eq!(known.fast_next(&batch, Some(10)), None);
    }

    #[test]
    fn a_head_read_elsewhere_than_left_forgets_every_stream() {
        let mut known = warm();
        // Another process committed positions 10 and 11; this writer read the head at 12.
        known.learn(12, &["s-9"], &HashMap::new(), &HashMap::from([("s-9".to_string(), 0)]), 13);
        assert_eq!(known.fast_next(&[request("s-1", ExpectedVersion::Any)], None), None, "s-1 may have moved");
        assert_eq!(known.fast_next(&[request("s-9", ExpectedVersion::Exact(0))], None), Some(13));
        // The same writer's next transaction finds the head where it left it: it keeps what it knows.
        known.learn(13, &["s-8"], &HashMap::from([("s-8".to_string(), 2)]), &HashMap::new(), 13);
        assert_eq!(known.fast_next(&[request("s-9", ExpectedVersion::Any)], None), Some(13));
        known.forget();
        assert_eq!(known.fast_next(&[request("s-9", ExpectedVersion::Any)], None), None);
    }

    #[test]
    fn the_map_starts_again_when_full() {
        let mut known = Known::default();
        let written: HashMap<String, u64> = (0..STREAMS).map(|n| (format!("s-{n}"), 0)).collect();
        known.advance(&written, 1);
        assert_eq!(known.streams.len(), STREAMS);
        known.advance(&HashMap::from([("s-new".to_string(), 0)]), 2);
        assert_eq!(known.streams.len(), 1);
        assert_eq!(known.next, Some(2), "the head is still known");
    }

    #[test]
    fn a_plan_judged_on_knowledge_alone_writes_or_goes_the_long_way_with_its_events_back() {
        let known = warm();
        let mut requests = vec![request("s-1", ExpectedVersion::Exact(4)), request("s-1", ExpectedVersion::Exact(3))];
        let mut planner = Planner::new(&known, 10);
        let outcomes: Vec<Outcome> = requests.iter_mut().map(|request| planner.plan(request)).collect();
        assert!(requests[0].events.is_empty(), "the written request's events moved into its result");
        assert!(!all_writes(&outcomes), "a conflict is judged again from the committed state");
        let ids: Vec<uuid::Uuid> = match &outcomes[0] {
            Outcome::Write(result) => result.events.iter().map(|event| event.id).collect(),
            other => panic!("written: {other:?}"),
        };
        restore(&mut requests, outcomes);
        assert_eq!(requests[0].events.iter().map(|event| event.id).collect::<Vec<_>>(), ids);
        assert_eq!(requests[1].events.len(), 1);
        let mut planner = Planner::new(&known, 10);
        let outcomes: Vec<Outcome> = requests[..1].iter_mut().map(|request| planner.plan(request)).collect();
        assert!(all_writes(&outcomes));
        assert_eq!(planner.next(), 11);
    }
}
