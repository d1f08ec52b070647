//! Envelope and secret cases: what goes in comes out unchanged, and secrets stay out of reads.

use super::{read_all_to_end, request, unique_stream};
use crate::{AppendRequest, Direction, EventStore, ExpectedVersion, NewEvent};

/// Every envelope field survives the append and every read path, including nanosecond
/// timestamps, absent optional fields and nested payloads.
pub fn events_keep_their_whole_envelope(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let full = NewEvent {
        id: uuid::Uuid::now_v7(),
        event_type: "coalition.UnitMoved".into(),
        schema: 3,
        recorded_at: chrono::DateTime::from_timestamp(1_700_000_000, 123_456_789).expect("valid timestamp"),
        actor: "player:7".into(),
        command_id: Some("cmd-1".into()),
        correlation_id: Some("corr-1".into()),
        causation_id: Some("cause-1".into()),
        rules: "coalition@1".into(),
        data: serde_json::json!({ "unit": "a7", "path": [[1, 2], [2, 3]], "z": null, "a": { "deep": true } }).into(),
    };
    let sparse = NewEvent {
        command_id: None,
        correlation_id: None,
        causation_id: None,
        data: serde_json::json!("just a string, with unicode: ⚔").into(),
        ..full.clone()
    };
    let sparse = NewEvent { id: uuid::Uuid::now_v7(), ..sparse };
    let result = store
        .append(AppendRequest {
            stream: stream.clone(),
            expected: ExpectedVersion::NoStream,
            events: vec![full.clone(), sparse.clone()],
            command_id: None,
            command: None,
        })
        .expect("append");
    for (recorded, new) in result.events.iter().zip([&full, &sparse]) {
        assert_eq!(recorded.id, new.id);
        assert_eq!(recorded.stream, stream);
        assert_eq!(recorded.event_type, new.event_type);
        assert_eq!(recorded.schema, new.schema);
        assert_eq!(recorded.recorded_at, new.recorded_at);
        assert_eq!(recorded.actor, new.actor);
        assert_eq!(recorded.command_id, new.command_id);
        assert_eq!(recorded.correlation_id, new.correlation_id);
        assert_eq!(recorded.causation_id, new.causation_id);
        assert_eq!(recorded.rules, new.rules);
        assert_eq!(recorded.data, new.data);
    }
    let forwards = store.read_stream(&stream, 0, Direction::Forwards, 10).expect("read forwards");
    assert_eq!(forwards, result.events);
    assert_eq!(read_all_to_end(store), result.events);
    // Key order of JSON objects is kept (serde_json preserve_order in the workspace).
    let payload = forwards[0].data.to_value();
    let keys: Vec<&String> = payload.as_object().expect("object payload").keys().collect();
    assert_eq!(keys, ["unit", "path", "z", "a"]);
}

/// Secrets round-trip, can be replaced, and never show up in the event log.
pub fn secrets_are_kept_apart_from_the_event_log(store: &dyn EventStore) {
    let stream = unique_stream("campaign");
    store.append(request(&stream, ExpectedVersion::Any, 1)).expect("append");
    let head = store.head_position().expect("head");
    assert_eq!(store.get_secret("seed-1").expect("get"), None);
    store.put_secret("seed-1", b"sealed seed bytes").expect("put");
    store.put_secret("seed-2", &[0, 255, 7]).expect("put");
    assert_eq!(store.get_secret("seed-1").expect("get").as_deref(), Some(&b"sealed seed bytes"[..]));
    store.put_secret("seed-1", b"replaced").expect("replace");
    assert_eq!(store.get_secret("seed-1").expect("get").as_deref(), Some(&b"replaced"[..]));
    assert_eq!(store.get_secret("seed-2").expect("get").as_deref(), Some(&[0, 255, 7][..]));
    assert_eq!(store.head_position().expect("head"), head, "a secret is not an event");
    assert_eq!(read_all_to_end(store).len(), 1);
    for name in ["seed-1", "secrets", "$secrets"] {
        assert!(store.read_stream(name, 0, Direction::Forwards, 10).expect("read").is_empty());
    }
}
