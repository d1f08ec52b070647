//! The delivery loop: one thread per subscription, so a slow or failing target delays nothing
//! but its own subscription (commands never wait for a webhook).
//!
//! Each thread reads `$all` from the subscription's saved position, renders every event it wants
//! as its reader's `EventView`, POSTs it signed (one event per request) and saves the next
//! position only after a 2xx: at-least-once, in `$all` order (so in order per stream), and a
//! restart or a crash resumes at the first event not acknowledged. A failure is retried on the
//! schedule of [`super::retry_delay`]; a subscription failing for [`super::DISABLE_AFTER`] is
//! disabled with the reason. Part of the composition root: it runs on the application's state.

use std::{
    collections::HashSet,
    io::Read,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use actix_web::web;
use chrono::Utc;
use herald_projections::{EventView, Viewer};
use herald_store::RecordedEvent;

use super::{sign, target, webhook_id, DeliveryAttempt, Status, SubscriptionRecord};
use crate::{auth::Actors, state::AppState};

/// How long an attempt may take, connecting and answering.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The most of a target's answer read (the rest is dropped).
pub const RESPONSE_CAP: u64 = 64 * 1024;
/// How often an idle or paused subscription looks again.
const IDLE: Duration = Duration::from_millis(200);
/// Events read from `$all` at a time.
const PAGE: usize = 64;

/// The subscriptions with a running thread on this instance.
#[derive(Debug, Default)]
pub struct Running(Mutex<HashSet<String>>);

/// Start a thread for every stored subscription that has none, and look again every second for
/// subscriptions created since (a thread ends when its subscription is deleted). The threads
/// hold the state only while they work, and end when the server stops.
pub fn start(state: web::Data<AppState>) {
    let running = Arc::new(Running::default());
    let weak = Arc::downgrade(&state.into_inner());
    let spawned = std::thread::Builder::new().name("webhooks".into()).spawn(move || loop {
        let Some(state) = weak.upgrade() else { return };
        if state.webhooks.stopped() {
            return;
        }
        if state.ready.load(std::sync::atomic::Ordering::Acquire) {
            match state.webhooks.list(state.store.as_ref()) {
                Ok(records) => {
                    for record in records {
                        spawn_if_idle(&weak, &running, record.id);
                    }
                }
                Err(error) => tracing::warn!(%error, "cannot list webhook subscriptions"),
            }
        }
        drop(state);
        std::thread::sleep(Duration::from_secs(1));
    });
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start the webhook supervisor: no webhooks are delivered");
    }
}

fn spawn_if_idle(state: &std::sync::Weak<AppState>, running: &Arc<Running>, id: String) {
    {
        let mut set = running.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !set.insert(id.clone()) {
            return;
        }
    }
    let (state, running) = (state.clone(), running.clone());
    let name = format!("webhook-{}", id.chars().take(12).collect::<String>());
    let thread_id = id.clone();
    let spawned = std::thread::Builder::new().name(name).spawn(move || {
        deliver_forever(&state, &thread_id);
        running.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(&thread_id);
    });
    if let Err(error) = spawned {
        tracing::error!(%error, subscription = %id, "cannot start a webhook thread");
    }
}

/// What became of an event's delivery.
enum Outcome {
    /// Delivered (2xx): the position moves past it.
    Delivered,
    /// The subscription was paused, disabled or deleted meanwhile: stop, keep the position.
    Stopped,
}

/// What a subscription's thread does next.
enum Step {
    /// Look again at once.
    Again,
    /// Wait a moment first (idle, paused, or a store that failed).
    Idle,
    /// End the thread (deleted, or the server stops).
    Exit,
}

/// A subscription's thread: holds the state only while it works, so a stopped server's state
/// (and store) is released.
fn deliver_forever(state: &std::sync::Weak<AppState>, id: &str) {
    loop {
        let step = match state.upgrade() {
            Some(state) => step(&state, id),
            None => Step::Exit,
        };
        match step {
            Step::Again => {}
            Step::Idle => std::thread::sleep(IDLE),
            Step::Exit => return,
        }
    }
}

