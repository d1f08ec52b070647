//! Expected-version cases: each expectation on a missing and an existing stream, and invalid
//! requests. Every conflict must leave the log exactly as it was.

use super::{read_all_to_end, read_stream_to_end, request, unique_stream, versions};
use crate::{EventStore, ExpectedVersion, StoreError};

/// Append `count` events with `Any` to a new stream; returns its name.
fn existing_stream(store: &dyn EventStore, count: usize) -> String {
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::Any, count)).expect("seed the stream");
    stream
}

/// Assert `expected` conflicts on `stream` (at `actual`) and that nothing was written.
fn assert_conflict(store: &dyn EventStore, stream: &str, expected: ExpectedVersion, actual: Option<u64>) {
    let before = read_all_to_end(store);
    match store.append(request(stream, expected, 2)) {
        Err(StoreError::WrongExpectedVersion { stream: s, expected: e, actual: a }) => {
            assert_eq!((s.as_str(), e, a), (stream, expected, actual), "conflict reports the stream and versions");
        }
        other => panic!("expected a conflict for {expected} on {stream}, got {other:?}"),
    }
    assert_eq!(read_all_to_end(store), before, "a conflict writes nothing to $all");
    assert_eq!(store.stream_version(stream).expect("stream version"), actual, "a conflict leaves the stream alone");
}

/// `Any` on a missing stream creates it at version 0.
pub fn append_with_any_creates_a_missing_stream(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let result = store.append(request(&stream, ExpectedVersion::Any, 2)).expect("append");
    assert_eq!(versions(&result.events), [0, 1]);
    assert_eq!(result.stream_version, 1);
    assert!(!result.replayed);
    assert_eq!(store.stream_version(&stream).expect("version"), Some(1));
}

/// `Any` on an existing stream appends after its last event.
pub fn append_with_any_extends_an_existing_stream(store: &dyn EventStore) {
    let stream = existing_stream(store, 3);
    let result = store.append(request(&stream, ExpectedVersion::Any, 2)).expect("append");
    assert_eq!(versions(&result.events), [3, 4]);
    assert_eq!(versions(&read_stream_to_end(store, &stream)), [0, 1, 2, 3, 4]);
}

/// `NoStream` on a missing stream creates it.
pub fn append_with_no_stream_creates_a_missing_stream(store: &dyn EventStore) {
    let stream = unique_stream("campaign");
    let result = store.append(request(&stream, ExpectedVersion::NoStream, 1)).expect("append");
    assert_eq!(versions(&result.events), [0]);
    assert_eq!(result.stream_version, 0);
}

/// `NoStream` on an existing stream is a conflict and writes nothing.
pub fn append_with_no_stream_conflicts_when_stream_exists(store: &dyn EventStore) {
    let stream = existing_stream(store, 2);
    assert_conflict(store, &stream, ExpectedVersion::NoStream, Some(1));
}

/// `StreamExists` on an existing stream appends.
pub fn append_with_stream_exists_extends_an_existing_stream(store: &dyn EventStore) {
    let stream = existing_stream(store, 1);
    let result = store.append(request(&stream, ExpectedVersion::StreamExists, 1)).expect("append");
    assert_eq!(versions(&result.events), [1]);
}

/// `StreamExists` on a missing stream is a conflict and writes nothing.
pub fn append_with_stream_exists_conflicts_when_stream_is_missing(store: &dyn EventStore) {
    existing_stream(store, 1);
    assert_conflict(store, &unique_stream("battle"), ExpectedVersion::StreamExists, None);
}

/// `Exact(n)` on a stream whose last version is `n` appends at `n + 1`.
pub fn append_with_exact_version_extends_a_stream_at_that_version(store: &dyn EventStore) {
    let stream = existing_stream(store, 2);
    let result = store.append(request(&stream, ExpectedVersion::Exact(1), 3)).expect("append");
    assert_eq!(versions(&result.events), [2, 3, 4]);
    assert_eq!(result.stream_version, 4);
}

/// `Exact(n)` on a stream that has moved past `n` (or not reached it) is a conflict.
pub fn append_with_exact_version_conflicts_when_stream_moved_on(store: &dyn EventStore) {
    let stream = existing_stream(store, 3);
    assert_conflict(store, &stream, ExpectedVersion::Exact(1), Some(2));
    assert_conflict(store, &stream, ExpectedVersion::Exact(3), Some(2));
}

/// `Exact(0)` on a missing stream is a conflict: version 0 means one event exists.
pub fn append_with_exact_version_conflicts_when_stream_is_missing(store: &dyn EventStore) {
    existing_stream(store, 1);
    assert_conflict(store, &unique_stream("battle"), ExpectedVersion::Exact(0), None);
}

/// An append without events is refused before anything is written.
pub fn append_without_events_is_invalid(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let result = store.append(request(&stream, ExpectedVersion::Any, 0));
    assert!(matches!(result, Err(StoreError::Invalid(_))), "got {result:?}");
    assert_eq!(store.stream_version(&stream).expect("version"), None);
    assert_eq!(store.head_position().expect("head"), None);
}

/// Empty stream names and `$`-prefixed (system) names are refused.
pub fn append_to_an_empty_or_reserved_stream_name_is_invalid(store: &dyn EventStore) {
    for stream in ["", "$all", "$by-type"] {
        let result = store.append(request(stream, ExpectedVersion::Any, 1));
        assert!(matches!(result, Err(StoreError::Invalid(_))), "stream {stream:?}: got {result:?}");
    }
    assert_eq!(store.head_position().expect("head"), None);
}
