//! Coalition battles decided by the Battle Judge (seed 003 §4.2): create, contribute entropy,
//! submit strategies, assign bonuses, resolve, override casualties, reveal, verify.

use actix_web::{get, http::header, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::{
        army::ArmySpec,
        battle::{
            command::Engagement, state::BattleStatus, BattleCommand, BattleOptions, CoalitionBattle, SideId, Sides,
        },
    },
    Actor,
};
use herald_projections::{BattleView, Viewer};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{blocking, etag, state, CommandResponse};
use crate::{
    app::verify::{verify_stream, VerifyError, VerifyReport},
    auth::{Authenticated, MaybeAuthenticated},
    problem::{ApiError, Problem},
};

fn stream_of(battle_id: Uuid) -> String {
    format!("battle-{battle_id}")
}

/// Open a battle between two armies.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({
    "armies": {
        "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
              "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000},
                        {"creature": "Grizzly Bears", "colors": ["green"], "power": 2, "toughness": 2, "troops": 2500}]},
        "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
              "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}
    },
    "engagement": {"kind": "attack", "attacker": "a"},
    "terrain": "plains",
    "strategy_deadline": "2026-12-01T18:00:00Z"
}))]
#[serde(deny_unknown_fields)]
pub struct CreateBattleRequest {
    /// `coalition` (the default when absent).
    #[serde(default)]
    pub ruleset: Option<String>,
    /// The two armies.
    pub armies: Sides<ArmySpec>,
    /// Who attacks whom (seed 003 §4.1.2.3).
    pub engagement: Engagement,
    /// Terrain of the square (seed 003 §4.1.2.4).
    #[serde(default)]
    pub terrain: Option<String>,
    /// Strategies must arrive before this time (seed 003 §4.1.1).
    pub strategy_deadline: DateTime<Utc>,
    /// Tie rule and formulas; defaults documented in docs/rulesets/coalition-battle.md.
    #[serde(default)]
    pub options: BattleOptions,
    /// A server seed to use (64 hex digits), for tests and tournaments that want a public seed.
    /// When absent the server draws one from the OS. Either way it is sealed until revealed.
    #[serde(default)]
    pub seed: Option<String>,
}

/// A battle of either ruleset: `ruleset` picks which (`coalition` when absent).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum CreateAnyBattleRequest {
    /// A coalition battle decided by the Battle Judge (seed 003 §4.2).
    Coalition(CreateBattleRequest),
    /// A warmachine battle fought on a measured table (seed 000).
    Warmachine(super::warmachine::CreateWarmachineBattleRequest),
}

/// Entropy to mix into the dice.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"entropy": "alice's lucky string 7f3a"}))]
#[serde(deny_unknown_fields)]
pub struct EntropyRequest {
    /// Any text (at most 1024 characters); its SHA-256 is mixed into the seed.
    pub entropy: String,
}

/// A side's battle strategy.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"side": "a", "strategy": "Hold the ridge at dawn; Kris Mages volley from the rocks."}))]
#[serde(deny_unknown_fields)]
pub struct StrategyRequest {
    /// The side.
    pub side: SideId,
    /// The strategy text.
    pub strategy: String,
}

/// A strategy bonus.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"side": "a", "bonus": 7, "note": "good use of terrain"}))]
#[serde(deny_unknown_fields)]
pub struct StrategyBonusRequest {
    /// The side.
    pub side: SideId,
    /// 0–10 (seed 003 §4.2.1).
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

/// `?at=<version>`: the state as of that event.
#[derive(Debug, Deserialize, IntoParams)]
pub struct AtQuery {
    /// Stream version to fold up to (inclusive).
    pub at: Option<u64>,
}

/// One battle in a listing, of either ruleset.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum BattleListing {
    /// A coalition battle.
    Coalition(BattleSummary),
    /// A warmachine battle.
    Warmachine(WarmachineSummary),
}

/// One warmachine battle in a listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarmachineSummary {
    /// The battle id.
    pub id: String,
    /// The stream.
    pub stream: String,
    /// Always `warmachine`.
    pub ruleset: String,
    /// Current version.
    pub version: u64,
    /// Where it stands.
    pub phase: herald_domain::warmachine::battle::state::Phase,
    /// The turn number.
    pub turn: u32,
    /// The players, in turn order.
    pub players: Vec<String>,
    /// The winner, once decided.
    pub winner: Option<String>,
}

/// One coalition battle in a listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct BattleSummary {
    /// The battle id.
    pub id: String,
    /// Always `coalition`.
    pub ruleset: String,
    /// The stream.
    pub stream: String,
    /// Current version.
    pub version: u64,
    /// Status.
    pub status: BattleStatus,
    /// Army names, side A and side B.
    pub armies: Sides<Option<String>>,
    /// The winner, once decided.
    pub winner: Option<SideId>,
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

