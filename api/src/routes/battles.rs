//! The battle routes every registered ruleset shares: open a battle of any ruleset, list them,
//! read one as the caller may see it (now or at any version), draw its picture, play it one
//! action at a time, contribute entropy, reveal its seed, verify it, and take a tactical battle's
//! result over into a coalition battle. Nothing here names a ruleset but the coalition battle a
//! tactical result applies to: every other step goes through the registry.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::battle::{tactical, BattleState, CoalitionBattle, Sides},
    registry,
    ruleset::sheet::Sheet,
    Actor, AnyRuleset, AnyState, StreamKind, Viewer,
};
use herald_projections::{Entry, EventView};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{blocking, etag, ids::BattleId, paging, state, CommandResponse};
use crate::{
    app::{
        command_value, ruleset,
        verify::{verify_stream, VerifyError, VerifyReport},
        wrong_ruleset, AtVersion,
    },
    auth::request::{Authenticated, MaybeAuthenticated},
    problem::{ApiError, Json, Problem, Query},
    views::ViewKey,
};

/// Entropy to mix into the dice.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"entropy": "alice's lucky string 7f3a"}))]
#[serde(deny_unknown_fields)]
pub struct EntropyRequest {
    /// Any text (at most 1024 characters); its SHA-256 is mixed into the seed.
    pub entropy: String,
}

/// `?at=<version>`: the state as of that event.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AtQuery {
    /// Stream version to fold up to (inclusive).
    pub at: Option<u64>,
}

/// One battle in a listing, of any ruleset, in the same shape.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "01936f3e-8f4d-7a31-8a9b-0c64d1f3a002", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a002",
    "ruleset": "coalition", "rules": "coalition-battle@1", "version": 7, "status": "resolved", "ended": true, "turn": null,
    "participants": ["Sai Rei", "Plague Host"], "players": ["alice", "bob"], "winner": "a",
    "created_at": "2030-12-01T17:00:00Z", "last_event_at": "2030-12-01T18:05:00Z"}))]
pub struct BattleSummary {
    /// The battle id.
    pub id: String,
    /// The stream.
    pub stream: String,
    /// Its ruleset (see `GET /v1/rulesets`).
    pub ruleset: String,
    /// The rules version that decided it (`coalition-battle@1`).
    pub rules: String,
    /// Current version.
    pub version: u64,
    /// Where it stands, in its ruleset's words.
    pub status: String,
    /// Whether it is over.
    pub ended: bool,
    /// The turn or round, for rulesets that count them.
    pub turn: Option<u32>,
    /// Who takes part, as its ruleset names them: armies, players, factions.
    pub participants: Vec<String>,
    /// The players acting in it, by name (the `player` of their tokens): the controllers of a
    /// coalition battle's armies, of warmachine's players, of the factions, sides and figures of
    /// other rulesets. The GM is not listed.
    pub players: Vec<String>,
    /// The winner once decided: a side (`a`, `b`) for coalition battles, a player or faction
    /// for tactical rulesets.
    pub winner: Option<String>,
    /// When its first event was recorded: when it was opened.
    pub created_at: Option<DateTime<Utc>>,
    /// When its last event was recorded.
    pub last_event_at: Option<DateTime<Utc>>,
}

/// Open a battle: `ruleset` picks the rules (`coalition` when absent), `seed` optionally fixes
/// the server seed; the other fields are the ruleset's set-up (see `GET /v1/rulesets`).
/// Documented in the OpenAPI document as one schema per registered ruleset.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateBattleRequest {
    /// The ruleset id.
    pub ruleset: Option<String>,
    /// A server seed (64 hex digits); drawn from the OS when absent. Sealed either way.
    pub seed: Option<String>,
}

/// A create request taken apart: the ruleset it names, the seed it supplies, the set-up.
pub struct Creation {
    /// The ruleset (the kind's default when the request names none).
    pub ruleset: &'static dyn AnyRuleset,
    /// A server seed the request supplies.
    pub seed: Option<[u8; 32]>,
    /// The ruleset's set-up: the other fields.
    pub setup: serde_json::Value,
}

