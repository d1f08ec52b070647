//! What-if replay (issue 28): re-decide a stream from one of its commands with that command
//! changed, on a copy of the state, writing nothing, with the same dice tape, and answer where
//! the record and the what-if part (docs/API.md "Disputes").
//!
//! The machinery is verification's (`verify.rs`): the stored command records, the seeds of every
//! committed key (revealed, or sealed for a judge), each command decided on the state before it
//! with the tape positioned by that state's own dice cursor. Where the changed command draws more
//! or fewer dice than the recorded one, every later command draws from another place on the same
//! tape; the report lists each such shift.

use std::{collections::BTreeMap, sync::Arc};

use herald_domain::{
    dice::{seed, DiceTape},
    dispute, event_type_of, registry,
    ruleset::{Refusal, Summary},
    AnyRuleset, AnyState, Context, DiceKey, StreamKind, Viewer,
};
use herald_store::{EventStore, RecordedEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{read_stream_to, verify::FieldDiff, CommandRecord};
use crate::problem::ApiError;

/// The most events a what-if re-runs (recorded ones from the changed command on, and the ones it
/// decides), unless the request asks for fewer.
pub const MAX_EVENTS: usize = 20_000;

/// The most differing events a report lists one by one (the counts cover them all).
pub const MAX_LISTED: usize = 500;

/// The change a what-if makes: the command that produced event `version` replaced by `command`
/// (a judge's setting given another value, an option read the other way, another order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"version": 6, "command": {"type": "assign_strategy_bonus", "side": "a", "bonus": 2}}))]
pub struct WhatIfChange {
    /// A stream version produced by the command to change (any event of that command).
    pub version: u64,
    /// The command decided in its place, in the stream's ruleset's command format (its `type`
    /// and fields, as in the ruleset's command schema). It keeps the recorded actor and time.
    #[schema(value_type = Object)]
    pub command: Value,
}

/// The inputs a what-if's hash covers, in the order hashed: `hash` is the SHA-256 of this object
/// serialized as compact JSON (fields in this order, no spaces).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WhatIfInputs {
    /// The stream.
    pub stream: String,
    /// The rules version the what-if ran under.
    pub rules: String,
    /// Every committed dice key as `key:commitment` (hex `sha256(seed)`), as in the log.
    pub commitments: Vec<String>,
    /// The first version the changed command produced: the what-if starts there.
    pub from_version: u64,
    /// The change.
    pub change: WhatIfChange,
    /// The recorded commands re-run, from the changed one on, each as the hex SHA-256 of its
    /// stored record (`{rules, actor, recorded_at, command}` as stored); disputes and rulings are
    /// not re-run and not listed.
    pub commands: Vec<String>,
}

/// One event of the record beside the what-if's event in the same place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EventDiff {
    /// Its place among the events from `from_version` on (0 is the first).
    pub index: usize,
    /// The recorded event's stream version (absent where the what-if decided more events).
    pub version: Option<u64>,
    /// The recorded event's type.
    pub recorded_type: Option<String>,
    /// The what-if's event type (absent where it decided fewer events).
    pub what_if_type: Option<String>,
    /// The recorded event's payload, as the caller may see it.
    #[schema(value_type = Option<Object>)]
    pub recorded: Option<Value>,
    /// The what-if's event, as the caller may see it.
    #[schema(value_type = Option<Object>)]
    pub what_if: Option<Value>,
    /// Field by field (`stored` is the record, `replayed` the what-if).
    pub fields: Vec<FieldDiff>,
}

/// A recorded command the what-if's state refuses: reported, not an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WhatIfRefusal {
    /// The first version the command produced in the record.
    pub version: u64,
    /// The command's `type`.
    pub command_type: String,
    /// The rule error's stable code.
    pub code: String,
    /// Why, in words.
    pub message: String,
    /// The rule.
    pub rule: String,
}

