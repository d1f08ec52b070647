//! Webhooks: subscriptions that push the log's events to a bot's URL, signed per Standard
//! Webhooks (docs/WEBHOOKS.md, docs/adr/0005-webhooks.md).
//!
//! A subscription reads as a role within a scope, no wider than its creator's token, and each
//! event is delivered as the `EventView` that reader would get from `GET /v1/events`. Everything a
//! subscription is lives in the store's secret tree (both backends keep it durably, outside the
//! readable log): its record with the signing secrets (`webhook:<id>`), its position in `$all`
//! (`webhook-position:<id>`, the next event to deliver, saved only after a 2xx) and its bounded
//! delivery log (`webhook-log:<id>`). The delivery loop is `worker.rs`.

pub mod sign;
pub mod target;
pub mod worker;

use std::{
    collections::{BTreeSet, HashMap, VecDeque},
    sync::{LazyLock, Mutex},
    time::Duration,
};

use chrono::{DateTime, Utc};
use herald_domain::{registry, Role, StreamKind};
use herald_projections::Catalog;
use herald_store::{EventStore, RecordedEvent};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::config::WebhookSettings;
use crate::{auth::Scope, problem::ApiError};

/// Where webhook rules are written down (the `rule` of their refusals).
pub const RULE: &str = "herald: docs/WEBHOOKS.md";

/// Most subscriptions a host keeps (each has a delivery thread of its own).
pub const MAX_SUBSCRIPTIONS: usize = 100;
/// Most attempts kept in a subscription's delivery log (the oldest are dropped).
pub const LOG_LEN: usize = 100;
/// Most entries in each filter list.
pub const MAX_FILTER_ITEMS: usize = 50;
/// A subscription failing for this long without one success is disabled.
pub const DISABLE_AFTER: Duration = Duration::from_secs(3 * 24 * 3600);
/// The first retry's delay; each further retry doubles it, up to [`RETRY_MAX`].
pub const RETRY_BASE: Duration = Duration::from_secs(1);
/// The longest delay between two attempts.
pub const RETRY_MAX: Duration = Duration::from_secs(600);
/// How long an instance's lease on a subscription lasts unrenewed (PostgreSQL, several instances).
pub const LEASE: Duration = Duration::from_secs(10);
/// The default and the longest overlap of a rotated secret.
pub const DEFAULT_OVERLAP_SECONDS: u64 = 24 * 3600;
/// The longest overlap of a rotated secret (a week).
pub const MAX_OVERLAP_SECONDS: u64 = 7 * 24 * 3600;

const RECORD: &str = "webhook:";
const POSITION: &str = "webhook-position:";
const LOG: &str = "webhook-log:";

/// Which events a subscription receives; every list given must match (an empty or absent list
/// matches everything).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = WebhookFilters)]
#[schema(example = json!({"campaign": "campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f", "types": ["coalition.BattleResolved"]}))]
pub struct Filters {
    /// Only these streams (existing streams within the subscription's scope).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 50)]
    pub streams: Vec<String>,
    /// Only this campaign and the battles it announces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<String>,
    /// Only events of these rulesets (ids from `GET /v1/rulesets`, e.g. `coalition-battle`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 50)]
    pub rulesets: Vec<String>,
    /// Only these event types (e.g. `coalition.BattleResolved`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 50)]
    pub types: Vec<String>,
}

/// Whether a subscription is delivering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WebhookStatus)]
pub enum Status {
    /// Delivering.
    Active,
    /// Paused by an admin: nothing is sent, the position is kept.
    Paused,
    /// Disabled by Herald after failing for too long (`disabled_reason` says why); resume it to
    /// try again from where it stopped.
    Disabled,
}

/// A signing secret (`whsec_` + base64 of 32 random bytes) and when it stops signing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SigningSecret {
    /// The secret, as shown once to the creator.
    pub secret: String,
    /// When a rotated-out secret stops signing (`None`: the current secret).
    pub expires_at: Option<DateTime<Utc>>,
}

