//! Replay verification: run every stored command again against the state before it, with the
//! revealed seed, and compare what it produces with what was stored (DESIGN.md "Dice that
//! anyone can check").

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use herald_domain::{
    dice::{seed, DiceTape},
    event_type_of, registry,
    ruleset::Refusal,
    AnyRuleset, AnyState, Context, DiceKey, StreamKind,
};
use herald_store::{EventStore, RecordedEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{read_stream_to, CommandRecord};
use crate::problem::ApiError;

/// The outcome of a verification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "stream": "battle-0193…", "verified": true, "result": "verified", "commands_checked": 7,
    "events_checked": 9, "seed": "revealed", "rules": "coalition-battle@1", "notes": [], "first_difference": null
}))]
pub struct VerifyReport {
    /// The stream verified.
    pub stream: String,
    /// Whether every stored event was produced again exactly.
    pub verified: bool,
    /// `verified`, `partial` (everything that could be replayed matched, but some commands drew
    /// dice from a key still sealed: see `sealed_keys`) or `differs`.
    pub result: VerifyResult,
    /// Commands run again.
    pub commands_checked: usize,
    /// Events compared.
    pub events_checked: usize,
    /// Which seed was used: `revealed` (from the log), `sealed` (a judge's verification),
    /// `partial` (some keys still sealed) or `none` (a stream without dice).
    pub seed: SeedUse,
    /// Every key the stream committed to (`stream`, `turn:3`, `reseal:1`) and whether its seed
    /// is revealed (docs/DICE.md "Keys").
    #[serde(default)]
    pub keys: Vec<KeyReport>,
    /// The keys whose seeds are still sealed to the caller: commands that drew from them were not
    /// replayed (a campaign's turns not yet adjudicated, its tape between turns).
    #[serde(default)]
    pub sealed_keys: Vec<String>,
    /// Commands not replayed because they drew dice from a sealed key.
    #[serde(default)]
    pub commands_sealed: usize,
    /// The rules version the verification ran under.
    pub rules: String,
    /// Remarks (events recorded under other rules versions, for example).
    pub notes: Vec<String>,
    /// The first event that differs.
    pub first_difference: Option<Difference>,
    /// A coalition battle's commitments to its hidden formulas, one per event that set them
    /// (docs/DICE.md "Commitments to hidden formulas"); empty for other streams.
    #[serde(default)]
    pub formula_commitments: Vec<CommitmentReport>,
    /// The judges' rulings recorded on the stream (docs/API.md "Disputes"), each with the hash of
    /// the what-if a correction rests on; a correction is replayed and checked like every other
    /// command.
    #[serde(default)]
    pub rulings: Vec<RulingReport>,
}

/// A ruling recorded on a verified stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RulingReport {
    /// The version of the `herald.DisputeRuled` event.
    pub version: u64,
    /// The dispute.
    pub dispute: String,
    /// `stands` or `corrected`.
    pub ruling: herald_domain::dispute::Ruling,
    /// The hash of the what-if a correction rests on.
    pub what_if_hash: Option<String>,
    /// For a correction carried from another stream: that stream and its dispute.
    pub carried_from: Option<String>,
}

fn rulings(stored: &[RecordedEvent]) -> Vec<RulingReport> {
    use herald_domain::dispute::{DisputeEvent, RULED};
    stored
        .iter()
        .filter(|event| event.event_type == RULED)
        .filter_map(|event| match event.data.decode::<DisputeEvent>().ok()? {
            DisputeEvent::DisputeRuled { dispute, ruling, what_if_hash, carried_from, .. } => {
                Some(RulingReport { version: event.version, dispute, ruling, what_if_hash, carried_from })
            }
            DisputeEvent::DisputeFiled { .. } => None,
        })
        .collect()
}

/// One commitment to a battle's hidden formulas, checked against the formulas in the log when
/// they are open to the caller, without saying anything about them otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CommitmentReport {
    /// The stream version of the event that set the formulas.
    pub version: u64,
    /// Its type (`coalition.BattleCreated`, `coalition.FormulasSet`).
    pub event_type: String,
    /// The public commitment, hex (absent in events recorded before commitments).
    pub commitment: Option<String>,
    /// `opened_matches`, `opened_differs`, `sealed` or `not_committed`.
    pub status: CommitmentStatus,
}

