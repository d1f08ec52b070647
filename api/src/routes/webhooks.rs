//! Webhook subscriptions: admins of the host, a campaign or a battle create, list, pause, resume,
//! rotate and delete them, read their delivery log and ask for redeliveries (docs/WEBHOOKS.md).

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use chrono::Utc;
use herald_domain::{Role, RuleError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{blocking, state};
use crate::{
    auth::{
        request::{scope_of, Authenticated},
        require_admin, Scope,
    },
    problem::{ApiError, Problem},
    webhooks::{
        generate_secret, target, DeliveryAttempt, Filters, SigningSecret, Status, SubscriptionRecord, SubscriptionView,
        DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS, RULE,
    },
};

/// A subscription to create.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "url": "https://bots.example.org/herald",
    "description": "forum poster",
    "role": "observer",
    "scope": "campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f",
    "filters": {"types": ["coalition.TurnAdjudicated"]}
}))]
#[serde(deny_unknown_fields)]
pub struct CreateWebhookRequest {
    /// Where events are POSTed: `https://…` (plain http, and private or loopback addresses, only
    /// for hosts the server's settings allow).
    #[schema(max_length = 2000)]
    pub url: String,
    /// A note for admins.
    #[serde(default)]
    pub description: Option<String>,
    /// The role the subscription reads as (default: the creator's). Hidden information is
    /// redacted for it exactly as for a token of that role and scope.
    #[serde(default)]
    pub role: Option<Role>,
    /// For a `player` reader: the player name.
    #[serde(default)]
    pub player: Option<String>,
    /// Where that role holds (default: the creator's token's scope); within the creator's scope.
    #[serde(default)]
    pub scope: Option<Scope>,
    /// Which events (default: every event within the scope).
    #[serde(default)]
    pub filters: Filters,
    /// The position in `$all` to start from (default: the end of the log now: only new events).
    #[serde(default)]
    pub from: Option<u64>,
}

/// A newly created subscription, or a rotated one: the secret is shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookSecret {
    /// The signing secret (`whsec_` + base64): verify each request's `webhook-signature` with it.
    pub secret: String,
    /// The subscription.
    pub subscription: SubscriptionView,
}

/// Every subscription the caller administers.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    /// The subscriptions, oldest first (at most 100 exist).
    pub webhooks: Vec<SubscriptionView>,
}

/// A subscription's delivery log.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptLog {
    /// The last attempts (at most 100), oldest first.
    pub attempts: Vec<DeliveryAttempt>,
}

/// Rotating a secret.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RotateRequest {
    /// Seconds the old secret keeps signing beside the new one (default 86400, at most 604800).
    #[serde(default)]
    #[schema(maximum = 604800)]
    pub overlap_seconds: Option<u64>,
}

/// Sending events again.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RedeliverRequest {
    /// The event's position in `$all` (as in the delivery log): sent once more with the same
    /// `webhook-id`.
    pub position: Option<u64>,
    /// Replay everything from this position of `$all` on (the subscription's position moves back
    /// or forward to it).
    pub from: Option<u64>,
}

fn refuse(code: &str, detail: String) -> ApiError {
    ApiError::Rule(RuleError::new(code, detail, RULE))
}

/// The caller's scope, if the caller is an admin (403 otherwise).
fn admin_scope(req: &HttpRequest, actor: &herald_domain::Actor) -> Result<Scope, ApiError> {
    require_admin(actor).map_err(|_| ApiError::Forbidden {
        code: "forbidden".into(),
        detail: "only an admin of the host, a campaign or a battle may manage webhooks".into(),
        rule: None,
    })?;
    scope_of(req).ok_or_else(|| ApiError::Unauthenticated("no token".into()))
}

/// Whether an admin scoped to `caller` reaches a subscription scoped to `scope`.
fn reaches(caller: &Scope, scope: &Scope, catalog: &herald_projections::Catalog) -> bool {
    match scope {
        Scope::Host => caller.is_host(),
        Scope::Campaign(stream) | Scope::Battle(stream) => caller.covers(stream, catalog),
    }
}