/// A command that drew from another place on the tape in the what-if than in the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TapeShift {
    /// The first version the command produced in the record.
    pub version: u64,
    /// The tape key in force (`stream`, `turn:3`).
    pub key: String,
    /// The tape word the recorded command started at.
    pub recorded_word: u64,
    /// The tape word the what-if's command started at.
    pub what_if_word: u64,
}

/// A stream's state at the end of the record or of the what-if, as the caller may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EndState {
    /// The version (for the what-if: the version its last event would have had).
    pub version: u64,
    /// Status, participants and winner, in the ruleset's words.
    pub summary: Option<Summary>,
    /// The ruleset's view: troops, health, positions, as the caller may see them.
    #[schema(value_type = Object)]
    pub view: Value,
}

/// What a what-if found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WhatIfReport {
    /// The stream.
    pub stream: String,
    /// The hex SHA-256 of `inputs`: run the same what-if again and get the same hash.
    pub hash: String,
    /// What the hash covers.
    pub inputs: WhatIfInputs,
    /// Commands re-decided (the changed one and every recorded one after it).
    pub commands_rerun: usize,
    /// Events the what-if decided.
    pub events_rerun: usize,
    /// Whether the what-if's events differ from the record's.
    pub differs: bool,
    /// The first event that differs.
    pub first_difference: Option<EventDiff>,
    /// Every place where the record and the what-if differ, event by event (at most 500 listed).
    pub diff: Vec<EventDiff>,
    /// Recorded commands the what-if's state refuses.
    pub refusals: Vec<WhatIfRefusal>,
    /// Where the what-if drew from another place on the same tape than the record.
    pub tape: Vec<TapeShift>,
    /// The record's end.
    pub recorded: EndState,
    /// The what-if's end.
    pub what_if: EndState,
}

/// A what-if's report and the state it reached (what a correction makes the stream's state).
pub struct WhatIf {
    /// The report, as the caller may see it.
    pub report: WhatIfReport,
    /// The what-if's end state.
    pub state: Arc<dyn AnyState>,
    /// The stream's ruleset.
    pub ruleset: &'static dyn AnyRuleset,
    /// Every event the what-if decided, unredacted, with the recorded time of the command that
    /// decided it (what a correction opens from: the battles a corrected adjudication announces).
    pub events: Vec<(Value, chrono::DateTime<chrono::Utc>)>,
}

/// Who is asking and how far they may go.
#[derive(Debug, Clone)]
pub struct Asker {
    /// How the caller reads the stream.
    pub viewer: Viewer,
    /// A judge of the stream: may use seeds still sealed.
    pub may_use_sealed: bool,
    /// The most events to re-run.
    pub max_events: usize,
}

fn refused(code: &str, message: String) -> ApiError {
    ApiError::Rule(herald_domain::RuleError::new(code, message, dispute::RULE))
}