async fn run(
    req: &HttpRequest,
    actor: Actor,
    battle_id: Uuid,
    command: BattleCommand,
    created: bool,
) -> Result<HttpResponse, ApiError> {
    let location = created.then(|| format!("/v1/battles/{battle_id}"));
    let stream = stream_of(battle_id);
    if let Some(other @ "warmachine") = state(req)?.service.catalog().ruleset_of(&stream) {
        return Err(super::warmachine::wrong_ruleset(&stream, other));
    }
    super::execute::<CoalitionBattle>(req, actor, stream, command, location).await
}

/// Open a battle (judge or admin): a coalition battle, or with `"ruleset": "warmachine"` a
/// warmachine battle. The server seals a seed and publishes its SHA-256.
#[utoipa::path(post, path = "/v1/battles", tag = "battles", request_body = CreateAnyBattleRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 201, description = "battle created; the events and the new version", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the rules refuse (e.g. two armies of one team)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles")]
pub async fn create_battle(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    match body.get("ruleset").and_then(serde_json::Value::as_str) {
        Some("warmachine") => return super::warmachine::create(&req, actor, body).await,
        None | Some("coalition") => {}
        Some(other) => {
            return Err(ApiError::Malformed(format!(
                "unknown ruleset {other}: battles are `coalition` (the default) or `warmachine`"
            )))
        }
    }
    let body: CreateBattleRequest = serde_json::from_value(body).map_err(|error| {
        ApiError::Malformed(format!(
            "not a coalition battle: {error} (for a warmachine battle send \"ruleset\": \"warmachine\")"
        ))
    })?;
    let supplied = super::supplied_seed(body.seed.as_deref())?;
    super::require_judge(
        &actor,
        "coalition.battle.not_a_judge",
        "only a battle judge or an admin may open a battle",
        "seed 003 §1.3",
    )?;
    if let Some(response) = super::replayed_creation(&req, &actor).await? {
        return Ok(response);
    }
    let state = state(&req)?;
    let battle_id = Uuid::now_v7();
    let stream = stream_of(battle_id);
    let worker = state.clone();
    let commitment = blocking(move || worker.service.seal_seed(&stream, supplied)).await?;
    let command = BattleCommand::CreateBattle {
        armies: body.armies,
        engagement: body.engagement,
        terrain: body.terrain,
        strategy_deadline: body.strategy_deadline,
        options: body.options,
        seed_commitment: hex::encode(commitment),
    };
    run(&req, actor, battle_id, command, true).await
}

/// List battles.
#[utoipa::path(get, path = "/v1/battles", tag = "battles",
    responses((status = 200, description = "every battle, of both rulesets", body = Vec<BattleListing>)))]
#[get("/battles")]
pub async fn list_battles(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let state = state(&req)?;
    let catalog = state.service.catalog();
    let mut battles: Vec<BattleListing> = catalog
        .battles()
        .into_iter()
        .map(|(stream, entry)| BattleSummary {
            id: stream.trim_start_matches("battle-").to_string(),
            ruleset: "coalition".into(),
            stream,
            version: entry.version,
            status: entry.state.status,
            armies: entry.state.sides.map(|_, side| side.army.as_ref().map(|army| army.name.clone())),
            winner: entry.state.winner,
        })
        .map(BattleListing::Coalition)
        .collect();
    battles.extend(catalog.warmachines().into_iter().map(|(stream, entry)| {
        BattleListing::Warmachine(WarmachineSummary {
            id: stream.trim_start_matches("battle-").to_string(),
            stream,
            ruleset: "warmachine".into(),
            version: entry.version,
            phase: entry.state.phase,
            turn: entry.state.turn,
            players: entry.state.players.iter().map(|p| p.name.clone()).collect(),
            winner: entry.state.winner.clone(),
        })
    }));
    Ok(HttpResponse::Ok().json(battles))
}

/// A battle as the caller may see it; `?at=<version>` for its state as of any event.
#[utoipa::path(get, path = "/v1/battles/{battle_id}", tag = "battles",
    params(("battle_id" = Uuid, Path, description = "the battle id"), AtQuery),
    responses(
        (status = 200, description = "the battle; the ETag is its stream version (a WarmachineView for warmachine battles)", body = BattleView),
        (status = 400, description = "malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/battles/{battle_id}")]