fn step(state: &AppState, id: &str) -> Step {
    let store = state.store.as_ref();
    if state.webhooks.stopped() {
        return Step::Exit;
    }
    let record = match state.webhooks.get(store, id) {
        Ok(Some(record)) if record.deleted => {
            state.webhooks.forget(id);
            return Step::Exit;
        }
        Ok(Some(record)) => record,
        Ok(None) => return Step::Exit,
        Err(error) => {
            tracing::warn!(%error, subscription = id, "cannot read a webhook subscription");
            return Step::Idle;
        }
    };
    if record.status != Status::Active || !state.webhooks.lease(store, id) {
        return Step::Idle;
    }
    if let Some(position) = state.webhooks.next_redelivery(id) {
        if let Ok(mut events) = store.read_all(position, 1) {
            if let Some(event) = events.pop().filter(|event| event.position == position) {
                let _ = deliver(state, &record, &event);
            }
        }
        return Step::Again;
    }
    let position = match state.webhooks.position(store, id) {
        Ok(position) => position,
        Err(error) => {
            tracing::warn!(%error, subscription = id, "cannot read a webhook position");
            return Step::Idle;
        }
    };
    let head = store.head_position().ok().flatten().map_or(0, |head| head + 1);
    state.webhooks.set_lag(id, head.saturating_sub(position));
    let page = match store.read_all(position, PAGE) {
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, subscription = id, "cannot read the log for a webhook");
            return Step::Idle;
        }
    };
    if page.is_empty() {
        return Step::Idle;
    }
    let catalog = state.service.catalog();
    let (mut next, mut saved) = (position, position);
    for event in &page {
        // The reader's view and scope are read from the catalog: fold it up to this event.
        if let Err(error) = catalog.catch_up_through(store, event.position) {
            tracing::warn!(%error, "cannot catch the read models up for a webhook");
            break;
        }
        if record.wants(event, catalog) {
            if let Outcome::Stopped = deliver(state, &record, event) {
                break;
            }
            // Acknowledged: saved before the next event is sent.
            next = event.position + 1;
            match state.webhooks.advance(store, id, saved, next) {
                Ok(true) => saved = next,
                Ok(false) => return Step::Again,
                Err(error) => {
                    tracing::warn!(%error, subscription = id, "cannot save a webhook position");
                    break;
                }
            }
        } else {
            next = event.position + 1;
        }
    }
    if next > saved {
        if let Err(error) = state.webhooks.advance(store, id, saved, next) {
            tracing::warn!(%error, subscription = id, "cannot save a webhook position");
            std::thread::sleep(IDLE);
        }
    }
    Step::Again
}

/// The body of an event's delivery: its `EventView` as the subscription's reader sees it.
pub fn render(state: &AppState, record: &SubscriptionRecord, event: &RecordedEvent) -> Vec<u8> {
    let catalog = state.service.catalog();
    let actor = record.actor();
    let viewer = Viewer::from(&actor);
    let current = catalog.entry(&event.stream);
    let mut view = EventView::new(event, current.as_ref(), &viewer);
    let mut actors = Actors::new(&state.tokens, state.store.as_ref(), Some(actor.id.clone()));
    view.who = actors.view(&event.actor, &viewer);
    serde_json::to_vec(&view).unwrap_or_default()
}

