//! Warmachine battles (seed 000) over HTTP: created through `POST /v1/battles` with
//! `"ruleset": "warmachine"`, played through `POST /v1/battles/{id}/actions`, drawn at
//! `GET /v1/battles/{id}/table.svg`. Reads, entropy, reveal and verification share the battle
//! routes, which dispatch on the battle's ruleset.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use herald_domain::{
    warmachine::battle::{
        command::{ModelSpec, PlayerSpec},
        Warmachine, WarmachineCommand,
    },
    warmachine::table::Table,
    Actor,
};
use herald_projections::{table_svg, WarmachineView};
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{battles::AtQuery, blocking, etag, state};
use crate::{auth::Authenticated, problem::ApiError};

/// Open a warmachine battle: the table, the players and every model.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({
    "ruleset": "warmachine",
    "table": {"width": 48.0, "depth": 48.0, "terrain": [
        {"name": "wall", "kind": "obstruction", "shape": {"kind": "rect", "min": {"x": 22.0, "y": 20.0}, "max": {"x": 26.0, "y": 21.0}}, "height": 3.0}
    ]},
    "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
    "models": [{
        "id": "red-caster", "player": "red", "position": {"x": 10.0, "y": 6.0},
        "profile": {"name": "Stryker", "model_type": "warcaster",
            "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 15, "arm": 15, "arc": 6, "ctrl": 12},
            "base": "small", "damage": {"kind": "boxes", "boxes": 17},
            "weapons": [{"name": "Quicksilver", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 7}]}
    }],
    "seed": null
}))]
#[serde(deny_unknown_fields)]
pub struct CreateWarmachineBattleRequest {
    /// Always `warmachine`.
    pub ruleset: String,
    /// The table (default 48″ × 48″) and its terrain.
    #[serde(default)]
    pub table: Table,
    /// Two or more players, in turn order.
    pub players: Vec<PlayerSpec>,
    /// Every model with its profile, position, unit and battlegroup.
    pub models: Vec<ModelSpec>,
    /// A server seed (64 hex digits) for tests and tournaments that want it public later; when
    /// absent the server draws one. Either way it is sealed until revealed.
    #[serde(default)]
    pub seed: Option<String>,
}

/// Create a warmachine battle (called by `POST /v1/battles`).
pub async fn create(req: &HttpRequest, actor: Actor, body: serde_json::Value) -> Result<HttpResponse, ApiError> {
    let body: CreateWarmachineBattleRequest = serde_json::from_value(body)
        .map_err(|error| ApiError::Malformed(format!("not a warmachine battle: {error}")))?;
    let supplied = super::supplied_seed(body.seed.as_deref())?;
    super::require_judge(
        &actor,
        "warmachine.judge_only",
        "only a judge or an admin may open a battle",
        "herald: docs/rulesets/warmachine.md",
    )?;
    if let Some(response) = super::replayed_creation(req, &actor).await? {
        return Ok(response);
    }
    let app = state(req)?;
    let battle_id = Uuid::now_v7();
    let stream = format!("battle-{battle_id}");
    let (worker, sealing) = (app.clone(), stream.clone());
    let commitment = blocking(move || worker.service.seal_seed(&sealing, supplied)).await?;
    let command = WarmachineCommand::CreateBattle {
        table: body.table,
        players: body.players,
        models: body.models,
        seed_commitment: hex::encode(commitment),
    };
    super::execute::<Warmachine>(req, actor, stream, command, Some(format!("/v1/battles/{battle_id}"))).await
}

/// Run a command on a warmachine battle after checking the stream holds one.
pub async fn run(
    req: &HttpRequest,
    actor: Actor,
    battle_id: Uuid,
    command: WarmachineCommand,
) -> Result<HttpResponse, ApiError> {
    let stream = format!("battle-{battle_id}");
    let app = state(req)?;
    match app.service.catalog().ruleset_of(&stream) {
        Some("warmachine") => super::execute::<Warmachine>(req, actor, stream, command, None).await,
        Some(other) => Err(wrong_ruleset(&stream, other)),
        None => Err(ApiError::NotFound(format!("no battle {battle_id}"))),
    }
}

/// A request for one ruleset's action sent to a battle of another.
pub fn wrong_ruleset(stream: &str, ruleset: &str) -> ApiError {
    ApiError::Rule(herald_domain::RuleError::new(
        "battle.wrong_ruleset",
        format!(
            "{} is a {ruleset} battle; this request belongs to another ruleset (see docs/API.md)",
            stream.trim_start_matches("battle-")
        ),
        "herald: docs/API.md",
    ))
}

