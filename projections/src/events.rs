//! Events as a reader sees them: the stored envelope with hidden payload fields removed.

use chrono::{DateTime, Utc};
use herald_store::RecordedEvent;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use herald_domain::{registry, Viewer};

use crate::catalog::Entry;

/// An event envelope (DESIGN.md "The event log"), as served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "01936f3e-8f5a-7cc2-9a51-3f4f0c1e9b10", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a001",
    "version": 2, "position": 17, "type": "coalition.StrategySubmitted", "schema": 2,
    "recorded_at": "2026-11-21T10:00:00Z", "actor": "token:alice", "command_id": "c-42",
    "correlation_id": "req-7", "causation_id": "c-42", "rules": "coalition-battle@1",
    "data": {"type": "coalition.StrategySubmitted", "side": "a", "strategy": "hidden", "by": "token:alice", "at": "2026-11-21T10:00:00Z"}
}))]
pub struct EventView {
    /// Event id (UUIDv7).
    pub id: uuid::Uuid,
    /// Stream name.
    pub stream: String,
    /// Version within the stream.
    pub version: u64,
    /// Position in `$all`.
    pub position: u64,
    /// Type name.
    #[serde(rename = "type")]
    pub event_type: String,
    /// Payload schema version.
    pub schema: u32,
    /// When the command was received.
    pub recorded_at: DateTime<Utc>,
    /// Who acted.
    pub actor: String,
    /// The command that produced it.
    pub command_id: Option<String>,
    /// The request it belongs to.
    pub correlation_id: Option<String>,
    /// What caused it.
    pub causation_id: Option<String>,
    /// Ruleset and rules version.
    pub rules: String,
    /// The payload, tagged by its `type` (the same as the envelope's), with fields hidden from
    /// this reader replaced by `"hidden"`.
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
}

impl EventView {
    /// The event as `viewer` may see it, given the current state of its stream (`None` when the
    /// catalog holds none).
    ///
    /// The event's own `rules` pick the redaction, whatever the catalog holds for its stream:
    /// payloads of older schemas are upcast first, then the ruleset hides what `viewer` may not
    /// see. A ruleset's event on a stream the catalog has not folded yet is redacted as for a
    /// stream that has just begun, so an unexpected state never leaks a sealed strategy.
    pub fn new(event: &RecordedEvent, current: Option<&Entry>, viewer: &Viewer) -> Self {
        let data = match registry::by_rules(&event.rules) {
            Some(ruleset) => {
                let mut data = ruleset
                    .upcast(&event.event_type, event.schema, event.data.get())
                    .unwrap_or(serde_json::Value::Null);
                match current.filter(|entry| entry.ruleset.rules() == ruleset.rules()) {
                    Some(entry) => ruleset.redact_event(&mut data, entry.state.as_ref(), viewer),
                    None => ruleset.redact_event(&mut data, ruleset.new_state().as_ref(), viewer),
                }
                data
            }
            // The service's own events (`auth.TokenIssued`, rules `herald@1`) are stored untagged;
            // they are served tagged like every other payload, as the OpenAPI union says.
            None => {
                let mut data = event.data.to_value();
                if let Some(object) = data.as_object_mut() {
                    object.entry("type").or_insert_with(|| event.event_type.clone().into());
                }
                data
            }
        };
        Self {
            id: event.id,
            stream: event.stream.clone(),
            version: event.version,
            position: event.position,
            event_type: event.event_type.clone(),
            schema: event.schema,
            recorded_at: event.recorded_at,
            actor: event.actor.clone(),
            command_id: event.command_id.clone(),
            correlation_id: event.correlation_id.clone(),
            causation_id: event.causation_id.clone(),
            rules: event.rules.clone(),
            data,
        }
    }
}

/// Which events a listing keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilter {
    /// Keep only these types (any of them); empty keeps all.
    pub types: Vec<String>,
    /// Keep only events by this actor.
    pub actor: Option<String>,
}

impl EventFilter {
    /// Whether `event` passes the filter.
    pub fn matches(&self, event: &RecordedEvent) -> bool {
        (self.types.is_empty() || self.types.contains(&event.event_type))
            && self.actor.as_ref().is_none_or(|actor| *actor == event.actor)
    }
}
