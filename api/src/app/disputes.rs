//! Disputes, what-ifs and rulings on any stream (issue 28; docs/API.md "Disputes",
//! docs/adr/0004-disputes-and-corrections.md). Blocking: call from a blocking thread.
//!
//! A dispute is an event on the disputed stream itself (`herald.DisputeFiled`), so every reader
//! of the stream sees it in the stream's own order, and its ruling likewise
//! (`herald.DisputeRuled`). A correction carries the what-if's end state and its hash; folding it
//! makes that the stream's state from then on.

use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::{
        battle::state::BattleState,
        campaign::{CampaignCommand, CampaignEvent, CampaignState},
    },
    dispute::{self, DisputeCommand, DisputeEvent, Ruling},
    Actor, RuleError, Viewer,
};
use herald_store::RecordedEvent;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    read_stream_to,
    whatif::{self, Asker, WhatIfChange},
    CommandMeta, CommandOutcome, Service,
};
use crate::problem::ApiError;

/// A dispute and, once ruled, its ruling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Dispute {
    /// Its id.
    pub id: String,
    /// The stream disputed.
    pub stream: String,
    /// The contested event's version.
    pub version: u64,
    /// The claim, in words.
    pub claim: String,
    /// Who filed it.
    pub filed_by: Actor,
    /// When.
    pub filed_at: DateTime<Utc>,
    /// The version of the `herald.DisputeFiled` event.
    pub filed_version: u64,
    /// `open`, `stands` or `corrected`.
    pub status: DisputeStatus,
    /// The ruling, once made.
    pub ruling: Option<RulingRecord>,
    /// What a judge weighs: the contested event, its command, its dice and the rule it cites
    /// (judges of the stream only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contested: Option<Contested>,
}

/// Where a dispute stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DisputeStatus {
    /// Not ruled yet.
    Open,
    /// Ruled: the decision stands.
    Stands,
    /// Ruled: the decision was corrected.
    Corrected,
}

/// A judge's ruling as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RulingRecord {
    /// `stands` or `corrected`.
    pub ruling: Ruling,
    /// The judge's reasons.
    pub reason: String,
    /// The hash of the what-if a correction rests on.
    pub what_if_hash: Option<String>,
    /// The change that what-if made.
    #[schema(value_type = Option<Object>)]
    pub change: Option<Value>,
    /// Who ruled.
    pub ruled_by: Actor,
    /// When.
    pub ruled_at: DateTime<Utc>,
    /// The version of the `herald.DisputeRuled` event.
    pub version: u64,
    /// For a correction carried from another stream: that stream and its dispute.
    pub carried_from: Option<String>,
    /// Streams the correction was carried to (a battle's campaign).
    #[serde(default)]
    pub carried_to: Vec<String>,
    /// Streams the corrected state links that the state before did not: the battles a corrected
    /// campaign adjudication announces that the record did not, opened by the service.
    #[serde(default)]
    pub streams_opened: Vec<String>,
    /// Streams the state before linked that the corrected state does not: battles the corrected
    /// adjudication no longer announces. They stay in the log as they are (it is never
    /// rewritten and a battle has no "void" event); the campaign no longer links them, so their
    /// results are never read or applied (docs/adr/0004-disputes-and-corrections.md).
    #[serde(default)]
    pub streams_dropped: Vec<String>,
}

/// The contested event as a judge sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Contested {
    /// Its type.
    pub event_type: String,
    /// Its payload.
    #[schema(value_type = Object)]
    pub event: Value,
    /// The command that produced it, as recorded (`{rules, actor, recorded_at, command}`).
    #[schema(value_type = Object)]
    pub command: Value,
    /// Its dice: every field of the payload about dice (`dice`, `roll`, `draws`, `next_word`),
    /// by JSON pointer.
    #[schema(value_type = Object)]
    pub dice: Value,
    /// The rule it cites: the payload's own `rule` where it names one, else the ruleset's source.
    pub rule: String,
}

