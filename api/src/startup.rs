//! Building and running the application: a server that tests can start on port 0.

use std::{net::TcpListener, sync::Arc, time::Instant};

use actix_web::{
    dev::{Server, Service as _},
    http::header::{HeaderName, HeaderValue},
    web, App, HttpMessage, HttpServer,
};
use herald_projections::Catalog;
use herald_store::{EventStore, SledStore};
use tracing::Instrument;

use crate::{app::Service, auth::Tokens, config::Settings, metrics::Metrics, problem};

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
}

/// The request id of the current request (client's `X-Request-Id` or a fresh UUIDv7).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// A built, bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Open the store, rebuild projections, load tokens and bind the listener.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let data_dir = settings.data_dir.clone();
        let store: Arc<dyn EventStore> =
            Arc::new(web::block(move || SledStore::open(&data_dir)).await?.map_err(|error| {
                anyhow::anyhow!("cannot open the event log in {}: {error}", settings.data_dir.display())
            })?);
        let rebuild_store = store.clone();
        let catalog = Arc::new(web::block(move || Catalog::rebuild(rebuild_store.as_ref())).await??);
        let (tokens, generated) = Tokens::load(store.as_ref(), settings.admin_token.as_deref())?;
        if let Some(token) = generated {
            // Printed once, on the first start of a new data directory; only its hash is kept.
            println!("herald: generated admin token (shown only this once, keep it safe):\n  {token}");
        }
        let state = web::Data::new(AppState {
            service: Service::new(store.clone(), catalog),
            tokens,
            metrics: Metrics::new()?,
            store,
        });
        let listener = TcpListener::bind((settings.bind, settings.port))?;
        let port = listener.local_addr()?.port();
        tracing::info!(address = %settings.bind, port, data_dir = %settings.data_dir.display(), "herald listening");
        let server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .app_data(problem::json_config())
                .app_data(problem::query_config())
                .app_data(problem::path_config())
                .wrap_fn(|req, srv| {
                    let started = Instant::now();
                    let request_id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .filter(|v| !v.is_empty() && v.len() <= 128)
                        .map(str::to_string)
                        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
                    req.extensions_mut().insert(RequestId(request_id.clone()));
                    let route = req.match_pattern().unwrap_or_else(|| "(unmatched)".into());
                    let method = req.method().to_string();
                    let state = req.app_data::<web::Data<AppState>>().cloned();
                    let span = tracing::info_span!("request", request_id = %request_id, %method, path = %req.path());
                    let response = srv.call(req);
                    async move {
                        let mut response = response.await?;
                        let status = response.status();
                        if let Ok(value) = HeaderValue::from_str(&request_id) {
                            response.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
                        }
                        if let Some(state) = state {
                            state.metrics.requests.with_label_values(&[&route, &method, status.as_str()]).inc();
                            state
                                .metrics
                                .latency
                                .with_label_values(&[&route, &method])
                                .observe(started.elapsed().as_secs_f64());
                        }
                        tracing::info!(
                            status = status.as_u16(),
                            elapsed_ms = started.elapsed().as_millis() as u64,
                            "handled"
                        );
                        Ok(response)
                    }
                    .instrument(span)
                })
                .configure(crate::routes::configure)
        })
        // Long-lived SSE connections would otherwise hold a graceful stop for actix's default 30 s.
        .shutdown_timeout(5)
        .listen(listener)?
        .run();
        Ok(Self { port, server })
    }

    /// The port actually bound (useful with port 0).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server (tests use it to restart on the same data directory).
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serve until stopped (Ctrl-C or SIGTERM stop it gracefully).
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.server.await?;
        Ok(())
    }
}
