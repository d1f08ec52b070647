//! Rulesets as registered plug-ins: what the service needs from each ruleset, in one shape.
//!
//! A ruleset is a [`Decider`] plus what the service does with its streams: how a stream of it is
//! set up, how each reader sees it (hidden information included), its optional picture, its
//! listing line, and for tactical rulesets the outcome a campaign battle can take over. The typed
//! [`Ruleset`] trait is what a ruleset folder implements; [`AnyRuleset`] is the type-erased face
//! (JSON in, JSON out) that the routes, read models, replay verification and the OpenAPI
//! document iterate, made for every `Ruleset` by a blanket implementation. The list of
//! registered rulesets is [`crate::registry`].

mod erased;
pub mod sheet;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use erased::{
    decode, in_api_words, AnyRuleset, AnyState, FieldMismatch, Refusal, Registered, RulesetSchemas, SchemaComponents,
};

use crate::{dice::JudgeRoll, viewer::Viewer, Actor, Decider, RuleError};

/// The payload schema every event is written with. Schema 1 tagged a payload by its variant's
/// own name (`seed_revealed`); schema 2 tags it by the event's full type
/// (`coalition.SeedRevealed`), the same as the envelope's, so one name means one event
/// everywhere and the OpenAPI document can discriminate every payload by its `type`.
pub const EVENT_SCHEMA: u32 = 2;

/// A battle's id from its stream name (`battle-<uuid>` → `<uuid>`): what views and pictures
/// show of it.
pub fn battle_id(stream: &str) -> &str {
    stream.strip_prefix("battle-").unwrap_or(stream)
}

/// The word a unit-variant enum (a battle's phase) serialises to, for a listing's `status`.
pub fn status_word(phase: &impl Serialize) -> String {
    serde_json::to_value(phase).ok().and_then(|value| value.as_str().map(String::from)).unwrap_or_default()
}

/// Player names, each once, in the order first named, without the absent ones (a side the GM
/// plays): a listing's `players`.
pub fn players<'a>(names: impl IntoIterator<Item = Option<&'a String>>) -> Vec<String> {
    let mut players: Vec<String> = Vec::new();
    for name in names.into_iter().flatten() {
        if !players.contains(name) {
            players.push(name.clone());
        }
    }
    players
}

/// A schema-1 payload, upcast to schema 2: its tag becomes the envelope's type. Payloads are
/// upcast when read, never rewritten.
pub fn upcast_v1_tag(event_type: &str, data: &Value) -> Value {
    let mut data = data.clone();
    if let Some(object) = data.as_object_mut() {
        object.insert("type".into(), Value::String(event_type.to_string()));
    }
    data
}

/// In a schema-1 payload, turn `field`'s list of pairs (`[["a", 1]]`) into the list of objects
/// schema 2 writes (`[{"army": "a", "losses": 1}]`), naming the two parts `names`.
pub fn upcast_pairs(data: &mut Value, field: &str, names: [&str; 2]) {
    let Some(items) = data.get_mut(field).and_then(Value::as_array_mut) else { return };
    for item in items.iter_mut() {
        if let Some([first, second]) = item.as_array().and_then(|pair| <&[Value; 2]>::try_from(pair.as_slice()).ok()) {
            let object: serde_json::Map<String, Value> =
                [(names[0].to_string(), first.clone()), (names[1].to_string(), second.clone())].into_iter().collect();
            *item = Value::Object(object);
        }
    }
}

/// What kind of stream a ruleset keeps, and so the prefix of its stream names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreamKind {
    /// `battle-{uuid}`: one battle, created with `POST /v1/battles`.
    Battle,
    /// `campaign-{uuid}`: a campaign round, created with `POST /v1/campaigns`.
    Campaign,
}

impl StreamKind {
    /// The stream-name prefix, without the dash (`battle`).
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Battle => "battle",
            Self::Campaign => "campaign",
        }
    }

    /// The kind a stream name denotes, from its `{kind}-` prefix.
    pub fn of(stream: &str) -> Option<Self> {
        [Self::Battle, Self::Campaign]
            .into_iter()
            .find(|kind| stream.strip_prefix(kind.prefix()).is_some_and(|rest| rest.starts_with('-')))
    }
}

/// One line of a listing: what every ruleset can say about a stream of it, in the same words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Summary {
    /// Where it stands, in the ruleset's own words (`awaiting_strategies`, `activation`).
    pub status: String,
    /// Whether it is over.
    pub ended: bool,
    /// The turn or round, for rulesets that count them.
    pub turn: Option<u32>,
    /// Who takes part: sides' armies, players, factions.
    pub participants: Vec<String>,
    /// The players acting in it, by name (the `player` of their tokens), each once: whoever
    /// controls the participants, or any figure of theirs. The GM, who plays what no player does,
    /// is not one of them.
    #[serde(default)]
    pub players: Vec<String>,
    /// The winner, once decided, as the ruleset names it (a side, a player, a faction).
    pub winner: Option<String>,
}

/// One participant of a tactical battle, as a campaign battle fought out under it needs to know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Participant {
    /// The participant's name in the tactical battle (a player, a faction).
    pub name: String,
    /// The player name of whoever acted for it.
    pub controller: String,
    /// Figures it fielded (models, characters, minis).
    pub fielded: u32,
    /// Figures it lost (destroyed, killed, out of action).
    pub lost: u32,
}

