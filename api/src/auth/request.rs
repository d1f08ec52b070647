//! Who is asking: the bearer token of a request, checked against the registry ([`Tokens`](super::Tokens)) and
//! its scope before the handler runs. The extractors [`Authenticated`] and [`MaybeAuthenticated`]
//! remember the token's record for the rest of the request ([`scope_of`], [`token_of`],
//! [`viewer_for`]). This is the authentication layer: above the state it reads the registry from,
//! below the routes that take these extractors.

use std::{future::Future, pin::Pin};

use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use chrono::Utc;
use herald_domain::{Actor, Viewer};
use herald_projections::Catalog;

use super::{check_scope, require_admin, Scope, TokenRecord, TOKENS_STREAM};
use crate::{problem::ApiError, state::AppState};

/// The authenticated caller; rejects the request with 401 when there is no valid token.
#[derive(Debug, Clone)]
pub struct Authenticated(pub Actor);

/// The caller if a token was presented; anonymous readers see what is public.
#[derive(Debug, Clone)]
pub struct MaybeAuthenticated(pub Option<Actor>);

/// What the request's `Authorization` header says, as far as this process knows without IO.
enum Presented {
    /// No header: anonymous.
    Nobody,
    /// A token this process knows, with every revocation seen.
    Known(TokenRecord),
    /// A well-formed token this process has not seen (another instance may have issued it), or
    /// any token while a revocation this process has not read is in the log.
    Unseen(String, web::Data<AppState>),
}

fn presented(req: &HttpRequest) -> Result<Presented, ApiError> {
    let Some(header) = req.headers().get(actix_web::http::header::AUTHORIZATION) else {
        return Ok(Presented::Nobody);
    };
    let value =
        header.to_str().map_err(|_| ApiError::Unauthenticated("the Authorization header is not text".into()))?;
    let token = value
        .strip_prefix("Bearer ")
        .ok_or_else(|| ApiError::Unauthenticated("use `Authorization: Bearer <token>`".into()))?
        .trim();
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("application state missing")))?;
    let tokens_version = state.service.catalog().version_of(TOKENS_STREAM);
    if let Some(record) = state.tokens.lookup(token, tokens_version) {
        return Ok(Presented::Known(record));
    }
    // Only the shape `generate_token` makes is worth a look in the store (and the configured
    // admin token, whatever its shape, while revocations are read).
    let generated = token.len() == 68
        && token.starts_with("hrd_")
        && token[4..].bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    if generated || state.tokens.lookup(token, None).is_some() {
        Ok(Presented::Unseen(token.to_string(), state.clone()))
    } else {
        Err(ApiError::Unauthenticated("unknown bearer token".into()))
    }
}

/// The caller's token, once any token this process has not seen is looked up in the store and
/// the revocations it has not read are read; refused if revoked or expired.
async fn principal(presented: Result<Presented, ApiError>) -> Result<Option<TokenRecord>, ApiError> {
    let record = match presented? {
        Presented::Nobody => return Ok(None),
        Presented::Known(record) => record,
        Presented::Unseen(token, state) => {
            web::block(move || state.tokens.lookup_stored(state.store.as_ref(), &token).map_err(ApiError::internal))
                .await
                .map_err(ApiError::internal)??
                .ok_or_else(|| ApiError::Unauthenticated("unknown bearer token".into()))?
        }
    };
    record.usable_at(Utc::now())?;
    Ok(Some(record))
}

/// The caller's token record for the rest of the request: [`scope_of`], [`token_of`] and
/// [`viewer_for`] read it.
fn remember(req: &HttpRequest, record: &TokenRecord) {
    req.extensions_mut().insert(record.clone());
}

/// Whether a presented token's scope must reach the route's stream (else 403
/// `token.out_of_scope`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    RouteInScope,
    Anywhere,
}

type Extracted<T> = Pin<Box<dyn Future<Output = Result<T, ApiError>>>>;

/// The one way the extractors take a request's token: find it, look it up if this process has
/// not seen it, refuse it if revoked or expired, remember it for the request, and apply the
/// extractor's [`Reach`]; `wrap` makes the extractor's value of the caller (if any), or refuses.
fn extract<T: 'static>(
    req: &HttpRequest,
    reach: Reach,
    wrap: fn(Option<Actor>) -> Result<T, ApiError>,
) -> Extracted<T> {
    let presented = presented(req);
    let req = req.clone();
    Box::pin(async move {
        let record = principal(presented).await?;
        if let Some(record) = &record {
            remember(&req, record);
            if reach == Reach::RouteInScope {
                route_in_scope(&req, &record.scope)?;
            }
        }
        wrap(record.map(|record| record.actor()))
    })
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        extract(req, Reach::RouteInScope, |actor| {
            actor
                .map(Authenticated)
                .ok_or_else(|| ApiError::Unauthenticated("this request needs a bearer token".into()))
        })
    }
}

