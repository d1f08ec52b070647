//! Coalition campaign rounds (seed 003 ch. 1–3): set up, controllers, turns, orders (JSON or the
//! seed's text format), lock, adjudication, rulings; the map, armies, turn reports and SVG map.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::{
        army::{Team, TroopLine},
        campaign::{
            judges::Appointment,
            view::{
                self as campaign_view, ArmyView, CampaignView, ControlView, JudgesView, MapView, TurnReport, VoteView,
            },
            voting::VoteSystem,
            ArmyOrder, BattleResult, CampaignCommand, CampaignState, CoalitionCampaign, TurnPhase,
        },
        map::Square,
        orders::{Order, PostedOrder},
        rank::Rank,
        setup::Player,
    },
    Actor, StreamKind,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{blocking, command_meta, command_response, etag, ids::CampaignId, paging, state, CommandResponse};
use crate::{
    app::{campaign, command_value, decode_events, read_stream_to, ruleset},
    auth::request::{Authenticated, MaybeAuthenticated},
    problem::{ApiError, Json, Problem, Query},
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

/// Change an army's controllers (a judge).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"army": "Sai Rei", "controllers": ["alice"], "accept_illegal": false}))]
#[serde(deny_unknown_fields)]
pub struct ControllersRequest {
    /// The army.
    pub army: String,
    /// Its legal controllers (player names; empty: none).
    pub controllers: Vec<String>,
    /// Accept a change that breaks seed 003 §5.3; the side must be legal again within a turn (§5.2.2.2).
    #[serde(default)]
    pub accept_illegal: bool,
    /// Why.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A control change asked by a player holding the side's authority (seed 003 §5.2.1).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"army": "Sai Rei", "controllers": ["carol"], "reason": "alice is away for a month"}))]
#[serde(deny_unknown_fields)]
pub struct ControlRequest {
    /// The army.
    pub army: String,
    /// Its controllers from now on (empty: none).
    pub controllers: Vec<String>,
    /// Why.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A side's authority over the control list given to one or two players (seed 003 §5.2.2).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"team": "coalition", "holders": ["alice", "carol"]}))]
#[serde(deny_unknown_fields)]
pub struct AuthorityRequest {
    /// The side.
    pub team: Team,
    /// One or two players.
    pub holders: Vec<String>,
    /// Why (an emergency authorization needs one).
    #[serde(default)]
    pub reason: Option<String>,
}

/// A player's contingency (seed 003 §5.2.3).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"player": "alice", "contingency": "carol"}))]
#[serde(deny_unknown_fields)]
pub struct ContingencyRequest {
    /// The player.
    pub player: String,
    /// Their contingency (absent: none).
    #[serde(default)]
    pub contingency: Option<String>,
}

/// A player (and a reason), for declarations of inactivity and the judge's rejections.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"player": "dave", "reason": "has not posted since the last round"}))]
#[serde(deny_unknown_fields)]
pub struct PlayerReasonRequest {
    /// The player.
    pub player: String,
    /// Why.
    #[serde(default)]
    pub reason: String,
}

/// A player's new rank (seed 003 §1.1, §5.3.1).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"player": "dave", "rank": "lieutenant"}))]
#[serde(deny_unknown_fields)]
pub struct RankRequest {
    /// The player.
    pub player: String,
    /// The new rank.
    pub rank: Rank,
}

/// An army (a namesake permission).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"army": "Dave"}))]
#[serde(deny_unknown_fields)]
pub struct ArmyRequest {
    /// The army.
    pub army: String,
}

/// A call to overrule (seed 003 §1.3, §3.3.3).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"call": 1, "reason": "the ruling misread the route"}))]
#[serde(deny_unknown_fields)]
pub struct OverruleRequest {
    /// The call's number (`GET …/judges`).
    pub call: u32,
    /// Why.
    pub reason: String,
}

/// A sanction (seed 003 §5.4.1).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"player": "bob", "army": "Plague Host", "severity": 1, "reason": "posted orders for Sai Rei"}))]
#[serde(deny_unknown_fields)]
pub struct SanctionRequest {
    /// The player reprimanded.
    pub player: String,
    /// The army that loses troops.
    #[serde(default)]
    pub army: Option<String>,
    /// The severity factor, 0 (a reprimand alone) to 8; losses are severity × d6 × (100, 50, 25,
    /// 10). Above 8: `coalition.campaign.severity_out_of_range` (422).
    #[serde(default)]
    #[schema(maximum = 8)]
    pub severity: u32,
    /// Why.
    pub reason: String,
}

/// A vote called (seed 003 §1.4).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"topic": "Attack Red Base first?", "options": ["yes", "no"], "closes_at": "2030-12-03T05:00:00Z",
    "system": {"kind": "normal"}, "secret": false}))]
