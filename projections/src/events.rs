//! Events as a reader sees them: the stored envelope with hidden payload fields removed.

use chrono::{DateTime, Utc};
use herald_store::RecordedEvent;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    catalog::{is_warmachine_rules, Current},
    redact::{redact_battle_event, redact_campaign_event, Viewer},
};

/// An event envelope (DESIGN.md "The event log"), as served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "01936f3e-8f5a-7cc2-9a51-3f4f0c1e9b10", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a001",
    "version": 2, "position": 17, "type": "coalition.StrategySubmitted", "schema": 1,
    "recorded_at": "2026-11-21T10:00:00Z", "actor": "token:alice", "command_id": "c-42",
    "correlation_id": "req-7", "causation_id": "c-42", "rules": "coalition-battle@1",
    "data": {"type": "strategy_submitted", "side": "a", "strategy": "hidden", "by": "token:alice", "at": "2026-11-21T10:00:00Z"}
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
    /// The payload, with fields hidden from this reader replaced by `"hidden"`.
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
}

impl EventView {
    /// The event as `viewer` may see it, given the current state of its stream.
    ///
    /// Which redaction applies is decided by the event's own `rules` first: a warmachine event
    /// hides nothing (see [`crate::redact`]), whatever the catalog holds for its stream, while a
    /// coalition event on a `battle-` stream without a coalition read model (not folded yet) is
    /// redacted as for a battle that has not ended, so an unexpected state never leaks a sealed
    /// strategy.
    pub fn new(event: &RecordedEvent, current: &Current, viewer: &Viewer) -> Self {
        let mut data = event.data.clone();
        match current {
            _ if is_warmachine_rules(&event.rules) => {}
            Current::Battle(battle) => redact_battle_event(&mut data, battle, viewer),
            Current::Campaign(campaign) => redact_campaign_event(&mut data, campaign, viewer),
            Current::Warmachine(_) | Current::Unknown if event.stream.starts_with("battle-") => {
                redact_battle_event(&mut data, &Default::default(), viewer)
            }
            Current::Warmachine(_) | Current::Unknown => {}
        }
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
