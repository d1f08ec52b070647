//! Helpers for black-box tests: [`spawn_app`] starts the real Herald application on a random
//! port with a fresh temporary data directory and returns a [`TestApp`] that talks HTTP to it.
//!
//! Tracing output is shown only when `TEST_LOG` is set.

use std::path::{Path, PathBuf};

use actix_web::dev::ServerHandle;
use herald_api::{config::Settings, startup::Application};
use serde_json::{json, Value};

/// The admin token every test app is started with.
pub const ADMIN_TOKEN: &str = "test-admin-token";

/// A running app and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// The data directory (kept alive by `_dir` unless the test passed its own).
    pub data_dir: PathBuf,
    /// An HTTP client.
    pub client: reqwest::Client,
    handle: ServerHandle,
    task: Option<tokio::task::JoinHandle<()>>,
    _dir: Option<tempfile::TempDir>,
}

/// A response: status, headers and body (JSON when it parses, else a string).
#[derive(Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body as JSON (`Value::String` holding the text when it is not JSON).
    pub body: Value,
}

impl Reply {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
    }
}

/// Start the app with a fresh temporary data directory.
pub async fn spawn_app() -> TestApp {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().to_path_buf();
    let mut app = spawn_app_in(&path).await;
    app._dir = Some(dir);
    app
}

/// Start the app on an existing data directory (used to restart on the same data).
pub async fn spawn_app_in(data_dir: &Path) -> TestApp {
    spawn_with_store(data_dir, None, |_| {}).await
}

/// Start the app on an existing data directory with settings changed by `configure` (a restart
/// with other settings).
pub async fn spawn_app_in_with(data_dir: &Path, configure: impl Fn(&mut Settings)) -> TestApp {
    spawn_with_store(data_dir, None, configure).await
}

/// Start the app with a fresh temporary data directory and settings changed by `configure`
/// (`metrics`, limits…).
pub async fn spawn_app_with(configure: impl Fn(&mut Settings)) -> TestApp {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut app = spawn_with_store(dir.path(), None, configure).await;
    app._dir = Some(dir);
    app
}

/// Start the app on a shared event log (`--store`, e.g. a PostgreSQL URL): one of several
/// instances serving the same campaigns.
pub async fn spawn_app_on_store(store: &str) -> TestApp {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut app = spawn_with_store(dir.path(), Some(store), |_| {}).await;
    app._dir = Some(dir);
    app
}

