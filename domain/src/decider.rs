//! The decider every ruleset implements: `decide` and `evolve`, pure functions over state.

use chrono::{DateTime, Utc};
use serde::{de::DeserializeOwned, Serialize};

use crate::{dice::DiceTape, Actor, RuleError};

/// Everything outside the rules that a decision may use (DESIGN.md "The decider").
///
/// The time is taken once at the API edge and stored with the command, so running the
/// decision again later gives the same answer.
#[derive(Debug)]
pub struct Context {
    /// The stream the command is for (`battle-…`); mixed into the dice key.
    pub stream: String,
    /// Who acts.
    pub actor: Actor,
    /// When the command was received, as recorded.
    pub recorded_at: DateTime<Utc>,
    /// The stream's dice tape, positioned where the stream's last draw ended.
    pub dice: DiceTape,
}

/// Where a stream's dice tape stands, as its state knows it.
///
/// The application layer turns this into a [`DiceTape`]: it fetches the sealed server seed,
/// checks it against `commitment`, derives the effective seed with
/// [`crate::dice::seed::effective_seed`] and positions the tape at `next_word`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceCursor {
    /// `sha256(server seed)`, published in the stream's first event.
    pub commitment: [u8; 32],
    /// Entropy contributed by participants, in order.
    pub contributions: Vec<String>,
    /// Index of the next ChaCha20 output word to draw.
    pub next_word: u64,
    /// Whether a rule now requires the seed to be revealed (the battle ended).
    pub reveal_due: bool,
    /// The server seed, once revealed in the stream.
    pub revealed: Option<[u8; 32]>,
}

/// Stable, versioned names of events (`coalition.BattleResolved`).
///
/// The name is the payload's `type` tag, declared once per variant with `#[serde(rename)]`, and
/// the envelope's `type` is taken from it: one name means one event in the log, the API and the
/// OpenAPI document.
pub trait EventType: Serialize {
    /// The event's type name, as stored in the log.
    fn event_type(&self) -> String {
        event_type_of(&serde_json::to_value(self).unwrap_or_default())
    }
}

/// The type name a serialized event payload is tagged with (empty when it has none).
pub fn event_type_of(payload: &serde_json::Value) -> String {
    payload.get("type").and_then(serde_json::Value::as_str).unwrap_or_default().to_string()
}

/// A ruleset: three pure functions and the metadata the log records with each event.
pub trait Decider {
    /// Folded state of one stream.
    type State: Default + Clone;
    /// What a client asks for (serde; documented in OpenAPI).
    type Command: Serialize + DeserializeOwned + Clone;
    /// What happened (serde; each variant has a stable type name).
    type Event: Serialize + DeserializeOwned + Clone + EventType + PartialEq;

    /// The ruleset id and rules version stored with every event (`coalition@1`).
    const RULES: &'static str;

    /// Decide what a command produces, or why the rules refuse it.
    fn decide(state: &Self::State, cmd: &Self::Command, ctx: &mut Context) -> Result<Vec<Self::Event>, RuleError>;

    /// Apply an event that already happened. Never fails, never rolls.
    fn evolve(state: &mut Self::State, event: &Self::Event);

    /// The stream's dice cursor, or `None` while the stream has no dice.
    fn dice(state: &Self::State) -> Option<DiceCursor>;

    /// The command that reveals the stream's seed, for rulesets with sealed dice.
    ///
    /// The application runs it as the service when [`DiceCursor::reveal_due`] says a rule now
    /// requires the seed to be public (a battle ended), and for a judge who reveals it early.
    fn reveal_seed(_seed_hex: String) -> Option<Self::Command> {
        None
    }

    /// Fold events into a state.
    fn fold<'a>(events: impl IntoIterator<Item = &'a Self::Event>) -> Self::State
    where
        Self::Event: 'a,
    {
        let mut state = Self::State::default();
        for event in events {
            Self::evolve(&mut state, event);
        }
        state
    }
}