/// How a tactical battle ended, for a campaign battle fought out under it (seed 003 §4.2 lets the
/// judge decide a battle; Herald lets the judge have it fought out and takes the result over).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TacticalOutcome {
    /// Whether the battle is over.
    pub ended: bool,
    /// The winning participant's name, if there is one.
    pub winner: Option<String>,
    /// Every participant.
    pub participants: Vec<Participant>,
}

/// A ruleset: its decider and everything the service does with its streams.
///
/// Implemented once per ruleset folder and registered in [`crate::registry`]; nothing outside the
/// folder and the registry names the ruleset.
pub trait Ruleset: Decider<Command: ToSchema, Event: ToSchema> + Sized + 'static {
    /// How clients name it (`coalition`): the `ruleset` of `POST /v1/battles`. Unique per kind.
    const ID: &'static str;
    /// The kind of stream it keeps.
    const KIND: StreamKind;
    /// Its name for people.
    const TITLE: &'static str;
    /// Where its rules come from (`seed 000`).
    const SOURCE: &'static str;
    /// Its user documentation, relative to the repository root.
    const DOCS: &'static str;
    /// The namespace of its error codes (`coalition.battle` in `coalition.battle.strategy_after_deadline`).
    const CODE_PREFIX: &'static str;
    /// The file name of its picture (`table.svg`), if it draws one.
    const PICTURE: Option<&'static str> = None;
    /// Command types that `POST …/actions` refuses because they have a route of their own or are
    /// filled in by the service (creating the stream, revealing the seed).
    const SERVICE_COMMANDS: &'static [&'static str] = &["create_battle", "reveal_seed"];

    /// Command types that commit to hidden numbers: the service fills their `formula_salt` with
    /// fresh random bytes (replacing a client's) before they are decided and stored, so the
    /// decider stays pure and a replay gives the same commitment (docs/DICE.md "Commitments to
    /// hidden formulas").
    const SALTED_COMMANDS: &'static [&'static str] = &[];

    /// How many things a command may hold (models, zones, slots, waypoints): its service caps,
    /// checked before [`Decider::decide`] and shown in the OpenAPI document as `maxItems`.
    const CAPS: &'static [crate::caps::Cap] = &[];

    /// What it takes to set a stream up (the body of the create request, without `ruleset` and
    /// `seed`, which the service handles).
    type Setup: DeserializeOwned + ToSchema;
    /// How a reader sees a stream of it.
    type View: Serialize + ToSchema;

    /// The command that opens a stream from `setup`, with the sealed seed's commitment.
    fn set_up(setup: Self::Setup, seed_commitment: String) -> Self::Command;

    /// Whether `actor` may open a stream of this ruleset (checked before a seed is sealed).
    fn may_set_up(actor: &Actor) -> Result<(), RuleError> {
        if actor.is_judge() {
            Ok(())
        } else {
            Err(RuleError::forbidden(
                format!("{}.judge_only", Self::CODE_PREFIX),
                "only a judge or an admin may open a battle",
                format!("herald: {}", Self::DOCS),
            ))
        }
    }

    /// `state` (folded to `version`) as `viewer` may see it; `current` is the latest state, which
    /// decides what is public now (a strategy sealed then is public once the battle ended).
    fn view(stream: &str, version: u64, state: &Self::State, current: &Self::State, viewer: &Viewer) -> Self::View;

    /// Hide from an event payload what `viewer` may not see, given the stream's current state.
    /// Rulesets played in the open hide nothing.
    fn redact_event(_event: &mut Value, _current: &Self::State, _viewer: &Viewer) {}

    /// Its listing line.
    fn summary(state: &Self::State) -> Summary;

    /// Its picture (an SVG document) as `viewer` may see it, if it draws one.
    fn picture(_stream: &str, _version: u64, _state: &Self::State, _viewer: &Viewer) -> Option<String> {
        None
    }

    /// Its players' sheets (rosters, model cards, character sheets), drawn from `view` (what the
    /// reader may see), if it keeps any; the viewer draws every ruleset's sheets the same way.
    fn sheet(_view: &Self::View) -> Option<sheet::Sheet> {
        None
    }

    /// The command that mixes a participant's entropy into the dice, if the ruleset takes any.
    fn contribute_entropy(_entropy: String) -> Option<Self::Command> {
        None
    }

    /// `data`, written with payload schema `schema` (older than [`EVENT_SCHEMA`]), as the current
    /// schema has it.
    fn upcast(event_type: &str, _schema: u32, data: &Value) -> Value {
        upcast_v1_tag(event_type, data)
    }

    /// Its schemas for the OpenAPI document: derived from its types (a ruleset whose types the
    /// derive cannot describe exactly corrects them here).
    fn schemas() -> RulesetSchemas {
        RulesetSchemas {
            setup: SchemaComponents::of::<Self::Setup>(),
            command: SchemaComponents::of::<Self::Command>(),
            event: SchemaComponents::of::<Self::Event>(),
            view: SchemaComponents::of::<Self::View>(),
        }
    }

    /// The command that rolls for a judge (docs/DICE.md "A judge's roll").
    fn judge_roll(roll: JudgeRoll) -> Self::Command;

    /// How a tactical battle ended, for rulesets whose battles a campaign battle can be fought out
    /// under; `None` for rulesets that cannot stand in for a campaign battle.
    fn outcome(_state: &Self::State) -> Option<TacticalOutcome> {
        None
    }
}
