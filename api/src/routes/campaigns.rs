//! Coalition campaign rounds (seed 003 ch. 1–3): set up, controllers, turns, orders (JSON or the
//! seed's text format), lock, adjudication, rulings; the map, armies, turn reports and SVG map.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::{
        army::TroopLine,
        campaign::{
            view::{self as campaign_view, ArmyView, CampaignView, MapView, TurnReport},
            ArmyOrder, BattleResult, CampaignCommand, CampaignState, CoalitionCampaign,
        },
        map::Square,
        orders::PostedOrder,
    },
    Actor, StreamKind, Viewer,
};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::{blocking, command_meta, command_response, etag, ids::CampaignId, state, CommandResponse};
use crate::{
    app::{campaign, command_value, decode_events, read_stream_to, ruleset},
    auth::{Authenticated, MaybeAuthenticated},
    problem::{ApiError, Problem},
};

/// Set up a campaign round: the round's set-up (`CampaignSetup`) and optionally `seed`, a root
/// seed of 64 hex digits (drawn from the OS when absent; sealed either way). Documented in the
/// OpenAPI document as `CreateCoalitionCampaign`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateCampaignRequest {
    /// The ruleset id (`coalition`, the default).
    pub ruleset: Option<String>,
    /// A root seed (64 hex digits).
    pub seed: Option<String>,
}

/// Change an army's controllers.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ControllersRequest {
    /// The army.
    pub army: String,
    /// Its legal controllers (player names).
    pub controllers: Vec<String>,
}

/// Open a turn.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"deadline": "2030-12-01T05:00:00Z"}))]
#[serde(deny_unknown_fields)]
pub struct OpenTurnRequest {
    /// The movement deadline.
    pub deadline: DateTime<Utc>,
}

/// Post orders.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"text": "Sai Rei: 5E > 8E > 11E\nSai Rei 2: 3D > 5E; replace Darkhand5", "private": false}))]
#[serde(deny_unknown_fields)]
pub struct OrdersRequest {
    /// Orders in the seed's text format, one per line (seed 003 §3.2.2.5).
    #[serde(default)]
    pub text: Option<String>,
    /// Orders as data.
    #[serde(default)]
    pub orders: Vec<ArmyOrder>,
    /// Sent privately to the judge (seed 003 §3.1).
    #[serde(default)]
    pub private: bool,
    /// Judges re-posting a player's PM name the player here.
    #[serde(default)]
    pub on_behalf_of: Option<String>,
}

/// A new troop makeup.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TroopsRequest {
    /// The army.
    pub army: String,
    /// The new troop lines, at full strength.
    pub troops: Vec<TroopLine>,
    /// A new legend, if it changes.
    #[serde(default)]
    pub legend: Option<String>,
}

/// A judge's ruling moving an army.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulingRequest {
    /// The army.
    pub army: String,
    /// Where it goes.
    pub square: Square,
    /// The ruling's reason.
    pub reason: String,
}

/// Adjudicate the locked turn.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdjudicateRequest {
    /// Results of battles the service does not open itself (joint engagements, seed 003 §4.4),
    /// recorded by the judge. Two-army battles are read from their own streams.
    #[serde(default)]
    pub results: Vec<BattleResult>,
}

/// `?at=<version>`.
#[derive(Debug, Deserialize, IntoParams)]
pub struct AtQuery {
    /// Stream version to fold up to (inclusive).
    pub at: Option<u64>,
}

async fn run(
    req: &HttpRequest,
    actor: Actor,
    id: CampaignId,
    command: CampaignCommand,
) -> Result<HttpResponse, ApiError> {
    let stream = id.stream();
    if state(req)?.service.catalog().entry(&stream).is_none() {
        return Err(not_found(id));
    }
    super::execute(req, actor, ruleset::<CoalitionCampaign>()?, stream, command_value(&command)?, None).await
}

/// The campaign's state as of `at` (or now), its version, and its current state (which decides
/// what is public now).
async fn load(
    req: &HttpRequest,
    id: CampaignId,
    at: Option<u64>,
) -> Result<(CampaignState, u64, CampaignState), ApiError> {
    let app = state(req)?;
    let stream = id.stream();
    let crate::app::AtVersion { current, state: folded, version } =
        blocking(move || app.service.state_at(&stream, at)).await?.ok_or_else(|| not_found(id))?;
    let as_campaign = |state: &dyn herald_domain::AnyState| state.as_any().downcast_ref::<CampaignState>().cloned();
    match (as_campaign(folded.as_ref()), current.state_as::<CampaignState>()) {
        (Some(folded), Some(current)) => Ok((folded, version, current.clone())),
        _ => Err(not_found(id)),
    }
}

fn not_found(id: CampaignId) -> ApiError {
    ApiError::NotFound(format!("no campaign {id}"))
}