/// Run the what-if `change` on `stream` for `asker`. Writes nothing.
///
/// # Errors
///
/// 404 for an unknown stream; 422 `what_if.version_out_of_range`, `what_if.nothing_to_change`,
/// `what_if.bound_exceeded`, `what_if.not_a_command`; 403 `what_if.sealed` when the tape's seeds
/// are sealed to the caller.
pub fn what_if(store: &dyn EventStore, stream: &str, change: &WhatIfChange, asker: &Asker) -> Result<WhatIf, ApiError> {
    let stored = read_stream_to(store, stream, None)?;
    let Some(first) = stored.first() else { return Err(ApiError::NotFound(format!("no stream {stream}"))) };
    let ruleset = registry::by_rules(&first.rules)
        .filter(|ruleset| StreamKind::of(stream) == Some(ruleset.kind()))
        .ok_or_else(|| ApiError::NotFound(format!("{stream} is not a stream of a registered ruleset")))?;
    let last = stored.last().map_or(0, |event| event.version);
    let start = stored.iter().position(|event| event.version == change.version).ok_or_else(|| {
        refused(
            "what_if.version_out_of_range",
            format!("{stream} has no event {}; its versions are {} to {last}", change.version, first.version),
        )
    })?;
    // The whole command that produced the event is changed: go back to its first event.
    let command_id = stored[start].command_id.clone();
    let start = stored[..start].iter().rposition(|event| event.command_id != command_id).map_or(0, |n| n + 1);
    if dispute::is_dispute_type(&stored[start].event_type) {
        return Err(refused(
            "what_if.not_a_command",
            format!("event {} records a dispute, not a decision of the rules", change.version),
        ));
    }
    let to_rerun = stored.len() - start;
    if to_rerun > asker.max_events {
        return Err(bound_exceeded(to_rerun, asker.max_events));
    }

    // The state before the changed command, folded from the log.
    let mut before = ruleset.new_state();
    for event in &stored[..start] {
        evolve(ruleset, &mut before, event)?;
    }
    let mut final_state = before.clone_arc();
    for event in &stored[start..] {
        evolve(ruleset, &mut final_state, event)?;
    }
    let (seeds, commitments) = seeds_of(store, ruleset, stream, final_state.as_ref(), asker.may_use_sealed)?;

    // The recorded commands, grouped as they were appended.
    let mut groups: Vec<(&[RecordedEvent], CommandRecord, String)> = Vec::new();
    let mut at = start;
    while at < stored.len() {
        let id = stored[at].command_id.clone();
        let end = stored[at..].iter().position(|e| e.command_id != id).map_or(stored.len(), |n| at + n);
        let record = record_of(store, &stored[at])?;
        let digest = hex::encode(Sha256::digest(serde_json::to_vec(&record).map_err(ApiError::internal)?));
        groups.push((&stored[at..end], record, digest));
        at = end;
    }
    let Some((_, changed_record, _)) = groups.first() else {
        return Err(ApiError::internal(anyhow::anyhow!("no command at {}", change.version)));
    };
    if changed_record.command == change.command {
        return Err(refused(
            "what_if.nothing_to_change",
            format!("the command that produced event {} is already this command", change.version),
        ));
    }

    let inputs = WhatIfInputs {
        stream: stream.to_string(),
        rules: ruleset.rules().to_string(),
        commitments,
        from_version: stored[start].version,
        change: change.clone(),
        // Disputes and rulings are not re-run (below), so they are not inputs either: the same
        // what-if asked after a ruling hashes the same.
        commands: groups
            .iter()
            .filter(|(group, _, _)| !dispute::is_dispute_type(&group[0].event_type))
            .map(|(_, _, digest)| digest.clone())
            .collect(),
    };
    let hash = hex::encode(Sha256::digest(serde_json::to_vec(&inputs).map_err(ApiError::internal)?));

    let mut recorded_state = before.clone_arc();
    let mut state = before;
    let mut recorded_events = Vec::new();
    let mut what_if_events = Vec::new();
    let mut decided = Vec::new();
    let mut refusals = Vec::new();
    let mut tape = Vec::new();
    let mut commands_rerun = 0;
    for (index, (group, record, _)) in groups.iter().enumerate() {
        let version = group[0].version;
        // Disputes and rulings recorded after the change are left out of the what-if: it
        // re-decides the game, not the judge's earlier corrections.
        if dispute::is_dispute_type(&group[0].event_type) {
            for event in *group {
                evolve(ruleset, &mut recorded_state, event)?;
            }
            continue;
        }
        let cursor = ruleset.dice(state.as_ref());
        if let (Some(recorded), Some(now)) = (ruleset.dice(recorded_state.as_ref()), cursor.as_ref()) {
            if recorded.key != now.key || recorded.next_word != now.next_word {
                tape.push(TapeShift {
                    version,
                    key: now.key.id(),
                    recorded_word: recorded.next_word,
                    what_if_word: now.next_word,
                });
            }
        }
        for event in *group {
            evolve(ruleset, &mut recorded_state, event)?;
            let data = ruleset.upcast(&event.event_type, event.schema, event.data.get()).map_err(|error| {
                ApiError::internal(anyhow::anyhow!("event {} does not decode: {error}", event.version))
            })?;
            recorded_events.push((Some(event.version), data));
        }
        let command = if index == 0 { &change.command } else { &record.command };
        let dice = match cursor.as_ref().map(|cursor| (cursor, seeds.get(&cursor.key))) {
            Some((cursor, Some(key_seed))) => {
                DiceTape::new(seed::effective_seed(key_seed, stream, &cursor.contributions), cursor.next_word)
            }
            Some((cursor, None)) => DiceTape::sealed(cursor.next_word),
            None => DiceTape::unavailable(),
        };
        let mut context =
            Context { stream: stream.to_string(), actor: record.actor.clone(), recorded_at: record.recorded_at, dice };
        commands_rerun += 1;
        let command_type = command.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
        match ruleset.decide(state.as_ref(), command, &mut context) {
            Ok(events) => {
                for data in events {
                    let Some(folding) = Arc::get_mut(&mut state) else {
                        return Err(ApiError::internal(anyhow::anyhow!("the what-if state is shared")));
                    };
                    ruleset
                        .evolve(folding, &event_type_of(&data), herald_domain::ruleset::EVENT_SCHEMA, &data.to_string())
                        .map_err(|error| {
                            ApiError::internal(anyhow::anyhow!("a what-if event does not fold: {error}"))
                        })?;
                    what_if_events.push(data.clone());
                    decided.push((data, record.recorded_at));
                    if what_if_events.len() > asker.max_events {
                        return Err(bound_exceeded(what_if_events.len(), asker.max_events));
                    }
                }
            }
            Err(Refusal::Malformed(detail)) if index == 0 => {
                return Err(ApiError::Malformed(format!(
                    "the changed command is not a {} command: {detail}",
                    ruleset.id()
                )))
            }
            Err(Refusal::Malformed(detail)) => refusals.push(WhatIfRefusal {
                version,
                command_type,
                code: "malformed".into(),
                message: detail,
                rule: dispute::RULE.into(),
            }),
            Err(Refusal::Rule(error)) => refusals.push(WhatIfRefusal {
                version,
                command_type,
                code: error.code,
                message: error.message,
                rule: error.rule,
            }),
        }
    }

    // Event by event, as the caller may see each.
    let from_version = stored[start].version;
    let mut diff = Vec::new();
    let mut differs = false;
    let mut first_difference = None;
    for index in 0..recorded_events.len().max(what_if_events.len()) {
        let recorded =
            recorded_events.get(index).map(|(_, data)| shown(ruleset, data, final_state.as_ref(), &asker.viewer));
        let what_if = what_if_events.get(index).map(|data| shown(ruleset, data, state.as_ref(), &asker.viewer));
        let raw_differs = recorded_events.get(index).map(|(_, data)| data) != what_if_events.get(index);
        if !raw_differs {
            continue;
        }
        differs = true;
        let mut fields = Vec::new();
        super::verify::diff_json(
            "",
            recorded.as_ref().unwrap_or(&Value::Null),
            what_if.as_ref().unwrap_or(&Value::Null),
            &mut fields,
        );
        let entry = EventDiff {
            index,
            version: recorded_events.get(index).and_then(|(version, _)| *version),
            recorded_type: recorded.as_ref().map(event_type_of),
            what_if_type: what_if.as_ref().map(event_type_of),
            recorded,
            what_if,
            fields,
        };
        if first_difference.is_none() {
            first_difference = Some(entry.clone());
        }
        if diff.len() < MAX_LISTED {
            diff.push(entry);
        }
    }
    let what_if_version = (from_version + what_if_events.len() as u64).saturating_sub(1).max(from_version);
    let report = WhatIfReport {
        stream: stream.to_string(),
        hash,
        inputs,
        commands_rerun,
        events_rerun: what_if_events.len(),
        differs,
        first_difference,
        diff,
        refusals,
        tape,
        recorded: end_state(ruleset, stream, last, final_state.as_ref(), &asker.viewer),
        what_if: end_state(ruleset, stream, what_if_version, state.as_ref(), &asker.viewer),
    };
    Ok(WhatIf { report, state, ruleset, events: decided })
}