pub async fn get_battle(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<Uuid>,
    query: web::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let stream = stream_of(battle_id);
    let state = state(&req)?;
    if state.service.catalog().ruleset_of(&stream) == Some("warmachine") {
        return super::warmachine::view(&req, battle_id, query.at).await;
    }
    let viewer = actor.as_ref().map_or_else(Viewer::public, Viewer::from);
    let current = state.service.catalog().battle(&stream).ok_or_else(|| not_found(&stream))?;
    let (folded, version) = match query.at {
        None => (current.state.clone(), current.version),
        Some(at) if at > current.version => {
            return Err(ApiError::NotFound(format!("{stream} has no version {at}; it is at {}", current.version)))
        }
        Some(at) => {
            let worker = state.clone();
            let stream = stream.clone();
            blocking(move || worker.service.load::<CoalitionBattle>(&stream, Some(at)))
                .await?
                .ok_or_else(|| ApiError::NotFound("no such version".into()))?
        }
    };
    let view = BattleView::new(&stream, version, &folded, &current.state, &viewer);
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(view))
}

/// Contribute entropy to the dice before the first roll (a side's controller or a judge).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/entropy", tag = "battles", request_body = EntropyRequest,
    params(("battle_id" = Uuid, Path, description = "the battle id")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a participant", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "dice already rolled", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/entropy")]
pub async fn contribute_entropy(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: web::Json<EntropyRequest>,
) -> Result<HttpResponse, ApiError> {
    let entropy = body.into_inner().entropy;
    let battle_id = path.into_inner();
    if state(&req)?.service.catalog().ruleset_of(&stream_of(battle_id)) == Some("warmachine") {
        let command = herald_domain::warmachine::battle::WarmachineCommand::ContributeEntropy { entropy };
        return super::warmachine::run(&req, actor, battle_id, command).await;
    }
    run(&req, actor, battle_id, BattleCommand::ContributeEntropy { entropy }, false).await
}

/// Submit a side's strategy before the deadline (its controller, or a judge).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/strategies", tag = "battles", request_body = StrategyRequest,
    params(("battle_id" = Uuid, Path, description = "the battle id"),
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
#[post("/battles/{battle_id}/strategies")]
pub async fn submit_strategy(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: web::Json<StrategyRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::SubmitStrategy { side: body.side, strategy: body.strategy };
    run(&req, actor, path.into_inner(), command, false).await
}

/// Read a side's strategy: its controller and judges at any time, everyone once the battle ended.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/strategies/{side}", tag = "battles",
    params(("battle_id" = Uuid, Path, description = "the battle id"), ("side" = SideId, Path, description = "a or b")),
    responses(
        (status = 200, description = "the strategy", body = StrategyView),
        (status = 403, description = "sealed from you until the battle is resolved", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no battle, or no strategy yet", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/battles/{battle_id}/strategies/{side}")]
pub async fn get_strategy(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<(Uuid, SideId)>,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, side) = path.into_inner();
    let stream = stream_of(battle_id);
    let state = state(&req)?;
    if let Some(other @ "warmachine") = state.service.catalog().ruleset_of(&stream) {
        return Err(super::warmachine::wrong_ruleset(&stream, other));
    }
    let entry = state.service.catalog().battle(&stream).ok_or_else(|| not_found(&stream))?;
    let viewer = actor.as_ref().map_or_else(Viewer::public, Viewer::from);
    if !viewer.may_read_strategy(&entry.state, side) {
        return Err(ApiError::Forbidden {
            code: "coalition.battle.strategy_sealed".into(),
            detail: format!("side {side}'s strategy is sealed from you until the battle is resolved"),
            rule: Some("seed 003 §4.1.1".into()),
        });
    }
    let strategy = entry
        .state
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

/// Assign a side's strategy bonus, 0–10 (battle judge, seed 003 §4.2.1).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/strategy-bonuses", tag = "battles", request_body = StrategyBonusRequest,
    params(("battle_id" = Uuid, Path, description = "the battle id")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "bonus out of range (seed 003 §4.2.1)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/strategy-bonuses")]
pub async fn assign_strategy_bonus(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: web::Json<StrategyBonusRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::AssignStrategyBonus { side: body.side, bonus: body.bonus, note: body.note };
    run(&req, actor, path.into_inner(), command, false).await
}

