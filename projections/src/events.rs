//! Events as a reader sees them: the stored envelope with hidden payload fields removed.

use chrono::{DateTime, Utc};
use herald_store::RecordedEvent;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use herald_domain::{registry, viewer::HIDDEN, Role, Viewer};

use crate::catalog::Entry;

/// An event envelope (DESIGN.md "The event log"), as served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "01936f3e-8f5a-7cc2-9a51-3f4f0c1e9b10", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a001",
    "version": 2, "position": 17, "type": "coalition.StrategySubmitted", "schema": 2,
    "recorded_at": "2026-11-21T10:00:00Z", "actor": "token:alice",
    "who": {"id": "token:alice", "role": "player", "player": "alice", "label": "hidden", "token": "active", "name": "alice"},
    "command_id": "c-42",
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
    /// Who acted: the actor id as recorded (`token:<id>`, or `system` for the service itself).
    pub actor: String,
    /// Who acted, as a person: the role, the player's name, the token's label (only for admins
    /// and the token's holder), whether the token is known, revoked or expired, and the name to
    /// show (docs/API.md "Actors and who sees a token's label"). Resolved when read, from the
    /// token registry; the log keeps only the id.
    pub who: ActorView,
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
            Some(ruleset) => ruleset.upcast(&event.event_type, event.schema, event.data.get()),
            None => Ok(event.data.to_value()),
        };
        Self::decided(event, data.unwrap_or(serde_json::Value::Null), current, viewer)
    }

    /// [`EventView::new`] with the payload already parsed, in the current schema: what a command
    /// decided, which the store wrote as `event.data`, so it is not parsed back to be answered.
    pub fn decided(
        event: &RecordedEvent,
        mut data: serde_json::Value,
        current: Option<&Entry>,
        viewer: &Viewer,
    ) -> Self {
        match registry::by_rules(&event.rules) {
            Some(ruleset) => match current.filter(|entry| entry.ruleset.rules() == ruleset.rules()) {
                Some(entry) => ruleset.redact_event(&mut data, entry.state.as_ref(), viewer),
                None => ruleset.redact_event(&mut data, ruleset.new_state().as_ref(), viewer),
            },
            // The service's own events (`auth.TokenIssued`, rules `herald@1`) are stored untagged;
            // they are served tagged like every other payload, as the OpenAPI union says.
            None => {
                if let Some(object) = data.as_object_mut() {
                    object.entry("type").or_insert_with(|| event.event_type.clone().into());
                }
            }
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
            who: ActorView::unresolved(&event.actor),
            command_id: event.command_id.clone(),
            correlation_id: event.correlation_id.clone(),
            causation_id: event.causation_id.clone(),
            rules: event.rules.clone(),
            data,
        }
    }
}

/// The actor id the service itself records (a seed revealed when a battle ends, a battle opened
/// by an adjudication, a sanction relayed).
pub const SYSTEM_ACTOR: &str = "system";

/// What is known of the token behind an actor id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TokenState {
    /// The token works.
    Active,
    /// An admin revoked it (what it did stays on the record).
    Revoked,
    /// Its expiry has passed.
    Expired,
    /// No token of this id is issued on this host (a log imported from elsewhere, or an actor
    /// recorded by a test or a tool): the id is all there is.
    Unknown,
}

/// What the token registry says of one token, for [`ActorView::of_token`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenFacts {
    /// The role it grants.
    pub role: Role,
    /// For players: the player name it acts as.
    pub player: Option<String>,
    /// The admins' note on it.
    pub label: Option<String>,
    /// Whether it still works.
    pub state: TokenState,
}

/// Who acted, as a person (docs/API.md "Actors and who sees a token's label").
///
/// The log records only an actor id (`token:<id>`); the role, the player name and the label are
/// the token's, looked up in the token registry when the event is read. A player's name is
/// public (it is the name the rules know the player by: the controller of armies and sides); a
/// token's label is an admin's note and is shown only to admins of the stream and to the
/// token's own holder, as `"hidden"` to everyone else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"id": "token:0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f", "role": "judge", "label": "hidden", "token": "active", "name": "judge"}))]
pub struct ActorView {
    /// The actor id as recorded, the same as the envelope's `actor`.
    pub id: String,
    /// The role: `player`, `judge`, `admin`, `observer`, or `system` for the service itself.
    /// Absent when the token is unknown. Inline, because the document's `Role` component is a
    /// token's role, which is never `system`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(inline)]
    pub role: Option<Role>,
    /// For players: the player name the token acts as (public).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The token's label, for admins of the stream and the token's holder; `"hidden"` for
    /// everyone else; absent when the token has none (or is unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Whether the token is active, revoked, expired or unknown; absent for the service itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<TokenState>,
    /// The name to show: the player's name, else the label where this reader may see it, else
    /// the role (`judge`, `admin`, `observer`), `Herald` for the service, `unknown token`.
    pub name: String,
}