/// What a formula commitment's check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommitmentStatus {
    /// The formulas and salt in the log hash to the commitment (open to the caller: a judge, or
    /// anyone once an `open_at_end` battle has ended).
    OpenedMatches,
    /// They do not: the log was changed after the commitment was published.
    OpenedDiffers,
    /// The formulas are not open to the caller; only the commitment is public.
    Sealed,
    /// The event was recorded before commitments existed.
    NotCommitted,
}

/// One committed key of a stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct KeyReport {
    /// The key: `stream`, `turn:<n>` or `reseal:<n>`.
    pub key: String,
    /// `sha256(seed)`, hex, as committed in the log.
    pub commitment: String,
    /// The seed, hex, once revealed in the log.
    pub seed: Option<String>,
    /// `revealed`, `sealed` (used by a judge's verification) or `unavailable` (sealed to the caller).
    pub status: KeyStatus,
    /// Whether the key was checked to derive from the revealed root by the documented derivation
    /// (a campaign's turn and interval keys once the round ended; docs/DICE.md "Keys").
    #[serde(default)]
    pub derived: bool,
    /// While the key is sealed to the caller: when its seed is published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opens: Option<String>,
}

/// The outcome of a verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerifyResult {
    /// Every command was run again and produced its stored events exactly.
    Verified,
    /// Everything that could be replayed matched; some commands drew dice from a key still
    /// sealed to the caller and were not replayed.
    Partial,
    /// A stored event differs from what its command produces again (see `first_difference`).
    Differs,
}

/// Which seeds a verification used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeedUse {
    /// Every key's seed, as revealed in the log.
    Revealed,
    /// Some seeds still sealed, used for a judge of the stream.
    Sealed,
    /// Some keys still sealed to the caller: the commands that drew from them were not replayed.
    Partial,
    /// The stream draws no dice.
    None,
}

/// Whether a key's seed could be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyStatus {
    /// Revealed in the log.
    Revealed,
    /// Still sealed; used for a judge.
    Sealed,
    /// Sealed to the caller.
    Unavailable,
}

/// The first stored event that the replay did not reproduce.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Difference {
    /// Its stream version.
    pub version: u64,
    /// Its `$all` position.
    pub position: Option<u64>,
    /// Its type as stored.
    pub event_type: Option<String>,
    /// The command that produced it.
    pub command_id: Option<String>,
    /// What differs, in words.
    pub reason: String,
    /// Field by field: JSON pointer, stored value, replayed value.
    pub fields: Vec<FieldDiff>,
}

/// One differing field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FieldDiff {
    /// JSON pointer into the payload (`/dice/a/0/draw/value`).
    pub path: String,
    /// The stored value (`null` when absent): any JSON value.
    #[schema(value_type = serde_json::Value)]
    pub stored: Value,
    /// The replayed value (`null` when absent): any JSON value.
    #[schema(value_type = serde_json::Value)]
    pub replayed: Value,
}

/// Why a verification could not run.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// No such stream.
    #[error("stream {0} does not exist")]
    NotFound(String),
    /// The seed is still sealed and the caller may not use it.
    #[error("the seed of {0} is still sealed: only a judge may verify before it is revealed or the battle ends")]
    Sealed(String),
    /// The stream's kind has no decider.
    #[error("stream {0} is not of a kind Herald can verify")]
    Unsupported(String),
    /// Reading or decoding failed.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl From<herald_store::StoreError> for VerifyError {
    fn from(error: herald_store::StoreError) -> Self {
        Self::Api(error.into())
    }
}