/// Set up a campaign round (judge or admin, seed 003 §2.5). The server seals a root seed.
#[utoipa::path(post, path = "/v1/campaigns", tag = "campaigns", request_body = CreateCampaignRequest,
    responses(
        (status = 201, description = "created: the round and every army placed", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the setup breaks a rule (site spacing, slot table, colors…)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/campaigns")]
pub async fn create_campaign(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    super::battles::create_stream(&req, actor, StreamKind::Campaign, body.into_inner()).await
}

/// List campaign rounds.
#[utoipa::path(get, path = "/v1/campaigns", tag = "campaigns",
    responses((status = 200, description = "every round", body = Vec<CampaignView>)))]
#[get("/campaigns")]
pub async fn list_campaigns(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let state = state(&req)?;
    let views: Vec<CampaignView> = state
        .service
        .catalog()
        .entries(StreamKind::Campaign)
        .iter()
        .filter_map(|(stream, entry)| {
            Some(CampaignView::new(stream, entry.version, entry.state_as::<CampaignState>()?))
        })
        .collect();
    Ok(HttpResponse::Ok().json(views))
}

/// A round at a glance; `?at=<version>` for any earlier state.
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the round; the ETag is its version", body = CampaignView),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/campaigns/{campaign_id}")]
pub async fn get_campaign(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: web::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (folded, version, _) = load(&req, id, query.at).await?;
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(CampaignView::new(&id.stream(), version, &folded)))
}

/// The map: every square with its terrain, site (owner and state) and armies, and every army
/// with its troops and day counts; `?at=` for any earlier state.
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/map", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the map", body = MapView),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/campaigns/{campaign_id}/map")]
pub async fn get_map(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: web::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(campaign_view::map_view(version, &folded)))
}

/// The map as SVG: hover an army for its name, type and troops; `?at=` for any earlier state.
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/map.svg", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "an SVG document (the same bytes as `application/octet-stream` when that is all the client accepts)", content(
            (String = "image/svg+xml"),
            (Vec<u8> = "application/octet-stream"),
        )),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/campaigns/{campaign_id}/map.svg")]
pub async fn get_map_svg(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: web::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    let svg = herald_domain::coalition::map::svg::render(
        &format!("{} (turn {})", folded.name, folded.turn),
        &folded.map,
        &campaign_view::markers(&folded),
    );
    Ok(super::svg_response(&req, svg, version))
}

/// Every living army: troops by slot, losses by day, days counted, location, pending long move,
/// controllers; `?at=` for any earlier state.
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/armies", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the armies", body = Vec<ArmyView>),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/campaigns/{campaign_id}/armies")]
pub async fn list_armies(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: web::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(campaign_view::army_views(&folded)))
}

/// The current turn's orders you may see: orders sent privately are hidden from the other team
/// until the lock (seed 003 §3.1).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/orders", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`")),
    responses(
        (status = 200, description = "the orders", body = Vec<PostedOrder>),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/campaigns/{campaign_id}/orders")]
pub async fn list_orders(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<CampaignId>,
) -> Result<HttpResponse, ApiError> {
    let (_, version, current) = load(&req, path.into_inner(), None).await?;
    let viewer = actor.as_ref().map_or_else(Viewer::public, Viewer::from);
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(campaign_view::visible_orders(&current, &viewer)))
}

