//! The warmachine read-model tests' helpers: the battle `herald-test-support` plays through the
//! real decider (re-exported), and appends of its events to a real store.
#![allow(dead_code)]

use chrono::Utc;
use herald_domain::{
    warmachine::battle::{Warmachine, WarmachineEvent},
    Decider, EventType,
};
use herald_store::{AppendRequest, EventStore, ExpectedVersion, NewEvent, RecordedEvent, SledStore};
pub use herald_test_support::warmachine::*;

/// The stored envelope of `event` as the application writes it.
/// An envelope of payload schema 1: the payload tagged by its variant's own name
/// (`entropy_contributed`), as events were written before schema 2; read models upcast it.
pub fn new_event(event_type: &str, rules: &str, data: serde_json::Value) -> NewEvent {
    NewEvent { schema: 1, ..current_event(event_type, rules, data) }
}

/// An envelope of the current payload schema.
pub fn current_event(event_type: &str, rules: &str, data: serde_json::Value) -> NewEvent {
    NewEvent {
        id: uuid::Uuid::now_v7(),
        event_type: event_type.into(),
        schema: herald_domain::ruleset::EVENT_SCHEMA,
        recorded_at: Utc::now(),
        actor: "test".into(),
        command_id: None,
        correlation_id: None,
        causation_id: None,
        rules: rules.into(),
        data: data.into(),
    }
}

/// The envelope of a warmachine event.
pub fn warmachine_event(event: &WarmachineEvent) -> NewEvent {
    current_event(&event.event_type(), Warmachine::RULES, serde_json::to_value(event).expect("events serialize"))
}

/// Append `events` to `stream` in one append.
pub fn append(store: &SledStore, stream: &str, events: Vec<NewEvent>) -> Vec<RecordedEvent> {
    let request = AppendRequest {
        stream: stream.into(),
        expected: ExpectedVersion::Any,
        events,
        command_id: None,
        command: None,
    };
    store.append(request).expect("append").events
}

/// A stored event as the store would return it, for tests that need no store.
pub fn recorded(stream: &str, event: NewEvent) -> RecordedEvent {
    RecordedEvent {
        id: event.id,
        stream: stream.into(),
        version: 0,
        position: 0,
        event_type: event.event_type,
        schema: event.schema,
        recorded_at: event.recorded_at,
        actor: event.actor,
        command_id: event.command_id,
        correlation_id: event.correlation_id,
        causation_id: event.causation_id,
        rules: event.rules,
        data: event.data,
    }
}
