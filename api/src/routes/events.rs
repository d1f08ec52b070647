//! The event log as readers see it: per stream and `$all`, paged and filtered, and live over
//! Server-Sent Events. Payload fields a reader may not see are replaced by `"hidden"`.

use std::{collections::HashMap, time::Duration};

use actix_web::{get, http::header, web, HttpRequest, HttpResponse};
use herald_domain::{Actor, Role};
use herald_projections::{Catalog, Entry, EventFilter, EventView, Viewer};
use herald_store::{Direction, RecordedEvent};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{blocking, state};
use crate::{
    auth::{request::MaybeAuthenticated, ActorFilter, Actors, Scope, TOKENS_STREAM},
    problem::{ApiError, Problem},
};

/// Most events a page may hold.
const MAX_LIMIT: usize = 1000;
/// Most events one filtered request scans before answering with what it found.
const MAX_SCAN: usize = 10_000;

/// Which way a stream is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadDirection {
    /// Oldest first (the default).
    Forwards,
    /// Newest first (streams only).
    Backwards,
}

/// Paging and filters for event listings.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct EventQuery {
    /// First position (`$all`) or version (a stream) to read; default 0 (or the end, backwards).
    pub from: Option<u64>,
    /// Page size, 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// `forwards` (default) or `backwards` (streams only).
    #[param(inline)]
    pub direction: Option<ReadDirection>,
    /// Only these event types, comma-separated (`coalition.BattleResolved,coalition.SeedRevealed`).
    #[serde(rename = "type")]
    pub event_type: Option<String>,
    /// Only events by this actor (`token:…`, or `system`).
    #[param(example = "token:0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f")]
    pub actor: Option<String>,
    /// Only events by the tokens of this player (the player name a token acts as).
    #[param(example = "alice")]
    pub player: Option<String>,
    /// Only events by actors of this role: `player`, `judge`, `admin`, `observer`, or `system`
    /// (the service itself).
    #[param(inline, example = "judge")]
    pub role: Option<Role>,
}

impl EventQuery {
    fn filter(&self) -> EventFilter {
        EventFilter {
            types: self
                .event_type
                .as_deref()
                .map(|types| types.split(',').map(str::trim).filter(|t| !t.is_empty()).map(String::from).collect())
                .unwrap_or_default(),
            actor: self.actor.clone(),
        }
    }

    fn actors(&self) -> ActorFilter {
        ActorFilter { role: self.role.clone(), player: self.player.clone() }
    }

    fn limit(&self) -> Result<usize, ApiError> {
        page_limit(self.limit)
    }

    fn direction(&self) -> Result<Direction, ApiError> {
        Ok(match self.direction {
            None | Some(ReadDirection::Forwards) => Direction::Forwards,
            Some(ReadDirection::Backwards) => Direction::Backwards,
        })
    }
}

/// A listing's page size: `limit` if given and within 1..=[`MAX_LIMIT`], 100 if not given.
fn page_limit(limit: Option<usize>) -> Result<usize, ApiError> {
    match limit {
        None => Ok(100),
        Some(limit) if (1..=MAX_LIMIT).contains(&limit) => Ok(limit),
        Some(limit) => Err(ApiError::Malformed(format!("limit must be between 1 and {MAX_LIMIT}, not {limit}"))),
    }
}

/// Where a listing reads: `$all` (forwards, by position) or one stream (by version).
#[derive(Clone, Copy)]
enum Source<'a> {
    All,
    Stream(&'a str, Direction),
}

/// Whether a listing wants the event after this one.
enum Scan {
    Next,
    Stop,
}

/// Events the store is asked for at a time.
const BATCH: usize = 512;