/// Take a create request apart: the ruleset (or the kind's default), the seed, the set-up.
pub fn creation(kind: StreamKind, body: serde_json::Value) -> Result<Creation, ApiError> {
    let serde_json::Value::Object(mut fields) = body else {
        return Err(ApiError::Malformed("the body must be a JSON object".into()));
    };
    let unknown = |id: &str| ApiError::Malformed(unknown_ruleset(kind, id));
    let ruleset = match fields.remove("ruleset") {
        None | Some(serde_json::Value::Null) => registry::default_for(kind).ok_or_else(|| unknown("(none)"))?,
        Some(serde_json::Value::String(id)) => registry::find(kind, &id).ok_or_else(|| unknown(&id))?,
        Some(other) => return Err(ApiError::Malformed(format!("ruleset must be a string, not {other}"))),
    };
    let seed = match fields.remove("seed") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(text)) => super::supplied_seed(Some(&text))?,
        Some(_) => return Err(ApiError::Malformed("seed must be 64 hexadecimal digits".into())),
    };
    Ok(Creation { ruleset, seed, setup: serde_json::Value::Object(fields) })
}

/// Open a stream of `kind` from a create request: check the caller, the ruleset and its set-up,
/// seal the seed, and run the ruleset's set-up command (`201 Created` with `Location`).
pub async fn create_stream(
    req: &HttpRequest,
    actor: Actor,
    kind: StreamKind,
    body: serde_json::Value,
) -> Result<HttpResponse, ApiError> {
    create_stream_then(req, actor, kind, body, None).await
}

pub use crate::app::Completion;

/// [`create_stream`], with the set-up command completed by `complete` after the seed is sealed.
pub async fn create_stream_then(
    req: &HttpRequest,
    actor: Actor,
    kind: StreamKind,
    body: serde_json::Value,
    complete: Option<Completion>,
) -> Result<HttpResponse, ApiError> {
    crate::auth::request::require_host_scope(req)?;
    // Every field of the body at every depth must be one the set-up names (issue 26 item 8);
    // the set-up union is told apart by `ruleset`, so the kind's default is named where the
    // body names none (as `creation` reads it), in place: the body is not copied.
    let mut body = body;
    if let Some(fields) = body.as_object_mut().filter(|fields| fields.get("ruleset").is_none_or(|r| r.is_null())) {
        if let Some(default) = registry::default_for(kind) {
            fields.insert("ruleset".into(), default.id().into());
        }
    }
    if let Some(pointer) = crate::unknown_fields::in_request("POST", &format!("/v1/{}s", kind.prefix()), &body) {
        return Err(crate::problem::unknown_field("not a set-up", &pointer));
    }
    let taken = creation(kind, body)?;
    taken.ruleset.may_set_up(&actor)?;
    // The seed is drawn (or taken from the request) and committed to before anything is
    // sealed, so the set-up is decoded and made into its command once, with its commitment: a
    // set-up that does not fit, or that the rules refuse, leaves nothing behind. Where it does
    // not fit, the field that does not is named (decoded again only then).
    let server_seed = match taken.seed {
        Some(seed) => seed,
        None => fresh_seed()?,
    };
    let commitment = hex::encode(herald_domain::dice::seed::commitment(&server_seed));
    let command = match taken.ruleset.set_up(&taken.setup, commitment) {
        Ok(command) => command,
        Err(refusal @ herald_domain::ruleset::Refusal::Malformed(_)) => {
            return Err(match taken.ruleset.setup_mismatch(&taken.setup) {
                Some(mismatch) => super::mismatch(format!("not a {} set-up", taken.ruleset.id()), mismatch),
                None => refusal.into(),
            })
        }
        Err(refusal) => return Err(refusal.into()),
    };
    if let Some(response) = super::replayed_creation(req, &actor, kind, &taken, complete).await? {
        return Ok(response);
    }
    let ruleset = taken.ruleset;
    let app = state(req)?;
    let id = uuid::Uuid::now_v7();
    let stream = format!("{}-{id}", kind.prefix());
    let (worker, sealing) = (app.clone(), stream.clone());
    // An insert into the store's secrets (durable with the creation's append).
    let on_worker = super::runs_on_worker(&app, ruleset);
    super::short_or_blocking(on_worker, move || worker.service.seal_seed(&sealing, Some(server_seed))).await?;
    let mut command = command;
    if let Some(complete) = complete {
        let (worker, sealed) = (app.clone(), stream.clone());
        command = blocking(move || complete(&worker.service, &sealed, command)).await?;
    }
    let location = format!("/v1/{}s/{id}", kind.prefix());
    super::execute(req, actor, ruleset, stream, command, Some(location)).await
}