/// Verify `stream`. `may_use_sealed` lets a judge (or the operator's command line) verify with
/// the sealed seed before it is revealed.
///
/// The ruleset is the one the stream's first event was recorded under; every stored command is
/// run again against the state its stream had just before it, and what it produces is compared
/// with what is stored, payload by payload (older payload schemas upcast first).
pub fn verify_stream(store: &dyn EventStore, stream: &str, may_use_sealed: bool) -> Result<VerifyReport, VerifyError> {
    let stored = read_stream_to(store, stream, None)?;
    let Some(first) = stored.first() else { return Err(VerifyError::NotFound(stream.to_string())) };
    let ruleset = registry::by_rules(&first.rules)
        .filter(|ruleset| StreamKind::of(stream) == Some(ruleset.kind()))
        .ok_or_else(|| VerifyError::Unsupported(stream.to_string()))?;
    let mut report = VerifyReport {
        stream: stream.to_string(),
        verified: false,
        result: VerifyResult::Differs,
        commands_checked: 0,
        events_checked: 0,
        seed: SeedUse::None,
        keys: Vec::new(),
        sealed_keys: Vec::new(),
        commands_sealed: 0,
        rules: ruleset.rules().to_string(),
        notes: Vec::new(),
        first_difference: None,
        formula_commitments: Vec::new(),
        rulings: rulings(&stored),
    };
    let final_state = match fold(ruleset, &stored) {
        Ok(state) => state,
        Err(difference) => {
            report.first_difference = Some(*difference);
            return Ok(report);
        }
    };
    report.formula_commitments = formula_commitments(&stored, final_state.as_ref(), may_use_sealed);
    if let Some(forged) = stored.iter().find(|event| {
        report
            .formula_commitments
            .iter()
            .any(|c| c.version == event.version && c.status == CommitmentStatus::OpenedDiffers)
    }) {
        report.first_difference = Some(Difference {
            reason: "the formulas and salt in the log do not hash to the commitment published with them".into(),
            ..difference_at(forged)
        });
        return Ok(report);
    }
    // The seed of every key the stream committed to: revealed in the log, or (a judge) sealed.
    let mut seeds = BTreeMap::new();
    if let Some(cursor) = ruleset.dice(final_state.as_ref()) {
        if !may_use_sealed && cursor.keys.iter().all(|key| key.revealed.is_none()) {
            return Err(VerifyError::Sealed(stream.to_string()));
        }
        let mut sources = BTreeSet::new();
        // Once a root is revealed, every key derived from it must be the documented derivation:
        // a key edited in the store (its commitment and its seed alike) is named here.
        let root = cursor.committed(DiceKey::Stream).and_then(|root| root.revealed);
        for committed in &cursor.keys {
            let derived = root.and_then(|root| committed.key.derive(&root, stream));
            if let Some(derived) = derived {
                if seed::commitment(&derived) != committed.commitment
                    || committed.revealed.is_some_and(|revealed| revealed != derived)
                {
                    report.first_difference = Some(Difference {
                        reason: format!(
                            "key {} does not derive from the revealed root: its commitment or seed is not the \
                             documented derivation (docs/DICE.md \"Keys\")",
                            committed.key.id()
                        ),
                        ..difference_at(first)
                    });
                    return Ok(report);
                }
            }
            let (known, status) = match committed.revealed.or(derived) {
                Some(revealed) => (Some(revealed), KeyStatus::Revealed),
                None if may_use_sealed => (super::key_seed(store, stream, committed.key)?, KeyStatus::Sealed),
                None => (None, KeyStatus::Unavailable),
            };
            let status = if known.is_none() { KeyStatus::Unavailable } else { status };
            sources.insert(status);
            report.keys.push(KeyReport {
                key: committed.key.id(),
                commitment: hex::encode(committed.commitment),
                seed: committed.revealed.or(derived).map(hex::encode),
                status,
                derived: derived.is_some(),
                opens: (status == KeyStatus::Unavailable).then(|| committed.key.opens()),
            });
            let Some(known) = known else {
                report.sealed_keys.push(committed.key.id());
                continue;
            };
            if seed::commitment(&known) != committed.commitment {
                report.first_difference = Some(Difference {
                    reason: format!(
                        "the seed of key {} does not hash to the commitment published in the log",
                        committed.key.id()
                    ),
                    ..difference_at(first)
                });
                return Ok(report);
            }
            seeds.insert(committed.key, known);
        }
        report.seed = match (sources.contains(&KeyStatus::Unavailable), sources.contains(&KeyStatus::Sealed)) {
            (true, _) => SeedUse::Partial,
            (false, true) => SeedUse::Sealed,
            (false, false) => SeedUse::Revealed,
        };
    }
    if let Some(rules) = stored.iter().map(|e| e.rules.as_str()).find(|rules| *rules != ruleset.rules()) {
        report.notes.push(format!("some events were recorded under {rules}; verifying with {}", ruleset.rules()));
    }

    let mut state = ruleset.new_state();
    let mut start = 0;
    while start < stored.len() {
        let command_id = stored[start].command_id.clone();
        let end = stored[start..].iter().position(|e| e.command_id != command_id).map_or(stored.len(), |n| start + n);
        let group = &stored[start..end];
        match check_group(store, ruleset, stream, state.as_ref(), group, &seeds)? {
            Checked::Same => {}
            Checked::Sealed => report.commands_sealed += 1,
            Checked::Differs(difference) => {
                report.first_difference = Some(difference);
                return Ok(report);
            }
        }
        for event in group {
            let Some(folding) = Arc::get_mut(&mut state) else { break };
            if let Err(reason) = ruleset.evolve(folding, &event.event_type, event.schema, event.data.get()) {
                report.first_difference = Some(Difference {
                    reason: format!("the stored event does not decode: {reason}"),
                    ..difference_at(event)
                });
                return Ok(report);
            }
        }
        report.commands_checked += 1;
        report.events_checked += group.len();
        start = end;
    }
    report.verified = true;
    report.result = if report.commands_sealed > 0 { VerifyResult::Partial } else { VerifyResult::Verified };
    if report.commands_sealed > 0 {
        let opens: Vec<String> = report
            .keys
            .iter()
            .filter_map(|key| key.opens.as_ref().map(|opens| format!("{} opens {opens}", key.key)))
            .collect();
        report.notes.push(format!(
            "{} commands drew dice from keys still sealed ({}) and were not replayed; {}",
            report.commands_sealed,
            report.sealed_keys.join(", "),
            opens.join("; ")
        ));
    }
    Ok(report)
}