/// Play a warmachine battle: one action per request, each with the events it produced (every
/// die included). `type` selects the action; see docs/rulesets/warmachine.md for a full turn.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/actions", tag = "warmachine", request_body(content = WarmachineCommand,
    examples(
        ("start_turn" = (summary = "start your turn: maintenance and control phase", value = json!({"type": "start_turn", "control": {"allocate": [{"warjack": "red-jack-1", "focus": 1}]}}))),
        ("activate" = (summary = "activate a model or unit", value = json!({"type": "activate", "activation": "red-jack-1"}))),
        ("advance" = (summary = "full advance along waypoints", value = json!({"type": "move", "model": "red-jack-1", "movement": {"kind": "full_advance", "path": [{"x": 12.0, "y": 12.0}]}}))),
        ("charge" = (summary = "charge a model", value = json!({"type": "move", "model": "red-jack-1", "movement": {"kind": "charge", "target": "blue-jack-1", "to": {"x": 12.0, "y": 20.0}}}))),
        ("unit_advance" = (summary = "a unit: one trooper moves, the others are placed within 2\"", value = json!({"type": "move", "model": "red-trooper-1", "movement": {"kind": "full_advance", "path": [{"x": 20.0, "y": 10.0}]}, "placement": {"placed": [{"model": "red-trooper-2", "at": {"x": 21.5, "y": 10.0}}], "cannot_place": []}}))),
        ("attack" = (summary = "an initial attack", value = json!({"type": "attack", "attacker": "red-jack-1", "weapon": "Fist", "target": "blue-jack-1", "boost_attack": true}))),
        ("end_activation" = (summary = "end the activation", value = json!({"type": "end_activation"}))),
        ("end_turn" = (summary = "end the turn", value = json!({"type": "end_turn"}))),
        ("slam" = (summary = "a judge slams a model", value = json!({"type": "displace", "model": "blue-jack-1", "kind": "slam", "origin": {"x": 12.0, "y": 18.0}, "distance": 3.0, "pow": 12, "collateral_pow": 6, "reason": "Slam power attack"}))),
    )),
    params(("battle_id" = Uuid, Path, description = "the battle id"),
           ("If-Match" = Option<String>, Header, description = "the stream version you read"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 200, description = "the events the action produced, dice included, and the new version", body = super::CommandResponse),
        (status = 400, description = "malformed action", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 403, description = "not this player's model, or a judge's action", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "the rules refuse: the code names the rule (e.g. warmachine.charge_no_line_of_sight, warmachine.run_needs_focus, warmachine.damage.charge_already_boosted)", body = crate::problem::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/actions")]
pub async fn post_action(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: web::Json<WarmachineCommand>,
) -> Result<HttpResponse, ApiError> {
    let command = body.into_inner();
    if matches!(command, WarmachineCommand::CreateBattle { .. } | WarmachineCommand::RevealSeed { .. }) {
        return Err(ApiError::Malformed(
            "create battles with POST /v1/battles and reveal seeds with POST /v1/battles/{id}/reveal".into(),
        ));
    }
    run(&req, actor, path.into_inner(), command).await
}

/// The table as SVG: terrain, every model's base with melee and control ranges, for any version.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/table.svg", tag = "warmachine",
    params(("battle_id" = Uuid, Path, description = "the battle id"), AtQuery),
    responses(
        (status = 200, description = "the table", content_type = "image/svg+xml", body = String),
        (status = 404, description = "no such warmachine battle or version", body = crate::problem::Problem, content_type = "application/problem+json"),
    ))]
#[get("/battles/{battle_id}/table.svg")]
pub async fn get_table_svg(
    req: HttpRequest,
    path: web::Path<Uuid>,
    query: web::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let battle_id = path.into_inner();
    let (_, folded, version) = folded(&req, battle_id, query.at).await?;
    let svg = table_svg(&folded, &format!("battle {battle_id} at version {version}"));
    Ok(HttpResponse::Ok().insert_header(etag(version)).content_type("image/svg+xml").body(svg))
}

/// The battle's state, now or as of `at`.
pub async fn folded(
    req: &HttpRequest,
    battle_id: Uuid,
    at: Option<u64>,
) -> Result<(String, herald_domain::warmachine::battle::WarmachineState, u64), ApiError> {
    let stream = format!("battle-{battle_id}");
    let app = state(req)?;
    let current = app
        .service
        .catalog()
        .warmachine(&stream)
        .ok_or_else(|| ApiError::NotFound(format!("no warmachine battle {battle_id}")))?;
    match at {
        None => Ok((stream, current.state, current.version)),
        Some(at) if at > current.version => {
            Err(ApiError::NotFound(format!("{stream} has no version {at}; it is at {}", current.version)))
        }
        Some(at) => {
            let worker = app.clone();
            let loading = stream.clone();
            let (state, version) = blocking(move || worker.service.load::<Warmachine>(&loading, Some(at)))
                .await?
                .ok_or_else(|| ApiError::NotFound("no such version".into()))?;
            Ok((stream, state, version))
        }
    }
}

/// The battle view (called by `GET /v1/battles/{id}`).
pub async fn view(req: &HttpRequest, battle_id: Uuid, at: Option<u64>) -> Result<HttpResponse, ApiError> {
    let (stream, folded, version) = folded(req, battle_id, at).await?;
    let view = WarmachineView::new(&stream, version, &folded);
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(view))
}

