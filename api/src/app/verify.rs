//! Replay verification: run every stored command again against the state before it, with the
//! revealed seed, and compare what it produces with what was stored (DESIGN.md "Dice that
//! anyone can check").

use herald_domain::{
    coalition::{battle::CoalitionBattle, campaign::CoalitionCampaign},
    dice::{seed, DiceTape},
    Context, Decider, EventType,
};
use herald_projections::StreamKind;
use herald_store::{EventStore, RecordedEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{decode_events, read_stream_to, CommandRecord};
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
pub fn verify_stream(store: &dyn EventStore, stream: &str, may_use_sealed: bool) -> Result<VerifyReport, VerifyError> {
    match StreamKind::of(stream) {
        StreamKind::Battle if is_warmachine(store, stream)? => {
            verify::<herald_domain::warmachine::battle::Warmachine>(store, stream, may_use_sealed)
        }
        StreamKind::Battle => verify::<CoalitionBattle>(store, stream, may_use_sealed),
        StreamKind::Campaign => verify::<CoalitionCampaign>(store, stream, may_use_sealed),
        StreamKind::Other => Err(VerifyError::Unsupported(stream.to_string())),
    }
}

/// Whether a battle stream holds a warmachine battle: its first event says which rules made it.
fn is_warmachine(store: &dyn EventStore, stream: &str) -> Result<bool, VerifyError> {
    let first = store.read_stream(stream, 0, herald_store::Direction::Forwards, 1)?;
    Ok(first.first().is_some_and(|event| event.rules.starts_with("warmachine@")))
}

fn verify<D: Decider>(store: &dyn EventStore, stream: &str, may_use_sealed: bool) -> Result<VerifyReport, VerifyError> {
    let stored = read_stream_to(store, stream, None)?;
    if stored.is_empty() {
        return Err(VerifyError::NotFound(stream.to_string()));
    }
    let mut report = VerifyReport {
        stream: stream.to_string(),
        verified: false,
        result: "differs".into(),
        commands_checked: 0,
        events_checked: 0,
        seed: "none".into(),
        rules: D::RULES.to_string(),
        notes: Vec::new(),
        first_difference: None,
    };
    let decoded = match decode_events::<D>(&stored) {
        Ok(decoded) => decoded,
        Err(error) => {
            report.first_difference = Some(undecodable(&stored, &error));
            return Ok(report);
        }
    };
    let final_state = D::fold(decoded.iter());
    let server_seed = match D::dice(&final_state) {
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
                    ..difference_at(&stored[0])
                });
                return Ok(report);
            }
            Some(server_seed)
        }
    };
    let other_rules: Vec<&str> = stored.iter().map(|e| e.rules.as_str()).filter(|r| *r != D::RULES).collect();
    if let Some(rules) = other_rules.first() {
        report.notes.push(format!("some events were recorded under {rules}; verifying with {}", D::RULES));
    }

    let mut start = 0;
    while start < stored.len() {
        let command_id = stored[start].command_id.clone();
        let end = stored[start..].iter().position(|e| e.command_id != command_id).map_or(stored.len(), |n| start + n);
        let group = &stored[start..end];
        if let Some(difference) = check_group::<D>(store, stream, &decoded[..start], group, server_seed)? {
            report.first_difference = Some(difference);
            return Ok(report);
        }
        report.commands_checked += 1;
        report.events_checked += group.len();
        start = end;
    }
    report.verified = true;
    report.result = "verified".into();
    Ok(report)
}

/// Run one stored command against the state before it and compare its events.
fn check_group<D: Decider>(
    store: &dyn EventStore,
    stream: &str,
    before: &[D::Event],
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
    let Ok(command) = serde_json::from_value::<D::Command>(record.command.clone()) else {
        return Ok(Some(Difference {
            reason: format!("command {command_id} does not decode"),
            ..difference_at(first)
        }));
    };
    let state = D::fold(before.iter());
    let dice = match (D::dice(&state), server_seed) {
        (Some(cursor), Some(server_seed)) => {
            DiceTape::new(seed::effective_seed(&server_seed, stream, &cursor.contributions), cursor.next_word)
        }
        _ => DiceTape::unavailable(),
    };
    let mut context =
        Context { stream: stream.to_string(), actor: record.actor, recorded_at: record.recorded_at, dice };
    let replayed = match D::decide(&state, &command, &mut context) {
        Ok(events) => events,
        Err(error) => {
            return Ok(Some(Difference {
                reason: format!("the command is now refused: {error} [{}]", error.code),
                ..difference_at(first)
            }))
        }
    };
    for (index, stored_event) in group.iter().enumerate() {
        let Some(replayed_event) = replayed.get(index) else {
            return Ok(Some(Difference {
                reason: "the stored event was not produced by the replay".into(),
                ..difference_at(stored_event)
            }));
        };
        let replayed_data = serde_json::to_value(replayed_event).map_err(ApiError::internal)?;
        let mut fields = Vec::new();
        if stored_event.event_type != replayed_event.event_type() {
            fields.push(FieldDiff {
                path: "(type)".into(),
                stored: Value::String(stored_event.event_type.clone()),
                replayed: Value::String(replayed_event.event_type().into()),
            });
        }
        diff_json("", &stored_event.data, &replayed_data, &mut fields);
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

fn undecodable(stored: &[RecordedEvent], error: &ApiError) -> Difference {
    let message = format!("{error:?}");
    let event = stored.iter().find(|e| message.contains(&format!("position {}", e.position))).unwrap_or(&stored[0]);
    Difference { reason: format!("the stored event does not decode: {message}"), ..difference_at(event) }
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