/// A server seed of fresh OS randomness, for a creation that supplies none.
fn fresh_seed() -> Result<[u8; 32], ApiError> {
    use rand_core::{OsRng, TryRngCore};
    let mut seed = [0u8; 32];
    OsRng.try_fill_bytes(&mut seed).map_err(|e| ApiError::internal(anyhow::anyhow!("OS randomness: {e}")))?;
    Ok(seed)
}

/// Open a battle of any registered ruleset (a judge or admin). The server seals a seed and
/// publishes its SHA-256 in the battle's first event.
#[utoipa::path(post, path = "/v1/battles", tag = "battles", operation_id = "create_battle",
    request_body(content = CreateBattleRequest, description = "one of the registered rulesets' set-ups, picked by `ruleset`"),
    params(("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe: the same key answers with the battle it opened")),
    responses(
        (status = 201, description = "battle created; the events and the new version", body = CommandResponse),
        (status = 200, description = "a retry with the same Idempotency-Key: the battle it opened", body = CommandResponse),
        (status = 400, description = "malformed request, unknown ruleset or set-up", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "the Idempotency-Key was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the rules refuse the set-up (e.g. two armies of one team)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("")]
pub async fn create_battle(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    create_stream(&req, actor, StreamKind::Battle, body.into_inner()).await
}

/// Which battles to list: a page of them (docs/API.md "Paging"), and filters. Every filter
/// given must hold.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct BattleQuery {
    /// Page size, 1–1000 (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Start after the battle with this id (the last `id` of the previous page; the `Link`
    /// header's `after`). Battles are listed in id order, which is the order they were opened in.
    pub after: Option<String>,
    /// Only battles of this ruleset (an `id` of `GET /v1/rulesets` of kind `battle`).
    pub ruleset: Option<String>,
    /// Only battles whose `status` is this word, in their ruleset's words (`awaiting_strategies`,
    /// `resolved` for coalition battles; `activation` for warmachine…).
    pub status: Option<String>,
    /// Only battles that are over (`true`) or still running (`false`).
    pub ended: Option<bool>,
    /// Only battles one of whose `participants` has this name, exactly: an army of a coalition
    /// battle, a player of warmachine, a side or faction of other rulesets.
    pub participant: Option<String>,
    /// Only battles this player acts in (one of their `players`): a player's token names them.
    pub player: Option<String>,
    /// Only the battles this campaign announced (its id, or its stream `campaign-<uuid>`): the
    /// coalition battles its adjudications announced (seed 003 §3.1).
    #[param(value_type = Option<String>)]
    pub campaign: Option<super::ids::CampaignId>,
}

/// The battles of every ruleset, a page at a time, oldest first.
#[utoipa::path(get, path = "/v1/battles", tag = "battles", operation_id = "list_battles", params(BattleQuery),
    responses(
        (status = 200, description = "a page of battles, of every ruleset (every battle when there are no more than `limit`); `Link: rel=\"next\"` points to the next page", body = Vec<BattleSummary>),
        (status = 400, description = "a `limit` outside 1–1000 or not a number, an unknown `ruleset`, a malformed `campaign` id, `ended` not `true` or `false`, or an unknown parameter: the problem names it", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`after` names no battle, or `campaign` no campaign", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("")]
pub async fn list_battles(req: HttpRequest, query: Query<BattleQuery>) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = paging::limit(query.limit, paging::MAX_PAGE)?;
    if let Some(id) = query.ruleset.as_deref().filter(|id| registry::find(StreamKind::Battle, id).is_none()) {
        return Err(ApiError::Malformed(format!(
            "query parameter `ruleset`: {}",
            unknown_ruleset(StreamKind::Battle, id)
        )));
    }
    let app = state(&req)?;
    let catalog = app.service.catalog();
    let announced = match query.campaign {
        None => None,
        Some(campaign) => {
            let entry = catalog
                .entry(&campaign.stream())
                .ok_or_else(|| ApiError::NotFound(format!("no campaign {campaign} (query parameter `campaign`)")))?;
            let state = entry.state_as::<herald_domain::coalition::campaign::CampaignState>();
            Some(state.map(|state| state.battles.keys().cloned().collect::<std::collections::BTreeSet<_>>()))
        }
    };
    let battles = catalog.entries(StreamKind::Battle).into_iter().filter_map(|(stream, entry)| {
        let summary = entry.ruleset.summary(entry.state.as_ref())?;
        Some(BattleSummary {
            id: stream.trim_start_matches("battle-").to_string(),
            ruleset: entry.ruleset.id().to_string(),
            rules: entry.ruleset.rules().to_string(),
            stream,
            version: entry.version,
            status: summary.status,
            ended: summary.ended,
            turn: summary.turn,
            participants: summary.participants,
            players: summary.players,
            winner: summary.winner,
            created_at: entry.created_at,
            last_event_at: entry.last_event_at,
        })
    });
    let keep = |battle: &BattleSummary| {
        query.ruleset.as_ref().is_none_or(|ruleset| battle.ruleset == *ruleset)
            && query.status.as_ref().is_none_or(|status| battle.status == *status)
            && query.ended.is_none_or(|ended| battle.ended == ended)
            && query.participant.as_ref().is_none_or(|name| battle.participants.contains(name))
            && query.player.as_ref().is_none_or(|name| battle.players.contains(name))
            && announced.as_ref().is_none_or(|battles| battles.as_ref().is_some_and(|b| b.contains(&battle.stream)))
    };
    let after = query.after.as_deref().map(|after| after.trim_start_matches("battle-"));
    let page = paging::page(battles, |battle| battle.id.clone(), after, limit, keep, "battle")?;
    Ok(paging::ok_with_link(&req, "after", page.next.as_deref()).json(page.items))
}

/// What is wrong with a ruleset id that is not one of `kind`'s: it names those that are.
fn unknown_ruleset(kind: StreamKind, id: &str) -> String {
    let known: Vec<&str> = registry::all().filter(|r| r.kind() == kind).map(|r| r.id()).collect();
    format!("unknown ruleset {id:?}: {} rulesets are {} (GET /v1/rulesets)", kind.prefix(), known.join(", "))
}

/// A battle as the caller may see it, in its ruleset's view; `?at=<version>` for its state as of
/// any event.
#[utoipa::path(get, path = "/v1/battles/{battle_id}", tag = "battles", operation_id = "get_battle",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the battle in its ruleset's view (`ruleset` says which); the ETag is its stream version", body = Object),
        (status = 400, description = "malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle or version", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{battle_id}")]
pub async fn get_battle(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<BattleId>,
    query: crate::problem::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner().stream();
    let viewer = super::viewer(&req, actor.as_ref(), &stream)?;
    let render = |current: &Entry, folded: &dyn AnyState, version: u64| {
        let view = current
            .ruleset
            .view(&stream, version, folded, current.state.as_ref(), &viewer)
            .map_err(|error| ApiError::internal(anyhow::anyhow!(error)))?;
        // Exactly its length: `Bytes` from a `Vec` keeps the `Vec`'s whole capacity (up to twice
        // the JSON, as a `Vec` grows by doubling), which the view cache, bounded by the JSON's
        // length, would hold unaccounted (issue 27 item 4).
        serde_json::to_vec(&view)
            .map(|mut json| {
                json.shrink_to_fit();
                web::Bytes::from(json)
            })
            .map_err(ApiError::internal)
    };
    let (body, version) = match query.at {
        // The current view: from the read models (no IO, so no blocking thread), rendered once
        // per version and reader (crate::views).
        None => {
            let app = state(&req)?;
            let current = app.service.catalog().entry(&stream).ok_or_else(|| not_found(&stream))?;
            let key = ViewKey::new(&stream, current.version, &viewer, "view");
            (
                app.views.get_or_render(key, || render(&current, current.state.as_ref(), current.version))?,
                current.version,
            )
        }
        Some(at) => {
            let AtVersion { current, state: folded, version } = folded(&req, &stream, Some(at)).await?;
            (render(&current, folded.as_ref(), version)?, version)
        }
    };
    Ok(HttpResponse::Ok().insert_header(etag(version)).content_type("application/json").body(body))
}

/// The stream's entry and its state now or as of `at`, folded off the async executor.
async fn folded(req: &HttpRequest, stream: &str, at: Option<u64>) -> Result<AtVersion, ApiError> {
    let app = state(req)?;
    let loading = stream.to_string();
    blocking(move || app.service.state_at(&loading, at)).await?.ok_or_else(|| not_found(stream))
}

/// A battle's picture, for rulesets that draw one (each names its picture's file, `picture` in
/// `GET /v1/rulesets`), as the caller may see it, now or as of `?at=<version>`.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/{picture}", tag = "battles", operation_id = "get_battle_picture",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`"),
           ("picture" = String, Path, description = "the picture's file name, as the ruleset names it (`picture` in `GET /v1/rulesets`)"), AtQuery),
    responses(
        (status = 200, description = "the picture: an SVG document (the same bytes as `application/octet-stream` when that is all the client accepts)", content(
            (String = "image/svg+xml"),
            (Vec<u8> = "application/octet-stream"),
        )),
        (status = 404, description = "no such battle, version or picture", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{battle_id}/{picture:[a-z][a-z0-9-]*\\.svg}")]
pub async fn get_picture(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<(BattleId, String)>,
    query: crate::problem::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let (battle_id, picture) = path.into_inner();
    let stream = battle_id.stream();
    let viewer = super::viewer(&req, actor.as_ref(), &stream)?;
    let AtVersion { current, state: folded, version } = folded(&req, &stream, query.at).await?;
    let drawn = (current.ruleset.picture_name() == Some(picture.as_str()))
        .then(|| current.ruleset.picture(&stream, version, folded.as_ref(), &viewer))
        .flatten()
        .ok_or_else(|| {
            let offered = current.ruleset.picture_name().map_or("none".to_string(), |name| format!("`{name}`"));
            ApiError::NotFound(format!(
                "a {} battle has no picture {picture}; its picture: {offered}",
                current.ruleset.id()
            ))
        })?;
    Ok(super::svg_response(&req, drawn, version))
}

/// A battle as its players' sheets (a roster, model cards, character sheets, figure cards, minis:
/// each ruleset says which), drawn from the view the caller may see, now or as of
/// `?at=<version>`. Every ruleset's sheets have this one shape: groups of cards, each card a few
/// sections (stats, a track, a list, a table, a grid).
#[utoipa::path(get, path = "/v1/battles/{battle_id}/sheet", tag = "battles", operation_id = "get_battle_sheet",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`"), AtQuery),
    responses(
        (status = 200, description = "the sheets; the ETag is the stream version they are drawn at", body = Sheet),
        (status = 400, description = "malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle or version, or its ruleset keeps no sheets", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{battle_id}/sheet")]
pub async fn get_sheet(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<BattleId>,
    query: crate::problem::Query<AtQuery>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner().stream();
    let viewer = super::viewer(&req, actor.as_ref(), &stream)?;
    let AtVersion { current, state: folded, version } = folded(&req, &stream, query.at).await?;
    let sheet = current
        .ruleset
        .sheet(&stream, version, folded.as_ref(), current.state.as_ref(), &viewer)
        .ok_or_else(|| ApiError::NotFound(format!("a {} battle keeps no sheets", current.ruleset.id())))?;
    Ok(HttpResponse::Ok().insert_header(etag(version)).json(sheet))
}

/// Play a battle: one action per request, in its ruleset's command language (tagged by `type`),
/// answered with the events it produced (every die included). See each ruleset's docs for a
/// full turn; `GET /v1/rulesets` lists them.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/actions", tag = "battles", operation_id = "post_action",
    request_body(content = Object, description = "one command of the battle's ruleset"),
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`"),
           ("If-Match" = Option<String>, Header, description = "the stream version you read; a 412 if it moved on"),
           ("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe")),
    responses(
        (status = 200, description = "the events the action produced, dice included, and the new version", body = CommandResponse),
        (status = 400, description = "malformed action, or not an action of this battle's ruleset", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not this player's figure, or a judge's action", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "the Idempotency-Key was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the rules refuse: the code names the rule (`<ruleset>.<rule>`; `rule` names the seed section)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/actions")]
pub async fn post_action(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner().stream();
    let ruleset = existing(&req, &stream)?;
    let command = body.into_inner();
    if !ruleset.is_action(&command) {
        return Err(ApiError::Malformed(format!(
            "not an action of a {} battle: battles are opened with POST /v1/battles, seeds revealed with \
             POST /v1/battles/{{id}}/reveal, and an action names its `type`",
            ruleset.id()
        )));
    }
    if let Some(mismatch) = ruleset.command_mismatch(&command) {
        return Err(super::mismatch(format!("not a {} command", ruleset.id()), mismatch));
    }
    if let Some(pointer) = crate::unknown_fields::in_component(&ruleset.schemas().command.name, &command) {
        return Err(crate::problem::unknown_field(&format!("not a {} command", ruleset.id()), &pointer));
    }
    super::execute(&req, actor, ruleset, stream, command, None).await
}

/// The ruleset of an existing stream, or a 404.
pub fn existing(req: &HttpRequest, stream: &str) -> Result<&'static dyn AnyRuleset, ApiError> {
    state(req)?.service.catalog().ruleset_of(stream).ok_or_else(|| not_found(stream))
}

/// Contribute entropy to the dice before the first roll (a participant or a judge).
#[utoipa::path(post, path = "/v1/battles/{battle_id}/entropy", tag = "battles", operation_id = "contribute_entropy",
    request_body = EntropyRequest,
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "recorded", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a participant", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "dice already rolled, or the ruleset takes no entropy", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/entropy")]
pub async fn contribute_entropy(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Json<EntropyRequest>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner().stream();
    let ruleset = existing(&req, &stream)?;
    let command = ruleset.contribute_entropy(body.into_inner().entropy).ok_or_else(|| {
        ApiError::Rule(herald_domain::RuleError::new(
            "battle.no_entropy",
            format!("a {} battle takes no entropy", ruleset.id()),
            "herald: docs/DICE.md",
        ))
    })?;
    super::execute(&req, actor, ruleset, stream, command, None).await
}

/// Reveal the sealed seed now (a judge). Battles reveal it by themselves when they end.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/reveal", tag = "battles", operation_id = "reveal_seed",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "revealed", body = CommandResponse),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "already revealed", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/reveal")]
pub async fn reveal_seed(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner().stream();
    let ruleset = existing(&req, &stream)?;
    if !actor.is_judge() {
        return Err(ApiError::Forbidden {
            code: format!("{}.not_a_judge", ruleset.code_prefix()),
            detail: "only a judge may reveal a sealed seed".into(),
            rule: Some("herald: docs/DICE.md".into()),
        });
    }
    if let Some(replayed) = super::replayed_command(&req, &actor, &stream, "reveal_seed", |_| true).await? {
        return Ok(replayed);
    }
    let app = state(&req)?;
    let sealing = stream.clone();
    // The seed in force is revealed; before the battle ends a fresh sealed seed takes over, so
    // the revealed one predicts no later die (docs/DICE.md "Re-sealing").
    let (sealed, next) = blocking(move || {
        let Some(cursor) =
            app.service.catalog().entry(&sealing).and_then(|entry| entry.ruleset.dice(entry.state.as_ref()))
        else {
            return Ok((app.service.sealed_seed(&sealing)?, None));
        };
        let next = match cursor.reveal_due || cursor.revealed.is_some() {
            true => None,
            false => Some(hex::encode(app.service.seal_key_once(&sealing, cursor.next_reseal())?)),
        };
        Ok::<_, ApiError>((app.service.key_seed(&sealing, cursor.key)?, next))
    })
    .await?;
    let sealed = sealed.ok_or_else(|| not_found(&stream))?;
    let command = ruleset.reveal_seed(hex::encode(sealed), next).ok_or_else(|| {
        ApiError::Rule(herald_domain::RuleError::new(
            "battle.no_seed",
            format!("a {} battle has no seed to reveal", ruleset.id()),
            "herald: docs/DICE.md",
        ))
    })?;
    super::execute(&req, actor, ruleset, stream, command, None).await
}

/// Verify the battle: run every stored command again with the seed and compare the events.
/// Anyone may verify once the seed is revealed; before that, only judges.
#[utoipa::path(get, path = "/v1/battles/{battle_id}/verify", tag = "battles", operation_id = "verify_battle",
    params(("battle_id" = String, Path, description = "the battle id: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "`verified`, or the first event that differs with a field-by-field diff", body = VerifyReport),
        (status = 400, description = "malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "the seed is still sealed and you are not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{battle_id}/verify")]
pub async fn verify_battle(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<BattleId>,
) -> Result<HttpResponse, ApiError> {
    verify_response(&req, actor, path.into_inner().stream()).await
}

/// Run a verification for `actor` and shape the answer: a reader who is not a judge sees a
/// differing field's values only where the stream's ruleset lets that reader see the event.
pub async fn verify_response(
    req: &HttpRequest,
    actor: Option<Actor>,
    stream: String,
) -> Result<HttpResponse, ApiError> {
    let app = state(req)?;
    // A judge outside its token's scope verifies as the public does (seeds stay sealed to it).
    let viewer = super::viewer(req, actor.as_ref(), &stream)?;
    let judge = viewer.is_judge();
    let report: VerifyReport = blocking(move || {
        let report = verify_stream(app.store.as_ref(), &stream, judge).map_err(|error| match error {
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
        })?;
        if judge {
            return Ok(report);
        }
        redact_report(app.as_ref(), report, &viewer)
    })
    .await?;
    Ok(HttpResponse::Ok().json(report))
}

/// Hide the values of differing fields that `viewer` may not see in the event they belong to
/// (the size bonus of a coalition battle and the totals it enters, say): the ruleset's own
/// redaction of that event says which.
fn redact_report(
    app: &crate::state::AppState,
    mut report: VerifyReport,
    viewer: &Viewer,
) -> Result<VerifyReport, ApiError> {
    let Some(difference) = report.first_difference.as_mut() else { return Ok(report) };
    let stored = app.store.read_stream(&report.stream, difference.version, herald_store::Direction::Forwards, 1)?;
    let current = app.service.catalog().entry(&report.stream);
    let Some(event) = stored.first() else { return Ok(report) };
    let seen = EventView::new(event, current.as_ref(), viewer).data;
    for field in &mut difference.fields {
        if hidden_at(&seen, &field.path) {
            field.stored = serde_json::Value::String(herald_domain::viewer::HIDDEN.into());
            field.replayed = serde_json::Value::String(herald_domain::viewer::HIDDEN.into());
        }
    }
    Ok(report)
}

/// Whether the value at JSON pointer `path` of `seen`, or a value containing it, is hidden.
fn hidden_at(seen: &serde_json::Value, path: &str) -> bool {
    let mut prefix = String::new();
    let hidden =
        |value: Option<&serde_json::Value>| value.and_then(|v| v.as_str()) == Some(herald_domain::viewer::HIDDEN);
    if hidden(seen.pointer("")) {
        return true;
    }
    for segment in path.split('/').skip(1) {
        prefix.push('/');
        prefix.push_str(segment);
        if hidden(seen.pointer(&prefix)) {
            return true;
        }
    }
    false
}

/// Fight a coalition battle out as a battle of a tactical ruleset: which of its participants
/// fought for which side.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"battle": "0193a1f0-0000-7000-8000-000000000001", "sides": {"a": "red", "b": "blue"},
    "reason": "the armies met at the ford and the players fought it out on the table"}))]
#[serde(deny_unknown_fields)]
pub struct TacticalResultRequest {
    /// The tactical battle's id; it must have ended with a winner.
    #[schema(value_type = String)]
    pub battle: BattleId,
    /// The tactical battle's participant (player) who fought for each side.
    pub sides: Sides<String>,
    /// Why the battle was fought out (recorded).
    pub reason: String,
}

/// Apply an ended tactical battle's result to a coalition battle (a judge): its winner wins, and
/// each side loses troops in proportion to the figures it lost. A campaign reads the result at
/// its next adjudication as for any battle.
#[utoipa::path(post, path = "/v1/battles/{battle_id}/tactical-result", tag = "battles", operation_id = "apply_tactical_result",
    request_body = TacticalResultRequest,
    params(("battle_id" = String, Path, description = "the coalition battle: a UUID, or the stream name `battle-<uuid>`")),
    responses(
        (status = 200, description = "the result applied (coalition.TacticalResultApplied)", body = CommandResponse),
        (status = 400, description = "malformed request", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such battle", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the tactical battle has not ended with a winner, cannot stand in for a campaign battle, the sides do not match its players and controllers, or the coalition battle has ended", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{battle_id}/tactical-result")]
pub async fn apply_tactical_result(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<BattleId>,
    body: Json<TacticalResultRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    super::require_judge(
        &actor,
        "coalition.battle.judge_only",
        "only a judge may apply a tactical battle's result",
        "seed 003 §1.3",
    )?;
    let app = state(&req)?;
    let catalog = app.service.catalog();
    let coalition = path.into_inner().stream();
    let coalition_rules = ruleset::<CoalitionBattle>()?;
    let battle = catalog.entry(&coalition).ok_or_else(|| not_found(&coalition))?;
    if battle.ruleset.rules() != coalition_rules.rules() {
        return Err(wrong_ruleset(&coalition, battle.ruleset, coalition_rules));
    }
    let battle_state = battle.state_as::<BattleState>().ok_or_else(|| not_found(&coalition))?;
    let source = body.battle.stream();
    let fought = catalog.entry(&source).ok_or_else(|| not_found(&source))?;
    let outcome = fought.ruleset.outcome(fought.state.as_ref()).ok_or_else(|| {
        ApiError::Rule(herald_domain::RuleError::new(
            "battle.not_tactical",
            format!("a {} battle cannot stand in for a coalition battle", fought.ruleset.id()),
            "herald: docs/rulesets/coalition-battle.md",
        ))
    })?;
    let command = tactical::apply_result(
        battle_state,
        format!("{source}@{}", fought.version),
        fought.ruleset.rules().to_string(),
        &outcome,
        &body.sides,
        body.reason,
    )?;
    super::execute(&req, actor, coalition_rules, coalition, command_value(&command)?, None).await
}

/// A 404 naming the battle.
pub fn not_found(stream: &str) -> ApiError {
    ApiError::NotFound(format!("no battle {}", stream.trim_start_matches("battle-")))
}