/// A subscription the caller administers: 404 for one that does not exist (or was deleted),
/// 403 `token.out_of_scope` for one outside the caller's token's scope, as on every other route
/// a scoped token reaches outside its scope.
fn administered(state: &crate::state::AppState, caller: &Scope, id: &str) -> Result<SubscriptionRecord, ApiError> {
    let record = state
        .webhooks
        .get(state.store.as_ref(), id)?
        .filter(|record| !record.deleted)
        .ok_or_else(|| ApiError::NotFound(format!("no webhook subscription {id}")))?;
    if !reaches(caller, &record.scope, state.service.catalog()) {
        return Err(ApiError::Forbidden {
            code: "token.out_of_scope".into(),
            detail: format!(
                "webhook subscription {id} reads {}, which this token's scope ({caller}) does not reach",
                record.scope
            ),
            rule: None,
        });
    }
    Ok(record)
}

fn view(state: &crate::state::AppState, record: &SubscriptionRecord) -> Result<SubscriptionView, ApiError> {
    Ok(record.view(state.webhooks.position(state.store.as_ref(), &record.id)?))
}

fn target_problem(error: target::TargetError) -> ApiError {
    match error {
        target::TargetError::Malformed(detail) => ApiError::Malformed(format!("url: {detail}")),
        target::TargetError::Insecure(_) => refuse("webhook.insecure_target", error.to_string()),
        target::TargetError::Unresolvable { .. } => refuse("webhook.unresolvable_target", error.to_string()),
        target::TargetError::Internal { .. } => refuse("webhook.internal_target", error.to_string()),
    }
}