/// The seeds a what-if may use, by key.
type Seeds = BTreeMap<DiceKey, [u8; 32]>;

fn bound_exceeded(events: usize, bound: usize) -> ApiError {
    refused(
        "what_if.bound_exceeded",
        format!(
            "this what-if re-runs {events} events or more; the bound is {bound} (`max_events`, at most {MAX_EVENTS})"
        ),
    )
}

fn evolve(ruleset: &dyn AnyRuleset, state: &mut Arc<dyn AnyState>, event: &RecordedEvent) -> Result<(), ApiError> {
    let Some(folding) = Arc::get_mut(state) else {
        return Err(ApiError::internal(anyhow::anyhow!("the what-if state is shared")));
    };
    ruleset.evolve(folding, &event.event_type, event.schema, event.data.get()).map_err(|error| {
        ApiError::internal(anyhow::anyhow!("event {} of {} does not decode: {error}", event.version, event.stream))
    })
}

/// The stored command record that produced `event`.
pub fn record_of(store: &dyn EventStore, event: &RecordedEvent) -> Result<CommandRecord, ApiError> {
    let command_id = event.command_id.as_deref().unwrap_or_default();
    store
        .stored_command(command_id)?
        .and_then(|stored| stored.command)
        .and_then(|payload| payload.decode::<CommandRecord>().ok())
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the command of event {} is not stored", event.version)))
}