impl ActorView {
    /// The actor with nothing looked up: the service itself, or an unknown token.
    pub fn unresolved(id: &str) -> Self {
        if id == SYSTEM_ACTOR {
            return Self {
                id: id.to_string(),
                role: Some(Role::System),
                player: None,
                label: None,
                token: None,
                name: "Herald".into(),
            };
        }
        Self {
            id: id.to_string(),
            role: None,
            player: None,
            label: None,
            token: Some(TokenState::Unknown),
            name: "unknown token".into(),
        }
    }

    /// The actor `id` acting with a token the registry knows; `label_visible` says whether this
    /// reader may see its label ([`label_visible`]).
    pub fn of_token(id: &str, facts: &TokenFacts, label_visible: bool) -> Self {
        let label = facts.label.as_ref().map(|label| if label_visible { label.clone() } else { HIDDEN.to_string() });
        let name = match (&facts.player, &facts.label) {
            (Some(player), _) => player.clone(),
            (None, Some(label)) if label_visible => label.clone(),
            (None, _) => role_word(&facts.role).to_string(),
        };
        Self {
            id: id.to_string(),
            role: Some(facts.role.clone()),
            player: facts.player.clone(),
            label,
            token: Some(facts.state),
            name,
        }
    }
}

/// Whether a reader sees the label of the token `actor` acted with: admins of the stream
/// (`viewer` is how the reader sees that stream, so an admin outside its token's scope reads
/// as the public) and the holder of that very token (`reader` is the reader's own actor id).
pub fn label_visible(viewer: &Viewer, reader: Option<&str>, actor: &str) -> bool {
    viewer.role == Role::Admin || reader == Some(actor)
}

/// A role in words, for [`ActorView::name`].
fn role_word(role: &Role) -> &'static str {
    match role {
        Role::Admin => "admin",
        Role::Judge => "judge",
        Role::Player => "player",
        Role::Observer => "observer",
        Role::System => "Herald",
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

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(role: Role, player: Option<&str>, label: Option<&str>, state: TokenState) -> TokenFacts {
        TokenFacts { role, player: player.map(String::from), label: label.map(String::from), state }
    }

    fn reader(role: Role, player: Option<&str>) -> Viewer {
        Viewer { role, player: player.map(String::from) }
    }

    #[test]
    fn the_service_and_an_unknown_token_are_named_without_failing() {
        let system = ActorView::unresolved(SYSTEM_ACTOR);
        assert_eq!((system.role, system.token, system.name.as_str()), (Some(Role::System), None, "Herald"));
        let unknown = ActorView::unresolved("token:gone");
        assert_eq!((unknown.role, unknown.token), (None, Some(TokenState::Unknown)));
        assert_eq!((unknown.id.as_str(), unknown.name.as_str()), ("token:gone", "unknown token"));
    }

    #[test]
    fn a_players_name_is_shown_and_a_hidden_label_never_becomes_the_name() {
        let alice = facts(Role::Player, Some("alice"), Some("alice's phone"), TokenState::Revoked);
        let hidden = ActorView::of_token("token:a", &alice, false);
        assert_eq!((hidden.player.as_deref(), hidden.label.as_deref()), (Some("alice"), Some(HIDDEN)));
        assert_eq!((hidden.name.as_str(), hidden.token), ("alice", Some(TokenState::Revoked)));
        let judge = facts(Role::Judge, None, Some("Battle Judge, round 12"), TokenState::Active);
        assert_eq!(ActorView::of_token("token:j", &judge, false).name, "judge");
        let shown = ActorView::of_token("token:j", &judge, true);
        assert_eq!(
            (shown.label.as_deref(), shown.name.as_str()),
            (Some("Battle Judge, round 12"), "Battle Judge, round 12")
        );
        let unlabelled = ActorView::of_token("token:o", &facts(Role::Observer, None, None, TokenState::Expired), true);
        assert_eq!((unlabelled.label, unlabelled.name.as_str()), (None, "observer"));
    }

    #[test]
    fn labels_are_for_admins_of_the_stream_and_the_tokens_holder() {
        assert!(label_visible(&reader(Role::Admin, None), None, "token:a"));
        assert!(label_visible(&reader(Role::Player, Some("alice")), Some("token:a"), "token:a"));
        assert!(label_visible(&reader(Role::Judge, None), Some("token:j"), "token:j"));
        assert!(!label_visible(&reader(Role::Player, Some("bob")), Some("token:b"), "token:a"));
        assert!(!label_visible(&reader(Role::Judge, None), Some("token:j"), "token:a"));
        assert!(!label_visible(&reader(Role::System, None), None, "token:a"));
        assert!(!label_visible(&Viewer::public(), None, "token:a"));
    }
}