/// Whether `actor` takes part in `stream`: a judge (or admin) whose token reaches it, or one of
/// its players.
pub fn participates(service: &Service, stream: &str, actor: &Actor) -> Result<bool, ApiError> {
    let entry = service.catalog().entry(stream).ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
    if actor.is_judge() {
        return Ok(true);
    }
    let players = entry.ruleset.summary(entry.state.as_ref()).map(|summary| summary.players).unwrap_or_default();
    Ok(actor.player.as_deref().is_some_and(|player| players.iter().any(|p| p == player)))
}

/// File a dispute on event `version` of `stream`.
pub fn file(
    service: &Service,
    stream: &str,
    version: u64,
    claim: String,
    meta: CommandMeta,
) -> Result<(Dispute, CommandOutcome), ApiError> {
    let entry = service.catalog().entry(stream).ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
    crate::auth::check_scope(&meta.scope, stream, service.catalog())?;
    if !participates(service, stream, &meta.actor)? {
        return Err(RuleError::forbidden(
            "dispute.not_a_participant",
            format!("only a player of {stream} or a judge may dispute its events"),
            dispute::RULE,
        )
        .into());
    }
    let contested = read_stream_to(service.store(), stream, Some(version))?.pop().filter(|e| e.version == version);
    match contested {
        Some(event) if !dispute::is_dispute_type(&event.event_type) => {}
        _ => {
            return Err(RuleError::new(
                "dispute.version_out_of_range",
                format!("{stream} has no decision at version {version}; it is at version {}", entry.version),
                dispute::RULE,
            )
            .into())
        }
    }
    let id = uuid::Uuid::now_v7().to_string();
    let viewer = Viewer::from(&meta.actor);
    // A retry (same Idempotency-Key) is answered as the first time: the dispute's id is chosen
    // here, so the command would differ from the stored one and be refused as another request.
    let same = {
        let claim = Value::String(claim.clone());
        move |command: &Value| {
            command.get("version") == Some(&Value::from(version)) && command.get("claim") == Some(&claim)
        }
    };
    let outcome = match replayed(service, &meta, stream, FILE_TYPE, &same)? {
        Some(outcome) => outcome,
        None => {
            let command = DisputeCommand::FileDispute { dispute: id.clone(), version, claim };
            service.execute(entry.ruleset, stream, serde_json::to_value(&command).map_err(ApiError::internal)?, meta)?
        }
    };
    let filed_id = outcome
        .events
        .iter()
        .find_map(|event| match event.data.decode::<DisputeEvent>() {
            Ok(DisputeEvent::DisputeFiled { dispute, .. }) => Some(dispute),
            _ => None,
        })
        .unwrap_or(id);
    let found = one(service, stream, &filed_id, &viewer)?;
    Ok((found, outcome))
}

