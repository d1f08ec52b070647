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

/// Which committed seed a stream's dice are drawn from (docs/DICE.md "Keys").
///
/// Every stream starts on its own sealed seed (`stream`). A campaign turn draws from a seed
/// derived from the campaign's root (`turn`), and a battle whose seed a judge revealed early
/// draws on from a fresh sealed seed (`reseal`). The tape's word position runs on across a key
/// change: the first draw under a new key is at the word where the last one ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiceKey {
    /// The stream's own seed, committed in its first event.
    #[default]
    Stream,
    /// A campaign turn's seed, committed when the turn opens.
    Turn(u32),
    /// The `n`-th fresh seed (from 1), committed when a judge revealed the previous one early.
    Reseal(u32),
    /// A campaign's seed for the dice drawn between the adjudication of turn `n` and the lock of
    /// turn `n + 1` (a judge's roll, a sanction), derived from the root (docs/DICE.md "Keys").
    Interval(u32),
}

impl DiceKey {
    /// The key's id as the dice ledger and verification reports name it: `stream`, `turn:3`,
    /// `reseal:1`.
    pub fn id(&self) -> String {
        match self {
            Self::Stream => "stream".into(),
            Self::Turn(turn) => format!("turn:{turn}"),
            Self::Reseal(n) => format!("reseal:{n}"),
            Self::Interval(n) => format!("interval:{n}"),
        }
    }

    /// The seed of this key as the documented derivation makes it from a campaign's root seed
    /// (`turn` and `interval` keys; docs/DICE.md "Keys"); `None` for keys sealed on their own.
    pub fn derive(&self, root: &[u8; 32], stream: &str) -> Option<[u8; 32]> {
        use crate::dice::seed::{interval_seed, turn_seed};
        match self {
            Self::Turn(turn) => Some(turn_seed(root, stream, *turn)),
            Self::Interval(after) => Some(interval_seed(root, stream, *after)),
            Self::Stream | Self::Reseal(_) => None,
        }
    }

    /// When a sealed seed of this key is revealed, in words (a verification report's `opens`).
    pub fn opens(&self) -> String {
        match self {
            Self::Stream => "when the battle ends, or when the campaign round ends (its root)".into(),
            Self::Turn(turn) => format!("right after turn {turn} is adjudicated"),
            Self::Reseal(_) => "at the next reveal, or when the battle ends".into(),
            Self::Interval(n) => format!("with the adjudication of turn {}", n.saturating_add(1)),
        }
    }
}

/// A seed a stream has committed to, and what has become of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommittedKey {
    /// Which key.
    pub key: DiceKey,
    /// `sha256(seed)`, published before the key's first draw.
    pub commitment: [u8; 32],
    /// The seed, once revealed in the stream.
    pub revealed: Option<[u8; 32]>,
    /// Whether a rule now requires this key's seed to be revealed and it is not yet.
    pub reveal_due: bool,
}

/// Where a stream's dice tape stands, as its state knows it.
///
/// The application layer turns this into a [`DiceTape`]: it fetches the seed of `key` (sealed,
/// or derived from the sealed root), checks it against `commitment`, derives the effective seed
/// with [`crate::dice::seed::effective_seed`] and positions the tape at `next_word`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceCursor {
    /// The key the next draw comes from.
    pub key: DiceKey,
    /// Every key the stream has committed to, the stream's own first.
    pub keys: Vec<CommittedKey>,
    /// `sha256(seed)` of `key`.
    pub commitment: [u8; 32],
    /// Entropy contributed by participants, in order.
    pub contributions: Vec<String>,
    /// Index of the next ChaCha20 output word to draw.
    pub next_word: u64,
    /// Whether a rule now requires a seed to be revealed (the battle ended, a turn was
    /// adjudicated): see `keys` for which.
    pub reveal_due: bool,
    /// The seed of `key`, once revealed in the stream.
    pub revealed: Option<[u8; 32]>,
}

impl DiceCursor {
    /// The cursor of a stream with one key (its own) and, after early reveals, fresh ones:
    /// `reseals` are the commitments and revealed seeds of keys 1, 2, … in order. The last key
    /// is the one in force; `ended` says the rules want it revealed.
    pub fn chain(
        stream: (&str, Option<&str>),
        reseals: &[(String, Option<String>)],
        contributions: &[String],
        next_word: u64,
        ended: bool,
    ) -> Option<Self> {
        use crate::dice::seed::parse_hex32;
        let mut keys = vec![CommittedKey {
            key: DiceKey::Stream,
            commitment: parse_hex32(stream.0)?,
            revealed: stream.1.and_then(parse_hex32),
            reveal_due: false,
        }];
        for (n, (commitment, revealed)) in reseals.iter().enumerate() {
            keys.push(CommittedKey {
                key: DiceKey::Reseal(u32::try_from(n + 1).unwrap_or(u32::MAX)),
                commitment: parse_hex32(commitment)?,
                revealed: revealed.as_deref().and_then(parse_hex32),
                reveal_due: false,
            });
        }
        let last = keys.last_mut()?;
        last.reveal_due = ended && last.revealed.is_none();
        let (key, commitment, revealed, reveal_due) = (last.key, last.commitment, last.revealed, last.reveal_due);
        Some(Self { key, keys, commitment, contributions: contributions.to_vec(), next_word, reveal_due, revealed })
    }

    /// The committed key `key`, if the stream has one.
    pub fn committed(&self, key: DiceKey) -> Option<&CommittedKey> {
        self.keys.iter().find(|committed| committed.key == key)
    }

    /// The first key whose seed is due to be revealed.
    pub fn due(&self) -> Option<&CommittedKey> {
        self.keys.iter().find(|committed| committed.reveal_due)
    }

    /// The next fresh key a judge's early reveal would commit to.
    pub fn next_reseal(&self) -> DiceKey {
        let n = self.keys.iter().filter(|committed| matches!(committed.key, DiceKey::Reseal(_))).count();
        DiceKey::Reseal(u32::try_from(n + 1).unwrap_or(u32::MAX))
    }
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
    ///
    /// `next_commitment`, when given, is the commitment of a fresh sealed seed the service chose
    /// because the reveal is early (the battle goes on): the reveal event carries it and every
    /// later die comes from that seed (docs/DICE.md "Re-sealing"). Rulesets that cannot re-seal
    /// ignore it.
    fn reveal_seed(_seed_hex: String, _next_commitment: Option<String>) -> Option<Self::Command> {
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
