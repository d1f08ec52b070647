//! HTTP routes under `/v1`, plus health, metrics, the OpenAPI document, Swagger UI and the viewer.

pub mod backup;
pub mod battles;
pub mod campaigns;
pub mod coalition_battles;
pub mod disputes;
pub mod events;
pub mod health;
pub mod ids;
pub mod paging;
pub mod rolls;
pub mod rulesets;
pub mod tokens;
pub mod viewer;
pub mod webhooks;

use actix_web::{http::header, web, HttpMessage, HttpRequest, HttpResponse};
use herald_domain::{Actor, AnyRuleset, StreamKind};
use herald_projections::{EventView, Viewer};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{app::CommandMeta, app::CommandOutcome, problem::ApiError, state::AppState};

/// What a state-changing request returns: the events it appended and the new version.
#[derive(Debug, Serialize, ToSchema)]
pub struct CommandResponse {
    /// The stream written to.
    pub stream: String,
    /// The stream's version after the append (also the `ETag`).
    pub version: u64,
    /// Whether this repeats an earlier request with the same `Idempotency-Key`.
    pub replayed: bool,
    /// The events appended, dice included (as the caller may see them).
    pub events: Vec<EventView>,
}

/// The shared state.
pub fn state(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("application state missing")))
}

/// Who, when, and under which keys, from the request's headers.
pub fn command_meta(req: &HttpRequest, actor: Actor) -> Result<CommandMeta, ApiError> {
    let idempotency_key = header_text(req, "idempotency-key")?;
    if idempotency_key.as_ref().is_some_and(|key| key.is_empty() || key.len() > 200) {
        return Err(ApiError::Malformed("Idempotency-Key must be 1 to 200 characters".into()));
    }
    let expected_version = match if_match(req)? {
        None | Some(IfMatch::Any) => None,
        Some(IfMatch::Version(version)) => Some(version),
    };
    // Set by the `Authenticated` extractor that gave the actor; without it the request reaches
    // nothing (fail closed).
    let scope = crate::auth::request::scope_of(req)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a command without its token's scope")))?;
    Ok(CommandMeta {
        actor,
        scope,
        recorded_at: chrono::Utc::now(),
        idempotency_key,
        correlation_id: req.extensions().get::<crate::state::RequestId>().map(|id| id.0.clone()),
        expected_version,
    })
}

/// An `If-Match` precondition on a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfMatch {
    /// `*`: the stream must exist (a creation, which makes a new stream, is refused with 412).
    Any,
    /// `"3"`: the stream must be at this version.
    Version(u64),
}

/// The request's `If-Match`, if any: `*` or a stream version (`"3"` or `3`). `If-Match` uses the
/// strong comparison (RFC 9110 §13.1.1): a weak tag (`W/"3"`) never matches, so a write with one
/// is refused (412) whatever the stream's version.
pub fn if_match(req: &HttpRequest) -> Result<Option<IfMatch>, ApiError> {
    match header_text(req, "if-match")? {
        None => Ok(None),
        Some(value) if value == "*" => Ok(Some(IfMatch::Any)),
        Some(value) => match parse_etag(&value) {
            Some(_) if value.starts_with("W/") => Err(ApiError::PreconditionFailed(format!(
                "If-Match {value} is a weak tag, and If-Match compares strongly (RFC 9110 §13.1.1): a weak tag never matches; send the stream's ETag as it is"
            ))),
            Some(version) => Ok(Some(IfMatch::Version(version))),
            None => Err(ApiError::Malformed(format!(
                "If-Match must be `*` or a stream version such as \"3\", not {value}"
            ))),
        },
    }
}

fn header_text(req: &HttpRequest, name: &str) -> Result<Option<String>, ApiError> {
    req.headers()
        .get(name)
        .map(|value| value.to_str().map(|s| s.trim().to_string()))
        .transpose()
        .map_err(|_| ApiError::Malformed(format!("the {name} header is not text")))
}

/// Parse `"3"`, `W/"3"` or `3`.
pub fn parse_etag(value: &str) -> Option<u64> {
    value.trim().trim_start_matches("W/").trim_matches('"').parse().ok()
}