/// A subscription as stored (secrets included; never rendered as such).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionRecord {
    /// `wh_` + a UUIDv7.
    pub id: String,
    /// Where events are POSTed.
    pub url: String,
    /// A note for admins.
    pub description: Option<String>,
    /// The role it reads as.
    pub role: Role,
    /// For a player reader: the player name.
    pub player: Option<String>,
    /// Where that role holds; events of streams outside it are not delivered.
    pub scope: Scope,
    /// Which events.
    pub filters: Filters,
    /// The token that created it (`token:<id>`).
    pub created_by: String,
    /// When.
    pub created_at: DateTime<Utc>,
    /// Delivering, paused or disabled.
    pub status: Status,
    /// Why Herald disabled it.
    pub disabled_reason: Option<String>,
    /// Since when every attempt failed (cleared by a success).
    pub failing_since: Option<DateTime<Utc>>,
    /// The current secret first, then rotated-out secrets still in their overlap.
    pub secrets: Vec<SigningSecret>,
    /// Deleted: its thread stops and it is no longer listed.
    #[serde(default)]
    pub deleted: bool,
}

impl SubscriptionRecord {
    /// The actor it reads as (`webhook:<id>`, with its role and player).
    pub fn actor(&self) -> herald_domain::Actor {
        herald_domain::Actor {
            id: format!("webhook:{}", self.id),
            role: self.role.clone(),
            player: self.player.clone(),
        }
    }

    /// The secrets that sign at `now`: the current one and those still in their overlap.
    pub fn signing_secrets(&self, now: DateTime<Utc>) -> Vec<&str> {
        self.secrets
            .iter()
            .filter(|secret| secret.expires_at.is_none_or(|expiry| expiry > now))
            .map(|secret| secret.secret.as_str())
            .collect()
    }

    /// Whether `event` is one this subscription delivers (its scope reaches the stream, the
    /// reader may read it, every filter matches).
    pub fn wants(&self, event: &RecordedEvent, catalog: &Catalog) -> bool {
        if event.stream == crate::auth::TOKENS_STREAM && !(self.role == Role::Admin && self.scope.is_host()) {
            return false;
        }
        if !self.scope.covers(&event.stream, catalog) {
            return false;
        }
        let filters = &self.filters;
        (filters.streams.is_empty() || filters.streams.contains(&event.stream))
            && filters
                .campaign
                .as_ref()
                .is_none_or(|campaign| Scope::Campaign(campaign.clone()).covers(&event.stream, catalog))
            && (filters.rulesets.is_empty()
                || registry::by_rules(&event.rules)
                    .is_some_and(|ruleset| filters.rulesets.iter().any(|id| id == ruleset_name(ruleset))))
            && (filters.types.is_empty() || filters.types.contains(&event.event_type))
    }

    /// The subscription as its admins see it (no secrets).
    pub fn view(&self, position: u64) -> SubscriptionView {
        SubscriptionView {
            id: self.id.clone(),
            url: self.url.clone(),
            description: self.description.clone(),
            role: self.role.clone(),
            player: self.player.clone(),
            scope: self.scope.clone(),
            filters: self.filters.clone(),
            created_by: self.created_by.clone(),
            created_at: self.created_at,
            status: self.status,
            disabled_reason: self.disabled_reason.clone(),
            failing_since: self.failing_since,
            position,
            secrets_in_use: self.signing_secrets(Utc::now()).len(),
        }
    }
}

/// A ruleset's name in filters: its `rules` without the version (`coalition-battle`).
pub fn ruleset_name(ruleset: &dyn herald_domain::AnyRuleset) -> &'static str {
    let rules = ruleset.rules();
    rules.split('@').next().unwrap_or(rules)
}

