//! The state every handler runs in, built once by start-up (`startup`) and shared by reference:
//! the application service, the token registry, metrics, the store for reads, live readers and
//! rendered views. Its own layer, above the service and below authentication and the routes, so
//! that everything which needs the state can reach it without reaching start-up.

use std::sync::Arc;

use herald_store::EventStore;

use crate::{app::Service, auth::Tokens, metrics::Metrics};

/// Shared state of every handler.
pub struct AppState {
    /// The application service.
    pub service: Service,
    /// Issued tokens.
    pub tokens: Tokens,
    /// Metrics.
    pub metrics: Metrics,
    /// The store, for reads.
    pub store: Arc<dyn EventStore>,
    /// Whether start-up is over: the read models caught up and the follow-ups a crash may have
    /// left undone completed. Until then `/v1` answers 503.
    pub ready: std::sync::atomic::AtomicBool,
    /// Open live event streams, and their limits.
    pub live: Arc<crate::live::LiveReaders>,
    /// Who may read `/metrics`.
    pub metrics_exposure: crate::config::MetricsExposure,
    /// Rendered current views, by stream, version and reader.
    pub views: crate::views::Views,
    /// The bound of sled's page cache, in bytes (`None` with PostgreSQL), for `/metrics`.
    pub store_cache_capacity: Option<u64>,
    /// Webhook subscriptions (`webhooks/`), delivered by `webhooks/worker.rs`.
    pub webhooks: crate::webhooks::Webhooks,
}

/// The request id of the current request (client's `X-Request-Id` or a fresh UUIDv7).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);