/// The one reading loop of the listings (events of `$all` or a stream, the dice ledger): read
/// `source` from `from` in batches, hand each event to `visit` until it says stop, the source
/// runs out, or a batch ends with `budget` events scanned. Returns where the next page starts:
/// after the event `visit` stopped at, where the budget ran out, or `None` at the end.
fn scan(
    store: &dyn herald_store::EventStore,
    source: Source<'_>,
    from: u64,
    budget: usize,
    mut visit: impl FnMut(&RecordedEvent) -> Result<Scan, ApiError>,
) -> Result<Option<u64>, ApiError> {
    let mut cursor = from;
    let mut scanned = 0;
    loop {
        let batch = match source {
            Source::All => store.read_all(cursor, BATCH)?,
            Source::Stream(stream, direction) => store.read_stream(stream, cursor, direction, BATCH)?,
        };
        let exhausted = batch.len() < BATCH;
        for event in &batch {
            scanned += 1;
            let next = match source {
                Source::All => event.position.checked_add(1),
                Source::Stream(_, Direction::Forwards) => event.version.checked_add(1),
                Source::Stream(_, Direction::Backwards) => event.version.checked_sub(1),
            };
            if let Scan::Stop = visit(event)? {
                return Ok(next);
            }
            match next {
                Some(next) => cursor = next,
                None => return Ok(None),
            }
        }
        if exhausted {
            return Ok(None);
        }
        if scanned >= budget {
            return Ok(Some(cursor));
        }
    }
}

/// The refusal of a listing of `stream` this reader may not read (see [`may_read`]).
fn refuse_tokens_stream(stream: &str, viewer: &Viewer) -> Result<(), ApiError> {
    if may_read(stream, viewer) {
        return Ok(());
    }
    Err(ApiError::Forbidden {
        code: "forbidden".into(),
        detail: format!("the {stream} stream (who holds which token) is for admins"),
        rule: None,
    })
}

/// A page of events.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    /// The events, in reading order.
    pub events: Vec<EventView>,
    /// Where the next page starts (`from`), when there may be more.
    pub next: Option<u64>,
}

/// Who reads a listing of events: the token's actor and scope (none for anonymous readers).
#[derive(Debug, Clone)]
struct Reader {
    actor: Option<Actor>,
    scope: Option<Scope>,
}

impl Reader {
    fn of(req: &HttpRequest, actor: Option<Actor>) -> Self {
        Self { scope: crate::auth::request::scope_of(req), actor }
    }

    /// How this reader sees `stream`: as itself within its token's scope, as the public outside.
    fn viewer(&self, stream: &str, catalog: &Catalog) -> Viewer {
        match (&self.actor, &self.scope) {
            (Some(actor), Some(scope)) if scope.covers(stream, catalog) => Viewer::from(actor),
            _ => Viewer::public(),
        }
    }
}

/// Redacts events for one reader, looking each stream's current state (and how the reader sees
/// it) up once per page, and names their actors (once per actor).
struct Redactor<'a> {
    catalog: &'a Catalog,
    reader: Reader,
    streams: HashMap<String, (Option<Entry>, Viewer)>,
    actors: Actors<'a>,
}

/// Whether `viewer` may read the events of `stream` at all: the `tokens` stream (who holds which
/// token, where issuing and revoking is audited) is for admins of the host only (issue 15: an
/// anonymous reader listed every token's id, role, player and label).
fn may_read(stream: &str, viewer: &Viewer) -> bool {
    stream != TOKENS_STREAM || viewer.role == herald_domain::Role::Admin
}

impl<'a> Redactor<'a> {
    fn new(state: &'a crate::state::AppState, reader: Reader) -> Self {
        let actors =
            Actors::new(&state.tokens, state.store.as_ref(), reader.actor.as_ref().map(|actor| actor.id.clone()));
        Self { catalog: state.service.catalog(), reader, streams: HashMap::new(), actors }
    }

    /// Whether `event`'s actor passes `filter` (by role and player).
    fn by(&mut self, event: &RecordedEvent, filter: &ActorFilter) -> bool {
        self.actors.matches(&event.actor, filter)
    }

