//! Disputes on any stream, what-if replays and rulings (issue 28; docs/API.md "Disputes").

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use herald_domain::dispute::Ruling;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{blocking, command_meta, state};
use crate::{
    app::{
        disputes::{self, Dispute, RulingRequest},
        whatif::{self, Asker, WhatIfChange, WhatIfReport},
    },
    auth::request::{Authenticated, MaybeAuthenticated, MaybeAuthenticatedInScope},
    problem::{ApiError, Json, Problem},
};

/// A dispute filed on one event.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"version": 6, "claim": "The bonus for side a should have been 2: the ridge was not in the strategy."}))]
pub struct FileDisputeRequest {
    /// The contested event's stream version.
    pub version: u64,
    /// The claim, in words (1 to 2000 characters).
    #[schema(max_length = 2000)]
    pub claim: String,
}

/// A what-if: the command that produced event `version` replaced by `command`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"version": 6, "command": {"type": "assign_strategy_bonus", "side": "a", "bonus": 2}}))]
pub struct WhatIfRequest {
    /// A stream version produced by the command to change.
    pub version: u64,
    /// The command decided in its place (the stream's ruleset's command, with its `type`).
    #[schema(value_type = Object)]
    pub command: serde_json::Value,
    /// The most events to re-run (at most 20000, the default): past it the what-if is refused
    /// with `what_if.bound_exceeded`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 20000)]
    pub max_events: Option<usize>,
}

/// A judge's ruling on a dispute.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"ruling": "corrected", "reason": "the ridge was not in side a's strategy",
    "what_if": {"version": 6, "command": {"type": "assign_strategy_bonus", "side": "a", "bonus": 2}},
    "what_if_hash": "9f2c…"}))]
pub struct RulingBody {
    /// `stands` or `corrected`.
    pub ruling: Ruling,
    /// The reasons, in words.
    #[schema(max_length = 2000)]
    pub reason: String,
    /// For `corrected`: the what-if the correction rests on.
    #[serde(default)]
    pub what_if: Option<WhatIfChange>,
    /// For `corrected`: that what-if's `hash`, as you saw it (refused if the stream moved on).
    #[serde(default)]
    pub what_if_hash: Option<String>,
}

/// A stream's disputes.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DisputeList {
    /// The stream.
    pub stream: String,
    /// Its disputes, in the order filed.
    pub disputes: Vec<Dispute>,
}

/// A command for the stream's ruleset, checked as `POST …/actions` checks one: a field its schema
/// does not name is a 400 with its pointer (`at` is where the command sits in the body).
fn check_command(req: &HttpRequest, stream: &str, command: &serde_json::Value, at: &str) -> Result<(), ApiError> {
    let Some(ruleset) = state(req)?.service.catalog().ruleset_of(stream) else {
        return Err(ApiError::NotFound(format!("no stream {stream}")));
    };
    if let Some(pointer) = crate::unknown_fields::in_component(&ruleset.schemas().command.name, command) {
        return Err(crate::problem::unknown_field(
            &format!("not a {} command", ruleset.id()),
            &format!("{at}{pointer}"),
        ));
    }
    Ok(())
}

fn too_long(text: &str, what: &str) -> Result<(), ApiError> {
    if text.chars().count() > herald_domain::dispute::MAX_WORDS {
        return Err(ApiError::Malformed(format!(
            "{what} is longer than {} characters",
            herald_domain::dispute::MAX_WORDS
        )));
    }
    Ok(())
}

/// File a dispute on one event of a stream: a player of the battle or campaign, or a judge,
/// contests a decision with a claim in words. Recorded as a `herald.DisputeFiled` event on the
/// stream; every reader of the stream sees it.
#[utoipa::path(post, path = "/v1/streams/{stream}/disputes", tag = "disputes", operation_id = "file_dispute",
    request_body = FileDisputeRequest,
    params(("stream" = String, Path, description = "stream name, e.g. `battle-0193…`, or a battle's or campaign's bare UUID"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 201, description = "filed", body = Dispute),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a participant of the stream (`dispute.not_a_participant`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "no such event (`dispute.version_out_of_range`), no claim (`dispute.claim_empty`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{stream}/disputes")]
pub async fn file_dispute(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
    body: Json<FileDisputeRequest>,
) -> Result<HttpResponse, ApiError> {
    let app = state(&req)?;
    let stream = super::ids::stream_name(app.service.catalog(), path.into_inner());
    let body = body.into_inner();
    too_long(&body.claim, "the claim")?;
    let meta = command_meta(&req, actor)?;
    let (dispute, _) = blocking(move || disputes::file(&app.service, &stream, body.version, body.claim, meta)).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/streams/{}/disputes/{}", dispute.stream, dispute.id)))
        .json(dispute))
}

/// A stream's disputes and their rulings. Judges of the stream also see each contested event,
/// the command that produced it, its dice and the rule it cites.
#[utoipa::path(get, path = "/v1/streams/{stream}/disputes", tag = "disputes", operation_id = "list_disputes",
    params(("stream" = String, Path, description = "stream name or a battle's or campaign's bare UUID")),
    responses(
        (status = 200, description = "the disputes", body = DisputeList),
        (status = 401, description = "an unknown, revoked or expired bearer token (none is needed)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{stream}/disputes")]