/// The `ETag` of a stream version.
pub fn etag(version: u64) -> (header::HeaderName, String) {
    (header::ETAG, format!("\"{version}\""))
}

/// A body that does not fit a ruleset's schema: 400 with the field's JSON Pointer.
pub fn mismatch(what: String, mismatch: herald_domain::FieldMismatch) -> ApiError {
    ApiError::Invalid {
        detail: format!("{what}: {mismatch}"),
        errors: vec![crate::problem::FieldError { pointer: mismatch.pointer, detail: mismatch.detail }],
    }
}

/// Run blocking work (sled, deciding) off the async executor.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    web::block(work).await.map_err(ApiError::internal)?
}

/// Whether a command on a stream of `ruleset` runs on the HTTP worker that received it, awaiting
/// its append ([`crate::app::Service::execute_async`]), instead of going through the blocking pool.
///
/// A command blocks its thread only on the append's group commit (awaited, so not a block) and
/// on what runs around the decision: the store's reads (idempotency, the sealed seed) and the
/// decision itself. It may run on the worker only when those take microseconds, since the
/// worker serves every other request of its connections meanwhile; the hand-off to the blocking
/// pool and back costs more than that (docs/PERFORMANCE.md, "The command path"). So: when the
/// store's reads are local (sled; PostgreSQL's are network round trips), and for battle streams
/// only (a battle's command or a roll decides in microseconds; a campaign's turn adjudication
/// takes milliseconds, so campaign streams keep the blocking pool).
pub fn runs_on_worker(state: &AppState, ruleset: &dyn AnyRuleset) -> bool {
    state.store.reads_are_local() && ruleset.kind() == StreamKind::Battle
}

/// Run `work`, which reads the store, on this worker when [`runs_on_worker`] said `on_worker`,
/// otherwise on the blocking pool.
pub async fn short_or_blocking<T: Send + 'static>(
    on_worker: bool,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    if on_worker {
        work()
    } else {
        blocking(work).await
    }
}

/// Run `command` (the ruleset's command as JSON) on `stream` for the request's actor and answer
/// with the events it appended; `location` (for creations) is sent as the `Location` of a
/// `201 Created`.
pub async fn execute(
    req: &HttpRequest,
    actor: Actor,
    ruleset: &'static dyn AnyRuleset,
    stream: String,
    command: serde_json::Value,
    location: Option<String>,
) -> Result<HttpResponse, ApiError> {
    let state = state(req)?;
    let meta = command_meta(req, actor.clone())?;
    if if_match(req)? == Some(IfMatch::Any) && (location.is_some() || state.service.catalog().entry(&stream).is_none())
    {
        return Err(ApiError::PreconditionFailed(format!(
            "If-Match: * asks for a stream that exists, and {stream} does not{}",
            if location.is_some() { " (this request makes a new one)" } else { "" }
        )));
    }
    let worker = state.clone();
    let started = std::time::Instant::now();
    let command_type = command.get("type").and_then(serde_json::Value::as_str).map(str::to_owned);
    let written = stream.clone();
    let outcome = if runs_on_worker(&state, ruleset) {
        // A task of its own on this worker, not awaited in place: a client that goes away has
        // actix drop this handler, which must not stop a command between its append and the
        // fold of its events (or its policies), as a blocking thread's command was never stopped.
        actix_web::rt::spawn(async move { worker.service.execute_async(ruleset, &stream, command, meta).await })
            .await
            .map_err(ApiError::internal)
            .and_then(|outcome| outcome)
    } else {
        blocking(move || worker.service.execute(ruleset, &stream, command, meta)).await
    };
    observe_command(&state, &actor, ruleset, &written, command_type.as_deref(), &outcome, started.elapsed());
    if let Err(ApiError::Rule(_) | ApiError::Forbidden { .. }) = &outcome {
        state.metrics.commands.with_label_values(&[ruleset.rules(), "refused"]).inc();
    }
    let mut response = command_response(&state, &actor, outcome?, location.is_some());
    if let Some(location) = location {
        let value = header::HeaderValue::from_str(&location).map_err(ApiError::internal)?;
        response.headers_mut().insert(header::LOCATION, value);
    }
    Ok(response)
}

