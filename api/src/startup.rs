//! Building and running the application: a server that tests can start on port 0.

use std::{net::TcpListener, sync::Arc, time::Instant};

use actix_web::{
    dev::{Server, Service as _},
    http::header::{HeaderName, HeaderValue},
    web, App, HttpMessage, HttpServer,
};
use herald_projections::Catalog;
use herald_store::EventStore;
use tracing::Instrument;

use crate::{
    app::Service,
    auth::Tokens,
    config::Settings,
    metrics::Metrics,
    problem,
    snapshots::{Snapshots, SAVE_EVERY},
    state::{AppState, RequestId},
    store::StoreLocation,
};

/// A built, bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
    /// Kept to save the read models once the server has stopped.
    state: web::Data<AppState>,
    snapshots: Arc<Snapshots>,
}

impl Application {
    /// Open the store, load tokens and bind the listener; the read models catch up with the log
    /// in the background (`/readyz` and every `/v1` route answer 503 "catching up" until then).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        // Request bodies are checked for unknown fields against the document clients are
        // generated from; the check sits below the routes, so it is handed the document here.
        crate::unknown_fields::install(crate::openapi::spec_value);
        let location = StoreLocation::from_settings(&settings)?;
        let opening = location.clone();
        let reserve = settings.storage_reserve_mb.saturating_mul(1 << 20);
        let store_cache = settings.caches.store_mb.saturating_mul(1 << 20);
        let store: Arc<dyn EventStore> = web::block(move || opening.open_reserving(reserve, store_cache))
            .await?
            .map_err(|error| anyhow::anyhow!("cannot open the event log {}: {error:#}", location.describe()))?;
        let catalog = Arc::new(Catalog::new());
        let (tokens, generated) = Tokens::load(store.as_ref(), settings.admin_token.as_deref())?;
        if let Some(token) = generated {
            // Printed once, on the first start of a new data directory; only its hash is kept.
            println!("herald: generated admin token (shown only this once, keep it safe):\n  {token}");
        }
        let metrics = Metrics::new()?;
        store.observe_commits(metrics.commit_observer());
        let state = web::Data::new(AppState {
            service: Service::new(store.clone(), catalog.clone()).timing_appends(metrics.store_append.clone()),
            tokens,
            metrics,
            store,
            ready: std::sync::atomic::AtomicBool::new(false),
            live: crate::live::LiveReaders::new(
                settings.live_readers.total,
                settings.live_readers.per_token,
                settings.live_readers.anonymous,
            ),
            metrics_exposure: settings.metrics,
            views: crate::views::Views::new(settings.caches.views_mb.saturating_mul(1 << 20)),
            store_cache_capacity: matches!(location, StoreLocation::Sled(_)).then_some(store_cache),
            webhooks: crate::webhooks::Webhooks::new(settings.webhooks.clone()),
        });
        crate::webhooks::worker::start(state.clone());
        crate::http::check_origins(&settings.cors_origins)?;
        let cors_origins = settings.cors_origins.clone();
        let snapshots = Arc::new(Snapshots::new(crate::snapshots::dir_for(&location, &settings.data_dir)));
        catch_up_in_background(state.clone(), catalog, snapshots.clone());
        let listener = TcpListener::bind((settings.bind, settings.port)).map_err(|error| match error.kind() {
            std::io::ErrorKind::AddrInUse => anyhow::anyhow!(
                "{}:{} is already in use (another herald, or another program): stop it, or choose another \
                 --port (0 picks a free one)",
                settings.bind,
                settings.port
            ),
            std::io::ErrorKind::PermissionDenied => anyhow::anyhow!(
                "not allowed to listen on {}:{} (ports below 1024 need privileges): choose another --port",
                settings.bind,
                settings.port
            ),
            _ => anyhow::anyhow!("cannot listen on {}:{}: {error}", settings.bind, settings.port),
        })?;
        let port = listener.local_addr()?.port();
        tracing::info!(address = %settings.bind, port, store = %location.describe(), "herald listening");
        let app_state = state.clone();
        let server = HttpServer::new(move || {
            App::new()
                .app_data(app_state.clone())
                .app_data(problem::json_config())
                .app_data(problem::query_config())
                .app_data(problem::path_config())
                // Innermost: HEAD as GET, 304 on If-None-Match, Cache-Control and Vary.
                .wrap_fn(|mut req, srv| {
                    let (head, if_none_match) = crate::http::before(&mut req);
                    let response = srv.call(req);
                    async move { Ok(crate::http::after(response.await?, head, if_none_match.as_deref())) }
                })
                .wrap(actix_web::middleware::Compress::default())
                .wrap_fn(|mut req, srv| {
                    if crate::http::uncompressed(&req) {
                        req.headers_mut().remove(actix_web::http::header::ACCEPT_ENCODING);
                    }
                    srv.call(req)
                })
                .wrap_fn(|req, srv| {
                    let catching_up = catching_up(&req);
                    let started = Instant::now();
                    let request_id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .filter(|v| !v.is_empty() && v.len() <= 128)
                        .map(str::to_string)
                        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
                    req.extensions_mut().insert(RequestId(request_id.clone()));
                    let method = req.method().to_string();
                    let state = req.app_data::<web::Data<AppState>>().cloned();
                    let span = tracing::info_span!("request", request_id = %request_id, %method, path = %req.path());
                    let response = match catching_up {
                        None => futures_util::future::Either::Left(futures_util::FutureExt::map(
                            srv.call(req),
                            |response| response.map(actix_web::dev::ServiceResponse::map_into_boxed_body),
                        )),
                        Some(detail) => {
                            let (request, _) = req.into_parts();
                            let busy =
                                actix_web::ResponseError::error_response(&problem::ApiError::Unavailable(detail));
                            let response = actix_web::dev::ServiceResponse::new(request, busy);
                            futures_util::future::Either::Right(futures_util::future::ok(response))
                        }
                    };
                    async move {
                        let mut response = response.await?;
                        let status = response.status();
                        // Asked once routed: actix then finds the pattern by the resource that
                        // matched, where before routing it tries every route's regex again.
                        let route = response.request().match_pattern().unwrap_or_else(|| "(unmatched)".into());
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
                        let elapsed_ms = started.elapsed().as_millis() as u64;
                        // A 5xx is the service's fault and needs a look; everything else is the
                        // client's business (a write's own line says which rule refused it).
                        if status.is_server_error() && status != actix_web::http::StatusCode::SERVICE_UNAVAILABLE {
                            tracing::error!(status = status.as_u16(), elapsed_ms, "handled");
                        } else {
                            tracing::info!(status = status.as_u16(), elapsed_ms, "handled");
                        }
                        Ok(response)
                    }
                    .instrument(span)
                })
                // Outermost: CORS, so preflights and every answer (errors too) carry its headers.
                .wrap(actix_web::middleware::Condition::new(!cors_origins.is_empty(), crate::http::cors(&cors_origins)))
                .configure(crate::router::configure)
        })
        // A live reader's connection, so that its stream can see the client go away (`live.rs`).
        .on_connect(crate::live::remember_connection)
        // Long-lived SSE connections would otherwise hold a graceful stop for actix's default 30 s.
        .shutdown_timeout(5)
        .listen(listener)?
        .run();
        Ok(Self { port, server, state, snapshots })
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
    ///
    /// Once stopped, the read models are saved if they folded anything since the last save, so
    /// the next start reads them instead of folding the log (a crash skips this: the next start
    /// folds from the last save on).
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.server.await?;
        let (state, snapshots) = (self.state, self.snapshots);
        // The webhook threads hold the state (and so the store): they end within a moment.
        state.webhooks.stop();
        if state.ready.load(std::sync::atomic::Ordering::Acquire) {
            web::block(move || snapshots.save_if_behind(state.store.as_ref(), state.service.catalog(), 1)).await?;
        }
        Ok(())
    }
}