    fn stream(&mut self, stream: &str) -> &(Option<Entry>, Viewer) {
        let (catalog, reader) = (self.catalog, &self.reader);
        self.streams
            .entry(stream.to_string())
            .or_insert_with(|| (catalog.entry(stream), reader.viewer(stream, catalog)))
    }

    /// Whether this reader may see `event` at all (listings skip the others).
    fn visible(&mut self, event: &RecordedEvent) -> bool {
        may_read(&event.stream, &self.stream(&event.stream).1)
    }

    fn view(&mut self, event: &RecordedEvent) -> EventView {
        let (current, viewer) = self.stream(&event.stream).clone();
        let mut view = EventView::new(event, current.as_ref(), &viewer);
        view.who = self.actors.view(&event.actor, &viewer);
        view
    }
}

fn page_response(req: &HttpRequest, page: EventPage) -> HttpResponse {
    let next = page.next.map(|next| next.to_string());
    super::paging::ok_with_link(req, "from", next.as_deref()).json(page)
}

/// Every event of every stream (`$all`), in commit order.
#[utoipa::path(get, path = "/v1/events", tag = "events", params(EventQuery),
    responses(
        (status = 200, description = "a page of events; a `Link: rel=\"next\"` header points to the next", body = EventPage),
        (status = 400, description = "bad paging or filter", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("")]
pub async fn all_events(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    query: crate::problem::Query<EventQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit()?;
    let filter = query.filter();
    let actors = query.actors();
    let from = query.from.unwrap_or(0);
    let state = state(&req)?;
    let reader = Reader::of(&req, actor);
    let page = blocking(move || {
        let mut redactor = Redactor::new(&state, reader);
        let mut events = Vec::new();
        let next = scan(state.store.as_ref(), Source::All, from, MAX_SCAN, |event| {
            if filter.matches(event) && redactor.visible(event) && redactor.by(event, &actors) {
                events.push(redactor.view(event));
            }
            Ok(if events.len() == limit { Scan::Stop } else { Scan::Next })
        })?;
        Ok::<_, ApiError>(EventPage { events, next })
    })
    .await?;
    Ok(page_response(&req, page))
}

/// The events of one stream.
#[utoipa::path(get, path = "/v1/streams/{stream}/events", tag = "events",
    params(("stream" = String, Path, description = "stream name, e.g. `battle-0193…`, or a battle's or campaign's bare UUID"), EventQuery),
    responses(
        (status = 200, description = "a page of events; the ETag is the stream's version", body = EventPage),
        (status = 400, description = "bad paging or filter", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "the `tokens` stream is for admins", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{stream}/events")]
pub async fn stream_events(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<String>,
    query: crate::problem::Query<EventQuery>,
) -> Result<HttpResponse, ApiError> {
    let stream = super::ids::stream_name(state(&req)?.service.catalog(), path.into_inner());
    let limit = query.limit()?;
    let direction = query.direction()?;
    let filter = query.filter();
    let actors = query.actors();
    let from = query.from.unwrap_or(match direction {
        Direction::Forwards => 0,
        Direction::Backwards => u64::MAX,
    });
    let state = state(&req)?;
    let reader = Reader::of(&req, actor);
    refuse_tokens_stream(&stream, &reader.viewer(&stream, state.service.catalog()))?;
    let (page, version) = blocking(move || {
        let version =
            state.store.stream_version(&stream)?.ok_or_else(|| ApiError::NotFound(format!("no stream {stream}")))?;
        let mut redactor = Redactor::new(&state, reader);
        let mut events = Vec::new();
        let next = scan(state.store.as_ref(), Source::Stream(&stream, direction), from, MAX_SCAN, |event| {
            if filter.matches(event) && redactor.by(event, &actors) {
                events.push(redactor.view(event));
            }
            Ok(if events.len() == limit { Scan::Stop } else { Scan::Next })
        })?;
        Ok::<_, ApiError>((EventPage { events, next }, version))
    })
    .await?;
    let mut response = page_response(&req, page);
    let (name, value) = super::etag(version);
    if let Ok(value) = header::HeaderValue::from_str(&value) {
        response.headers_mut().insert(name, value);
    }
    Ok(response)
}

/// Verify any stream Herald can replay: battles of every ruleset and campaigns.
#[utoipa::path(get, path = "/v1/streams/{stream}/verify", tag = "events",
    params(("stream" = String, Path, description = "stream name, e.g. `battle-0193…`, or a battle's or campaign's bare UUID")),
    responses(
        (status = 200, description = "the verification report", body = crate::app::verify::VerifyReport),
        (status = 403, description = "the seed is still sealed and you are not a judge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{stream}/verify")]
pub async fn verify_stream(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let stream = super::ids::stream_name(state(&req)?.service.catalog(), path.into_inner());
    super::battles::verify_response(&req, actor, stream).await
}

/// How often an idle live reader sends a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often an idle live reader looks whether its client went away.
const CLOSED_PROBE: Duration = Duration::from_millis(500);

/// Events a live reader reads from the store at a time.
const LIVE_PAGE: usize = 64;

/// The most a live reader's next message holds, beyond its first event: a reader that does not
/// read (an idle client, a slow link) holds at most this much of the server's memory, plus one
/// event, because the next chunk is only made when the client has taken this one.
const LIVE_CHUNK_BYTES: usize = 64 * 1024;

/// The next message of a live reader from `batch` (not empty): as many events as fit in
/// [`LIVE_CHUNK_BYTES`] (at least one), and the position to continue from.
fn live_chunk(
    state: &crate::state::AppState,
    reader: &Reader,
    (filter, actors): &(EventFilter, ActorFilter),
    batch: &[RecordedEvent],
) -> (web::Bytes, u64) {
    let mut redactor = Redactor::new(state, reader.clone());
    let mut text = String::new();
    let mut next = batch.first().map_or(0, |event| event.position);
    for event in batch {
        next = event.position + 1;
        if filter.matches(event) && redactor.visible(event) && redactor.by(event, actors) {
            let view = redactor.view(event);
            let data = serde_json::to_string(&view).unwrap_or_else(|_| "{}".into());
            text.push_str(&format!("id: {}\nevent: {}\ndata: {data}\n\n", view.position, view.event_type));
        }
        if text.len() >= LIVE_CHUNK_BYTES {
            break;
        }
    }
    if text.is_empty() {
        text.push_str(": filtered\n\n");
    }
    (web::Bytes::from(text), next)
}

/// Live events as Server-Sent Events: catches up from `from` (or `Last-Event-ID` + 1), then
/// follows. Each message has `id` = position, `event` = type, `data` = the event as JSON.
#[utoipa::path(get, path = "/v1/events/live", tag = "events", params(EventQuery),
    responses(
        (status = 200, description = "an endless `text/event-stream`", content_type = "text/event-stream", body = String),
        (status = 429, description = "this token (or anonymous readers together) has its limit of live streams open; `Retry-After`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "the server has its limit of live streams open, or is catching up; `Retry-After`", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/live")]
pub async fn live_events(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    query: crate::problem::Query<EventQuery>,
) -> Result<HttpResponse, ApiError> {
    let resume = req
        .headers()
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok())
        .map(|position| position + 1);
    let from = query.from.or(resume).unwrap_or(0);
    let filter = (query.filter(), query.actors());
    let state = state(&req)?;
    let client = actor.as_ref().map_or(crate::live::ANONYMOUS.to_string(), |actor| actor.id.clone());
    // Held by the response stream: dropped (its place returned) when the client goes away.
    let connection = req.conn_data::<crate::live::Connection>().copied();
    let permit = state.live.admit(&client, connection)?;
    let viewer = Reader::of(&req, actor);
    let head = state.store.watch_head();
    let stream = futures_util::stream::unfold(
        (state, viewer, filter, from, head, permit, LIVE_PAGE),
        move |(state, viewer, filter, from, mut head, permit, page)| async move {
            loop {
                // Read and render off the async workers: a chunk of large events takes a while.
                let (reader, reader_viewer, reader_filter) = (state.clone(), viewer.clone(), filter.clone());
                let chunk = web::block(move || {
                    let batch = reader.store.read_all(from, page)?;
                    Ok::<_, herald_store::StoreError>(
                        (!batch.is_empty()).then(|| live_chunk(&reader, &reader_viewer, &reader_filter, &batch)),
                    )
                })
                .await;
                let chunk = match chunk {
                    Ok(Ok(chunk)) => chunk,
                    _ => return None,
                };
                if let Some((bytes, next)) = chunk {
                    // Read next time about as many events as this chunk took (at least one, and
                    // twice as many to grow back): large events are not read only to be dropped.
                    let taken = usize::try_from(next - from).unwrap_or(LIVE_PAGE);
                    let page = (taken * 2).clamp(1, LIVE_PAGE);
                    return Some((Ok::<_, actix_web::Error>(bytes), (state, viewer, filter, next, head, permit, page)));
                }
                // Caught up: wait for the head to move, with a keep-alive comment every 15 s; and
                // look every half second whether the client went away, so that its place is
                // free again at once (the `Retry-After: 1` of a refused reader holds).
                let mut waited = Duration::ZERO;
                let moved = loop {
                    match tokio::time::timeout(CLOSED_PROBE, head.changed()).await {
                        Ok(Ok(())) => break true,
                        Ok(Err(_)) => return None,
                        Err(_) if connection.is_some_and(|connection| connection.closed()) => return None,
                        Err(_) => {
                            waited += CLOSED_PROBE;
                            if waited >= KEEP_ALIVE {
                                break false;
                            }
                        }
                    }
                };
                if !moved {
                    let keepalive = web::Bytes::from_static(b": keep-alive\n\n");
                    return Some((Ok(keepalive), (state, viewer, filter, from, head, permit, page)));
                }
            }
        },
    );
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .streaming(stream))
}

/// Paging of the dice ledger: by stream version, like the stream's events.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct DiceQuery {
    /// First stream version to read (default 0).
    pub from: Option<u64>,
    /// Events per page, 1–1000 (default 100); a page lists every draw of its events.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
}