impl FromRequest for MaybeAuthenticated {
    type Error = ApiError;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        extract(req, Reach::Anywhere, |actor| Ok(MaybeAuthenticated(actor)))
    }
}

/// The caller if a token was presented, for a POST open to anonymous callers that writes
/// nothing (a what-if): a presented token whose scope does not reach the route's stream is
/// refused (403 `token.out_of_scope`) before the body is read, as on every other POST.
#[derive(Debug, Clone)]
pub struct MaybeAuthenticatedInScope(pub Option<Actor>);

impl FromRequest for MaybeAuthenticatedInScope {
    type Error = ApiError;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        extract(req, Reach::RouteInScope, |actor| Ok(MaybeAuthenticatedInScope(actor)))
    }
}

/// The scope of the request's token (after [`Authenticated`] or [`MaybeAuthenticated`] took
/// it). A request whose token was not taken has no scope and reaches nothing.
pub fn scope_of(req: &HttpRequest) -> Option<Scope> {
    req.extensions().get::<TokenRecord>().map(|record| record.scope.clone())
}

/// The record of the request's token (after [`Authenticated`] or [`MaybeAuthenticated`] took it).
pub fn token_of(req: &HttpRequest) -> Option<TokenRecord> {
    req.extensions().get::<TokenRecord>().cloned()
}

/// How `actor` reads `stream`: as itself inside its token's scope, as the public outside it.
pub fn viewer_for(req: &HttpRequest, actor: Option<&Actor>, stream: &str, catalog: &Catalog) -> Viewer {
    match (actor, scope_of(req)) {
        (Some(actor), Some(scope)) if scope.covers(stream, catalog) => Viewer::from(actor),
        _ => Viewer::public(),
    }
}

/// Refuse unless the actor is an admin of the whole host (tokens are the host's, not a
/// campaign's).
pub fn require_host_admin(req: &HttpRequest, actor: &Actor) -> Result<(), ApiError> {
    require_admin(actor)?;
    require_host(req, "only an admin of the whole host may do this; this token's scope is {scope}")
}

/// The stream a route's path names (`{battle_id}`, `{campaign_id}` or `{stream}`), as the
/// service names streams; `None` for routes that name none or an id that does not parse (the
/// route answers that).
fn route_stream(req: &HttpRequest) -> Option<String> {
    let info = req.match_info();
    let named = |kind: &str, id: &str| {
        let bare = id.strip_prefix(kind).and_then(|rest| rest.strip_prefix('-')).unwrap_or(id);
        uuid::Uuid::parse_str(bare).ok().map(|uuid| format!("{kind}-{uuid}"))
    };
    if let Some(id) = info.get("battle_id") {
        named("battle", id)
    } else if let Some(id) = info.get("campaign_id") {
        named("campaign", id)
    } else {
        info.get("stream").map(str::to_string)
    }
}

/// Refuse an authenticated request on a campaign or battle its token's scope does not reach,
/// before its body is read: the route's own checks never see it. (Commands are checked again
/// where they run, [`check_scope`] in `Service::execute`, which also covers opening streams.)
fn route_in_scope(req: &HttpRequest, scope: &Scope) -> Result<(), ApiError> {
    if scope.is_host() {
        return Ok(());
    }
    let Some(stream) = route_stream(req) else { return Ok(()) };
    let Some(state) = req.app_data::<web::Data<AppState>>() else { return Ok(()) };
    let catalog = state.service.catalog();
    if catalog.version_of(&stream).is_none() {
        // No such stream: the route answers 404 as it would to anyone.
        return Ok(());
    }
    check_scope(scope, &stream, catalog)
}

/// Refuse to open a new battle or campaign with a scoped token (a new stream is in no campaign
/// yet), before anything is sealed or decided.
pub fn require_host_scope(req: &HttpRequest) -> Result<(), ApiError> {
    require_host(
        req,
        "a token scoped to {scope} cannot open new battles or campaigns; that takes a token for the whole host",
    )
}

/// Refuse a token whose scope is not the whole host: 403 `token.out_of_scope`, the detail being
/// `why` with `{scope}` replaced by the token's scope.
fn require_host(req: &HttpRequest, why: &str) -> Result<(), ApiError> {
    match scope_of(req) {
        Some(Scope::Host) => Ok(()),
        scope => Err(ApiError::Forbidden {
            code: "token.out_of_scope".into(),
            detail: why.replace("{scope}", &scope.map_or("nothing".to_string(), |scope| scope.to_string())),
            rule: None,
        }),
    }
}
