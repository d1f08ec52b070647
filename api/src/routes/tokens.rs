//! Tokens: admins issue them; anyone can ask who their token says they are.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use chrono::Utc;
use herald_domain::{Actor, Role};
use herald_store::{AppendRequest, ExpectedVersion, NewEvent};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{blocking, state};
use crate::{
    auth::{generate_token, require_admin, Authenticated, TokenRecord},
    problem::{ApiError, Problem},
};

/// A token to issue.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"role": "player", "player": "alice", "label": "Sai Rei's controller"}))]
#[serde(deny_unknown_fields)]
pub struct CreateTokenRequest {
    /// `admin`, `judge`, `player` or `observer`.
    pub role: Role,
    /// For players: the player name it acts as (the `controller` of the armies they command).
    #[serde(default)]
    pub player: Option<String>,
    /// A note for admins.
    #[serde(default)]
    pub label: Option<String>,
}

/// A newly issued token: the secret is shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct IssuedToken {
    /// The bearer token. Keep it: Herald stores only its hash.
    pub token: String,
    /// What it grants.
    pub record: TokenRecord,
}

/// Issue a token (admin). Audited as `auth.TokenIssued` on the `tokens` stream.
#[utoipa::path(post, path = "/v1/tokens", tag = "auth", request_body = CreateTokenRequest,
    responses(
        (status = 201, description = "the token, shown once", body = IssuedToken),
        (status = 400, description = "malformed request (a player token needs a player name)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "no bearer token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "a label or player name over its length (`request.text_too_long`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[post("/tokens")]
pub async fn create_token(
    req: HttpRequest,
    Authenticated(actor): Authenticated,
    body: web::Json<CreateTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    require_admin(&actor)?;
    let body = body.into_inner();
    crate::limits::check(&serde_json::to_value(&body).map_err(ApiError::internal)?)?;
    match (&body.role, body.player.as_deref()) {
        (Role::System, _) => return Err(ApiError::Malformed("the system role cannot be issued".into())),
        (Role::Player, None | Some("")) => {
            return Err(ApiError::Malformed("a player token needs the player name it acts as".into()))
        }
        (Role::Player, Some(_)) => {}
        (_, Some(_)) => return Err(ApiError::Malformed("only player tokens are bound to a player".into())),
        _ => {}
    }
    let token = generate_token()?;
    let record = TokenRecord {
        id: uuid::Uuid::now_v7().to_string(),
        role: body.role,
        player: body.player,
        label: body.label,
        created_at: Utc::now(),
    };
    let state = state(&req)?;
    let (issued, secret) = (record.clone(), token.clone());
    blocking(move || {
        state.tokens.save(state.store.as_ref(), &secret, issued.clone()).map_err(ApiError::internal)?;
        let event = NewEvent {
            id: uuid::Uuid::now_v7(),
            event_type: "auth.TokenIssued".into(),
            schema: 1,
            recorded_at: issued.created_at,
            actor: actor.id.clone(),
            command_id: None,
            correlation_id: None,
            causation_id: None,
            rules: "herald@1".into(),
            data: serde_json::to_value(&issued).map_err(ApiError::internal)?.into(),
        };
        let request = AppendRequest {
            stream: "tokens".into(),
            expected: ExpectedVersion::Any,
            events: vec![event],
            command_id: None,
            command: None,
        };
        state.store.append(request)?;
        state.service.catalog().catch_up(state.store.as_ref())?;
        Ok(())
    })
    .await?;
    Ok(HttpResponse::Created().json(IssuedToken { token, record }))
}

/// Who the presented token says you are.
#[utoipa::path(get, path = "/v1/tokens/me", tag = "auth",
    responses(
        (status = 200, description = "the actor", body = Actor),
        (status = 401, description = "no or unknown token", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("/tokens/me")]
pub async fn whoami(Authenticated(actor): Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(actor)
}