/// A subscription as its admins read it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "wh_0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f",
    "url": "https://bots.example.org/herald",
    "description": "forum poster",
    "role": "observer",
    "scope": "campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f",
    "filters": {"types": ["coalition.TurnAdjudicated"]},
    "created_by": "token:0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f",
    "created_at": "2026-11-27T03:00:00Z",
    "status": "active",
    "position": 42,
    "secrets_in_use": 1
}))]
pub struct SubscriptionView {
    /// `wh_` + a UUIDv7.
    pub id: String,
    /// Where events are POSTed.
    pub url: String,
    /// A note for admins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The role it reads as.
    pub role: Role,
    /// For a player reader: the player name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Where that role holds.
    pub scope: Scope,
    /// Which events it receives.
    pub filters: Filters,
    /// The token that created it.
    pub created_by: String,
    /// When.
    pub created_at: DateTime<Utc>,
    /// `active`, `paused` or `disabled`.
    pub status: Status,
    /// Why Herald disabled it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disabled_reason: Option<String>,
    /// Since when every attempt has failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failing_since: Option<DateTime<Utc>>,
    /// The position in `$all` of the next event it looks at (all before it were delivered or
    /// filtered out).
    pub position: u64,
    /// How many secrets sign each request now (2 during a rotation's overlap).
    pub secrets_in_use: usize,
}

/// One delivery attempt, as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeliveryAttempt {
    /// The request's `webhook-id`.
    pub webhook_id: String,
    /// The event's position in `$all`.
    pub position: u64,
    /// The event's type.
    pub event_type: String,
    /// When the attempt started.
    pub at: DateTime<Utc>,
    /// The target's status code, if it answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Milliseconds until the answer (or the failure).
    pub latency_ms: u64,
    /// What went wrong (a refused address, a timeout, a non-2xx status).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether this attempt delivered the event (a 2xx).
    pub delivered: bool,
}

fn refuse(code: &str, detail: String) -> ApiError {
    ApiError::Rule(herald_domain::RuleError::new(code, detail, RULE))
}