/// Fight a coalition battle out as a warmachine battle: which warmachine player fought for
/// which side.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"battle": "0193a1f0-0000-7000-8000-000000000001", "sides": {"a": "red", "b": "blue"},
    "reason": "the armies met at the ford and the players fought it out on the table"}))]
#[serde(deny_unknown_fields)]
pub struct TacticalResultRequest {
    /// The warmachine battle's id; it must have ended with a winner.
    pub battle: Uuid,
    /// The warmachine player who fought for each side.
    pub sides: herald_domain::coalition::battle::Sides<String>,
    /// Why the battle was fought out (recorded).
    pub reason: String,
}

/// Apply an ended warmachine battle's result to a coalition battle (a judge): its winner wins,
/// and each side loses troops in proportion to the models it lost. A campaign reads the result
/// at its next adjudication as for any battle.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/tactical-result", tag = "battles", request_body = TacticalResultRequest,
    params(("battle_id" = Uuid, Path, description = "the coalition battle")),
    responses(
        (status = 200, description = "the result applied (coalition.TacticalResultApplied)", body = super::CommandResponse),
        (status = 401, description = "no bearer token", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = crate::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "the warmachine battle has not ended with a winner, the sides do not match its players and controllers, or the coalition battle has ended", body = crate::problem::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/battles/{battle_id}/tactical-result")]
pub async fn apply_tactical_result(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<Uuid>,
    body: web::Json<TacticalResultRequest>,
) -> Result<HttpResponse, ApiError> {
    use herald_domain::coalition::battle::{command::TacticalLosses, BattleCommand, CoalitionBattle, SideId, Sides};
    let body = body.into_inner();
    super::require_judge(
        &actor,
        "coalition.battle.judge_only",
        "only a judge may apply a tactical battle's result",
        "seed 003 §1.3",
    )?;
    let app = state(&req)?;
    let coalition = format!("battle-{}", path.into_inner());
    let catalog = app.service.catalog();
    let battle = match catalog.ruleset_of(&coalition) {
        Some("coalition") => {
            catalog.battle(&coalition).ok_or_else(|| ApiError::NotFound(format!("no battle {coalition}")))?
        }
        Some(other) => return Err(wrong_ruleset(&coalition, other)),
        None => return Err(ApiError::NotFound(format!("no battle {}", coalition.trim_start_matches("battle-")))),
    };
    let source = format!("battle-{}", body.battle);
    let fought = catalog
        .warmachine(&source)
        .ok_or_else(|| ApiError::NotFound(format!("no warmachine battle {}", body.battle)))?;
    let refuse = |code: &str, detail: String| {
        ApiError::Rule(herald_domain::RuleError::new(
            format!("battle.{code}"),
            detail,
            "herald: docs/rulesets/coalition-battle.md",
        ))
    };
    let Some(winner) = fought.state.winner.clone().filter(|_| fought.state.ended()) else {
        return Err(refuse(
            "tactical_not_decided",
            format!("warmachine battle {} has not ended with a winner", body.battle),
        ));
    };
    let mut losses = Vec::new();
    for side in SideId::BOTH {
        let name = body.sides.get(side);
        let player = fought.state.player(name).ok_or_else(|| {
            refuse("tactical_sides", format!("{name} is not a player of warmachine battle {}", body.battle))
        })?;
        let controller = battle.state.army(side).map(|army| army.controller.clone()).unwrap_or_default();
        if player.controller != controller {
            return Err(refuse(
                "tactical_sides",
                format!(
                    "side {side}'s army is controlled by {controller}, but {name} was played by {}",
                    player.controller
                ),
            ));
        }
        let models: Vec<_> = fought.state.models.values().filter(|m| m.spec.player == *name).collect();
        let fielded = u32::try_from(models.len()).unwrap_or(u32::MAX);
        let destroyed = u32::try_from(models.iter().filter(|m| m.destroyed).count()).unwrap_or(u32::MAX);
        losses.push(TacticalLosses { fielded, destroyed });
    }
    if body.sides.a == body.sides.b {
        return Err(refuse("tactical_sides", "the two sides were fought for by the same player".into()));
    }
    let winner_side = SideId::BOTH
        .into_iter()
        .find(|side| *body.sides.get(*side) == winner)
        .ok_or_else(|| refuse("tactical_sides", format!("the winner, {winner}, fought for neither side")))?;
    let (Some(a), Some(b)) = (losses.first().copied(), losses.get(1).copied()) else {
        return Err(refuse("tactical_sides", "two sides are needed".into()));
    };
    let command = BattleCommand::ApplyTacticalResult {
        source: format!("{source}@{}", fought.version),
        source_rules: <herald_domain::warmachine::battle::Warmachine as herald_domain::Decider>::RULES.to_string(),
        winner: winner_side,
        models_lost: Sides { a, b },
        reason: body.reason,
    };
    super::execute::<CoalitionBattle>(&req, actor, coalition, command, None).await
}
