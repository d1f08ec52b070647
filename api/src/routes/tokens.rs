//! Tokens: admins of the host issue, list and revoke them; anyone can ask what their token grants.
//!
//! Issuing and revoking are audited on the `tokens` stream (`auth.TokenIssued`,
//! `auth.TokenRevoked`), which only admins of the host read. docs/AUTH.md has the whole story.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use herald_domain::{Role, RuleError};
use herald_store::{AppendRequest, ExpectedVersion, NewEvent};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use super::{
    blocking,
    paging::{self, Page},
    state,
};
use crate::{
    auth::{
        generate_token,
        request::{require_host_admin, token_of, Authenticated},
        Scope, TokenRecord, TokenRevoked, TOKENS_STREAM,
    },
    problem::{ApiError, Problem, Query},
};

/// Where token rules are written down (the `rule` of their refusals).
const RULE: &str = "herald: docs/AUTH.md";

/// A token to issue.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "role": "player",
    "player": "alice",
    "scope": "campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f",
    "label": "Sai Rei's controller",
    "expires_at": "2027-01-31T23:59:59Z"
}))]
#[serde(deny_unknown_fields)]
pub struct CreateTokenRequest {
    /// `admin`, `judge`, `player` or `observer`.
    pub role: Role,
    /// For players: the player name it acts as (the `controller` of the armies they command).
    #[serde(default)]
    pub player: Option<String>,
    /// Where the role holds: `host` (the default: every campaign and battle), `campaign-<uuid>`
    /// (that campaign and the battles it announces) or `battle-<uuid>` (that battle). The
    /// campaign or battle must exist.
    #[serde(default)]
    pub scope: Scope,
    /// A note for admins.
    #[serde(default)]
    pub label: Option<String>,
    /// When the token stops working (RFC 3339, in the future); never, if absent.
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
}

/// A newly issued token: the secret is shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct IssuedToken {
    /// The bearer token. Keep it: Herald stores only its hash.
    pub token: String,
    /// What it grants.
    pub record: TokenRecord,
}

fn refuse(code: &str, detail: String) -> ApiError {
    ApiError::Rule(RuleError::new(code, detail, RULE))
}

/// Check a token request against what can be issued.
fn check_request(body: &CreateTokenRequest, scope_exists: bool, now: DateTime<Utc>) -> Result<(), ApiError> {
    match (&body.role, body.player.as_deref()) {
        (Role::System, _) => return Err(ApiError::Malformed("the system role cannot be issued".into())),
        (Role::Player, None | Some("")) => {
            return Err(ApiError::Malformed("a player token needs the player name it acts as".into()))
        }
        (Role::Player, Some(_)) => {}
        (_, Some(_)) => return Err(ApiError::Malformed("only player tokens are bound to a player".into())),
        _ => {}
    }
    if !scope_exists {
        return Err(refuse(
            "token.scope_not_found",
            format!("there is no {}: a scope names an existing campaign or battle", body.scope),
        ));
    }
    if let Some(expiry) = body.expires_at.filter(|expiry| *expiry <= now) {
        return Err(refuse("token.expiry_past", format!("expires_at {} is not in the future", expiry.to_rfc3339())));
    }
    Ok(())
}

/// Append one event to the `tokens` stream, where issuing and revoking are audited.
fn audit(
    state: &crate::state::AppState,
    event_type: &str,
    actor: &str,
    at: DateTime<Utc>,
    data: serde_json::Value,
) -> Result<(), ApiError> {
    let event = NewEvent {
        id: uuid::Uuid::now_v7(),
        event_type: event_type.into(),
        schema: 1,
        recorded_at: at,
        actor: actor.to_string(),
        command_id: None,
        correlation_id: None,
        causation_id: None,
        rules: "herald@1".into(),
        data: data.into(),
    };
    let request = AppendRequest {
        stream: TOKENS_STREAM.into(),
        expected: ExpectedVersion::Any,
        events: vec![event],
        command_id: None,
        command: None,
    };
    state.store.append(request)?;
    state.service.catalog().catch_up(state.store.as_ref())?;
    Ok(())
}