#[serde(deny_unknown_fields)]
pub struct VoteRequest {
    /// The topic.
    pub topic: String,
    /// The options.
    pub options: Vec<String>,
    /// Ballots after this time are refused.
    pub closes_at: DateTime<Utc>,
    /// `normal` (§1.4.1, the default), `leaders` (§1.4.2) or `special` with its voters (§1.4.3).
    #[serde(default)]
    pub system: VoteSystem,
    /// Whether who voted what is secret.
    #[serde(default)]
    pub secret: bool,
}

/// A ballot.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"option": "yes"}))]
#[serde(deny_unknown_fields)]
pub struct BallotRequest {
    /// The option chosen.
    pub option: String,
}

/// A raider's new movement after the lock (seed 003 §6.3.2).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"army": "Raider 1", "order": {"action": "move", "legs": [{"from": "20C", "to": "20E", "annotation": {"kind": "engage", "army": "Sai Rei"}}]}}))]
#[serde(deny_unknown_fields)]
pub struct RaiderEditRequest {
    /// The raider.
    pub army: String,
    /// The new movement: one leg that engages an army.
    pub order: Order,
}

/// A player joining mid-round (seed 003 §1.1, §2.6).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRequest {
    /// The player.
    pub player: Player,
}

/// An army offered to a new player (seed 003 §2.6).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"player": "erin", "army": "Tahngarth"}))]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// The new player.
    pub player: String,
    /// The army, of rank Lt Cmdr/CPL or lower.
    pub army: String,
}

/// A new player's customisation (seed 003 §2.6).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CustomiseRequest {
    /// The army offered.
    pub army: String,
    /// Its new name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its new legend.
    #[serde(default)]
    pub legend: Option<String>,
    /// Its new units, holding as many living soldiers as now.
    pub troops: Vec<TroopLine>,
}

/// A screen-name change (seed 003 §1.6).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"from": "alice", "to": "alice_the_bold"}))]
#[serde(deny_unknown_fields)]
pub struct ScreenNameRequest {
    /// The old name.
    pub from: String,
    /// The new name.
    pub to: String,
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

/// Entropy for the open turn's dice (docs/DICE.md "Keys").
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnEntropyRequest {
    /// 1 to 1,024 characters of your choosing; hidden from everyone else until the lock.
    pub entropy: String,
}

/// Close a round without a winner.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseRoundRequest {
    /// Why.
    pub reason: String,
}

/// Adjudicate the locked turn.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdjudicateRequest {
    /// Results of battles the service does not open itself (a square where three teams' armies
    /// stand), recorded by the judge. Every battle of two sides — 1v1, 2v1 or 2v2 (seed 003
    /// §4.4) — is read from its own stream.
    #[serde(default)]
    pub results: Vec<BattleResult>,
}

/// `?at=<version>`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
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
    params(("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe: the same key and request answer with the round it set up")),
    responses(
        (status = 201, description = "created: the round and every army placed", body = CommandResponse),
        (status = 200, description = "a retry with the same Idempotency-Key and request: the round it set up", body = CommandResponse),
        (status = 409, description = "the Idempotency-Key was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the setup breaks a rule (site spacing, slot table, colors…)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("")]
pub async fn create_campaign(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let complete: super::battles::Completion = campaign::commit_first_interval;
    super::battles::create_stream_then(&req, actor, StreamKind::Campaign, body.into_inner(), Some(complete)).await
}

/// Which campaign rounds to list: a page of them (docs/API.md "Paging"), and filters.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct CampaignQuery {
    /// Page size, 1–1000 (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Start after the round with this id (the UUID of the last `stream` of the previous page, or
    /// the stream name; the `Link` header's `after`). Rounds are listed in id order, which is
    /// the order they were set up in.
    pub after: Option<String>,
    /// Only rounds whose current turn is in this phase (`phase.phase` in the listing).
    #[param(inline)]
    pub status: Option<PhaseFilter>,
    /// Only rounds that have a winner (`true`) or none yet (`false`).
    pub ended: Option<bool>,
}

/// Where a round's current turn stands, as `?status=` filters it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseFilter {
    /// No turn open.
    Closed,
    /// Orders are being posted.
    Open,
    /// Locked, waiting for adjudication.
    Locked,
}