/// Fold the whole log into the read models on a thread of its own, logging progress, so the
/// port is open (and `/healthz` and `/readyz` answer) from the first moment; complete the
/// follow-ups a crash may have left undone; then keep folding what other processes append
/// ([`follow`]).
fn catch_up_in_background(state: web::Data<AppState>, catalog: Arc<Catalog>, snapshots: Arc<Snapshots>) {
    let spawned = std::thread::Builder::new().name("catch-up".into()).spawn(move || {
        let store = state.store.clone();
        let started = Instant::now();
        snapshots.restore(store.as_ref(), &catalog);
        let head = store.head_position().ok().flatten().map_or(0, |position| position + 1);
        tracing::info!(events = head, "catching up with the log");
        let mut last_log = Instant::now();
        loop {
            let mut progress = |folded: u64| {
                if last_log.elapsed() >= std::time::Duration::from_secs(1) {
                    tracing::info!(folded, of = head, "catching up with the log");
                    last_log = Instant::now();
                }
            };
            match catalog.catch_up_reporting(store.as_ref(), &mut progress) {
                Ok(_) => break,
                Err(error) => {
                    tracing::error!(%error, "catching up failed; retrying in a second");
                    std::thread::sleep(std::time::Duration::from_secs(1));
                }
            }
        }
        loop {
            match state.service.complete_follow_ups() {
                Ok(0) => break,
                Ok(done) => {
                    tracing::warn!(done, "completed follow-ups a crash had left undone (seed reveals, battles opened)");
                    break;
                }
                Err(error) => {
                    tracing::error!(%error, "completing follow-ups failed; retrying in a second");
                    std::thread::sleep(std::time::Duration::from_secs(1));
                }
            }
        }
        state.ready.store(true, std::sync::atomic::Ordering::Release);
        // A long catch-up is saved at once: the next start, even after a crash, skips it.
        snapshots.save_if_behind(store.as_ref(), &catalog, SAVE_EVERY);
        tracing::info!(
            events = catalog.folded(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "caught up: ready"
        );
        let (weak, head) = (Arc::downgrade(&store), store.watch_head());
        // Following must not keep the store open: a stopped server's store closes (and its
        // sled lock is released) once the app's state is gone.
        drop(store);
        drop(state);
        follow(weak, head, &catalog, &snapshots);
    });
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start the catch-up thread");
    }
}