/// Time a command and log it, on every write: who (actor and role), which ruleset, command type
/// and stream, and how it ended (the new version, or the problem's code). A refusal by the rules
/// or the caller's rights is an INFO line (the client's business); a conflict or unavailability
/// a WARN (worth watching when it repeats); a failure of the service an ERROR.
fn observe_command(
    state: &AppState,
    actor: &Actor,
    ruleset: &'static dyn AnyRuleset,
    stream: &str,
    command_type: Option<&str>,
    outcome: &Result<CommandOutcome, ApiError>,
    elapsed: std::time::Duration,
) {
    let understood = !matches!(outcome, Err(ApiError::Malformed(_) | ApiError::Invalid { .. }));
    let command_type = crate::metrics::command_label(command_type, understood);
    state.metrics.command_latency.with_label_values(&[ruleset.rules(), command_type]).observe(elapsed.as_secs_f64());
    let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
    let (actor_id, role, rules) = (
        actor.id.as_str(),
        serde_json::to_value(&actor.role).ok().and_then(|role| role.as_str().map(str::to_owned)).unwrap_or_default(),
        ruleset.rules(),
    );
    let role = role.as_str();
    match outcome {
        Ok(done) => tracing::info!(
            actor = actor_id,
            role,
            rules,
            command = command_type,
            stream,
            version = done.version,
            events = done.events.len(),
            replayed = done.replayed,
            elapsed_ms,
            "command applied"
        ),
        Err(error) => {
            let problem = error.problem();
            let code = problem.code.as_str();
            match problem.status {
                500.. => tracing::error!(
                    actor = actor_id,
                    role,
                    rules,
                    command = command_type,
                    stream,
                    code,
                    elapsed_ms,
                    "command failed"
                ),
                409 | 412 | 429 => tracing::warn!(
                    actor = actor_id,
                    role,
                    rules,
                    command = command_type,
                    stream,
                    code,
                    elapsed_ms,
                    "command refused"
                ),
                _ => tracing::info!(
                    actor = actor_id,
                    role,
                    rules,
                    command = command_type,
                    stream,
                    code,
                    elapsed_ms,
                    "command refused"
                ),
            }
        }
    }
}

/// The answer to a retried command of `command_type` on `stream` (same `Idempotency-Key`), for
/// the routes whose command depends on the stream's state (`Service::replayed_command`).
pub async fn replayed_command(
    req: &HttpRequest,
    actor: &Actor,
    stream: &str,
    command_type: &'static str,
    same: impl Fn(&serde_json::Value) -> bool + Send + 'static,
) -> Result<Option<HttpResponse>, ApiError> {
    let Some(key) = command_meta(req, actor.clone())?.idempotency_key else { return Ok(None) };
    let app = state(req)?;
    let (worker, retrying, stream) = (app.clone(), actor.clone(), stream.to_string());
    let replayed =
        blocking(move || worker.service.replayed_command(&retrying, &key, &stream, command_type, &same)).await?;
    Ok(replayed.map(|outcome| command_response(&app, actor, outcome, false)))
}