impl PhaseFilter {
    fn matches(self, phase: &TurnPhase) -> bool {
        matches!(
            (self, phase),
            (Self::Closed, TurnPhase::Closed)
                | (Self::Open, TurnPhase::Open { .. })
                | (Self::Locked, TurnPhase::Locked { .. })
        )
    }
}

/// One round in a listing: the round at a glance (as `GET /v1/campaigns/{id}` has it), the
/// players who control its armies, and when it was set up and last moved on.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignListing {
    /// The round at a glance.
    #[serde(flatten)]
    pub round: CampaignView,
    /// The players who control its armies, by name, each once.
    pub players: Vec<String>,
    /// When its first event was recorded: when it was set up.
    pub created_at: Option<DateTime<Utc>>,
    /// When its last event was recorded.
    pub last_event_at: Option<DateTime<Utc>>,
}

/// Campaign rounds, a page at a time, oldest first.
#[utoipa::path(get, path = "/v1/campaigns", tag = "campaigns", operation_id = "list_campaigns", params(CampaignQuery),
    responses(
        (status = 200, description = "a page of rounds (every round when there are no more than `limit`), with their players and dates; `Link: rel=\"next\"` points to the next page", body = Vec<CampaignListing>),
        (status = 400, description = "a `limit` outside 1–1000 or not a number, an unknown `status`, `ended` not `true` or `false`, or an unknown parameter: the problem names it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`after` names no campaign", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("")]
pub async fn list_campaigns(req: HttpRequest, query: Query<CampaignQuery>) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = paging::limit(query.limit, paging::MAX_PAGE)?;
    let state = state(&req)?;
    let rounds = state.service.catalog().entries(StreamKind::Campaign).into_iter().filter_map(|(stream, entry)| {
        let round = entry.state_as::<CampaignState>()?;
        let players = entry.ruleset.summary(entry.state.as_ref()).map(|s| s.players).unwrap_or_default();
        let listing = CampaignListing {
            round: CampaignView::new(&stream, entry.version, round),
            players,
            created_at: entry.created_at,
            last_event_at: entry.last_event_at,
        };
        Some((round.phase, round.victory.is_some(), listing))
    });
    let keep = |(phase, ended, _): &(TurnPhase, bool, CampaignListing)| {
        query.status.is_none_or(|status| status.matches(phase)) && query.ended.is_none_or(|wanted| *ended == wanted)
    };
    let id = |(_, _, listing): &(TurnPhase, bool, CampaignListing)| {
        listing.round.stream.trim_start_matches("campaign-").to_string()
    };
    let after = query.after.as_deref().map(|after| after.trim_start_matches("campaign-"));
    let page = paging::page(rounds, id, after, limit, keep, "campaign")?;
    let listings: Vec<CampaignListing> = page.items.into_iter().map(|(_, _, listing)| listing).collect();
    Ok(paging::ok_with_link(&req, "after", page.next.as_deref()).json(listings))
}