/// Resolve the battle: bonuses, four d20 per side, pairs, winner, casualties (battle judge,
/// seed 003 §4.2). The seed is revealed as soon as the battle ends.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/resolve", tag = "battles", request_body = ResolveRequest,
    params(("battle_id" = Uuid, Path, description = "the battle id")),
    responses(
        (status = 200, description = "resolved; the events carry every die", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "too early, or a strategy bonus is missing", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/resolve")]
pub async fn resolve_battle(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: Result<web::Json<ResolveRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // No body means no options; a body that does not parse is refused, not ignored (a typo in
    // `running_away` must not resolve the battle as if nobody ran).
    let body = match body {
        Ok(body) => body.into_inner(),
        Err(_) if has_no_body(&req) => ResolveRequest::default(),
        Err(error) => return Err(error),
    };
    let command = BattleCommand::ResolveBattle { running_away: body.running_away };
    Ok(run(&req, actor, path.into_inner(), command, false).await?)
}

/// Whether a request came without a body (no or a zero `Content-Length`, not chunked).
fn has_no_body(req: &HttpRequest) -> bool {
    let length = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).map(str::trim);
    matches!(length, None | Some("0")) && !req.headers().contains_key(header::TRANSFER_ENCODING)
}

/// Replace a side's casualties, with a recorded reason (battle judge, seed 003 §4.2.5).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/casualties", tag = "battles", request_body = CasualtiesRequest,
    params(("battle_id" = Uuid, Path, description = "the battle id")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "not resolved yet, or losses do not fit the army", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/casualties")]
pub async fn override_casualties(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: web::Json<CasualtiesRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = BattleCommand::OverrideCasualties { side: body.side, losses: body.losses, reason: body.reason };
    run(&req, actor, path.into_inner(), command, false).await
}

/// Reveal the sealed seed now (a judge). Battles reveal it by themselves when they end.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/reveal", tag = "battles",
    params(("battle_id" = Uuid, Path, description = "the battle id")),
    responses(
        (status = 200, description = "revealed", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "already revealed", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/reveal")]
pub async fn reveal_seed(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let stream = stream_of(battle_id);
    if !actor.is_judge() {
        return Err(ApiError::Forbidden {
            code: "coalition.battle.not_a_judge".into(),
            detail: "only a judge may reveal a sealed seed".into(),
            rule: Some("herald: docs/DICE.md".into()),
        });
    }
    let state = state(&req)?;
    let worker = state.clone();
    let sealed =
        blocking(move || worker.service.sealed_seed(&stream)).await?.ok_or_else(|| not_found(&stream_of(battle_id)))?;
    let seed = hex::encode(sealed);
    if state.service.catalog().ruleset_of(&stream_of(battle_id)) == Some("warmachine") {
        let command = herald_domain::warmachine::battle::WarmachineCommand::RevealSeed { seed };
        return super::warmachine::run(&req, actor, battle_id, command).await;
    }
    run(&req, actor, battle_id, BattleCommand::RevealSeed { seed }, false).await
}

/// Verify the battle: run every stored command again with the seed and compare the events.
/// Anyone may verify once the seed is revealed; before that, only judges.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/verify", tag = "battles",
    params(("battle_id" = Uuid, Path, description = "the battle id")),
    responses(
        (status = 200, description = "`verified`, or the first event that differs with a field-by-field diff", body = VerifyReport),
        (status = 403, description = "the seed is still sealed and you are not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/battles/{battle_id}/verify")]
pub async fn verify_battle(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    verify_response(&req, actor, stream_of(path.into_inner())).await
}

/// Run a verification for `actor` and shape the answer.
pub async fn verify_response(
    req: &HttpRequest,
    actor: Option<Actor>,
    stream: String,
) -> Result<HttpResponse, ApiError> {
    let state = state(req)?;
    let judge = actor.as_ref().is_some_and(Actor::is_judge);
    let report: VerifyReport = blocking(move || {
        verify_stream(state.store.as_ref(), &stream, judge).map_err(|error| match error {
            VerifyError::NotFound(stream) => not_found(&stream),
            VerifyError::Unsupported(stream) => {
                ApiError::NotFound(format!("{stream} is not a stream Herald can verify"))
            }
            VerifyError::Sealed(_) => ApiError::Forbidden {
                code: "verify.seed_sealed".into(),
                detail: error.to_string(),
                rule: Some("herald: docs/DICE.md".into()),
            },
            VerifyError::Api(error) => error,
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(if judge { report } else { redact_report(report) }))
}

/// Hide values of fields a non-judge may not see (the size bonus and the totals it enters).
fn redact_report(mut report: VerifyReport) -> VerifyReport {
    if let Some(difference) = report.first_difference.as_mut() {
        for field in &mut difference.fields {
            if field.path.contains("/size") || field.path.ends_with("/total") {
                field.stored = serde_json::Value::String("hidden".into());
                field.replayed = serde_json::Value::String("hidden".into());
            }
        }
    }
    report
}

fn not_found(stream: &str) -> ApiError {
    ApiError::NotFound(format!("no battle {}", stream.trim_start_matches("battle-")))
}