/// A turn's movement update as data (`?format=text` for the forum post a Movement Judge would
/// write, seed 003 §3.1).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/turns/{turn}/report", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), ("turn" = u32, Path, description = "the turn"),
           ("format" = Option<String>, Query, description = "`json` (default) or `text`")),
    responses(
        (status = 200, description = "the report", body = TurnReport),
        (status = 404, description = "no such campaign, or the turn is not adjudicated", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/campaigns/{campaign_id}/turns/{turn}/report")]
pub async fn turn_report(
    req: HttpRequest,
    path: web::Path<(CampaignId, u32)>,
    query: web::Query<std::collections::HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    let (id, turn) = path.into_inner();
    let stream = id.stream();
    let state = state(&req)?;
    let events = blocking(move || {
        let stored = read_stream_to(state.service.store(), &stream, None)?;
        decode_events::<CoalitionCampaign>(&stored)
    })
    .await?;
    if events.is_empty() {
        return Err(not_found(id));
    }
    let report: TurnReport = campaign_view::turn_report(turn, events.iter())
        .ok_or_else(|| ApiError::NotFound(format!("turn {turn} has not been adjudicated")))?;
    Ok(match query.get("format").map(String::as_str) {
        Some("text") => {
            HttpResponse::Ok().content_type("text/plain; charset=utf-8").body(campaign_view::turn_report_text(&report))
        }
        None | Some("json") => HttpResponse::Ok().json(report),
        Some(other) => return Err(ApiError::Malformed(format!("format must be json or text, not {other}"))),
    })
}

macro_rules! command_route {
    ($name:ident, $path:literal, $full:literal, $body:ty, $doc:literal, $make:expr) => {
        #[doc = $doc]
        #[utoipa::path(post, path = $full, tag = "campaigns", request_body = $body,
            params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"),
                   ("If-Match" = Option<String>, Header, description = "the version you read"),
                   ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
            responses(
                (status = 200, description = "the events appended and the new version", body = CommandResponse),
                (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
                (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "your role may not do this", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
                (status = 412, description = "If-Match does not match", body = Problem, content_type = "application/problem+json"),
                (status = 422, description = "the rules refuse; `rule` names the section", body = Problem, content_type = "application/problem+json"),
            ),
            security(("bearer" = [])))]
        #[post($path)]
        pub async fn $name(
            req: HttpRequest,
            Authenticated(actor): Authenticated,
            path: web::Path<CampaignId>,
            body: web::Json<$body>,
        ) -> Result<HttpResponse, ApiError> {
            let make: fn($body) -> CampaignCommand = $make;
            run(&req, actor, path.into_inner(), make(body.into_inner())).await
        }
    };
}

command_route!(
    set_controllers,
    "/campaigns/{campaign_id}/controllers",
    "/v1/campaigns/{campaign_id}/controllers",
    ControllersRequest,
    "Change who controls an army (judge, seed 003 §5.2).",
    |b| CampaignCommand::SetControllers { army: b.army, controllers: b.controllers }
);
command_route!(
    open_turn,
    "/campaigns/{campaign_id}/turns",
    "/v1/campaigns/{campaign_id}/turns",
    OpenTurnRequest,
    "Open the next turn with its movement deadline (judge, seed 003 §3.1).",
    |b| CampaignCommand::OpenTurn { deadline: b.deadline }
);
command_route!(post_orders, "/campaigns/{campaign_id}/orders", "/v1/campaigns/{campaign_id}/orders",
    OrdersRequest, "Post orders for armies you control, as text or data (seed 003 §3.2.2.5); each is checked against the map as it is now (§3.2.2.2).",
    |b| CampaignCommand::PostOrders { text: b.text, orders: b.orders, private: b.private, on_behalf_of: b.on_behalf_of });
command_route!(
    change_troops,
    "/campaigns/{campaign_id}/troops",
    "/v1/campaigns/{campaign_id}/troops",
    TroopsRequest,
    "Change an army's troops after 2 days in a base it heals at (its controller or a judge, seed 003 §2.3.2).",
    |b| CampaignCommand::ChangeTroops { army: b.army, troops: b.troops, legend: b.legend }
);
command_route!(
    rule_on_army,
    "/campaigns/{campaign_id}/rulings",
    "/v1/campaigns/{campaign_id}/rulings",
    RulingRequest,
    "Move an army by a judge's ruling, recorded with its reason (seed 003 §3.3.3).",
    |b| CampaignCommand::RuleOnArmy { army: b.army, square: b.square, reason: b.reason }
);

/// Lock the open turn (judge, seed 003 §3.1).
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/lock", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`")),
    responses(
        (status = 200, description = "locked", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "no open turn", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/campaigns/{campaign_id}/lock")]
pub async fn lock_turn(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<CampaignId>,
) -> Result<HttpResponse, ApiError> {
    run(&req, actor, path.into_inner(), CampaignCommand::LockTurn).await
}

/// Adjudicate the locked turn (judge, seed 003 §3.1): last turn's battle results applied and
/// losers moved off, moves carried out, days counted, new battles announced and their streams
/// opened.
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/adjudicate", tag = "campaigns",
    request_body(content = Option<AdjudicateRequest>, description = "results of joint-engagement battles, if any"),
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`")),
    responses(
        (status = 200, description = "adjudicated; the events are the turn's update", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the turn is not locked, or a battle is unresolved", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/campaigns/{campaign_id}/adjudicate")]
pub async fn adjudicate_turn(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<CampaignId>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let settled = if body.iter().all(u8::is_ascii_whitespace) {
        Vec::new()
    } else {
        serde_json::from_slice::<AdjudicateRequest>(&body)
            .map_err(|error| ApiError::Malformed(format!("invalid JSON body: {error}")))?
            .results
    };
    let id = path.into_inner();
    let state = state(&req)?;
    let meta = command_meta(&req, actor.clone())?;
    let stream = id.stream();
    let worker = state.clone();
    if worker.service.catalog().entry(&stream).is_none() {
        return Err(not_found(id));
    }
    let outcome = blocking(move || campaign::adjudicate(&worker.service, &stream, settled, meta)).await?;
    Ok(command_response(&state, &actor, outcome, false))
}