/// Check every formula commitment of a coalition battle (nothing for other streams): against the
/// formulas and salt stored beside it when they are open to the caller (`may_use_sealed`: a
/// judge; or the battle ended under `open_at_end`), else reported `sealed` without a word more.
fn formula_commitments(stored: &[RecordedEvent], state: &dyn AnyState, may_use_sealed: bool) -> Vec<CommitmentReport> {
    use herald_domain::coalition::battle::{commitment, BattleEvent, BattleState};
    let Some(battle) = state.as_any().downcast_ref::<BattleState>() else { return Vec::new() };
    let open = may_use_sealed || battle.formulas_open();
    stored
        .iter()
        .filter_map(|event| {
            let (options, salt, published) = match event.data.decode::<BattleEvent>().ok()? {
                BattleEvent::BattleCreated { options, formula_salt, formula_commitment, .. }
                | BattleEvent::FormulasSet { options, formula_salt, formula_commitment } => {
                    (options, formula_salt, formula_commitment)
                }
                _ => return None,
            };
            let status = match &published {
                None => CommitmentStatus::NotCommitted,
                Some(_) if !open => CommitmentStatus::Sealed,
                Some(published) => {
                    let recomputed = salt
                        .as_deref()
                        .and_then(commitment::parse_salt)
                        .map(|salt| commitment::commitment(&(&options).into(), &salt));
                    if recomputed.as_deref() == Some(published.to_ascii_lowercase().as_str()) {
                        CommitmentStatus::OpenedMatches
                    } else {
                        CommitmentStatus::OpenedDiffers
                    }
                }
            };
            Some(CommitmentReport {
                version: event.version,
                event_type: event.event_type.clone(),
                commitment: published,
                status,
            })
        })
        .collect()
}

/// The stream's final state, or the first event that does not decode.
fn fold(ruleset: &dyn AnyRuleset, stored: &[RecordedEvent]) -> Result<Arc<dyn AnyState>, Box<Difference>> {
    let mut state = ruleset.new_state();
    for event in stored {
        let Some(folding) = Arc::get_mut(&mut state) else { break };
        ruleset.evolve(folding, &event.event_type, event.schema, event.data.get()).map_err(|reason| {
            Box::new(Difference {
                reason: format!("the stored event does not decode: {reason}"),
                ..difference_at(event)
            })
        })?;
    }
    Ok(state)
}

/// What the replay of one command showed.
enum Checked {
    /// It produced the stored events.
    Same,
    /// It drew dice from a key whose seed is sealed to the caller: not checked.
    Sealed,
    /// It did not produce the stored events.
    Differs(Difference),
}

impl From<Option<Difference>> for Checked {
    fn from(difference: Option<Difference>) -> Self {
        difference.map_or(Self::Same, Self::Differs)
    }
}

/// Run one stored command against the state before it, with the tape of the key in force, and
/// compare its events.
fn check_group(
    store: &dyn EventStore,
    ruleset: &dyn AnyRuleset,
    stream: &str,
    before: &dyn AnyState,
    group: &[RecordedEvent],
    seeds: &BTreeMap<DiceKey, [u8; 32]>,
) -> Result<Checked, VerifyError> {
    let cursor = ruleset.dice(before);
    let sealed = cursor.as_ref().is_some_and(|cursor| !seeds.contains_key(&cursor.key));
    let checked = replay_group(store, ruleset, stream, before, group, cursor, seeds)?;
    // A command that needed the tape of a sealed key is refused for want of a tape: it is not
    // a difference, only not checkable yet.
    Ok(match checked {
        Some(difference) if sealed && difference.reason.contains("[dice.no_tape]") => Checked::Sealed,
        other => other.into(),
    })
}

