//! Replay verification: run every stored command again against the state before it, with the
//! revealed seed, and compare what it produces with what was stored (DESIGN.md "Dice that
//! anyone can check").

use std::sync::Arc;

use herald_domain::{
    dice::{seed, DiceTape},
    event_type_of, registry,
    ruleset::Refusal,
    AnyRuleset, AnyState, Context, StreamKind,
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
    /// `verified` or `differs`.
    pub result: String,
    /// Commands run again.
    pub commands_checked: usize,
    /// Events compared.
    pub events_checked: usize,
    /// Which seed was used: `revealed` (from the log) or `sealed` (a judge's verification).
    pub seed: String,
    /// The rules version the verification ran under.
    pub rules: String,
    /// Remarks (events recorded under other rules versions, for example).
    pub notes: Vec<String>,
    /// The first event that differs.
    pub first_difference: Option<Difference>,
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
    /// The stored value (`null` when absent).
    #[schema(value_type = Object)]
    pub stored: Value,
    /// The replayed value (`null` when absent).
    #[schema(value_type = Object)]
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
        result: "differs".into(),
        commands_checked: 0,
        events_checked: 0,
        seed: "none".into(),
        rules: ruleset.rules().to_string(),
        notes: Vec::new(),
        first_difference: None,
    };
    let final_state = match fold(ruleset, &stored) {
        Ok(state) => state,
        Err(difference) => {
            report.first_difference = Some(*difference);
            return Ok(report);
        }
    };
    let server_seed = match ruleset.dice(final_state.as_ref()) {
        None => None,
        Some(cursor) => {
            let (server_seed, source) = match cursor.revealed {
                Some(revealed) => (revealed, "revealed"),
                None if may_use_sealed => {
                    let sealed = store.get_secret(&format!("seed:{stream}"))?.and_then(|bytes| bytes.try_into().ok());
                    (sealed.ok_or_else(|| VerifyError::Sealed(stream.to_string()))?, "sealed")
                }
                None => return Err(VerifyError::Sealed(stream.to_string())),
            };
            report.seed = source.to_string();
            if seed::commitment(&server_seed) != cursor.commitment {
                report.first_difference = Some(Difference {
                    reason: "the seed does not hash to the commitment published in the first event".into(),
                    ..difference_at(first)
                });
                return Ok(report);
            }
            Some(server_seed)
        }
    };
    if let Some(rules) = stored.iter().map(|e| e.rules.as_str()).find(|rules| *rules != ruleset.rules()) {
        report.notes.push(format!("some events were recorded under {rules}; verifying with {}", ruleset.rules()));
    }

    let mut state = ruleset.new_state();
    let mut start = 0;
    while start < stored.len() {
        let command_id = stored[start].command_id.clone();
        let end = stored[start..].iter().position(|e| e.command_id != command_id).map_or(stored.len(), |n| start + n);
        let group = &stored[start..end];
        if let Some(difference) = check_group(store, ruleset, stream, state.as_ref(), group, server_seed)? {
            report.first_difference = Some(difference);
            return Ok(report);
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
    report.result = "verified".into();
    Ok(report)
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

/// Run one stored command against the state before it and compare its events.
fn check_group(
    store: &dyn EventStore,
    ruleset: &dyn AnyRuleset,
    stream: &str,
    before: &dyn AnyState,
    group: &[RecordedEvent],
    server_seed: Option<[u8; 32]>,
) -> Result<Option<Difference>, VerifyError> {
    let first = &group[0];
    let Some(command_id) = first.command_id.as_deref() else {
        return Ok(Some(Difference { reason: "the event has no command id".into(), ..difference_at(first) }));
    };
    let record = store
        .stored_command(command_id)?
        .and_then(|stored| stored.command)
        .and_then(|value| serde_json::from_value::<CommandRecord>(value).ok());
    let Some(record) = record else {
        return Ok(Some(Difference { reason: format!("command {command_id} is not stored"), ..difference_at(first) }));
    };
    let dice = match (ruleset.dice(before), server_seed) {
        (Some(cursor), Some(server_seed)) => {
            DiceTape::new(seed::effective_seed(&server_seed, stream, &cursor.contributions), cursor.next_word)
        }
        _ => DiceTape::unavailable(),
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