/// One die drawn in a stream, where it is recorded and which key it came from.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LedgerDraw {
    /// The stream version of the event that records it.
    pub version: u64,
    /// That event's `$all` position.
    pub position: u64,
    /// That event's type.
    pub event_type: String,
    /// JSON pointer of the draw inside the event's `data` (`/dice/a/0/draw`).
    pub pointer: String,
    /// Index of the first ChaCha20 output word examined (docs/DICE.md "Deriving a die").
    pub word: u64,
    /// Number of sides.
    pub sides: u64,
    /// The face.
    pub value: u64,
    /// What the die was for.
    pub purpose: String,
    /// The key it was drawn from: `stream`, `turn:<n>` or `reseal:<n>` (docs/DICE.md "Keys").
    pub key: String,
}

/// A page of the dice ledger.
#[derive(Debug, Serialize, ToSchema)]
pub struct DicePage {
    /// The draws of the page's events, in tape order (event order, then order within the event).
    pub draws: Vec<LedgerDraw>,
    /// Where the next page starts (`from`, a stream version), when there may be more.
    pub next: Option<u64>,
}

/// Every recorded draw in `value` (an object with the shared draw's fields `word`, `sides`,
/// `value` and `purpose`), with its JSON pointer, in document order.
fn draws_in(value: &serde_json::Value, pointer: &str, out: &mut Vec<(String, serde_json::Value)>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let shaped = map.get("word").is_some_and(Value::is_u64)
                && map.get("sides").is_some_and(Value::is_u64)
                && map.get("value").is_some_and(Value::is_u64)
                && map.get("purpose").is_some_and(Value::is_string);
            if shaped {
                out.push((pointer.to_string(), value.clone()));
                return;
            }
            for (key, child) in map {
                draws_in(child, &format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                draws_in(child, &format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// Every die drawn in a stream, in tape order: the event, the draw's JSON pointer inside it, the
/// word, sides, face, purpose and the key it came from (docs/DICE.md "The dice ledger"). Read
/// with the revealed keys, it is all an outsider needs to recompute every die. What a reader may
/// not see of an event (hidden fields) is left out, as in the event listing.
#[utoipa::path(get, path = "/v1/streams/{stream}/dice", tag = "events",
    params(("stream" = String, Path, description = "stream name, e.g. `battle-0193…`"), DiceQuery),
    responses(
        (status = 200, description = "a page of draws", body = DicePage),
        (status = 400, description = "bad paging", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "the `tokens` stream is for admins", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "no such stream", body = Problem, content_type = "application/problem+json"),
    ))]
#[get("/{stream}/dice")]
pub async fn stream_dice(
    req: HttpRequest,
    MaybeAuthenticated(actor): MaybeAuthenticated,
    path: web::Path<String>,
    query: crate::problem::Query<DiceQuery>,
) -> Result<HttpResponse, ApiError> {
    let stream = path.into_inner();
    let limit = page_limit(query.limit)?;
    let from = query.from.unwrap_or(0);
    let state = state(&req)?;
    let reader = Reader::of(&req, actor);
    refuse_tokens_stream(&stream, &reader.viewer(&stream, state.service.catalog()))?;
    let page = blocking(move || {
        let entry = state.service.catalog().entry(&stream);
        if state.store.stream_version(&stream)?.is_none() {
            return Err(ApiError::NotFound(format!("no stream {stream}")));
        }
        let ruleset = entry.as_ref().map(|entry| entry.ruleset);
        let mut redactor = Redactor::new(&state, reader);
        // The key in force is the stream's state's before each command: fold from the start.
        let mut folded = ruleset.map(|ruleset| ruleset.new_state());
        let mut key = herald_domain::DiceKey::Stream;
        let mut command: Option<Option<String>> = None;
        let mut draws = Vec::new();
        let mut listed = 0;
        let next = scan(state.store.as_ref(), Source::Stream(&stream, Direction::Forwards), 0, usize::MAX, |event| {
            if command.as_ref() != Some(&event.command_id) {
                command = Some(event.command_id.clone());
                if let (Some(ruleset), Some(folded)) = (ruleset, folded.as_ref()) {
                    key = ruleset.dice(folded.as_ref()).map_or(herald_domain::DiceKey::Stream, |cursor| cursor.key);
                }
            }
            if event.version >= from {
                let view = redactor.view(event);
                let mut found = Vec::new();
                draws_in(&view.data, "", &mut found);
                for (pointer, draw) in found {
                    draws.push(LedgerDraw {
                        version: event.version,
                        position: event.position,
                        event_type: event.event_type.clone(),
                        pointer,
                        word: draw["word"].as_u64().unwrap_or_default(),
                        sides: draw["sides"].as_u64().unwrap_or_default(),
                        value: draw["value"].as_u64().unwrap_or_default(),
                        purpose: draw["purpose"].as_str().unwrap_or_default().to_string(),
                        key: key.id(),
                    });
                }
                listed += 1;
                if listed == limit {
                    return Ok(Scan::Stop);
                }
            }
            if let (Some(ruleset), Some(state)) = (ruleset, folded.as_mut()) {
                if let Some(state) = std::sync::Arc::get_mut(state) {
                    // A payload that does not decode is reported by verify; the ledger lists on.
                    let _ = ruleset.evolve(state, &event.event_type, event.schema, event.data.get());
                }
            }
            Ok(Scan::Next)
        })?;
        Ok(DicePage { draws, next })
    })
    .await?;
    Ok(HttpResponse::Ok().json(page))
}