/// While the read models are catching up after a start, `/v1` answers 503 (anything it said
/// would be stale, and a write would decide on a state that is not the stream's): the detail
/// says how far it is. Health, readiness, metrics and the docs answer at once.
fn catching_up(req: &actix_web::dev::ServiceRequest) -> Option<String> {
    if !req.path().starts_with("/v1/") {
        return None;
    }
    let state = req.app_data::<web::Data<AppState>>()?;
    let catalog = state.service.catalog();
    if state.ready.load(std::sync::atomic::Ordering::Acquire) {
        return None;
    }
    let head = state.store.head_position().ok().flatten().map_or(0, |position| position + 1);
    Some(format!("catching up with the log after a start: {} of {head} events folded; retry shortly", catalog.folded()))
}

/// Longest time the read models go without looking for appends they were not told of.
const FOLLOW_POLL: std::time::Duration = std::time::Duration::from_secs(1);

/// How long the follower of a store only this process writes (sled) leaves its commands to fold
/// what they appended before it reads the log itself (a command folds its own events before it
/// answers; docs/adr/0008).
const OWN_FOLDS: std::time::Duration = std::time::Duration::from_millis(20);

/// Fold appends made by other processes sharing the log (PostgreSQL) as the store hears of them
/// (its head watch), and at least every [`FOLLOW_POLL`]: a write through another instance is
/// readable here after that lag at most (docs/adr/0001). This process's own appends are folded
/// by the service before it answers, so this is usually a no-op for them; on a store no other
/// process writes, the follower gives them [`OWN_FOLDS`] to do it before it looks. Holds the
/// store only while folding, so a stopped server's store closes; ends when the store is gone.
fn follow(
    store: std::sync::Weak<dyn EventStore>,
    mut head: tokio::sync::watch::Receiver<Option<u64>>,
    catalog: &Catalog,
    snapshots: &Snapshots,
) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_time().build() else {
        tracing::error!("cannot start the read models' follower: other processes' appends are folded only on demand");
        return;
    };
    // Only this process appends to a local store: what moves its head is (nearly always) a
    // command of its own, folding its events itself.
    let Some(local) = store.upgrade().map(|store| store.reads_are_local()) else { return };
    loop {
        let heard = runtime.block_on(async { tokio::time::timeout(FOLLOW_POLL, head.changed()).await });
        if matches!(heard, Ok(Err(_))) {
            return; // The store is closed.
        }
        let last = *head.borrow_and_update();
        let behind = || last.is_some_and(|last| last >= catalog.folded());
        if local && heard.is_ok() && behind() {
            // The head moves at every group commit of this process's own commands, which fold
            // their events themselves before they answer: reading them back here too raced them
            // (5% of the server's CPU creating battles). What is still not folded after a moment
            // (an append outside the command path) is folded now. On a shared store (PostgreSQL)
            // the follower does not wait: another instance's writes are read here as soon as heard.
            runtime.block_on(async { tokio::time::sleep(OWN_FOLDS).await });
        }
        let Some(store) = store.upgrade() else { return };
        if behind() || heard.is_err() {
            if let Err(error) = catalog.catch_up(store.as_ref()) {
                tracing::warn!(%error, "following the log failed; trying again");
            }
        }
        snapshots.save_if_behind(store.as_ref(), catalog, SAVE_EVERY);
    }
}
