//! A judge's roll on any stream (docs/DICE.md "A judge's roll"): what a ruleset leaves to the
//! judge, rolled from the stream's own tape and verified like every other die.

use actix_web::{post, web, HttpRequest, HttpResponse};
use herald_domain::dice::JudgeRoll;

use super::CommandResponse;
use crate::{
    auth::request::Authenticated,
    problem::{ApiError, Json, Problem},
};

/// Roll dice for a judge on a battle or campaign stream, with a stated purpose: `d3`, `2d6+3`,
/// halved totals, pools, additional and boosted dice. The draws are recorded on the stream's
/// tape and checked by `verify` like any other.
#[utoipa::path(post, path = "/v1/streams/{stream}/rolls", tag = "events", operation_id = "judge_roll",
    request_body = JudgeRoll,
    params(("stream" = String, Path, description = "stream name, e.g. `battle-0193…` or `campaign-0193…`, or a battle's or campaign's bare UUID"),
           ("If-Match" = Option<String>, Header, description = "the stream version you read"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 200, description = "rolled: the `dice.JudgeRolled` event with every draw", body = CommandResponse),
        (status = 400, description = "malformed request or dice expression", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the roll is refused (the seed is already public, no purpose given, bad extra dice)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{stream}/rolls")]
pub async fn judge_roll(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
    body: Json<JudgeRoll>,
) -> Result<HttpResponse, ApiError> {
    let stream = super::ids::stream_name(super::state(&req)?.service.catalog(), path.into_inner());
    let ruleset = super::state(&req)?
        .service
        .catalog()
        .ruleset_of(&stream)
        .ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
    let command = ruleset.judge_roll(body.into_inner());
    super::execute(&req, actor, ruleset, stream, command, None).await
}