/// Every dispute of `stream`, as `viewer` may see them.
pub fn list(service: &Service, stream: &str, viewer: &Viewer) -> Result<Vec<Dispute>, ApiError> {
    let entry = service.catalog().entry(stream).ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
    let stored = read_stream_to(service.store(), stream, None)?;
    let mut disputes: Vec<Dispute> = Vec::new();
    for event in stored.iter().filter(|event| dispute::is_dispute_type(&event.event_type)) {
        match event.data.decode::<DisputeEvent>() {
            Ok(DisputeEvent::DisputeFiled { dispute, version, claim, by }) => disputes.push(Dispute {
                id: dispute,
                stream: stream.to_string(),
                version,
                claim,
                filed_by: by,
                filed_at: event.recorded_at,
                filed_version: event.version,
                status: DisputeStatus::Open,
                ruling: None,
                contested: None,
            }),
            Ok(DisputeEvent::DisputeRuled {
                dispute,
                ruling,
                reason,
                what_if_hash,
                change,
                carried_from,
                streams_opened,
                streams_dropped,
                by,
                ..
            }) => {
                if let Some(filed) = disputes.iter_mut().find(|d| d.id == dispute) {
                    filed.status = match ruling {
                        Ruling::Stands => DisputeStatus::Stands,
                        Ruling::Corrected => DisputeStatus::Corrected,
                    };
                    filed.ruling = Some(RulingRecord {
                        ruling,
                        reason,
                        what_if_hash,
                        change,
                        ruled_by: by,
                        ruled_at: event.recorded_at,
                        version: event.version,
                        carried_from,
                        carried_to: Vec::new(),
                        streams_opened,
                        streams_dropped,
                    });
                }
            }
            Err(error) => {
                return Err(ApiError::internal(anyhow::anyhow!(
                    "event {} of {stream} does not decode: {error}",
                    event.version
                )))
            }
        }
    }
    // Where a correction was carried: the other streams' rulings naming this one.
    for found in disputes.iter_mut() {
        if let Some(ruling) = found.ruling.as_mut().filter(|r| r.ruling == Ruling::Corrected) {
            ruling.carried_to = carried_to(service, stream, &found.id)?;
        }
    }
    if viewer.is_judge() {
        for found in &mut disputes {
            if let Some(event) = stored.iter().find(|e| e.version == found.version) {
                found.contested = Some(contested(service, entry.ruleset, event)?);
            }
        }
    }
    Ok(disputes)
}

/// One dispute.
pub fn one(service: &Service, stream: &str, id: &str, viewer: &Viewer) -> Result<Dispute, ApiError> {
    list(service, stream, viewer)?
        .into_iter()
        .find(|d| d.id == id)
        .ok_or_else(|| ApiError::NotFound(format!("{stream} has no dispute {id}")))
}

/// The name a carried correction gives its origin.
fn origin(stream: &str, dispute: &str) -> String {
    format!("{stream}#{dispute}")
}

fn carried_to(service: &Service, stream: &str, dispute: &str) -> Result<Vec<String>, ApiError> {
    let mut streams = Vec::new();
    let from = origin(stream, dispute);
    for (campaign, _) in service.catalog().entries(herald_domain::StreamKind::Campaign) {
        let events = read_stream_to(service.store(), &campaign, None)?;
        if events.iter().filter(|e| e.event_type == dispute::RULED).any(|e| {
            matches!(e.data.decode::<DisputeEvent>(),
                Ok(DisputeEvent::DisputeRuled { carried_from: Some(carried), .. }) if carried == from)
        }) {
            streams.push(campaign);
        }
    }
    Ok(streams)
}

fn contested(
    service: &Service,
    ruleset: &dyn herald_domain::AnyRuleset,
    event: &RecordedEvent,
) -> Result<Contested, ApiError> {
    let payload = ruleset
        .upcast(&event.event_type, event.schema, event.data.get())
        .map_err(|error| ApiError::internal(anyhow::anyhow!("event {} does not decode: {error}", event.version)))?;
    let command = whatif::record_of(service.store(), event)
        .and_then(|record| serde_json::to_value(record).map_err(ApiError::internal))
        .unwrap_or(Value::Null);
    let mut dice = serde_json::Map::new();
    dice_fields("", &payload, &mut dice);
    let rule = payload
        .get("rule")
        .and_then(Value::as_str)
        .map_or_else(|| format!("{} ({})", ruleset.source(), ruleset.docs()), str::to_string);
    Ok(Contested { event_type: event.event_type.clone(), event: payload, command, dice: Value::Object(dice), rule })
}