fn replay_group(
    store: &dyn EventStore,
    ruleset: &dyn AnyRuleset,
    stream: &str,
    before: &dyn AnyState,
    group: &[RecordedEvent],
    cursor: Option<herald_domain::DiceCursor>,
    seeds: &BTreeMap<DiceKey, [u8; 32]>,
) -> Result<Option<Difference>, VerifyError> {
    let first = &group[0];
    let Some(command_id) = first.command_id.as_deref() else {
        return Ok(Some(Difference { reason: "the event has no command id".into(), ..difference_at(first) }));
    };
    let record = store
        .stored_command(command_id)?
        .and_then(|stored| stored.command)
        .and_then(|payload| payload.decode::<CommandRecord>().ok());
    let Some(record) = record else {
        return Ok(Some(Difference { reason: format!("command {command_id} is not stored"), ..difference_at(first) }));
    };
    let dice = match cursor.as_ref().map(|cursor| (cursor, seeds.get(&cursor.key))) {
        Some((cursor, Some(key_seed))) => {
            DiceTape::new(seed::effective_seed(key_seed, stream, &cursor.contributions), cursor.next_word)
        }
        Some((cursor, None)) => DiceTape::sealed(cursor.next_word),
        None => DiceTape::unavailable(),
    };
    let mut context =
        Context { stream: stream.to_string(), actor: record.actor, recorded_at: record.recorded_at, dice };
    let replayed = match ruleset.decide(before, &record.command, &mut context) {
        Ok(events) => events,
        Err(Refusal::Malformed(_)) => {
            return Ok(Some(Difference {
                reason: format!("command {command_id} does not decode"),
                ..difference_at(first)
            }))
        }
        Err(Refusal::Rule(error)) => {
            return Ok(Some(Difference {
                reason: format!("the command is now refused: {error} [{}]", error.code),
                ..difference_at(first)
            }))
        }
    };
    for (index, stored_event) in group.iter().enumerate() {
        let Some(replayed_data) = replayed.get(index) else {
            return Ok(Some(Difference {
                reason: "the stored event was not produced by the replay".into(),
                ..difference_at(stored_event)
            }));
        };
        let stored_data = match ruleset.upcast(&stored_event.event_type, stored_event.schema, stored_event.data.get()) {
            Ok(data) => data,
            Err(reason) => {
                return Ok(Some(Difference {
                    reason: format!("the stored event does not decode: {reason}"),
                    ..difference_at(stored_event)
                }))
            }
        };
        let mut fields = Vec::new();
        let replayed_type = event_type_of(replayed_data);
        if stored_event.event_type != replayed_type {
            fields.push(FieldDiff {
                path: "(type)".into(),
                stored: Value::String(stored_event.event_type.clone()),
                replayed: Value::String(replayed_type),
            });
        }
        diff_json("", &stored_data, replayed_data, &mut fields);
        if !fields.is_empty() {
            return Ok(Some(Difference {
                reason: "the replay produced a different event".into(),
                fields,
                ..difference_at(stored_event)
            }));
        }
    }
    if replayed.len() > group.len() {
        return Ok(Some(Difference {
            reason: format!("the replay produced {} events where {} are stored", replayed.len(), group.len()),
            ..difference_at(&group[group.len() - 1])
        }));
    }
    Ok(None)
}

fn difference_at(event: &RecordedEvent) -> Difference {
    Difference {
        version: event.version,
        position: Some(event.position),
        event_type: Some(event.event_type.clone()),
        command_id: event.command_id.clone(),
        reason: String::new(),
        fields: Vec::new(),
    }
}

/// Collect the JSON pointers where `stored` and `replayed` differ.
pub fn diff_json(path: &str, stored: &Value, replayed: &Value, out: &mut Vec<FieldDiff>) {
    match (stored, replayed) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let child = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                diff_json(&child, a.get(key).unwrap_or(&Value::Null), b.get(key).unwrap_or(&Value::Null), out);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for index in 0..a.len().max(b.len()) {
                let child = format!("{path}/{index}");
                diff_json(&child, a.get(index).unwrap_or(&Value::Null), b.get(index).unwrap_or(&Value::Null), out);
            }
        }
        (a, b) if a != b => out.push(FieldDiff { path: path.to_string(), stored: a.clone(), replayed: b.clone() }),
        _ => {}
    }
}