/// Issue a token (admin of the host). Audited as `auth.TokenIssued` on the `tokens` stream.
/// With an `Idempotency-Key`, a retry of the same request answers with the same token (200) and
/// issues none; the same key with another request is refused (409).
#[utoipa::path(post, path = "/v1/tokens", tag = "auth", request_body = CreateTokenRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "makes a retry safe: the same key and request answer with the token issued the first time")),
    responses(
        (status = 201, description = "the token, shown once", body = IssuedToken),
        (status = 200, description = "a retry with the same Idempotency-Key and request: the token it issued, as it is now", body = IssuedToken),
        (status = 400, description = "malformed request (a player token needs a player name; only players have one; `system` cannot be issued; a scope that is not `host`, `campaign-<uuid>` or `battle-<uuid>`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin of the whole host", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "the Idempotency-Key was used for another request", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the scope names no existing campaign or battle (`token.scope_not_found`), the expiry is not in the future (`token.expiry_past`), or a label or player name is over its length (`request.text_too_long`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("")]
pub async fn create_token(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: crate::problem::Json<CreateTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    require_host_admin(&req, &actor)?;
    let idempotency_key = super::command_meta(&req, actor.clone())?.idempotency_key;
    let body = body.into_inner();
    let request = serde_json::to_value(&body).map_err(ApiError::internal)?;
    crate::limits::check(&request)?;
    let state = state(&req)?;
    if let Some(key) = idempotency_key.clone() {
        let (worker, retrying, asked) = (state.clone(), actor.id.clone(), request.clone());
        if let Some(issued) = blocking(move || replayed_token(&worker, &retrying, &key, &asked)).await? {
            return Ok(HttpResponse::Ok().json(issued));
        }
    }
    let scope_exists = match &body.scope {
        Scope::Host => true,
        Scope::Campaign(stream) | Scope::Battle(stream) => state.service.catalog().version_of(stream).is_some(),
    };
    let now = Utc::now();
    check_request(&body, scope_exists, now)?;
    let token = match &idempotency_key {
        Some(key) => {
            let (worker, issuer, key) = (state.clone(), actor.id.clone(), key.clone());
            blocking(move || keyed_token(&worker, &issuer, &key)).await?
        }
        None => generate_token()?,
    };
    let record = TokenRecord {
        id: uuid::Uuid::now_v7().to_string(),
        role: body.role,
        player: body.player,
        scope: body.scope,
        label: body.label,
        created_at: now,
        expires_at: body.expires_at,
        revoked_at: None,
    };
    let (issued, secret) = (record.clone(), token.clone());
    let replayed = blocking(move || {
        let _issuing = ISSUING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(key) = &idempotency_key {
            // Another request with the same key may have issued it meanwhile.
            if let Some(replayed) = replayed_token(&state, &actor.id, key, &request)? {
                return Ok(Some(replayed));
            }
        }
        state.tokens.save(state.store.as_ref(), &secret, issued.clone()).map_err(ApiError::internal)?;
        let data = serde_json::to_value(&issued).map_err(ApiError::internal)?;
        audit(&state, "auth.TokenIssued", &actor.id, issued.created_at, data)?;
        if let Some(key) = &idempotency_key {
            let used = serde_json::to_vec(&json!({"request": request, "id": issued.id})).map_err(ApiError::internal)?;
            state.store.put_secret(&idempotency_secret(&actor.id, key), &used)?;
        }
        Ok(None)
    })
    .await?;
    Ok(match replayed {
        Some(replayed) => HttpResponse::Ok().json(replayed),
        None => HttpResponse::Created().json(IssuedToken { token, record }),
    })
}

/// One issuance at a time, so that two requests with the same `Idempotency-Key` issue one token.
static ISSUING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Where the request an `Idempotency-Key` of `issuer` was first used for is kept.
fn idempotency_secret(issuer: &str, key: &str) -> String {
    use sha2::{Digest, Sha256};
    format!(
        "token-idempotency:{}",
        hex::encode(Sha256::new().chain_update(issuer).chain_update([0]).chain_update(key).finalize())
    )
}

/// The token issued under `issuer`'s `key`: `hrd_` and
/// `sha256("herald/keyed-token/v1" ‖ host secret ‖ issuer ‖ 0 ‖ key)`, hex. The host secret is 32
/// bytes of OS randomness sealed once and never revealed, so the token is as unguessable as a
/// random one, and a retry gets the same token without Herald storing more than its hash.
/// Blocking.
fn keyed_token(state: &crate::state::AppState, issuer: &str, key: &str) -> Result<String, ApiError> {
    use sha2::{Digest, Sha256};
    const SECRET: &str = "token-idempotency-secret";
    let secret = match state.store.get_secret(SECRET)? {
        Some(secret) => secret,
        None => {
            let fresh = hex::decode(generate_token()?.trim_start_matches("hrd_")).map_err(ApiError::internal)?;
            state.store.put_secret(SECRET, &fresh)?;
            fresh
        }
    };
    let digest = Sha256::new()
        .chain_update(b"herald/keyed-token/v1")
        .chain_update(&secret)
        .chain_update(issuer)
        .chain_update([0])
        .chain_update(key)
        .finalize();
    Ok(format!("hrd_{}", hex::encode(digest)))
}

/// The token a request with `issuer`'s `key` issued before, as it is now, if one did; a key first
/// used for another request is refused (409). Blocking.
fn replayed_token(
    state: &crate::state::AppState,
    issuer: &str,
    key: &str,
    request: &serde_json::Value,
) -> Result<Option<IssuedToken>, ApiError> {
    let Some(used) = state.store.get_secret(&idempotency_secret(issuer, key))? else { return Ok(None) };
    let used: serde_json::Value = serde_json::from_slice(&used).map_err(ApiError::internal)?;
    if used.get("request") != Some(request) {
        return Err(ApiError::Conflict(
            "this Idempotency-Key was already used for a different request; use a new key for a new action".into(),
        ));
    }
    let token = keyed_token(state, issuer, key)?;
    let record =
        state.tokens.lookup_stored(state.store.as_ref(), &token).map_err(ApiError::internal)?.ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("the token issued under an Idempotency-Key is missing"))
        })?;
    Ok(Some(IssuedToken { token, record }))
}