/// Every field about dice in `value`, by JSON pointer.
fn dice_fields(path: &str, value: &Value, out: &mut serde_json::Map<String, Value>) {
    const DICE: [&str; 6] = ["dice", "roll", "rolls", "draws", "draw", "next_word"];
    match value {
        Value::Object(fields) => {
            for (key, child) in fields {
                let pointer = format!("{path}/{key}");
                if DICE.contains(&key.as_str()) {
                    out.insert(pointer, child.clone());
                } else {
                    dice_fields(&pointer, child, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                dice_fields(&format!("{path}/{index}"), item, out);
            }
        }
        _ => {}
    }
}

/// A judge's ruling, as asked.
#[derive(Debug, Clone)]
pub struct RulingRequest {
    /// `stands` or `corrected`.
    pub ruling: Ruling,
    /// The reasons.
    pub reason: String,
    /// The what-if a correction rests on.
    pub change: Option<WhatIfChange>,
    /// That what-if's hash, as the judge saw it.
    pub what_if_hash: Option<String>,
}

/// Rule on dispute `id` of `stream`. A correction runs the what-if again, checks its hash is the
/// one the judge saw, and appends the ruling carrying the what-if's state; a coalition battle's
/// correction is then carried to the campaign that applied its result
/// ([`carry_correction`]).
pub fn rule(
    service: &Service,
    stream: &str,
    id: &str,
    request: RulingRequest,
    meta: CommandMeta,
) -> Result<(Dispute, CommandOutcome), ApiError> {
    let entry = service.catalog().entry(stream).ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
    crate::auth::check_scope(&meta.scope, stream, service.catalog())?;
    if !meta.actor.is_judge() {
        return Err(RuleError::forbidden(
            "dispute.not_a_judge",
            "only a judge of the stream rules on a dispute",
            dispute::RULE,
        )
        .into());
    }
    let judge = Viewer::from(&meta.actor);
    // A retry (same Idempotency-Key) of a ruling is answered as the first time, and finishes
    // what a crash may have left undone after it (the carry to a campaign, the battles a
    // corrected adjudication announces).
    let same = {
        let (id, ruling, reason) = (
            Value::from(id),
            serde_json::to_value(request.ruling).map_err(ApiError::internal)?,
            Value::String(request.reason.clone()),
        );
        move |command: &Value| {
            command.get("dispute") == Some(&id)
                && command.get("ruling") == Some(&ruling)
                && command.get("reason") == Some(&reason)
        }
    };
    if let Some(outcome) = replayed(service, &meta, stream, RULE_TYPE, &same)? {
        if request.ruling == Ruling::Corrected {
            complete_correction(service, stream, id, &meta)?;
        }
        return Ok((one(service, stream, id, &judge)?, outcome));
    }
    let found = one(service, stream, id, &judge)?;
    if found.ruling.is_some() {
        return Err(
            RuleError::new("dispute.already_ruled", format!("dispute {id} has been ruled on"), dispute::RULE).into()
        );
    }
    let mut command = DisputeCommand::RuleDispute {
        dispute: id.to_string(),
        ruling: request.ruling,
        reason: request.reason,
        what_if_hash: None,
        change: None,
        corrected_state: None,
        carried_from: None,
        streams_opened: Vec::new(),
        streams_dropped: Vec::new(),
    };
    let mut meta = meta;
    let mut announced = Vec::new();
    if request.ruling == Ruling::Corrected {
        let (Some(change), Some(hash)) = (request.change, request.what_if_hash) else {
            return Err(RuleError::new(
                "dispute.correction_without_what_if",
                "a correction names the what-if it rests on: `what_if` (the change) and `what_if_hash`",
                dispute::RULE,
            )
            .into());
        };
        let asker = Asker { viewer: judge, may_use_sealed: true, max_events: whatif::MAX_EVENTS };
        let ran = whatif::what_if(service.store(), stream, &change, &asker)?;
        if ran.report.hash != hash.to_ascii_lowercase() {
            return Err(RuleError::new(
                "dispute.what_if_stale",
                format!(
                    "the what-if run now hashes to {}, not {hash}: the stream moved on or the change differs; run it again",
                    ran.report.hash
                ),
                dispute::RULE,
            )
            .into());
        }
        let state = entry.ruleset.save_state(ran.state.as_ref()).map_err(|e| ApiError::internal(anyhow::anyhow!(e)))?;
        let state: Value = serde_json::from_str(&state).map_err(ApiError::internal)?;
        if let DisputeCommand::RuleDispute {
            what_if_hash,
            change: recorded,
            corrected_state,
            streams_opened,
            streams_dropped,
            ..
        } = &mut command
        {
            *what_if_hash = Some(ran.report.hash.clone());
            *recorded = Some(serde_json::to_value(&change).map_err(ApiError::internal)?);
            *corrected_state = Some(state);
            (*streams_opened, *streams_dropped) = relinked(entry.state.as_ref(), ran.state.as_ref());
        }
        // The what-if was run on the stream as it is: nothing may come between.
        meta.expected_version = Some(ran.report.recorded.version);
        announced = announcements(&ran, &meta);
    }
    let outcome = service.execute(
        entry.ruleset,
        stream,
        serde_json::to_value(&command).map_err(ApiError::internal)?,
        meta.clone(),
    )?;
    if request.ruling == Ruling::Corrected {
        crash_point("dispute.before_carry");
        if !announced.is_empty() {
            super::campaign::open_announced(service, stream, &announced)?;
        }
        carry_correction(service, stream, id, &meta)?;
    }
    Ok((one(service, stream, id, &Viewer::from(&meta.actor))?, outcome))
}

/// The streams a correction links and unlinks: for a coalition campaign, the battles its
/// state links before (`before`) and after (`after`) the correction, as (opened, dropped).
/// Other streams link none.
fn relinked(before: &dyn herald_domain::AnyState, after: &dyn herald_domain::AnyState) -> (Vec<String>, Vec<String>) {
    let battles = |state: &dyn herald_domain::AnyState| -> std::collections::BTreeSet<String> {
        state.as_any().downcast_ref::<CampaignState>().map(|c| c.battles.keys().cloned().collect()).unwrap_or_default()
    };
    let (before, after) = (battles(before), battles(after));
    (after.difference(&before).cloned().collect(), before.difference(&after).cloned().collect())
}

/// The command types of a filing and a ruling, as stored.
const FILE_TYPE: &str = "herald.FileDispute";
const RULE_TYPE: &str = "herald.RuleDispute";

/// The outcome of an earlier request under `meta`'s Idempotency-Key on `stream`, if one was
/// stored (another kind of request under the key is refused, 409).
fn replayed(
    service: &Service,
    meta: &CommandMeta,
    stream: &str,
    command_type: &str,
    same: &dyn Fn(&Value) -> bool,
) -> Result<Option<CommandOutcome>, ApiError> {
    let Some(key) = meta.idempotency_key.as_deref() else { return Ok(None) };
    service.replayed_command(&meta.actor, key, stream, command_type, same)
}

/// A crash at a named point, for the test that kills the server there
/// (tests/tests/api/disputes.rs): with `HERALD_CRASH_AT` set to `name` the process aborts at
/// once, with no clean-up, as a `kill -9` would leave it. Unset (always, outside that test) it
/// does nothing.
fn crash_point(name: &str) {
    if std::env::var("HERALD_CRASH_AT").is_ok_and(|at| at == name) {
        tracing::error!(point = name, "HERALD_CRASH_AT: aborting");
        std::process::abort();
    }
}

/// The battles a what-if announced, to open once its correction is appended.
fn announcements(ran: &whatif::WhatIf, meta: &CommandMeta) -> Vec<super::campaign::Announcement> {
    ran.events
        .iter()
        .filter_map(|(data, recorded_at)| {
            let event = serde_json::from_value::<CampaignEvent>(data.clone()).ok()?;
            matches!(event, CampaignEvent::BattleAnnounced { .. }).then(|| super::campaign::Announcement {
                event,
                recorded_at: *recorded_at,
                correlation_id: meta.correlation_id.clone(),
            })
        })
        .collect()
}

/// Finish what follows a correction of `stream`'s dispute `id` once it is appended, where a
/// crash left it undone: the battles a corrected adjudication announces are opened, and a
/// battle's correction is carried to its campaign. Each step is idempotent.
fn complete_correction(service: &Service, stream: &str, id: &str, meta: &CommandMeta) -> Result<(), ApiError> {
    if service.catalog().entry(stream).is_some_and(|entry| entry.state_as::<CampaignState>().is_some()) {
        open_corrected_battles(service, stream)?;
    }
    carry_correction(service, stream, id, meta)
}

/// Open the battles that the latest correction of `campaign` announced and that have no stream:
/// its what-if is run again (the change is in the ruling) and its announcements opened. What a
/// crash between a correction and the opening of its battles left undone (start-up, a retried
/// ruling). Answers the battles opened.
pub fn open_corrected_battles(service: &Service, campaign: &str) -> Result<Vec<String>, ApiError> {
    let events = read_stream_to(service.store(), campaign, None)?;
    let latest = events.iter().rev().find_map(|event| match event.data.decode::<DisputeEvent>() {
        Ok(DisputeEvent::DisputeRuled { ruling: Ruling::Corrected, change: Some(change), .. })
            if event.event_type == dispute::RULED =>
        {
            serde_json::from_value::<WhatIfChange>(change).ok()
        }
        _ => None,
    });
    let Some(change) = latest else { return Ok(Vec::new()) };
    let asker = Asker { viewer: Viewer::from(&Actor::system()), may_use_sealed: true, max_events: whatif::MAX_EVENTS };
    let ran = whatif::what_if(service.store(), campaign, &change, &asker)?;
    let meta = system_meta(None);
    super::campaign::open_announced(service, campaign, &announcements(&ran, &meta))
}

fn system_meta(idempotency_key: Option<String>) -> CommandMeta {
    CommandMeta {
        actor: Actor::system(),
        recorded_at: Utc::now(),
        idempotency_key,
        correlation_id: None,
        expected_version: None,
        scope: crate::auth::Scope::Host,
    }
}

/// Finish every carry to `campaign` that a crash left undone between a battle's correction and
/// the campaign's (start-up runs it before serving): each battle whose result the campaign
/// applied is read for corrections, and one whose carried ruling the campaign has not stored is
/// carried now. Answers how many were carried.
pub fn complete_carries(service: &Service, campaign: &str) -> Result<usize, ApiError> {
    let Some(state) = service.catalog().entry(campaign).and_then(|entry| entry.state_as::<CampaignState>().cloned())
    else {
        return Ok(0);
    };
    let mut done = 0;
    for (battle, _) in state.battles.iter().filter(|(_, link)| link.applied) {
        for event in read_stream_to(service.store(), battle, None)? {
            if event.event_type != dispute::RULED {
                continue;
            }
            let Ok(DisputeEvent::DisputeRuled { dispute, ruling: Ruling::Corrected, carried_from: None, .. }) =
                event.data.decode::<DisputeEvent>()
            else {
                continue;
            };
            let carried = format!("idem:{}:carry-ruling:{}", Actor::system().id, origin(battle, &dispute));
            if service.store().stored_command(&carried)?.is_some() {
                continue;
            }
            carry_correction(service, battle, &dispute, &system_meta(None))?;
            done += 1;
        }
    }
    Ok(done)
}

/// Carry a correction to `stream` from `origin_stream`'s dispute: file a dispute there naming
/// the origin (by the service), and rule it corrected with the what-if `change` run as a judge.
pub fn carry(
    service: &Service,
    stream: &str,
    change: &WhatIfChange,
    origin_stream: &str,
    origin_dispute: &str,
    meta: &CommandMeta,
) -> Result<(), ApiError> {
    let entry = service.catalog().entry(stream).ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
    let from = origin(origin_stream, origin_dispute);
    let system = CommandMeta {
        actor: Actor::system(),
        idempotency_key: Some(format!("carry:{from}")),
        expected_version: None,
        scope: crate::auth::Scope::Host,
        ..meta.clone()
    };
    let command = DisputeCommand::FileDispute {
        dispute: format!("carried-{origin_dispute}"),
        version: change.version,
        claim: format!("carried from {from}: a battle result this stream applied was corrected"),
    };
    service.execute(
        entry.ruleset,
        stream,
        serde_json::to_value(&command).map_err(ApiError::internal)?,
        system.clone(),
    )?;
    let asker = Asker { viewer: Viewer::from(&Actor::system()), may_use_sealed: true, max_events: whatif::MAX_EVENTS };
    let ran = whatif::what_if(service.store(), stream, change, &asker)?;
    let state = entry.ruleset.save_state(ran.state.as_ref()).map_err(|e| ApiError::internal(anyhow::anyhow!(e)))?;
    let ruling = DisputeCommand::RuleDispute {
        dispute: format!("carried-{origin_dispute}"),
        ruling: Ruling::Corrected,
        reason: format!("the corrected result of {origin_stream} (ruling on {origin_dispute})"),
        what_if_hash: Some(ran.report.hash.clone()),
        change: Some(serde_json::to_value(change).map_err(ApiError::internal)?),
        corrected_state: Some(serde_json::from_str(&state).map_err(ApiError::internal)?),
        carried_from: Some(from.clone()),
        streams_opened: relinked(entry.state.as_ref(), ran.state.as_ref()).0,
        streams_dropped: relinked(entry.state.as_ref(), ran.state.as_ref()).1,
    };
    let ruled = CommandMeta { idempotency_key: Some(format!("carry-ruling:{from}")), ..system };
    let announced = announcements(&ran, &ruled);
    service.execute(entry.ruleset, stream, serde_json::to_value(&ruling).map_err(ApiError::internal)?, ruled)?;
    super::campaign::open_announced(service, stream, &announced)?;
    Ok(())
}

/// Carry a coalition battle's correction (docs/adr/0004-disputes-and-corrections.md) to the
/// campaign that applied its result: the adjudication that took the battle's result is run again
/// as a what-if with the corrected result in its place, and the campaign is corrected to where
/// that leads. A campaign that has not applied the result yet needs nothing: its next
/// adjudication reads the battle's corrected state. Other rulesets' streams have no campaign.
pub fn carry_correction(service: &Service, battle: &str, dispute: &str, meta: &CommandMeta) -> Result<(), ApiError> {
    let Some(entry) = service.catalog().entry(battle) else { return Ok(()) };
    let Some(corrected) = entry.state_as::<BattleState>().filter(|state| state.ended()) else { return Ok(()) };
    let corrected = super::campaign::result_of(battle, corrected);
    for (campaign, campaign_entry) in service.catalog().entries(herald_domain::StreamKind::Campaign) {
        let applied = campaign_entry
            .state_as::<CampaignState>()
            .and_then(|state| state.battles.get(battle))
            .is_some_and(|link| link.applied);
        if !applied {
            continue;
        }
        let events = super::read_stream_to(service.store(), &campaign, None)?;
        let mut seen = std::collections::BTreeSet::new();
        for event in &events {
            let Some(command_id) = event.command_id.as_deref() else { continue };
            if !seen.insert(command_id.to_string()) || herald_domain::dispute::is_dispute_type(&event.event_type) {
                continue;
            }
            let record = super::whatif::record_of(service.store(), event)?;
            let Ok(CampaignCommand::AdjudicateTurn { mut battle_results, interval_seed }) =
                serde_json::from_value::<CampaignCommand>(record.command.clone())
            else {
                continue;
            };
            let Some(taken) = battle_results.iter_mut().find(|result| result.battle == battle) else { continue };
            *taken = corrected.clone();
            let command = serde_json::to_value(CampaignCommand::AdjudicateTurn { battle_results, interval_seed })
                .map_err(ApiError::internal)?;
            if command == record.command {
                break; // the correction did not change what the campaign took
            }
            let change = super::whatif::WhatIfChange { version: event.version, command };
            carry(service, &campaign, &change, battle, dispute, meta)?;
            break;
        }
    }
    Ok(())
}