/// Deliver one event until a 2xx, retrying on the schedule; each attempt is logged.
fn deliver(state: &AppState, record: &SubscriptionRecord, event: &RecordedEvent) -> Outcome {
    let store = state.store.as_ref();
    let id = webhook_id(&record.id, event);
    let mut retry = 0u32;
    loop {
        if state.webhooks.stopped() {
            return Outcome::Stopped;
        }
        // A pause, a deletion or a rotation between attempts is seen at the next one.
        let current = match state.webhooks.get(store, &record.id) {
            Ok(Some(current)) if !current.deleted && current.status == Status::Active => current,
            Ok(_) => return Outcome::Stopped,
            Err(_) => record.clone(),
        };
        // Another instance took the subscription over (this one stalled past its lease).
        if !state.webhooks.lease(store, &record.id) {
            return Outcome::Stopped;
        }
        let body = render(state, &current, event);
        let attempt = attempt(state, &current, event, &id, &body);
        let delivered = attempt.delivered;
        let error = attempt.error.clone();
        if let Err(error) = state.webhooks.log(store, &record.id, attempt) {
            tracing::warn!(%error, subscription = %record.id, "cannot log a webhook attempt");
        }
        if delivered {
            if current.failing_since.is_some() {
                let _ = state.webhooks.update(store, &record.id, |record| {
                    record.failing_since = None;
                    Ok(())
                });
            }
            return Outcome::Delivered;
        }
        let now = Utc::now();
        let updated = state.webhooks.update(store, &record.id, |record| {
            let since = *record.failing_since.get_or_insert(now);
            let failing = (now - since).to_std().unwrap_or_default();
            if failing >= super::DISABLE_AFTER {
                record.status = Status::Disabled;
                record.disabled_reason = Some(format!(
                    "every attempt failed since {} (the last: {}); resume it to try again",
                    since.to_rfc3339(),
                    error.as_deref().unwrap_or("no answer")
                ));
            }
            Ok(())
        });
        if matches!(updated, Ok(Some(ref record)) if record.status != Status::Active) {
            return Outcome::Stopped;
        }
        retry += 1;
        let delay = super::retry_delay(retry, jitter());
        let until = Instant::now() + delay;
        while Instant::now() < until {
            if state.webhooks.stopped() {
                return Outcome::Stopped;
            }
            std::thread::sleep(IDLE.min(until.saturating_duration_since(Instant::now())));
            match state.webhooks.get(store, &record.id) {
                Ok(Some(current)) if !current.deleted && current.status == Status::Active => {
                    state.webhooks.lease(store, &record.id);
                }
                Ok(_) => return Outcome::Stopped,
                Err(_) => {}
            }
        }
    }
}

/// A factor in 0.8–1.2 from OS randomness (1.0 if there is none).
fn jitter() -> f64 {
    use rand_core::{OsRng, TryRngCore};
    OsRng.try_next_u32().map_or(1.0, |word| 0.8 + 0.4 * (f64::from(word) / f64::from(u32::MAX)))
}

/// One signed POST of `body` to the subscription's target, logged as an [`DeliveryAttempt`].
fn attempt(
    state: &AppState,
    record: &SubscriptionRecord,
    event: &RecordedEvent,
    id: &str,
    body: &[u8],
) -> DeliveryAttempt {
    let started = Instant::now();
    let at = Utc::now();
    let mut logged = DeliveryAttempt {
        webhook_id: id.to_string(),
        position: event.position,
        event_type: event.event_type.clone(),
        at,
        status: None,
        latency_ms: 0,
        error: None,
        delivered: false,
    };
    let result = send(state, record, id, at.timestamp(), body);
    logged.latency_ms = started.elapsed().as_millis() as u64;
    match result {
        Ok(status) if (200..300).contains(&status) => {
            logged.status = Some(status);
            logged.delivered = true;
        }
        Ok(status) => {
            logged.status = Some(status);
            logged.error = Some(format!("the target answered {status}"));
        }
        Err(error) => logged.error = Some(error),
    }
    logged
}

fn send(state: &AppState, record: &SubscriptionRecord, id: &str, timestamp: i64, body: &[u8]) -> Result<u16, String> {
    let target = target::resolve(&record.url, &state.webhooks.settings).map_err(|error| error.to_string())?;
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(TIMEOUT)
        .resolve(&target.host, target.address)
        .user_agent(concat!("herald-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|error| format!("cannot build the HTTP client: {error}"))?;
    let signature = sign::header(record.signing_secrets(Utc::now()), id, timestamp, body);
    let response = client
        .post(target.url)
        .header("content-type", "application/json")
        .header("webhook-id", id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body.to_vec())
        .send()
        .map_err(|error| {
            let mut text = error.to_string();
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            text
        })?;
    let status = response.status().as_u16();
    // Read (and drop) at most RESPONSE_CAP of the answer, so the connection ends cleanly.
    let _ = response.take(RESPONSE_CAP).read_to_end(&mut Vec::new());
    Ok(status)
}