fn shown(ruleset: &dyn AnyRuleset, data: &Value, current: &dyn AnyState, viewer: &Viewer) -> Value {
    let mut data = data.clone();
    ruleset.redact_event(&mut data, current, viewer);
    data
}

fn end_state(ruleset: &dyn AnyRuleset, stream: &str, version: u64, state: &dyn AnyState, viewer: &Viewer) -> EndState {
    EndState {
        version,
        summary: ruleset.summary(state),
        view: ruleset.view(stream, version, state, state, viewer).unwrap_or(Value::Null),
    }
}

/// The seed of every key the stream committed to that the caller may use, and the commitments
/// as `key:hex`. A caller who is not a judge of the stream may run a what-if only once every
/// key is revealed (403 `what_if.sealed`).
fn seeds_of(
    store: &dyn EventStore,
    ruleset: &dyn AnyRuleset,
    stream: &str,
    state: &dyn AnyState,
    may_use_sealed: bool,
) -> Result<(Seeds, Vec<String>), ApiError> {
    let mut seeds = BTreeMap::new();
    let mut commitments = Vec::new();
    let Some(cursor) = ruleset.dice(state) else { return Ok((seeds, commitments)) };
    let root = cursor.committed(DiceKey::Stream).and_then(|root| root.revealed);
    for committed in &cursor.keys {
        commitments.push(format!("{}:{}", committed.key.id(), hex::encode(committed.commitment)));
        let derived = root.and_then(|root| committed.key.derive(&root, stream));
        let known = match committed.revealed.or(derived) {
            Some(revealed) => Some(revealed),
            None if may_use_sealed => super::key_seed(store, stream, committed.key)?,
            None => {
                return Err(ApiError::Forbidden {
                    code: "what_if.sealed".into(),
                    detail: format!(
                        "the seed of key {} of {stream} is still sealed: until it is revealed only a judge of the \
                         stream may run a what-if",
                        committed.key.id()
                    ),
                    rule: Some(dispute::RULE.into()),
                })
            }
        };
        if let Some(known) = known.filter(|known| seed::commitment(known) == committed.commitment) {
            seeds.insert(committed.key, known);
        }
    }
    Ok((seeds, commitments))
}
