//! Idempotency cases: a command id is written once, however often (and however concurrently)
//! it is sent, and the command is kept with what it wrote.

use super::{read_all_to_end, read_stream_to_end, request, unique_stream};
use crate::{AppendRequest, EventStore, ExpectedVersion, StoreError};

fn with_command(stream: &str, expected: ExpectedVersion, count: usize, command_id: &str) -> AppendRequest {
    AppendRequest {
        command_id: Some(command_id.to_string()),
        command: Some(serde_json::json!({ "type": "MoveUnit", "unit": "a7", "to": [3, 4] }).into()),
        ..request(stream, expected, count)
    }
}

/// A repeat returns the first result, marked replayed, and leaves `$all` as it was.
pub fn repeated_command_id_returns_the_first_result_and_writes_nothing(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let command_id = uuid::Uuid::now_v7().to_string();
    let first = store.append(with_command(&stream, ExpectedVersion::Any, 2, &command_id)).expect("first append");
    assert!(!first.replayed);
    let all_before = read_all_to_end(store);
    let head_before = store.head_position().expect("head");

    // A retry carries new event ids (the decider ran again); the first result still wins.
    let again = store.append(with_command(&stream, ExpectedVersion::Any, 2, &command_id)).expect("repeat");
    assert!(again.replayed, "a repeat is marked replayed");
    assert_eq!(again.events, first.events, "a repeat returns the first append's events");
    assert_eq!(again.stream_version, first.stream_version);
    assert_eq!(read_all_to_end(store), all_before, "a repeat writes nothing");
    assert_eq!(store.head_position().expect("head"), head_before, "a repeat leaves the head alone");
}

/// A repeat is recognised before the expected version is checked: the first append is what
/// moved the stream, so the retry must not turn into a conflict.
pub fn repeated_command_id_is_replayed_even_after_the_stream_moved_on(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let command_id = uuid::Uuid::now_v7().to_string();
    let first = store.append(with_command(&stream, ExpectedVersion::NoStream, 1, &command_id)).expect("first");
    store.append(request(&stream, ExpectedVersion::Any, 3)).expect("others move the stream on");
    let again = store.append(with_command(&stream, ExpectedVersion::NoStream, 1, &command_id)).expect("repeat");
    assert!(again.replayed);
    assert_eq!(again.events, first.events);
    assert_eq!(read_stream_to_end(store, &stream).len(), 4);
}

/// The same command id on another stream is a client bug, reported and not written.
pub fn command_id_reused_for_another_stream_is_rejected(store: &dyn EventStore) {
    let command_id = uuid::Uuid::now_v7().to_string();
    store.append(with_command(&unique_stream("battle"), ExpectedVersion::Any, 1, &command_id)).expect("first");
    let other = unique_stream("battle");
    let result = store.append(with_command(&other, ExpectedVersion::Any, 1, &command_id));
    assert!(
        matches!(&result, Err(StoreError::CommandIdReused { command_id: id }) if *id == command_id),
        "got {result:?}"
    );
    assert_eq!(store.stream_version(&other).expect("version"), None, "nothing written to the other stream");
    assert_eq!(read_all_to_end(store).len(), 1);
}

/// `stored_command` returns the command payload with the versions and position it produced.
pub fn stored_command_returns_the_command_with_what_it_wrote(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::Any, 2)).expect("earlier events");
    let command_id = uuid::Uuid::now_v7().to_string();
    let request = with_command(&stream, ExpectedVersion::Exact(1), 3, &command_id);
    let payload = request.command.clone();
    let result = store.append(request).expect("append");
    let stored = store.stored_command(&command_id).expect("read command").expect("command is stored");
    assert_eq!(stored.command_id, command_id);
    assert_eq!(stored.stream, stream);
    assert_eq!(stored.command, payload);
    assert_eq!((stored.first_version, stored.last_version), (2, 4));
    assert_eq!(stored.first_position, result.events[0].position);
    assert_eq!(store.stored_command("never-sent").expect("read command"), None);
}

/// Eight threads sending the same command at once: one write, seven replays of it.
pub fn concurrent_repeats_of_a_command_write_it_once(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let command_id = uuid::Uuid::now_v7().to_string();
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| scope.spawn(|| store.append(with_command(&stream, ExpectedVersion::Any, 2, &command_id))))
            .collect();
        handles.into_iter().map(|h| h.join().expect("appender thread").expect("append")).collect()
    });
    assert_eq!(results.iter().filter(|r| !r.replayed).count(), 1, "exactly one append writes");
    let written = results.iter().find(|r| !r.replayed).expect("the writing append");
    for result in &results {
        assert_eq!(result.events, written.events, "every repeat returns the written events");
    }
    assert_eq!(read_stream_to_end(store, &stream), written.events);
    assert_eq!(read_all_to_end(store).len(), 2);
}