/// A round at a glance; `?at=<version>` for any earlier state.
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the round; the ETag is its version", body = CampaignView),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}")]
pub async fn get_campaign(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: crate::problem::Query<AtQuery>,
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
#[get("/{campaign_id}/map")]
pub async fn get_map(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: crate::problem::Query<AtQuery>,
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
#[get("/{campaign_id}/map.svg")]
pub async fn get_map_svg(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: crate::problem::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    let svg = herald_domain::coalition::map::svg::render(
        &format!("{} (turn {})", folded.name, folded.turn),
        &folded.map,
        &campaign_view::markers(&folded),
    );
    Ok(super::svg_response(&req, svg, version))
}

/// Which armies to list: `?at=`, a page of them (docs/API.md "Paging"), and filters.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ArmyQuery {
    /// Stream version to fold up to (inclusive).
    pub at: Option<u64>,
    /// Page size, 1–1000 (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Start after the army with this name (the last `name` of the previous page; the `Link`
    /// header's `after`). Armies are listed by name.
    pub after: Option<String>,
    /// Only armies this player is a legal controller of (`controllers`: the control list, seed 003 §5.2.1).
    pub player: Option<String>,
    /// Only armies of this team.
    pub team: Option<Team>,
}

/// Every living army: troops by slot, losses by day, days counted, location, pending long move,
/// controllers; `?at=` for any earlier state; a page at a time, by name.
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/armies", tag = "campaigns", operation_id = "list_armies",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), ArmyQuery),
    responses(
        (status = 200, description = "a page of armies (every army when there are no more than `limit`); `Link: rel=\"next\"` points to the next page", body = Vec<ArmyView>),
        (status = 400, description = "a `limit` outside 1–1000 or not a number, an unknown `team`, or an unknown parameter: the problem names it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign or version, or `after` names no army", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}/armies")]
pub async fn list_armies(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: Query<ArmyQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = paging::limit(query.limit, paging::MAX_PAGE)?;
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    let keep = |army: &ArmyView| {
        query.player.as_ref().is_none_or(|player| army.controllers.contains(player))
            && query.team.is_none_or(|team| army.team == team)
    };
    let page = paging::page(
        campaign_view::army_views(&folded),
        |army| army.name.clone(),
        query.after.as_deref(),
        limit,
        keep,
        "army",
    )?;
    Ok(paging::ok_with_link(&req, "after", page.next.as_deref()).insert_header(etag(version)).json(page.items))
}

/// A page of the current turn's orders (docs/API.md "Paging").
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct OrderQuery {
    /// Page size, 1–1000 (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Start after this order: `<post>-<line>` of the last order of the previous page (the
    /// `Link` header's `after`). Orders are listed in posting order.
    pub after: Option<String>,
}

/// An order's cursor: its post and its line within the post, which name it within a turn.
fn order_key(order: &PostedOrder) -> String {
    format!("{}-{}", order.post, order.line)
}

/// The current turn's orders you may see: orders sent privately are hidden from the other team
/// until the lock (seed 003 §3.1).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/orders", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), OrderQuery),
    responses(
        (status = 200, description = "a page of orders (every order when there are no more than `limit`); `Link: rel=\"next\"` points to the next page", body = Vec<PostedOrder>),
        (status = 400, description = "a `limit` outside 1–1000 or not a number, or an unknown parameter: the problem names it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign, or `after` names no order you may see", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}/orders")]
pub async fn list_orders(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<CampaignId>,
    query: Query<OrderQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = paging::limit(query.limit, paging::MAX_PAGE)?;
    let campaign = path.into_inner();
    let viewer = super::viewer(&req, actor.as_ref(), &campaign.stream())?;
    let (_, version, current) = load(&req, campaign, None).await?;
    let orders = campaign_view::visible_orders(&current, &viewer);
    let page = paging::page(orders, order_key, query.after.as_deref(), limit, |_| true, "order")?;
    Ok(paging::ok_with_link(&req, "after", page.next.as_deref()).insert_header(etag(version)).json(page.items))
}

/// How a turn report is given: as data (`json`, the default) or as the forum post a Movement
/// Judge would write (`text`, `text/plain`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportFormat {
    /// `application/json`: the report as data.
    #[default]
    Json,
    /// `text/plain`: the forum post.
    Text,
}

/// `?format=json|text`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ReportQuery {
    /// `json` (the default: the report as data, `application/json`) or `text` (the forum post,
    /// `text/plain`).
    #[param(inline)]
    pub format: Option<ReportFormat>,
}

/// A turn's movement update as data (`?format=text` for the forum post a Movement Judge would
/// write, seed 003 §3.1).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/turns/{turn}/report", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), ("turn" = u32, Path, description = "the turn"),
           ReportQuery),
    responses(
        (status = 200, description = "the report: as data (`application/json`, `format=json` or none) or as the forum post (`text/plain`, `format=text`)",
            content((TurnReport = "application/json"), (String = "text/plain"))),
        (status = 400, description = "a `format` other than `json` or `text`, or an unknown parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign, or the turn is not adjudicated", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}/turns/{turn}/report")]
pub async fn turn_report(
    req: HttpRequest,
    path: web::Path<(CampaignId, u32)>,
    query: Query<ReportQuery>,
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
    Ok(match query.into_inner().format.unwrap_or_default() {
        ReportFormat::Text => {
            HttpResponse::Ok().content_type("text/plain; charset=utf-8").body(campaign_view::turn_report_text(&report))
        }
        ReportFormat::Json => HttpResponse::Ok().json(report),
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
            body: Json<$body>,
        ) -> Result<HttpResponse, ApiError> {
            let make: fn($body) -> CampaignCommand = $make;
            run(&req, actor, path.into_inner(), make(body.into_inner())).await
        }
    };
}

command_route!(
    set_controllers,
    "/{campaign_id}/controllers",
    "/v1/campaigns/{campaign_id}/controllers",
    ControllersRequest,
    "Change who controls an army (judge, seed 003 §5.2).",
    |b| CampaignCommand::SetControllers {
        army: b.army,
        controllers: b.controllers,
        accept_illegal: b.accept_illegal,
        reason: b.reason
    }
);
command_route!(
    request_control_change,
    "/{campaign_id}/control-requests",
    "/v1/campaigns/{campaign_id}/control-requests",
    ControlRequest,
    "Change an army's controllers at the request of a player holding the side's authority (seed 003 §5.2.1); refused when it breaks §5.3 (`rank_too_low`, `namesake_army`, `last_army`).",
    |b| CampaignCommand::RequestControlChange { army: b.army, controllers: b.controllers, reason: b.reason }
);
command_route!(
    transfer_control_authority,
    "/{campaign_id}/control-authority",
    "/v1/campaigns/{campaign_id}/control-authority",
    AuthorityRequest,
    "Give the side's authority over the control list to one or two players (the General/Chief Praetor or a holder, seed 003 §5.2.2.1).",
    |b| CampaignCommand::TransferControlAuthority { team: b.team, holders: b.holders }
);
command_route!(
    authorize_emergency_control,
    "/{campaign_id}/emergency-authority",
    "/v1/campaigns/{campaign_id}/emergency-authority",
    AuthorityRequest,
    "Authorize other players to request control changes for one turn (a judge, seed 003 §5.2.2.2).",
    |b| CampaignCommand::AuthorizeEmergencyControl {
        team: b.team,
        holders: b.holders,
        reason: b.reason.unwrap_or_default()
    }
);
command_route!(
    set_contingency,
    "/{campaign_id}/contingencies",
    "/v1/campaigns/{campaign_id}/contingencies",
    ContingencyRequest,
    "Name a player's contingency, who may send their strategies in the last 24 hours (a holder of the side's authority or a judge, seed 003 §5.2.3).",
    |b| CampaignCommand::SetContingency { player: b.player, contingency: b.contingency }
);
command_route!(
    declare_inactive,
    "/{campaign_id}/inactivity",
    "/v1/campaigns/{campaign_id}/inactivity",
    PlayerReasonRequest,
    "Declare a player inactive: the player themself, or their team's leaders (seed 003 §5.1).",
    |b| CampaignCommand::DeclareInactive { player: b.player, reason: b.reason }
);
command_route!(
    reject_inactivity,
    "/{campaign_id}/inactivity-rejections",
    "/v1/campaigns/{campaign_id}/inactivity-rejections",
    PlayerReasonRequest,
    "Reject the leaders' declaration that a player is inactive (the battle judge, seed 003 §5.1).",
    |b| CampaignCommand::RejectInactivity { player: b.player, reason: b.reason }
);
command_route!(
    change_rank,
    "/{campaign_id}/ranks",
    "/v1/campaigns/{campaign_id}/ranks",
    RankRequest,
    "Change a player's rank (the team's leaders or a judge, seed 003 §1.1); a demotion leaves armies the player may no longer control without a controller (§5.3.1, §5.3.4).",
    |b| CampaignCommand::ChangeRank { player: b.player, rank: b.rank }
);
command_route!(
    permit_control_change,
    "/{campaign_id}/namesake-permissions",
    "/v1/campaigns/{campaign_id}/namesake-permissions",
    ArmyRequest,
    "Allow your side to take your namesake army away (its namesake player, seed 003 §5.3.2).",
    |b| CampaignCommand::PermitControlChange { army: b.army }
);
command_route!(
    appoint_judge,
    "/{campaign_id}/judges",
    "/v1/campaigns/{campaign_id}/judges",
    Appointment,
    "Appoint a judge of the round: battle, movement or mercenary, head or assistant (an admin or the head Battle Judge, seed 003 §1.3).",
    CampaignCommand::AppointJudge
);
command_route!(
    overrule,
    "/{campaign_id}/overrules",
    "/v1/campaigns/{campaign_id}/overrules",
    OverruleRequest,
    "Overrule a judge's call by a new event that undoes it (the head Battle Judge any call, a Battle Judge the Movement and Mercenary Judges', seed 003 §1.3, §3.3.3).",
    |b| CampaignCommand::Overrule { call: b.call, reason: b.reason }
);
command_route!(
    call_vote,
    "/{campaign_id}/votes",
    "/v1/campaigns/{campaign_id}/votes",
    VoteRequest,
    "Call a vote (a player, seed 003 §1.4).",
    |b| CampaignCommand::CallVote {
        topic: b.topic,
        options: b.options,
        closes_at: b.closes_at,
        system: b.system,
        secret: b.secret
    }
);
command_route!(
    edit_raider_order,
    "/{campaign_id}/raider-edits",
    "/v1/campaigns/{campaign_id}/raider-edits",
    RaiderEditRequest,
    "Change one raider's movement after the lock, to engage an army without passing through any (the Mercenary Judge, once a turn, seed 003 §6.3.2).",
    |b| CampaignCommand::EditRaiderOrder { army: b.army, order: b.order }
);
command_route!(
    add_player,
    "/{campaign_id}/players",
    "/v1/campaigns/{campaign_id}/players",
    PlayerRequest,
    "Add a player mid-round (the team's leaders or a judge, seed 003 §1.1, §2.6).",
    |b| CampaignCommand::AddPlayer { player: b.player }
);
command_route!(
    offer_customisation,
    "/{campaign_id}/customisation-offers",
    "/v1/campaigns/{campaign_id}/customisation-offers",
    OfferRequest,
    "Offer a new player who has fought 2 battles an army of rank Lt Cmdr/CPL or lower to make their own (the team's leaders, seed 003 §2.6).",
    |b| CampaignCommand::OfferCustomisation { player: b.player, army: b.army }
);
command_route!(
    customise_army,
    "/{campaign_id}/customisations",
    "/v1/campaigns/{campaign_id}/customisations",
    CustomiseRequest,
    "Customise the army offered: name, legend and units, keeping its colors and living soldiers, within 2 turns (the new player, seed 003 §2.6).",
    |b| CampaignCommand::CustomiseArmy { army: b.army, name: b.name, legend: b.legend, troops: b.troops }
);
command_route!(
    change_screen_name,
    "/{campaign_id}/screen-names",
    "/v1/campaigns/{campaign_id}/screen-names",
    ScreenNameRequest,
    "Record a player's new screen name, which keeps every power of the old one (the battle judge, seed 003 §1.6).",
    |b| CampaignCommand::ChangeScreenName { from: b.from, to: b.to }
);
/// Open the next turn with its movement deadline (judge, seed 003 §3.1).
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/turns", tag = "campaigns", request_body = OpenTurnRequest,
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
#[post("/{campaign_id}/turns")]
pub async fn open_turn(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<CampaignId>,
    body: Json<OpenTurnRequest>,
) -> Result<HttpResponse, ApiError> {
    // The service commits to the turn's seed, derived from the sealed root (docs/DICE.md
    // "Campaign keys"), so the command carries a field the client does not send.
    let id = path.into_inner();
    let state = state(&req)?;
    let meta = command_meta(&req, actor.clone())?;
    let stream = id.stream();
    let worker = state.clone();
    if worker.service.catalog().entry(&stream).is_none() {
        return Err(not_found(id));
    }
    let deadline = body.into_inner().deadline;
    // The command names the next turn, which a first request moved on: a retry is answered
    // from what it stored.
    let asked = serde_json::to_value(deadline).map_err(ApiError::internal)?;
    let same = move |stored: &serde_json::Value| stored.get("deadline") == Some(&asked);
    if let Some(replayed) = super::replayed_command(&req, &actor, &stream, "open_turn", same).await? {
        return Ok(replayed);
    }
    let outcome = blocking(move || campaign::open_turn(&worker.service, &stream, deadline, meta)).await?;
    Ok(command_response(&state, &actor, outcome, false))
}
command_route!(post_orders, "/{campaign_id}/orders", "/v1/campaigns/{campaign_id}/orders",
    OrdersRequest, "Post orders for armies you control, as text or data (seed 003 §3.2.2.5); each is checked against the map as it is now (§3.2.2.2).",
    |b| CampaignCommand::PostOrders { text: b.text, orders: b.orders, private: b.private, on_behalf_of: b.on_behalf_of });
command_route!(
    change_troops,
    "/{campaign_id}/troops",
    "/v1/campaigns/{campaign_id}/troops",
    TroopsRequest,
    "Change an army's troops after 2 days in a base it heals at (its controller or a judge, seed 003 §2.3.2).",
    |b| CampaignCommand::ChangeTroops { army: b.army, troops: b.troops, legend: b.legend }
);
command_route!(
    contribute_turn_entropy,
    "/{campaign_id}/entropy",
    "/v1/campaigns/{campaign_id}/entropy",
    TurnEntropyRequest,
    "Mix entropy into the open turn's dice (a player of the round, until the movement lock; at most 4 each and 32 a turn): the turn's key, and the key of the dice between its adjudication and the next lock, mix every contribution made before the lock (docs/DICE.md \"Keys\"). Refused after the lock (`entropy_after_lock`), for anyone but the round's players (`not_participant`) and over the caps (`entropy_limit`).",
    |b| CampaignCommand::ContributeEntropy { entropy: b.entropy }
);
command_route!(
    close_round,
    "/{campaign_id}/close",
    "/v1/campaigns/{campaign_id}/close",
    CloseRoundRequest,
    "Close the round without a winner (an admin): nothing more is decided, and the service publishes the root seed every key of the round derives from (docs/DICE.md \"Keys\").",
    |b| CampaignCommand::CloseRound { reason: b.reason }
);
command_route!(
    rule_on_army,
    "/{campaign_id}/rulings",
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
#[post("/{campaign_id}/lock")]
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
    request_body(content = Option<AdjudicateRequest>, description = "results of battles the service did not open, if any"),
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`")),
    responses(
        (status = 200, description = "adjudicated; the events are the turn's update", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the turn is not locked, or a battle is unresolved", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{campaign_id}/adjudicate")]
pub async fn adjudicate_turn(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<CampaignId>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let settled = if body.iter().all(u8::is_ascii_whitespace) {
        Vec::new()
    } else {
        let value = serde_json::from_slice::<serde_json::Value>(&body)
            .map_err(|error| ApiError::Malformed(format!("invalid JSON body: {error}")))?;
        if let Some(pointer) =
            crate::unknown_fields::in_request("POST", "/v1/campaigns/{campaign_id}/adjudicate", &value)
        {
            return Err(crate::problem::unknown_field("invalid JSON body", &pointer));
        }
        serde_json::from_value::<AdjudicateRequest>(value)
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
    // The command holds the results read from the battles of the turn, which the first request
    // moved on: a retry is answered from what it stored, when it settles the same battles.
    let asked = serde_json::to_value(&settled).map_err(ApiError::internal)?;
    let same = move |stored: &serde_json::Value| {
        let results = stored.get("battle_results").and_then(serde_json::Value::as_array);
        asked.as_array().into_iter().flatten().all(|result| results.is_some_and(|stored| stored.contains(result)))
    };
    if let Some(replayed) = super::replayed_command(&req, &actor, &stream, "adjudicate_turn", same).await? {
        // Opening what a crash may have left unopened, as a retry always did.
        let (opener, opened) = (state.clone(), stream.clone());
        blocking(move || opener.service.open_missing_battles(&opened).map(drop)).await?;
        return Ok(replayed);
    }
    let outcome = blocking(move || campaign::adjudicate(&worker.service, &stream, settled, meta)).await?;
    Ok(command_response(&state, &actor, outcome, false))
}

/// Withdraw your declaration of inactivity (the player, seed 003 §5.1).
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/activity", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a player", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "not declared inactive", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{campaign_id}/activity")]
pub async fn declare_active(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<CampaignId>,
) -> Result<HttpResponse, ApiError> {
    run(&req, actor, path.into_inner(), CampaignCommand::DeclareActive).await
}

/// Sanction a player: a reprimand and, with an army and a severity, severity × d6 × (100, 50, 25,
/// 10) troops lost by slot — in its battle too, with 24 more hours for its strategy when the
/// deadline is under 24 hours away (the battle judge, seed 003 §5.4.1).
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/sanctions", tag = "campaigns", request_body = SanctionRequest,
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 200, description = "the sanction, with its die (the battle stream records the losses too)", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not the round's battle judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "no such army, or no reason", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{campaign_id}/sanctions")]
pub async fn impose_sanction(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<CampaignId>,
    body: Json<SanctionRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let command = CampaignCommand::ImposeSanction {
        player: body.player,
        army: body.army,
        severity: body.severity,
        reason: body.reason,
    };
    let id = path.into_inner();
    let state = state(&req)?;
    if state.service.catalog().entry(&id.stream()).is_none() {
        return Err(not_found(id));
    }
    let meta = command_meta(&req, actor.clone())?;
    let (worker, stream) = (state.clone(), id.stream());
    let outcome = blocking(move || campaign::execute_relaying(&worker.service, &stream, &command, meta)).await?;
    Ok(command_response(&state, &actor, outcome, false))
}

/// Cast your one ballot in a vote (a player, seed 003 §1.4): normal votes weigh the General/Chief
/// Praetor 3, Admirals/Praetors 2, others 1; leader votes 1 each; special votes as called.
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/votes/{vote}/ballots", tag = "campaigns", request_body = BallotRequest,
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"),
           ("vote" = String, Path, description = "the vote's id")),
    responses(
        (status = 200, description = "cast (its choice hidden from others in a secret vote)", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a player", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "already voted, not a voter of this vote, closed, or no such option", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{campaign_id}/votes/{vote}/ballots")]
pub async fn cast_vote(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<(CampaignId, String)>,
    body: Json<BallotRequest>,
) -> Result<HttpResponse, ApiError> {
    let (id, vote) = path.into_inner();
    run(&req, actor, id, CampaignCommand::CastVote { vote, option: body.into_inner().option }).await
}

/// Close a vote whose closing time has passed, recording its tally (a player of the round or a
/// judge, seed 003 §1.4).
#[utoipa::path(post, path = "/v1/campaigns/{campaign_id}/votes/{vote}/close", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"),
           ("vote" = String, Path, description = "the vote's id")),
    responses(
        (status = 200, description = "closed with its tally", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a player of the round or a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "still open, or already closed", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{campaign_id}/votes/{vote}/close")]
pub async fn close_vote(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<(CampaignId, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, vote) = path.into_inner();
    run(&req, actor, id, CampaignCommand::CloseVote { vote }).await
}

/// The control list: each side's authority, every army's controllers (and at the lock), every
/// player's standing — active, contingency, owed an army, new player — and the changes accepted
/// against §5.3 (seed 003 ch. 5); `?at=` for any earlier state (activity as of now).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/control", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the control list", body = ControlView),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}/control")]
pub async fn get_control(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: crate::problem::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(campaign_view::control_view(&folded, Utc::now())))
}

/// The votes and their results as you may see them: who voted what in open votes; in secret
/// votes only your own choice, and the tally once closed (seed 003 §1.4).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/votes", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), VoteQuery),
    responses(
        (status = 200, description = "a page of votes (every vote when there are no more than `limit`); `Link: rel=\"next\"` points to the next page", body = Vec<VoteView>),
        (status = 400, description = "a `limit` outside 1–1000 or not a number, or an unknown parameter: the problem names it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such campaign or version, or `after` names no vote", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}/votes")]
pub async fn list_votes(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<CampaignId>,
    query: Query<VoteQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = paging::limit(query.limit, paging::MAX_PAGE)?;
    let campaign = path.into_inner();
    let viewer = super::viewer(&req, actor.as_ref(), &campaign.stream())?;
    let (folded, version, _) = load(&req, campaign, query.at).await?;
    let votes = campaign_view::vote_views(&folded, &viewer);
    let page = paging::page(votes, |vote| vote.vote.clone(), query.after.as_deref(), limit, |_| true, "vote")?;
    Ok(paging::ok_with_link(&req, "after", page.next.as_deref()).insert_header(etag(version)).json(page.items))
}

/// Which votes to list: `?at=` and a page of them (docs/API.md "Paging").
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct VoteQuery {
    /// Stream version to fold up to (inclusive).
    pub at: Option<u64>,
    /// Page size, 1–1000 (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Start after the vote with this id (the last `vote` of the previous page; the `Link`
    /// header's `after`). Votes are listed by id.
    pub after: Option<String>,
}

/// The round's judges, their numbered calls (which an overrule refers to), sanctions and
/// reprimands (seed 003 §1.3, §5.4.1).
#[utoipa::path(get, path = "/v1/campaigns/{campaign_id}/judges", tag = "campaigns",
    params(("campaign_id" = String, Path, description = "the campaign id: a UUID, or the stream name `campaign-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the judges", body = JudgesView),
        (status = 404, description = "no such campaign or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{campaign_id}/judges")]
pub async fn get_judges(
    req: HttpRequest,
    path: web::Path<CampaignId>,
    query: crate::problem::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (folded, version, _) = load(&req, path.into_inner(), query.at).await?;
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(campaign_view::judges_view(&folded)))
}