async fn spawn_with_store(data_dir: &Path, store: Option<&str>, configure: impl Fn(&mut Settings)) -> TestApp {
    if std::env::var_os("TEST_LOG").is_some() {
        herald_api::telemetry::init(Default::default(), "debug");
    }
    let mut settings = Settings {
        data_dir: data_dir.to_path_buf(),
        store: store.map(str::to_string),
        port: 0,
        admin_token: Some(ADMIN_TOKEN.to_string()),
        ..Settings::default()
    };
    configure(&mut settings);
    // A restart may find the previous server's store still closing (its writer thread releases
    // sled's lock when it ends): try again for a while instead of guessing a pause.
    let mut attempts = 0;
    let app = loop {
        match Application::build(settings.clone()).await {
            Ok(app) => break app,
            Err(error) if attempts < 200 && error.to_string().contains("cannot open the event log") => {
                attempts += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(error) => panic!("the app builds: {error:#}"),
        }
    };
    let address = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    let task = tokio::spawn(async move {
        let _ = app.run_until_stopped().await;
    });
    let app = TestApp {
        address,
        data_dir: data_dir.to_path_buf(),
        // A fresh connection per request: a pooled one the server is closing (its keep-alive ran
        // out while a slow test parsed a large answer) would fail the next request at random.
        client: reqwest::Client::builder().pool_max_idle_per_host(0).build().expect("an HTTP client"),
        handle,
        task: Some(task),
        _dir: None,
    };
    app.wait_until_caught_up().await;
    app
}

impl TestApp {
    /// Wait until the read models have caught up with the log after the start (`/readyz` says
    /// `catching_up` until then and `/v1` answers 503).
    pub async fn wait_until_caught_up(&self) {
        for _ in 0..3000 {
            let reply = self.request("GET", "/readyz", None, None).await;
            if reply.body["status"] != "catching_up" {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("the read models did not catch up within 30 s");
    }

    /// Stop the server and wait until it has released the data directory.
    ///
    /// A graceful stop saves the read models (api/src/snapshots.rs); every test that stops its
    /// app this way checks that the save worked for whatever it played (every ruleset's states
    /// survive being saved and read back, or no snapshot is written).
    pub async fn stop(mut self) -> Option<tempfile::TempDir> {
        let ready = self.request("GET", "/readyz", None, None).await;
        let had_events = ready.body["status"] == "ready" && ready.body["head"].is_u64();
        self.handle.stop(true).await;
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        if had_events {
            let saved = self.data_dir.join("read-models").join("read-models.json");
            let text = std::fs::read_to_string(&saved)
                .unwrap_or_else(|error| panic!("the read models were not saved at the stop ({error}): see the log"));
            let snapshot: Value = serde_json::from_str(&text).expect("the snapshot is JSON");
            assert!(snapshot["catalog"]["checkpoint"].is_u64(), "a snapshot of the log: {snapshot:#}");
        }
        self._dir.take()
    }

    /// Keep `dir` (a data directory taken from an earlier app) alive as long as this app.
    pub fn keep(&mut self, dir: Option<tempfile::TempDir>) {
        if dir.is_some() {
            self._dir = dir;
        }
    }

    /// Stop the server without waiting for open connections to finish (graceful shutdown waits
    /// up to 30 s for long-lived responses such as Server-Sent Events).
    pub async fn stop_now(mut self) -> Option<tempfile::TempDir> {
        self.handle.stop(false).await;
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        self._dir.take()
    }

    /// Stop and start again on the same data directory.
    pub async fn restart(self) -> TestApp {
        let data_dir = self.data_dir.clone();
        let dir = self.stop().await;
        // The store's writer thread releases sled's lock when it is dropped; give it a moment.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let mut app = spawn_app_in(&data_dir).await;
        app._dir = dir;
        app
    }

    /// Send a request. `token` is the bearer token (none when `None`); `body` is JSON.
    pub async fn request(&self, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Reply {
        self.request_with(method, path, token, body, &[]).await
    }

    /// Send a request with extra headers.
    pub async fn request_with(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("an HTTP method");
        let mut request = self.client.request(method, format!("{}{path}", self.address));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("the request is sent");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply { status, headers, body }
    }

    /// Send a raw body with a content type (for malformed-JSON tests).
    pub async fn post_raw(&self, path: &str, token: Option<&str>, content_type: &str, body: &str) -> Reply {
        let mut request = self
            .client
            .post(format!("{}{path}", self.address))
            .header("content-type", content_type)
            .body(body.to_string());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("the request is sent");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("a body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply { status, headers, body }
    }

    /// Issue a token with `role` (and `player` for players) using the admin token.
    pub async fn token(&self, role: &str, player: Option<&str>) -> String {
        let reply =
            self.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(json!({"role": role, "player": player}))).await;
        assert_eq!(reply.status, 201, "token issued: {:?}", reply.body);
        reply.body["token"].as_str().expect("a token").to_string()
    }
}

/// A small battle between Sai Rei (Coalition, alice) and the Plague Host (Phyrexia, bob).
pub fn sample_battle(deadline: &str, seed: Option<&str>) -> Value {
    json!({
        "armies": {
            "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
                  "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000},
                            {"creature": "Grizzly Bears", "colors": ["green"], "power": 2, "toughness": 2, "troops": 2500}]},
            "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
                  "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000},
                            {"creature": "Phyrexian Ghoul", "colors": ["black"], "power": 2, "toughness": 2, "troops": 2500}]}
        },
        "engagement": {"kind": "attack", "attacker": "a"},
        "terrain": "plains",
        "strategy_deadline": deadline,
        "seed": seed,
    })
}