/// Every event type Herald can record: each ruleset's event union's `type` tags, and the
/// service's own (tokens, disputes, a judge's roll).
pub static EVENT_TYPES: LazyLock<BTreeSet<String>> = LazyLock::new(|| {
    let mut types: BTreeSet<String> =
        ["auth.TokenIssued", "auth.TokenRevoked", "herald.DisputeFiled", "herald.DisputeRuled", "dice.JudgeRolled"]
            .into_iter()
            .map(String::from)
            .collect();
    fn walk(value: &serde_json::Value, out: &mut BTreeSet<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(tag) = map.get("properties").and_then(|p| p.get("type")) {
                    for name in tag.get("enum").and_then(|e| e.as_array()).into_iter().flatten() {
                        if let Some(name) = name.as_str() {
                            out.insert(name.to_string());
                        }
                    }
                    if let Some(name) = tag.get("const").and_then(|c| c.as_str()) {
                        out.insert(name.to_string());
                    }
                }
                map.values().for_each(|v| walk(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    for ruleset in registry::all() {
        for (_, schema) in &ruleset.schemas().event.components {
            walk(schema, &mut types);
        }
    }
    types
});

/// Check filters against what exists: 422 `webhook.unknown_filter` naming the first unknown
/// value (nothing is stored).
pub fn check_filters(filters: &Filters, scope: &Scope, catalog: &Catalog) -> Result<(), ApiError> {
    let too_many =
        [("streams", filters.streams.len()), ("rulesets", filters.rulesets.len()), ("types", filters.types.len())]
            .into_iter()
            .find(|(_, len)| *len > MAX_FILTER_ITEMS);
    if let Some((name, len)) = too_many {
        return Err(ApiError::Malformed(format!("filters.{name} holds {len} values; at most {MAX_FILTER_ITEMS}")));
    }
    let unknown = |what: &str, value: &str, why: &str| {
        refuse("webhook.unknown_filter", format!("filters.{what}: {value:?} {why}"))
    };
    for stream in &filters.streams {
        if catalog.version_of(stream).is_none() && stream != crate::auth::TOKENS_STREAM {
            return Err(unknown("streams", stream, "is no stream of this host"));
        }
        if !scope.covers(stream, catalog) {
            return Err(unknown("streams", stream, &format!("is outside the subscription's scope {scope}")));
        }
    }
    if let Some(campaign) = &filters.campaign {
        if StreamKind::of(campaign) != Some(StreamKind::Campaign) || catalog.version_of(campaign).is_none() {
            return Err(unknown("campaign", campaign, "is no campaign of this host"));
        }
        if !scope.covers(campaign, catalog) {
            return Err(unknown("campaign", campaign, &format!("is outside the subscription's scope {scope}")));
        }
    }
    for id in &filters.rulesets {
        if !registry::all().any(|ruleset| ruleset_name(ruleset) == id) {
            let known: Vec<&str> = registry::all().map(ruleset_name).collect();
            return Err(unknown("rulesets", id, &format!("is no ruleset (known: {})", known.join(", "))));
        }
    }
    for event_type in &filters.types {
        if !EVENT_TYPES.contains(event_type) {
            return Err(unknown("types", event_type, "is no event type Herald records"));
        }
    }
    Ok(())
}

/// A fresh signing secret: `whsec_` + base64 of 32 bytes of OS randomness.
pub fn generate_secret() -> Result<String, ApiError> {
    use base64::Engine;
    use rand_core::{OsRng, TryRngCore};
    let mut bytes = [0u8; 32];
    OsRng.try_fill_bytes(&mut bytes).map_err(|error| ApiError::internal(anyhow::anyhow!("OS randomness: {error}")))?;
    Ok(format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(bytes)))
}

/// The delay before retry `n` (1 for the first retry): [`RETRY_BASE`] doubled `n - 1` times,
/// at most [`RETRY_MAX`], then scaled by `jitter` (0.8–1.2, drawn per retry).
pub fn retry_delay(n: u32, jitter: f64) -> Duration {
    let doubled = RETRY_BASE.saturating_mul(2u32.saturating_pow(n.saturating_sub(1).min(20)));
    doubled.min(RETRY_MAX).mul_f64(jitter.clamp(0.8, 1.2))
}

/// A metric family: name, kind, help and how to read it from [`Figures`].
type Family = (&'static str, &'static str, &'static str, fn(&Figures) -> u64);

/// Per-subscription figures for `/metrics`.
#[derive(Debug, Default, Clone, Copy)]
pub struct Figures {
    /// Events delivered (2xx).
    pub delivered: u64,
    /// Attempts that failed.
    pub failed: u64,
    /// Events of `$all` after its position (what it has yet to look at).
    pub lag: u64,
}

/// The subscriptions: their records, positions and logs in the store, one lock for every
/// read-modify-write of a record on this instance, the redeliveries asked for, the figures.
#[derive(Debug, Default)]
pub struct Webhooks {
    /// Where targets may point.
    pub settings: WebhookSettings,
    lock: Mutex<()>,
    redeliver: Mutex<HashMap<String, VecDeque<u64>>>,
    figures: Mutex<HashMap<String, Figures>>,
    stopped: std::sync::atomic::AtomicBool,
    /// This process, as the holder of subscriptions' leases.
    instance: String,
}

fn decode<T: serde::de::DeserializeOwned>(key: &str, bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|error| ApiError::internal(anyhow::anyhow!("stored {key} does not decode: {error}")))
}

impl Webhooks {
    /// The registry with these settings.
    pub fn new(settings: WebhookSettings) -> Self {
        Self { settings, instance: uuid::Uuid::now_v7().to_string(), ..Self::default() }
    }

    /// Take or renew this instance's lease on delivering subscription `id`: with several
    /// instances on one PostgreSQL log, one delivers a subscription at a time, and another takes
    /// over [`LEASE`] after the holder stops renewing (it renews before every page and attempt).
    pub fn lease(&self, store: &dyn EventStore, id: &str) -> bool {
        match store.try_lease(&format!("webhook:{id}"), &self.instance, LEASE) {
            Ok(held) => held,
            Err(error) => {
                tracing::warn!(%error, subscription = id, "cannot take a webhook lease");
                false
            }
        }
    }

    fn guard(&self) -> std::sync::MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Stop every delivery thread (at the server's stop: they hold the state, and so the store).
    pub fn stop(&self) {
        self.stopped.store(true, std::sync::atomic::Ordering::Release);
    }

    /// Whether the server is stopping.
    pub fn stopped(&self) -> bool {
        self.stopped.load(std::sync::atomic::Ordering::Acquire)
    }

    /// A subscription (deleted ones too: the worker must see its deletion).
    pub fn get(&self, store: &dyn EventStore, id: &str) -> Result<Option<SubscriptionRecord>, ApiError> {
        let key = format!("{RECORD}{id}");
        store.get_secret(&key)?.map(|bytes| decode(&key, &bytes)).transpose()
    }

    /// Every subscription not deleted.
    pub fn list(&self, store: &dyn EventStore) -> Result<Vec<SubscriptionRecord>, ApiError> {
        let mut found = Vec::new();
        let mut failure = None;
        store.scan_secrets(&mut |key, bytes| {
            if key.starts_with(RECORD) {
                match decode::<SubscriptionRecord>(key, bytes) {
                    Ok(record) if !record.deleted => found.push(record),
                    Ok(_) => {}
                    Err(error) => failure = Some(error),
                }
            }
            std::ops::ControlFlow::Continue(())
        })?;
        match failure {
            Some(error) => Err(error),
            None => Ok(found),
        }
    }

    /// Store a new subscription, starting at `position` (refused past [`MAX_SUBSCRIPTIONS`]).
    pub fn create(&self, store: &dyn EventStore, record: &SubscriptionRecord, position: u64) -> Result<(), ApiError> {
        let _guard = self.guard();
        if self.list(store)?.len() >= MAX_SUBSCRIPTIONS {
            return Err(refuse(
                "webhook.too_many",
                format!("this host keeps at most {MAX_SUBSCRIPTIONS} subscriptions; delete one first"),
            ));
        }
        self.set_position(store, &record.id, position)?;
        self.put(store, record)
    }

    fn put(&self, store: &dyn EventStore, record: &SubscriptionRecord) -> Result<(), ApiError> {
        let bytes = serde_json::to_vec(record).map_err(ApiError::internal)?;
        store.put_secret(&format!("{RECORD}{}", record.id), &bytes)?;
        Ok(())
    }

    /// Change a subscription under the lock; `None` when there is none (or it was deleted).
    pub fn update(
        &self,
        store: &dyn EventStore,
        id: &str,
        change: impl FnOnce(&mut SubscriptionRecord) -> Result<(), ApiError>,
    ) -> Result<Option<SubscriptionRecord>, ApiError> {
        let _guard = self.guard();
        let Some(mut record) = self.get(store, id)?.filter(|record| !record.deleted) else { return Ok(None) };
        change(&mut record)?;
        self.put(store, &record)?;
        Ok(Some(record))
    }

    /// The next position of `$all` the subscription looks at.
    pub fn position(&self, store: &dyn EventStore, id: &str) -> Result<u64, ApiError> {
        let key = format!("{POSITION}{id}");
        Ok(match store.get_secret(&key)? {
            Some(bytes) => std::str::from_utf8(&bytes)
                .ok()
                .and_then(|text| text.parse().ok())
                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("stored {key} is no position")))?,
            None => 0,
        })
    }

    /// Save the next position (after a 2xx, or past events the subscription does not want).
    pub fn set_position(&self, store: &dyn EventStore, id: &str, position: u64) -> Result<(), ApiError> {
        store.put_secret(&format!("{POSITION}{id}"), position.to_string().as_bytes())?;
        Ok(())
    }

    /// Move the position from `from` to `to`, unless it is no longer `from` (an admin's replay
    /// moved it meanwhile): false then, and nothing is written.
    pub fn advance(&self, store: &dyn EventStore, id: &str, from: u64, to: u64) -> Result<bool, ApiError> {
        let _guard = self.guard();
        if self.position(store, id)? != from {
            return Ok(false);
        }
        self.set_position(store, id, to)?;
        Ok(true)
    }

    /// Replay from `position` (an admin's request): the delivery thread continues there.
    pub fn replay(&self, store: &dyn EventStore, id: &str, position: u64) -> Result<(), ApiError> {
        let _guard = self.guard();
        self.set_position(store, id, position)
    }

    /// The delivery log, oldest first.
    pub fn attempts(&self, store: &dyn EventStore, id: &str) -> Result<Vec<DeliveryAttempt>, ApiError> {
        let key = format!("{LOG}{id}");
        Ok(match store.get_secret(&key)? {
            Some(bytes) => decode(&key, &bytes)?,
            None => Vec::new(),
        })
    }

    /// Log an attempt (the log keeps the last [`LOG_LEN`]) and count it.
    pub fn log(&self, store: &dyn EventStore, id: &str, attempt: DeliveryAttempt) -> Result<(), ApiError> {
        {
            let mut figures = self.figures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let figures = figures.entry(id.to_string()).or_default();
            if attempt.delivered {
                figures.delivered += 1;
            } else {
                figures.failed += 1;
            }
        }
        let mut log = self.attempts(store, id)?;
        log.push(attempt);
        let excess = log.len().saturating_sub(LOG_LEN);
        log.drain(..excess);
        store.put_secret(&format!("{LOG}{id}"), &serde_json::to_vec(&log).map_err(ApiError::internal)?)?;
        Ok(())
    }

    /// Record how far behind the head a subscription is.
    pub fn set_lag(&self, id: &str, lag: u64) {
        let mut figures = self.figures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        figures.entry(id.to_string()).or_default().lag = lag;
    }

    /// Every subscription's figures, by id.
    pub fn figures(&self) -> Vec<(String, Figures)> {
        let figures = self.figures.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut all: Vec<(String, Figures)> = figures.iter().map(|(id, f)| (id.clone(), *f)).collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    /// The figures in the Prometheus text format, for `/metrics` (docs/WEBHOOKS.md "Metrics").
    pub fn exposition(&self) -> String {
        let figures = self.figures();
        let mut text = String::new();
        let families: [Family; 3] = [
            ("herald_webhook_delivered_total", "counter", "events delivered (2xx) by subscription", |f| f.delivered),
            ("herald_webhook_failed_total", "counter", "failed delivery attempts by subscription", |f| f.failed),
            ("herald_webhook_lag_events", "gauge", "events of $all after a subscription's position", |f| f.lag),
        ];
        for (name, kind, help, value) in families {
            text.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n"));
            for (id, figures) in &figures {
                text.push_str(&format!("{name}{{subscription=\"{id}\"}} {}\n", value(figures)));
            }
        }
        text
    }

    /// Forget a deleted subscription's figures.
    pub fn forget(&self, id: &str) {
        self.figures.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(id);
    }

    /// Ask for the event at `position` to be sent again (with the same `webhook-id`).
    pub fn request_redelivery(&self, id: &str, position: u64) {
        self.redeliver
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .entry(id.to_string())
            .or_default()
            .push_back(position);
    }

    /// The next redelivery asked for.
    pub fn next_redelivery(&self, id: &str) -> Option<u64> {
        self.redeliver.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get_mut(id).and_then(VecDeque::pop_front)
    }
}

/// The `webhook-id` of an event's delivery to a subscription: the same on every retry and
/// redelivery, so receivers drop duplicates by it.
pub fn webhook_id(subscription: &str, event: &RecordedEvent) -> String {
    format!("msg_{}_{}", subscription.trim_start_matches("wh_"), event.id.simple())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_retry_schedule_doubles_from_a_second_up_to_ten_minutes() {
        let delays: Vec<u64> = (1..=12).map(|n| retry_delay(n, 1.0).as_secs()).collect();
        assert_eq!(delays, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600]);
        assert_eq!(retry_delay(3, 1.2), Duration::from_millis(4800));
        assert_eq!(retry_delay(3, 5.0), Duration::from_millis(4800), "jitter is clamped");
    }

    #[test]
    fn every_rulesets_event_types_are_known() {
        for name in ["coalition.BattleResolved", "coalition.StrategySubmitted", "auth.TokenIssued"] {
            assert!(EVENT_TYPES.contains(name), "{name} in {:?}", EVENT_TYPES.iter().take(20).collect::<Vec<_>>());
        }
        assert!(!EVENT_TYPES.contains("coalition.Nothing"));
    }
}
