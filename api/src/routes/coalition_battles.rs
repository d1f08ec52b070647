//! Coalition battles decided by the Battle Judge (seed 003 §4.2), the routes of their own: submit
//! and read sealed strategies, assign strategy bonuses, resolve, override casualties. Creating,
//! reading, entropy, reveal, verification and judge's rolls are the battle routes every ruleset
//! shares (`battles.rs`).

use actix_web::{get, http::header, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::battle::{
        Attempt, BattleCommand, BattleState, CoalitionBattle, Departure, FormulaOpening, FormulaOpeningRecord, Share,
        SideId,
    },
    Actor,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{battles::not_found, etag, ids::BattleId, state, CommandResponse};
use crate::{
    app::{command_value, ruleset, wrong_ruleset},
    auth::request::{Authenticated, MaybeAuthenticated},
    problem::{ApiError, Json, Problem},
};

async fn run(
    req: &HttpRequest,
    actor: Actor,
    battle_id: BattleId,
    command: BattleCommand,
) -> Result<HttpResponse, ApiError> {
    let stream = battle_id.stream();
    if state(req)?.service.catalog().entry(&stream).is_none() {
        return Err(not_found(&stream));
    }
    super::execute(req, actor, ruleset::<CoalitionBattle>()?, stream, command_value(&command)?, None).await
}

/// An army's battle strategy.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"side": "a", "strategy": "Hold the ridge at dawn; Kris Mages volley from the rocks.",
    "attempt": {"kind": "kill"}}))]
#[serde(deny_unknown_fields)]
pub struct StrategyRequest {
    /// The side.
    pub side: SideId,
    /// The strategy text.
    pub strategy: String,
    /// Which of the side's two armies it is for (2v1 and 2v2 battles, seed 003 §4.4); the side's
    /// first army when absent.
    #[serde(default)]
    pub army: Option<String>,
    /// A kill (500 of the largest slot) or capture (2000 of the lowest rank) the strategy risks
    /// troops for (seed 003 §4.3.2, §4.5).
    #[serde(default)]
    pub attempt: Option<Attempt>,
    /// Which of a winning pair leaves the square, and in which direction (seed 003 §4.4).
    #[serde(default)]
    pub departure: Option<Departure>,
}

/// A side's casualties shared between its two armies (seed 003 §4.4).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"side": "a", "shares": [{"army": "Sai Rei", "percent": 70}, {"army": "Barrin", "percent": 30}]}))]
#[serde(deny_unknown_fields)]
pub struct InvolvementRequest {
    /// The side.
    pub side: SideId,
    /// Each army's share in percent, adding up to 100.
    pub shares: Vec<Share>,
}

/// A strategy bonus.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"side": "a", "bonus": 7, "note": "good use of terrain"}))]
#[serde(deny_unknown_fields)]
pub struct StrategyBonusRequest {
    /// The side.
    pub side: SideId,
    /// 0–10 (seed 003 §4.2.1).
    #[schema(maximum = 10)]
    pub bonus: u8,
    /// The judge's note.
    #[serde(default)]
    pub note: Option<String>,
}

/// Resolve the battle.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"running_away": null}))]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    /// A side that runs away (seed 003 §4.2.6).
    #[serde(default)]
    pub running_away: Option<SideId>,
}

/// Override a side's casualties.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"side": "b", "losses": [900], "reason": "the Broodlings' strategy exposed them to the volley"}))]
#[serde(deny_unknown_fields)]
pub struct CasualtiesRequest {
    /// The side.
    pub side: SideId,
    /// Troops lost per slot, in slot order.
    pub losses: Vec<u32>,
    /// Why (recorded).
    pub reason: String,
}

/// A side's strategy, for those who may read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StrategyView {
    /// The side.
    pub side: SideId,
    /// The strategy text.
    pub strategy: String,
    /// When it arrived.
    pub submitted_at: DateTime<Utc>,
}

/// Submit a side's strategy before the deadline (its controller, or a judge).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/strategies", tag = "coalition battles", request_body = StrategyRequest,
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`"),
           ("If-Match" = Option<String>, Header, description = "the stream version you read"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 200, description = "recorded (the text is sealed from the other side)", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not this side's controller", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "after the deadline (seed 003 §4.1.1)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/strategies")]
pub async fn submit_strategy(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Json<StrategyRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::SubmitStrategy {
        side: body.side,
        strategy: body.strategy,
        army: body.army,
        attempt: body.attempt,
        departure: body.departure,
    };
    run(&req, actor, path.into_inner(), command).await
}

/// Read a side's strategy: its controller and judges at any time, everyone once the battle ended.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/strategies/{side}", tag = "coalition battles",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`"), ("side" = SideId, Path, description = "a or b")),
    responses(
        (status = 200, description = "the strategy", body = StrategyView),
        (status = 403, description = "sealed from you until the battle is resolved", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no battle, or no strategy yet", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "a battle of another ruleset (`battle.wrong_ruleset`)", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{battle_id}/strategies/{side}")]
pub async fn get_strategy(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<(BattleId, SideId)>,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, side) = path.into_inner();
    let stream = battle_id.stream();
    let (entry, viewer) = coalition_entry(&req, actor.as_ref(), &stream)?;
    let battle = entry.state_as::<BattleState>().ok_or_else(|| not_found(&stream))?;
    if !battle.strategy_visible_to(&viewer, side) {
        return Err(ApiError::Forbidden {
            code: "coalition.battle.strategy_sealed".into(),
            detail: format!("side {side}'s strategy is sealed from you until the battle is resolved"),
            rule: Some("seed 003 §4.1.1".into()),
        });
    }
    let strategy = battle
        .sides
        .get(side)
        .strategy
        .clone()
        .ok_or_else(|| ApiError::NotFound(format!("side {side} has not submitted a strategy")))?;
    Ok(HttpResponse::Ok().insert_header(etag(entry.version)).json(StrategyView {
        side,
        strategy: strategy.text,
        submitted_at: strategy.at,
    }))
}