/// Create a subscription (an admin of the host, or of the campaign or battle it is scoped to).
/// Nothing is stored when anything is refused.
#[utoipa::path(post, path = "/v1/webhooks", tag = "webhooks", request_body = CreateWebhookRequest,
    responses(
        (status = 201, description = "the subscription and its signing secret, shown once", body = WebhookSecret),
        (status = 400, description = "malformed request: a URL that is not http(s) or carries credentials, a player reader without a player name, an unknown field", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a scope wider than the creator's token (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "a plain-http target the host does not allow (`webhook.insecure_target`), a target on a private, loopback or link-local address (`webhook.internal_target`) or that does not resolve (`webhook.unresolvable_target`), a filter naming no stream, campaign, ruleset or event type (`webhook.unknown_filter`), a scope naming nothing (`token.scope_not_found`), too many subscriptions (`webhook.too_many`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("")]
pub async fn create_webhook(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: crate::problem::Json<CreateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let body = body.into_inner();
    crate::limits::check(&serde_json::to_value(&body).map_err(ApiError::internal)?)?;
    let state = state(&req)?;
    let catalog = state.service.catalog();
    let scope = body.scope.clone().unwrap_or_else(|| caller.clone());
    if let Scope::Campaign(stream) | Scope::Battle(stream) = &scope {
        if catalog.version_of(stream).is_none() {
            return Err(refuse("token.scope_not_found", format!("there is no {scope}")));
        }
    }
    if !reaches(&caller, &scope, catalog) {
        return Err(ApiError::Forbidden {
            code: "token.out_of_scope".into(),
            detail: format!("a subscription reads no wider than its creator: this token's scope is {caller}, which does not reach {scope}"),
            rule: None,
        });
    }
    let role = body.role.clone().unwrap_or(actor.role.clone());
    match (&role, body.player.as_deref()) {
        (Role::System, _) => return Err(ApiError::Malformed("a subscription cannot read as the system".into())),
        (Role::Player, None | Some("")) => {
            return Err(ApiError::Malformed("a player reader needs the player name it reads as".into()))
        }
        (Role::Player, Some(_)) => {}
        (_, Some(_)) => return Err(ApiError::Malformed("only a player reader has a player name".into())),
        _ => {}
    }
    crate::webhooks::check_filters(&body.filters, &scope, catalog)?;
    let (url, settings) = (body.url.clone(), state.webhooks.settings.clone());
    blocking(move || target::resolve(&url, &settings).map_err(target_problem)).await?;
    let secret = generate_secret()?;
    let record = SubscriptionRecord {
        id: format!("wh_{}", uuid::Uuid::now_v7()),
        url: body.url,
        description: body.description,
        role,
        player: body.player,
        scope,
        filters: body.filters,
        created_by: actor.id.clone(),
        created_at: Utc::now(),
        status: Status::Active,
        disabled_reason: None,
        failing_since: None,
        secrets: vec![SigningSecret { secret: secret.clone(), expires_at: None }],
        deleted: false,
    };
    let from = body.from;
    let subscription = blocking(move || {
        let position = match from {
            Some(from) => from,
            None => state.store.head_position()?.map_or(0, |head| head + 1),
        };
        state.webhooks.create(state.store.as_ref(), &record, position)?;
        Ok(record.view(position))
    })
    .await?;
    Ok(HttpResponse::Created().json(WebhookSecret { secret, subscription }))
}

/// The subscriptions the caller administers.
#[utoipa::path(get, path = "/v1/webhooks", tag = "webhooks",
    responses(
        (status = 200, description = "the subscriptions", body = WebhookList),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("")]
pub async fn list_webhooks(req: HttpRequest, Authenticated(actor): Authenticated) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let state = state(&req)?;
    let list = blocking(move || {
        let mut records = state.webhooks.list(state.store.as_ref())?;
        records.retain(|record| reaches(&caller, &record.scope, state.service.catalog()));
        records.sort_by(|a, b| a.id.cmp(&b.id));
        records.iter().map(|record| view(&state, record)).collect::<Result<Vec<_>, _>>()
    })
    .await?;
    Ok(HttpResponse::Ok().json(WebhookList { webhooks: list }))
}

/// One subscription.
#[utoipa::path(get, path = "/v1/webhooks/{webhook_id}", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 200, description = "the subscription", body = SubscriptionView),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("/{webhook_id}")]
pub async fn get_webhook(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let state = state(&req)?;
    let id = path.into_inner();
    let found = blocking(move || view(&state, &administered(&state, &caller, &id)?)).await?;
    Ok(HttpResponse::Ok().json(found))
}

/// Delete a subscription: nothing more is sent; its secrets are forgotten.
#[utoipa::path(delete, path = "/v1/webhooks/{webhook_id}", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 204, description = "deleted"),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[delete("/{webhook_id}")]
pub async fn delete_webhook(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let state = state(&req)?;
    let id = path.into_inner();
    blocking(move || {
        administered(&state, &caller, &id)?;
        state.webhooks.update(state.store.as_ref(), &id, |record| {
            record.deleted = true;
            record.secrets.clear();
            Ok(())
        })
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

async fn set_status(
    req: HttpRequest,
    actor: herald_domain::Actor,
    id: String,
    status: Status,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let state = state(&req)?;
    let updated = blocking(move || {
        administered(&state, &caller, &id)?;
        let record = state.webhooks.update(state.store.as_ref(), &id, |record| {
            record.status = status;
            if status == Status::Active {
                record.disabled_reason = None;
                record.failing_since = None;
            }
            Ok(())
        })?;
        let record = record.ok_or_else(|| ApiError::NotFound(format!("no webhook subscription {id}")))?;
        view(&state, &record)
    })
    .await?;
    Ok(HttpResponse::Ok().json(updated))
}

/// Pause a subscription: nothing is sent until it is resumed; its position is kept.
#[utoipa::path(post, path = "/v1/webhooks/{webhook_id}/pause", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 200, description = "the subscription, paused", body = SubscriptionView),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{webhook_id}/pause")]
pub async fn pause_webhook(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    set_status(req, actor, path.into_inner(), Status::Paused).await
}

/// Resume a paused or disabled subscription from its position.
#[utoipa::path(post, path = "/v1/webhooks/{webhook_id}/resume", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 200, description = "the subscription, active", body = SubscriptionView),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{webhook_id}/resume")]
pub async fn resume_webhook(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    set_status(req, actor, path.into_inner(), Status::Active).await
}

/// Rotate the signing secret: the new one signs from now on, the old one beside it for the
/// overlap (both signatures in `webhook-signature`).
#[utoipa::path(post, path = "/v1/webhooks/{webhook_id}/rotate", tag = "webhooks", request_body = RotateRequest,
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 200, description = "the new secret, shown once", body = WebhookSecret),
        (status = 400, description = "an overlap over a week", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{webhook_id}/rotate")]
pub async fn rotate_webhook_secret(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
    body: crate::problem::Json<RotateRequest>,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let overlap = body.into_inner().overlap_seconds.unwrap_or(DEFAULT_OVERLAP_SECONDS);
    if overlap > MAX_OVERLAP_SECONDS {
        return Err(ApiError::Malformed(format!("overlap_seconds is at most {MAX_OVERLAP_SECONDS}, not {overlap}")));
    }
    let state = state(&req)?;
    let id = path.into_inner();
    let secret = generate_secret()?;
    let new = secret.clone();
    let subscription = blocking(move || {
        administered(&state, &caller, &id)?;
        let now = Utc::now();
        let until = now + chrono::Duration::seconds(i64::try_from(overlap).unwrap_or(i64::MAX));
        let record = state.webhooks.update(state.store.as_ref(), &id, |record| {
            record.secrets.retain(|secret| secret.expires_at.is_none_or(|expiry| expiry > now));
            for old in &mut record.secrets {
                old.expires_at = Some(old.expires_at.map_or(until, |expiry| expiry.min(until)));
            }
            record.secrets.retain(|secret| secret.expires_at.is_none_or(|expiry| expiry > now));
            record.secrets.insert(0, SigningSecret { secret: new, expires_at: None });
            Ok(())
        })?;
        let record = record.ok_or_else(|| ApiError::NotFound(format!("no webhook subscription {id}")))?;
        view(&state, &record)
    })
    .await?;
    Ok(HttpResponse::Ok().json(WebhookSecret { secret, subscription }))
}

/// The delivery log: the last 100 attempts (time, status, latency, error).
#[utoipa::path(get, path = "/v1/webhooks/{webhook_id}/attempts", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 200, description = "the attempts, oldest first", body = AttemptLog),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("/{webhook_id}/attempts")]
pub async fn webhook_attempts(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let state = state(&req)?;
    let id = path.into_inner();
    let attempts = blocking(move || {
        administered(&state, &caller, &id)?;
        state.webhooks.attempts(state.store.as_ref(), &id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(AttemptLog { attempts }))
}

/// Send one event again (`position`, with its original `webhook-id`), or replay everything from
/// a position of `$all` (`from`). Exactly one of the two.
#[utoipa::path(post, path = "/v1/webhooks/{webhook_id}/redeliver", tag = "webhooks", request_body = RedeliverRequest,
    params(("webhook_id" = String, Path, description = "the subscription's id, `wh_…`")),
    responses(
        (status = 202, description = "queued; the attempts appear in the delivery log", body = SubscriptionView),
        (status = 400, description = "neither or both of `position` and `from`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin (`forbidden`), or a subscription outside the token's scope (`token.out_of_scope`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such subscription", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the position holds no event the subscription receives (`webhook.not_delivered`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/{webhook_id}/redeliver")]
pub async fn redeliver_webhook(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
    body: crate::problem::Json<RedeliverRequest>,
) -> Result<HttpResponse, ApiError> {
    let caller = admin_scope(&req, &actor)?;
    let body = body.into_inner();
    let state = state(&req)?;
    let id = path.into_inner();
    let subscription = blocking(move || {
        let record = administered(&state, &caller, &id)?;
        match (body.position, body.from) {
            (Some(position), None) => {
                let event = state.store.read_all(position, 1)?.pop().filter(|event| event.position == position);
                let catalog = state.service.catalog();
                if !event.is_some_and(|event| record.wants(&event, catalog)) {
                    return Err(refuse(
                        "webhook.not_delivered",
                        format!("position {position} of $all holds no event this subscription receives"),
                    ));
                }
                state.webhooks.request_redelivery(&id, position);
            }
            (None, Some(from)) => state.webhooks.replay(state.store.as_ref(), &id, from)?,
            _ => {
                return Err(ApiError::Malformed(
                    "give exactly one of `position` (one event) and `from` (replay)".into(),
                ))
            }
        }
        view(&state, &record)
    })
    .await?;
    Ok(HttpResponse::Accepted().json(subscription))
}