pub async fn list_disputes(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let app = state(&req)?;
    let stream = super::ids::stream_name(app.service.catalog(), path.into_inner());
    let viewer = super::viewer(&req, actor.as_ref(), &stream)?;
    let list = blocking(move || {
        let disputes = disputes::list(&app.service, &stream, &viewer)?;
        Ok(DisputeList { stream, disputes })
    })
    .await?;
    Ok(HttpResponse::Ok().json(list))
}

/// One dispute and its ruling.
#[utoipa::path(get, path = "/v1/streams/{stream}/disputes/{dispute}", tag = "disputes", operation_id = "get_dispute",
    params(("stream" = String, Path, description = "stream name or a battle's or campaign's bare UUID"),
           ("dispute" = String, Path, description = "the dispute's id")),
    responses(
        (status = 200, description = "the dispute", body = Dispute),
        (status = 401, description = "an unknown, revoked or expired bearer token (none is needed)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream or dispute", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{stream}/disputes/{dispute}")]
pub async fn get_dispute(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let app = state(&req)?;
    let (stream, id) = path.into_inner();
    let stream = super::ids::stream_name(app.service.catalog(), stream);
    let viewer = super::viewer(&req, actor.as_ref(), &stream)?;
    let found = blocking(move || disputes::one(&app.service, &stream, &id, &viewer)).await?;
    Ok(HttpResponse::Ok().json(found))
}

/// Re-decide a stream from one command with that command changed, on a copy of the state,
/// writing nothing, with the same dice tape: the first event that differs, every difference,
/// both end states and a hash of the inputs. A judge of the stream may run one at any time;
/// anyone who may read the stream, once every dice key of it is revealed.
#[utoipa::path(post, path = "/v1/streams/{stream}/what-if", tag = "disputes", operation_id = "what_if",
    request_body = WhatIfRequest,
    params(("stream" = String, Path, description = "stream name or a battle's or campaign's bare UUID")),
    responses(
        (status = 200, description = "what would have happened", body = WhatIfReport),
        (status = 400, description = "malformed request, or the command is not one of the ruleset's", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "an unknown, revoked or expired bearer token (none is needed)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "a dice key is still sealed and you are not a judge of the stream (`what_if.sealed`); a token whose scope does not reach the stream (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`what_if.version_out_of_range`, `what_if.nothing_to_change`, `what_if.bound_exceeded`, `what_if.not_a_command`", body = Problem, content_type = "application/problem+json"),
    ))]
#[post("/{stream}/what-if")]
pub async fn what_if(
    req: HttpRequest,
    MaybeAuthenticatedInScope(actor): MaybeAuthenticatedInScope,
    path: web::Path<String>,
    body: Json<WhatIfRequest>,
) -> Result<HttpResponse, ApiError> {
    let app = state(&req)?;
    let stream = super::ids::stream_name(app.service.catalog(), path.into_inner());
    let viewer = super::viewer(&req, actor.as_ref(), &stream)?;
    let body = body.into_inner();
    check_command(&req, &stream, &body.command, "/command")?;
    let max_events = body.max_events.unwrap_or(whatif::MAX_EVENTS).clamp(1, whatif::MAX_EVENTS);
    let change = WhatIfChange { version: body.version, command: body.command };
    let report = blocking(move || {
        if app.service.catalog().entry(&stream).is_none() {
            return Err(ApiError::NotFound(format!("no stream {stream}")));
        }
        let asker = Asker { may_use_sealed: viewer.is_judge(), viewer, max_events };
        whatif::what_if(app.service.store(), &stream, &change, &asker).map(|ran| ran.report)
    })
    .await?;
    Ok(HttpResponse::Ok().json(report))
}

/// Rule on a dispute: `stands`, or `corrected` with the what-if it rests on (its change and
/// hash). A correction appends a `herald.DisputeRuled` event carrying the what-if's state: the
/// stream continues from there; a coalition battle's correction is carried to the campaign that
/// applied its result.
#[utoipa::path(post, path = "/v1/streams/{stream}/disputes/{dispute}/ruling", tag = "disputes", operation_id = "rule_on_dispute",
    request_body = RulingBody,
    params(("stream" = String, Path, description = "stream name or a battle's or campaign's bare UUID"),
           ("dispute" = String, Path, description = "the dispute's id"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 200, description = "ruled", body = Dispute),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge of the stream (`dispute.not_a_judge`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream or dispute", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "the stream moved on while ruling", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`dispute.already_ruled`, `dispute.correction_without_what_if`, `dispute.what_if_stale`, or a what-if refusal", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{stream}/disputes/{dispute}/ruling")]
pub async fn rule_on_dispute(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<(String, String)>,
    body: Json<RulingBody>,
) -> Result<HttpResponse, ApiError> {
    let app = state(&req)?;
    let (stream, id) = path.into_inner();
    let stream = super::ids::stream_name(app.service.catalog(), stream);
    let body = body.into_inner();
    too_long(&body.reason, "the reason")?;
    if let Some(change) = &body.what_if {
        check_command(&req, &stream, &change.command, "/what_if/command")?;
    }
    let meta = command_meta(&req, actor)?;
    let request = RulingRequest {
        ruling: body.ruling,
        reason: body.reason,
        change: body.what_if,
        what_if_hash: body.what_if_hash,
    };
    let (found, _) = blocking(move || disputes::rule(&app.service, &stream, &id, request, meta)).await?;
    Ok(HttpResponse::Ok().json(found))
}