/// A coalition battle's read model and how `actor` may read it: 404 for no battle, 422 for a
/// battle of another ruleset (for the reads only a coalition battle has).
fn coalition_entry(
    req: &HttpRequest,
    actor: Option<&Actor>,
    stream: &str,
) -> Result<(herald_projections::Entry, herald_projections::Viewer), ApiError> {
    let entry = state(req)?.service.catalog().entry(stream).ok_or_else(|| not_found(stream))?;
    let coalition = ruleset::<CoalitionBattle>()?;
    if entry.ruleset.rules() != coalition.rules() {
        return Err(wrong_ruleset(stream, entry.ruleset, coalition));
    }
    let viewer = super::viewer(req, actor, stream)?;
    Ok((entry, viewer))
}

/// The opening of a battle's formula commitment: the formulas in force, the salt, the public
/// commitment and the canonical text hashed (docs/DICE.md "Commitments to hidden formulas").
/// Judges at any time — to show whoever disputes a result, who checks it against the commitment
/// in the log (`docs/verify_dice.py --opening`) — and everyone once a battle opened with
/// `formula_opening: open_at_end` has ended. Seed 003 §4.2.2 keeps the formulas secret otherwise.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/formulas", tag = "coalition battles", operation_id = "get_formulas",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "the opening: formulas, salt, commitment and canonical text", body = FormulaOpeningRecord),
        (status = 400, description = "malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token, and the formulas are not open to everyone", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge, and the formulas are not open to everyone (`coalition.battle.formulas_sealed`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle, or a battle recorded before formula commitments", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "a battle of another ruleset (`battle.wrong_ruleset`)", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{battle_id}/formulas")]
pub async fn get_formulas(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<BattleId>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner().stream();
    let (entry, viewer) = coalition_entry(&req, actor.as_ref(), &stream)?;
    let battle = entry.state_as::<BattleState>().ok_or_else(|| not_found(&stream))?;
    if !viewer.is_judge() && !battle.formulas_open() {
        let why = if battle.formula_opening == FormulaOpening::OpenAtEnd {
            "the formulas are the judge's until the battle ends"
        } else {
            "this battle keeps its formulas secret (seed 003 §4.2.2): the judge shows the opening on dispute"
        };
        return Err(match actor {
            None => ApiError::Unauthenticated(format!("{why}; a judge's bearer token reads them")),
            Some(_) => ApiError::Forbidden {
                code: "coalition.battle.formulas_sealed".into(),
                detail: format!("{why}; only a judge reads them"),
                rule: Some("seed 003 §4.2.2".into()),
            },
        });
    }
    let opening = battle.formula_opening_record().ok_or_else(|| {
        ApiError::NotFound(format!("{stream} was recorded before formula commitments: it has no opening"))
    })?;
    Ok(HttpResponse::Ok().json(opening))
}

/// Assign a side's strategy bonus, 0–10 (battle judge, seed 003 §4.2.1).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/strategy-bonuses", tag = "coalition battles", request_body = StrategyBonusRequest,
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "bonus out of range (seed 003 §4.2.1)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/strategy-bonuses")]
pub async fn assign_strategy_bonus(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Json<StrategyBonusRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::AssignStrategyBonus { side: body.side, bonus: body.bonus, note: body.note };
    run(&req, actor, path.into_inner(), command).await
}

/// Resolve the battle: bonuses, four d20 per side, pairs, winner, casualties (battle judge,
/// seed 003 §4.2). The seed is revealed as soon as the battle ends.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/resolve", tag = "coalition battles", request_body = ResolveRequest,
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "resolved; the events carry every die", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "too early, or a strategy bonus is missing", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/resolve")]
pub async fn resolve_battle(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Result<Json<ResolveRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // No body means no options; a body that does not parse is refused, not ignored (a typo in
    // `running_away` must not resolve the battle as if nobody ran).
    let body = match body {
        Ok(body) => body.into_inner(),
        Err(_) if has_no_body(&req) => ResolveRequest::default(),
        Err(error) => return Err(error),
    };
    let command = BattleCommand::ResolveBattle { running_away: body.running_away };
    Ok(run(&req, actor, path.into_inner(), command).await?)
}

/// Whether a request came without a body (no or a zero `Content-Length`, not chunked).
fn has_no_body(req: &HttpRequest) -> bool {
    let length = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).map(str::trim);
    matches!(length, None | Some("0")) && !req.headers().contains_key(header::TRANSFER_ENCODING)
}

/// Replace a side's casualties, with a recorded reason (battle judge, seed 003 §4.2.5).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/casualties", tag = "coalition battles", request_body = CasualtiesRequest,
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "not resolved yet, or losses do not fit the army", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/casualties")]
pub async fn override_casualties(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Json<CasualtiesRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::OverrideCasualties { side: body.side, losses: body.losses, reason: body.reason };
    run(&req, actor, path.into_inner(), command).await
}

/// Share a side's casualties between its two armies by how involved each was (battle judge,
/// seed 003 §4.4); without shares each army loses at its side's rate.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/involvement", tag = "coalition battles", request_body = InvolvementRequest,
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "not one share per army of a two-army side, or not adding up to 100 (seed 003 §4.4)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/involvement")]
pub async fn assign_involvement(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Json<InvolvementRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::AssignInvolvement { side: body.side, shares: body.shares };
    run(&req, actor, path.into_inner(), command).await
}
