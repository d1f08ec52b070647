//! Liveness, readiness and metrics.

use actix_web::{get, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use herald_store::StoreError;

use super::{blocking, state};
use crate::{
    auth::request::MaybeAuthenticated,
    config::MetricsExposure,
    problem::{ApiError, Problem},
};

/// Readiness details.
#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    /// `ready`, `catching_up` (after a start, until the read models have folded the log) or
    /// `degraded` (events the read models could not decode).
    pub status: ReadinessStatus,
    /// Position of the last event in the log.
    pub head: Option<u64>,
    /// Position of the last event folded into the read models.
    pub projected: Option<u64>,
    /// Positions of events the read models could not decode.
    pub undecodable: Vec<u64>,
    /// Why writes fail, while they do (with `status` `writes_failing`); absent while they work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes: Option<WritesFailing>,
}

/// Why the store refuses writes: reads, views and verification go on meanwhile, and writes
/// resume by themselves once the cause is gone (docs/OPERATIONS.md).
#[derive(Debug, Serialize, ToSchema)]
pub struct WritesFailing {
    /// The problem code writes are answered with: `storage_full` (507) or `storage_unavailable`
    /// (503: the database cannot be reached, or the log's disk fails).
    pub code: String,
    /// What the store says.
    pub detail: String,
}

/// Where the server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadinessStatus {
    /// The store answers and the read models have folded the whole log.
    Ready,
    /// After a start, until the read models have folded the log.
    CatchingUp,
    /// The read models could not decode some events, or lag behind the log.
    Degraded,
    /// The store refuses writes (a full disk, a store that went away); `writes` says why.
    WritesFailing,
}

/// The process is alive.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "alive", body = String)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain").body("ok")
}

/// The store answers and the read models are caught up.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, description = "ready", body = Readiness),
        (status = 503, description = "not ready: `catching_up` after a start (with the position folded so far), `degraded`, or `writes_failing` (with why in `writes`)", body = Readiness)))]
#[get("/readyz")]
pub async fn readyz(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let state = state(&req)?;
    let readiness = blocking(move || {
        // A store that cannot be reached is a readiness to report (`writes_failing`, with why),
        // not an error of this request: the head is then the last one this process heard of.
        let head = match state.store.head_position() {
            Ok(head) => head,
            Err(error @ StoreError::Unavailable(_)) => {
                let heard = *state.store.watch_head().borrow();
                return Ok(store_away(error, heard, state.service.catalog()));
            }
            Err(error) => return Err(error.into()),
        };
        let catalog = state.service.catalog();
        if !state.ready.load(std::sync::atomic::Ordering::Acquire) {
            let projected = catalog.folded().checked_sub(1);
            return Ok(Readiness {
                status: ReadinessStatus::CatchingUp,
                head,
                projected,
                undecodable: Vec::new(),
                writes: None,
            });
        }
        let projected = match catalog.catch_up(state.store.as_ref()) {
            Ok(projected) => projected,
            // Gone between the two reads: say so, as above.
            Err(error @ StoreError::Unavailable(_)) => return Ok(store_away(error, head, catalog)),
            Err(error) => return Err(error.into()),
        };
        let undecodable = catalog.undecodable();
        let writes = state.store.write_failure().map(|error| {
            let problem = ApiError::from(error.clone()).problem();
            WritesFailing { code: problem.code, detail: error.to_string() }
        });
        let status = if writes.is_some() {
            ReadinessStatus::WritesFailing
        } else if undecodable.is_empty() && projected == head {
            ReadinessStatus::Ready
        } else {
            ReadinessStatus::Degraded
        };
        Ok(Readiness { status, head, projected, undecodable, writes })
    })
    .await?;
    Ok(if readiness.status == ReadinessStatus::Ready { HttpResponse::Ok() } else { HttpResponse::ServiceUnavailable() }
        .json(readiness))
}

/// The readiness of a server whose store cannot be reached: `writes_failing`, with why; what
/// the read models hold goes on being served from memory.
fn store_away(error: StoreError, head: Option<u64>, catalog: &herald_projections::Catalog) -> Readiness {
    let problem = ApiError::from(error.clone()).problem();
    Readiness {
        status: ReadinessStatus::WritesFailing,
        head,
        projected: catalog.folded().checked_sub(1),
        undecodable: catalog.undecodable(),
        writes: Some(WritesFailing { code: problem.code, detail: error.to_string() }),
    }
}

/// Prometheus metrics. Who may read them is the host's choice (`metrics` in the settings:
/// `public`, `admin` with an admin bearer token of the host, or `off`).
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format", body = String, content_type = "text/plain"),
        (status = 401, description = "the host serves metrics to admins only and no (valid) token was given", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "the host serves metrics to admins of the host only", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "the host does not serve metrics", body = Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = [])))]
#[get("/metrics")]
pub async fn metrics(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
) -> Result<HttpResponse, ApiError> {
    let state = state(&req)?;
    match state.metrics_exposure {
        MetricsExposure::Public => {}
        MetricsExposure::Off => return Err(ApiError::NotFound("this host does not serve metrics".into())),
        MetricsExposure::Admin => {
            let actor = actor.ok_or_else(|| {
                ApiError::Unauthenticated("this host serves metrics to admins: send an admin bearer token".into())
            })?;
            crate::auth::request::require_host_admin(&req, &actor)?;
        }
    }
    let reader = state.clone();
    let head = blocking(move || Ok(reader.store.head_position()?)).await?;
    let folded = state.service.catalog().folded();
    let (streams, states) = state.service.catalog().sizes();
    let held = crate::metrics::Held {
        streams: streams as u64,
        states: states as u64,
        view_entries: state.views.len() as u64,
        view_bytes: state.views.bytes(),
        view_capacity: state.views.capacity(),
        store_cache_capacity: state.store_cache_capacity,
        tokens: state.tokens.cached() as u64,
        live_readers: state.live.open() as u64,
        live_readers_limit: state.live.limit() as u64,
        stream_lock_stripes: state.service.stream_lock_stripes() as u64,
    };
    let mut text =
        state.metrics.render(&crate::metrics::LogPositions { events: head.map_or(0, |h| h + 1), folded }, &held);
    text.push_str(&state.webhooks.exposition());
    Ok(HttpResponse::Ok().content_type("text/plain; version=0.0.4").body(text))
}