/// Which tokens to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct TokenQuery {
    /// Page size, 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// Start after the token with this id (the `next` of the previous page).
    pub after: Option<String>,
    /// Only tokens of this role.
    pub role: Option<Role>,
    /// Whether to list revoked and expired tokens too (default `true`).
    pub inactive: Option<bool>,
}

/// A page of tokens, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenPage {
    /// The tokens (never their secrets).
    pub tokens: Vec<TokenRecord>,
    /// The `after` of the next page, when there is one.
    pub next: Option<String>,
}

/// Tokens' page size when none is asked for (they were paged before every other list, with 100).
const DEFAULT_PAGE: u32 = 100;

/// The tokens issued on this host (admin of the host), oldest first, paged.
#[utoipa::path(get, path = "/v1/tokens", tag = "auth", params(TokenQuery),
    responses(
        (status = 200, description = "a page of tokens; `Link: rel=\"next\"` points to the next", body = TokenPage,
            headers(("Link" = String, description = "`<…?after=…>; rel=\"next\"` when there are more"))),
        (status = 400, description = "a limit outside 1–1000 or not a number, an unknown role, or an unknown parameter: the problem names it", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin of the whole host", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`after` names no token", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("")]
pub async fn list_tokens(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    query: Query<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    require_host_admin(&req, &actor)?;
    let query = query.into_inner();
    let limit = paging::limit(query.limit, DEFAULT_PAGE)?;
    let app = state(&req)?;
    let all = blocking(move || app.tokens.list(app.store.as_ref()).map_err(ApiError::internal)).await?;
    let now = Utc::now();
    let Page { items: tokens, next } = paging::page(
        all,
        |record| record.id.clone(),
        query.after.as_deref(),
        limit,
        |record| {
            query.role.as_ref().is_none_or(|role| record.role == *role)
                && (query.inactive.unwrap_or(true) || record.usable_at(now).is_ok())
        },
        "token",
    )?;
    Ok(paging::ok_with_link(&req, "after", next.as_deref()).json(TokenPage { tokens, next }))
}

/// Revoke a token (admin of the host): it stops working at once on this instance, and on other
/// instances sharing a PostgreSQL log as soon as they have read the `auth.TokenRevoked` event
/// (their next request with any token reads it). Revoking a revoked token changes nothing.
#[utoipa::path(delete, path = "/v1/tokens/{token_id}", tag = "auth",
    params(("token_id" = String, Path, description = "the token's id (`id` in its record, not the secret)")),
    responses(
        (status = 200, description = "the token's record, revoked", body = TokenRecord),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin of the whole host", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no token with this id", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "the configured admin token is changed in the settings, not revoked (`token.configured`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[delete("/{token_id}")]
pub async fn revoke_token(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    require_host_admin(&req, &actor)?;
    let id = path.into_inner();
    let app = state(&req)?;
    let record = blocking(move || {
        let now = Utc::now();
        let Some(record) = app.tokens.revoke(app.store.as_ref(), &id, now)? else {
            return Err(ApiError::NotFound(format!("no token {id}")));
        };
        if record.revoked_at == Some(now) {
            let revoked = TokenRevoked { id: record.id.clone(), revoked_at: now };
            let data = serde_json::to_value(&revoked).map_err(ApiError::internal)?;
            audit(&app, "auth.TokenRevoked", &actor.id, now, data)?;
        }
        Ok(record)
    })
    .await?;
    Ok(HttpResponse::Ok().json(record))
}

/// What a token grants, as `GET /v1/tokens/me` tells its holder.
#[derive(Debug, Serialize, ToSchema)]
pub struct Whoami {
    /// The actor it acts as (`token:<id>`): what the log records as the author of its commands.
    pub id: String,
    /// Its role.
    pub role: Role,
    /// For players: the player name it is bound to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Where the role holds.
    pub scope: Scope,
    /// When it stops working, if it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
}

/// Who the presented token says you are, and where and until when it holds.
#[utoipa::path(get, path = "/v1/tokens/me", tag = "auth",
    responses(
        (status = 200, description = "the actor the token acts as, its scope and expiry", body = Whoami),
        (status = 401, description = "no token, or an unknown, revoked or expired one", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("/me")]
pub async fn whoami(req: HttpRequest, Authenticated(actor): Authenticated) -> Result<HttpResponse, ApiError> {
    let record = token_of(&req).ok_or_else(|| ApiError::internal(anyhow::anyhow!("the token's record is missing")))?;
    Ok(HttpResponse::Ok().json(Whoami {
        id: actor.id,
        role: actor.role,
        player: actor.player,
        scope: record.scope,
        expires_at: record.expires_at,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(role: Role, player: Option<&str>) -> CreateTokenRequest {
        CreateTokenRequest { role, player: player.map(String::from), scope: Scope::Host, label: None, expires_at: None }
    }

    #[test]
    fn only_issuable_tokens_are_issued() {
        let now = Utc::now();
        assert!(check_request(&request(Role::Judge, None), true, now).is_ok());
        assert!(check_request(&request(Role::Player, Some("alice")), true, now).is_ok());
        for (role, player) in
            [(Role::System, None), (Role::Player, None), (Role::Player, Some("")), (Role::Judge, Some("alice"))]
        {
            assert!(matches!(check_request(&request(role, player), true, now), Err(ApiError::Malformed(_))));
        }
    }

    #[test]
    fn a_scope_must_exist_and_an_expiry_lie_ahead() {
        let now = Utc::now();
        let err = check_request(&request(Role::Judge, None), false, now).map_err(|e| e.problem().code);
        assert_eq!(err, Err("token.scope_not_found".to_string()));
        let past = CreateTokenRequest { expires_at: Some(now), ..request(Role::Judge, None) };
        assert_eq!(check_request(&past, true, now).map_err(|e| e.problem().code), Err("token.expiry_past".to_string()));
        let ahead = CreateTokenRequest { expires_at: Some(now + chrono::Duration::hours(1)), ..past };
        assert!(check_request(&ahead, true, now).is_ok());
    }
}