/// The stream a retried creation (same `Idempotency-Key`) opened the first time, answered as then.
pub async fn replayed_creation(
    req: &HttpRequest,
    actor: &Actor,
    kind: StreamKind,
    creation: &battles::Creation,
    complete: Option<battles::Completion>,
) -> Result<Option<HttpResponse>, ApiError> {
    let Some(key) = command_meta(req, actor.clone())?.idempotency_key else { return Ok(None) };
    let app = state(req)?;
    let (worker, retrying) = (app.clone(), actor.clone());
    let (ruleset, setup, supplied) = (creation.ruleset, creation.setup.clone(), creation.seed);
    let on_worker = runs_on_worker(&app, ruleset);
    let Some(outcome) = short_or_blocking(on_worker, move || {
        worker.service.replayed_creation(&retrying, &key, ruleset, setup, supplied, complete)
    })
    .await?
    else {
        return Ok(None);
    };
    let prefix = format!("{}-", kind.prefix());
    let Some(id) = outcome.stream.strip_prefix(&prefix).map(String::from) else {
        return Err(ApiError::Conflict(format!(
            "this Idempotency-Key was already used for a request to {}",
            outcome.stream
        )));
    };
    let location = format!("/v1/{}s/{id}", kind.prefix());
    let mut response = command_response(&app, actor, outcome, true);
    let value = header::HeaderValue::from_str(&location).map_err(ApiError::internal)?;
    response.headers_mut().insert(header::LOCATION, value);
    Ok(Some(response))
}

/// A picture (an SVG document) as the response: `image/svg+xml`, or the same bytes as
/// `application/octet-stream` for a client that accepts only that (generated clients that do
/// not know SVG read it as bytes).
pub fn svg_response(req: &HttpRequest, svg: String, version: u64) -> HttpResponse {
    let accept = req.headers().get(header::ACCEPT).and_then(|value| value.to_str().ok()).unwrap_or("*/*");
    let bytes_only = accept.contains("application/octet-stream") && !accept.contains("image/svg+xml");
    let content_type = if bytes_only { "application/octet-stream" } else { "image/svg+xml" };
    HttpResponse::Ok().insert_header(etag(version)).content_type(content_type).body(svg)
}

/// A server seed supplied in a request, as 64 hex digits.
pub fn supplied_seed(text: Option<&str>) -> Result<Option<[u8; 32]>, ApiError> {
    text.map(|text| {
        herald_domain::dice::seed::parse_hex32(text)
            .ok_or_else(|| ApiError::Malformed("seed must be 64 hexadecimal digits".into()))
    })
    .transpose()
}

/// How `actor` may read `stream`: as itself within its token's scope, as the public outside it.
pub fn viewer(req: &HttpRequest, actor: Option<&Actor>, stream: &str) -> Result<Viewer, ApiError> {
    Ok(crate::auth::request::viewer_for(req, actor, stream, state(req)?.service.catalog()))
}

/// Refuse with 403 unless the actor is a judge (or admin).
pub fn require_judge(actor: &Actor, code: &str, detail: &str, rule: &str) -> Result<(), ApiError> {
    if actor.is_judge() {
        Ok(())
    } else {
        Err(ApiError::Forbidden { code: code.into(), detail: detail.into(), rule: Some(rule.into()) })
    }
}

/// Turn a command's outcome into a `201`/`200` response with the events the caller may see.
pub fn command_response(state: &AppState, actor: &Actor, outcome: CommandOutcome, created: bool) -> HttpResponse {
    let viewer = Viewer::from(actor);
    let current = state.service.catalog().entry(&outcome.stream);
    let mut actors = crate::auth::Actors::new(&state.tokens, state.store.as_ref(), Some(actor.id.clone()));
    // The payloads this request decided are rendered as decided, not parsed back from the store.
    let mut decided = (outcome.decided.len() == outcome.events.len()).then_some(outcome.decided.into_iter());
    let events = outcome
        .events
        .iter()
        .map(|event| {
            let mut view = match decided.as_mut().and_then(Iterator::next) {
                Some(data) => EventView::decided(event, data, current.as_ref(), &viewer),
                None => EventView::new(event, current.as_ref(), &viewer),
            };
            view.who = actors.view(&event.actor, &viewer);
            view
        })
        .collect();
    let rules = outcome.events.first().map_or("none", |e| e.rules.as_str());
    let label = if outcome.replayed { "replayed" } else { "appended" };
    state.metrics.commands.with_label_values(&[rules, label]).inc();
    let body = CommandResponse { stream: outcome.stream, version: outcome.version, replayed: outcome.replayed, events };
    let mut response = if created && !outcome.replayed { HttpResponse::Created() } else { HttpResponse::Ok() };
    response.insert_header(etag(body.version)).json(body)
}
