//! Memory under a long realistic load, against the real `herald` binary (issue 27, item 4:
//! "memory follows data, not uptime").
//!
//! ```sh
//! cargo bench -p herald-api --bench soak                       # release build; 3 minutes of load
//! HERALD_SOAK_SECS=60 HERALD_SOAK_EVERY=5 cargo bench -p herald-api --bench soak
//! HERALD_SOAK_ARGS="--sled-cache-mb 1024" cargo bench -p herald-api --bench soak   # other settings
//! ```
//!
//! 16 clients (`HERALD_SOAK_CLIENTS`) write a realistic mix for `HERALD_SOAK_SECS` seconds
//! (default 180): coalition battles played through (entropy, sealed strategies, bonuses, the
//! resolution, the seed revealed), battles of the four other rulesets with a judge's rolls on
//! them, a campaign per client whose turns are opened, locked and adjudicated with rolls between,
//! and the reads a table makes between its writes (views as a player, a judge and the public,
//! pictures, stream events, `$all` pages, the dice ledger, verification, a short live reader).
//! Every `HERALD_SOAK_EVERY` seconds (default 10) it prints the server's resident memory (VmRSS of
//! the server process, from `/proc/<pid>/status`), the log's size and the caches' sizes from
//! `/metrics`. Then it stops the server gracefully and starts it again on the same log, twice: once
//! reading the read models it saved, once folding the whole log again (the saved read models
//! moved aside); it prints the memory of each once ready, the ratio live / restarted (goal
//! ≤ 1.5×) and how much the memory grew over the second half of the load (flat once the caches
//! are full). The first restart is measured twice: once ready (cold caches), and again after it
//! has served the reads the load made of every stream it created (views as the three readers,
//! events, dice, pictures) and a page-through of the whole log, so that its caches are as full as
//! the live server's — the like-for-like figure, since a restarted host serves the same reads. `HERALD_SOAK_ARGS` passes server flags (split on spaces) to every start, to compare
//! settings; `MALLOC_ARENA_MAX` and `HERALD_MALLOC_TRIM_SECS` reach the server too (the
//! allocator's settings, `api/src/allocator.rs`); `HERALD_LOAD_BIN` serves from another build. Run as a test or in a debug build it
//! loads for 3 s as a quick check that it still runs.
//!
//! Not a timed test: it asserts nothing about the figures, it prints them (docs/PERFORMANCE.md,
//! "Memory under a long load").

#[path = "load/server.rs"]
mod server;
#[path = "load/setups.rs"]
mod setups;

use std::{
    path::Path,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use chrono::Utc;
use serde_json::{json, Value};
use server::{rss_mib, Server};

const ADMIN: &str = "hrd_soak-test-admin-token";

/// The settings of one run, from the environment.
struct Settings {
    duration: Duration,
    every: Duration,
    clients: usize,
    server_args: Vec<String>,
}

impl Settings {
    fn from_env() -> Self {
        let number = |name: &str, default: u64| -> u64 {
            std::env::var(name).ok().and_then(|value| value.parse().ok()).unwrap_or(default)
        };
        let quick = (cfg!(debug_assertions) && std::env::var_os("HERALD_SOAK_SECS").is_none())
            || std::env::var_os("HERALD_SOAK_QUICK").is_some();
        let (secs, every) =
            if quick { (3, 1) } else { (number("HERALD_SOAK_SECS", 180), number("HERALD_SOAK_EVERY", 10)) };
        let server_args =
            std::env::var("HERALD_SOAK_ARGS").unwrap_or_default().split_whitespace().map(str::to_string).collect();
        Self {
            duration: Duration::from_secs(secs),
            every: Duration::from_secs(every.max(1)),
            clients: number("HERALD_SOAK_CLIENTS", 16).max(1) as usize,
            server_args,
        }
    }
}

fn main() {
    let settings = Settings::from_env();
    machine();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let dir = tempfile::tempdir().expect("a data directory");
    let started = Instant::now();
    let server = Server::start(dir.path(), ADMIN, &settings.server_args);
    println!(
        "soak: {} clients for {} s, server pid {} ({}), flags {:?}",
        settings.clients,
        settings.duration.as_secs(),
        server.child.id(),
        server.binary,
        settings.server_args
    );
    let start_rss = server.rss_mib();
    println!(
        "{:>6} {:>8} {:>9} {:>9} {:>10}  caches (from /metrics)",
        "t (s)", "RSS MiB", "events", "commands", "disk MiB"
    );
    let client = Client::new(&server);
    let cast = Arc::new(runtime.block_on(Cast::issue(&client)));
    let touched = Touched::default();
    let samples = runtime.block_on(async { load(&client, &settings, dir.path(), &cast, &touched).await });
    let live_caches = caches(&runtime.block_on(client.metrics()));
    let live = samples.last().map_or(start_rss, |sample| sample.rss);
    let peak = samples.iter().map(|sample| sample.rss).max().unwrap_or(live);
    let events = samples.last().map_or(0, |sample| sample.events);
    server.stop_gracefully();

    // The same log, read back: first from the read models the graceful stop saved, then folded
    // from the start (as after a crash before any save, or with saved read models of another build).
    let restart = Instant::now();
    let saved = Server::start(dir.path(), ADMIN, &settings.server_args);
    let saved_ready = restart.elapsed();
    let saved_rss = saved.rss_mib();
    // Like for like: the restarted server after the reads the live one served (every stream the
    // load created, read again as the load read it, and the whole log paged through), so that its
    // caches are as full as the live server's.
    let warming = Instant::now();
    let saved_client = Client::new(&saved);
    let reads = runtime.block_on(warm(&saved_client, &cast, &touched, settings.clients, events));
    let warmed_in = warming.elapsed();
    let warmed_rss = saved.rss_mib();
    let warmed_caches = caches(&runtime.block_on(saved_client.metrics()));
    saved.stop_gracefully();
    let moved = dir.path().join("read-models.moved-aside");
    let _ = std::fs::rename(dir.path().join("read-models"), &moved);
    let restart = Instant::now();
    let folded = Server::start(dir.path(), ADMIN, &settings.server_args);
    let folded_ready = restart.elapsed();
    let folded_rss = folded.rss_mib();
    let folded_client = Client::new(&folded);
    let after_fold = runtime.block_on(async { folded_client.metrics().await });
    folded.stop_gracefully();

    let ratio = |restarted: u64| live as f64 / restarted.max(1) as f64;
    println!();
    println!("soak summary ({} events, {:.0} s in all)", events, started.elapsed().as_secs_f64());
    println!("  live: {start_rss} MiB at start, {live} MiB at the end of the load, peak {peak} MiB");
    println!(
        "  restarted on the same log, reading the saved read models: {saved_rss} MiB once ready (after {:.2} s); \
         live / restarted = {:.2}x (goal <= 1.5x)",
        saved_ready.as_secs_f64(),
        ratio(saved_rss)
    );
    println!(
        "  the same restart after {reads} reads of what the load created (every stream's views, events, dice and \
         picture, and the whole log paged through; {:.1} s): {warmed_rss} MiB; live / warmed restart = {:.2}x \
         (goal <= 1.5x)",
        warmed_in.as_secs_f64(),
        ratio(warmed_rss)
    );
    println!("    caches of the live server at the end of the load: {live_caches}");
    println!("    caches of the warmed restart:                     {warmed_caches}");
    println!(
        "  memory that follows the data: the restart holds {} MiB more than an empty server ({:.0} KiB per 1,000 \
         events)",
        saved_rss.saturating_sub(start_rss),
        saved_rss.saturating_sub(start_rss) as f64 * 1024.0 / (events as f64 / 1000.0).max(f64::EPSILON)
    );
    println!(
        "  restarted folding the whole log again: {folded_rss} MiB once ready (after {:.2} s); live / restarted = \
         {:.2}x (goal <= 1.5x); caches then: {}",
        folded_ready.as_secs_f64(),
        ratio(folded_rss),
        caches(&after_fold)
    );
    let half = samples.len() / 2;
    if let (Some(middle), Some(last)) = (samples.get(half), samples.last()) {
        let minutes = (last.at - middle.at).as_secs_f64() / 60.0;
        let grew = last.rss as f64 - middle.rss as f64;
        let events = (last.events - middle.events) as f64;
        println!(
            "  second half of the load ({:.0} s to {:.0} s): RSS {} -> {} MiB ({:+.0} MiB, {:+.1} MiB a minute) while \
             the log grew by {:.0} events ({:.1} KiB of RSS per 1,000 events)",
            middle.at.as_secs_f64(),
            last.at.as_secs_f64(),
            middle.rss,
            last.rss,
            grew,
            grew / minutes.max(f64::EPSILON),
            events,
            grew * 1024.0 / (events / 1000.0).max(f64::EPSILON)
        );
    }
}

/// One reading of the server during the load.
struct Sample {
    at: Duration,
    rss: u64,
    events: u64,
}

/// The load, with a reading every `settings.every`, until `settings.duration` is over.
async fn load(client: &Client, settings: &Settings, dir: &Path, cast: &Arc<Cast>, touched: &Touched) -> Vec<Sample> {
    let pictures = Arc::new(client.pictures().await);
    let commands = Arc::new(AtomicU64::new(0));
    let failures = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let until = started + settings.duration;
    let workers: Vec<_> = (0..settings.clients)
        .map(|worker| {
            let (client, cast, pictures) = (client.clone(), cast.clone(), pictures.clone());
            let (commands, failures, touched) = (commands.clone(), failures.clone(), touched.clone());
            tokio::spawn(async move {
                let table = Table { client, cast, pictures, commands, failures, touched };
                table.play(worker, until).await;
            })
        })
        .collect();
    let mut samples = Vec::new();
    let mut next = started;
    loop {
        let now = Instant::now();
        if now >= next {
            let metrics = client.metrics().await;
            let sample = Sample {
                at: started.elapsed(),
                rss: client.rss_mib(),
                events: metric(&metrics, "herald_events_total"),
            };
            println!(
                "{:>6.0} {:>8} {:>9} {:>9} {:>10}  {}",
                sample.at.as_secs_f64(),
                sample.rss,
                sample.events,
                commands.load(Ordering::Relaxed),
                disk_mib(dir),
                caches(&metrics)
            );
            samples.push(sample);
            next += settings.every;
        }
        if now >= until {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for worker in workers {
        let _ = worker.await;
    }
    let metrics = client.metrics().await;
    let sample =
        Sample { at: started.elapsed(), rss: client.rss_mib(), events: metric(&metrics, "herald_events_total") };
    println!(
        "{:>6.0} {:>8} {:>9} {:>9} {:>10}  {} (load over; {} requests failed)",
        sample.at.as_secs_f64(),
        sample.rss,
        sample.events,
        commands.load(Ordering::Relaxed),
        disk_mib(dir),
        caches(&metrics),
        failures.load(Ordering::Relaxed)
    );
    samples.push(sample);
    samples
}

/// Read again, with `clients` readers at once, what the load read of every stream it created
/// (views as the public, a player and the judge, the stream's events, a battle's dice, the
/// picture), in the order the streams were created, then page through the whole log (`events`
/// long). Returns how many reads were made.
async fn warm(client: &Client, cast: &Arc<Cast>, touched: &Touched, clients: usize, events: u64) -> usize {
    let streams: Vec<Stream> = touched.lock().map(|touched| touched.clone()).unwrap_or_default();
    let streams = Arc::new(streams);
    let next = Arc::new(AtomicU64::new(0));
    let readers: Vec<_> = (0..clients)
        .map(|_| {
            let (client, cast, streams, next) = (client.clone(), cast.clone(), streams.clone(), next.clone());
            tokio::spawn(async move {
                let mut reads = 0;
                while let Some(stream) =
                    usize::try_from(next.fetch_add(1, Ordering::Relaxed)).ok().and_then(|at| streams.get(at))
                {
                    for token in [None, Some(cast.alice.as_str()), Some(cast.judge.as_str())] {
                        client.get(&format!("/v1/{}", stream.path), token).await;
                    }
                    client.get(&format!("/v1/streams/{}/events", stream.stream), None).await;
                    reads += 4;
                    if stream.path.starts_with("battles/") {
                        client.get(&format!("/v1/streams/{}/dice", stream.stream), None).await;
                        reads += 1;
                    }
                    if let Some(picture) = &stream.picture {
                        client.get(&format!("/v1/{}/{picture}", stream.path), None).await;
                        reads += 1;
                    }
                }
                reads
            })
        })
        .collect();
    let mut reads = 0;
    for reader in readers {
        reads += reader.await.unwrap_or(0);
    }
    let mut from = 0;
    while from < events {
        client.get(&format!("/v1/events?from={from}&limit=1000"), None).await;
        reads += 1;
        from += 1000;
    }
    reads
}

/// The value of an unlabelled metric (0 when absent).
fn metric(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|value| value.trim().parse::<f64>().ok())
        .map_or(0, |value| value as u64)
}

/// The cache gauges of `/metrics`, in short.
fn caches(text: &str) -> String {
    let mib = |name: &str| metric(text, name) as f64 / (1024.0 * 1024.0);
    format!(
        "heap in use {:.0} MiB, free in arenas {:.0} MiB, views {} ({:.1} MiB), read-model streams {}, states {}, \
         tokens {}, live readers {}, label sets {}",
        mib("herald_allocator_in_use_bytes"),
        mib("herald_allocator_free_bytes"),
        metric(text, "herald_view_cache_entries"),
        mib("herald_view_cache_bytes"),
        metric(text, "herald_read_model_streams"),
        metric(text, "herald_read_model_states"),
        metric(text, "herald_token_cache_entries"),
        metric(text, "herald_live_readers"),
        metric(text, "herald_metric_label_sets"),
    )
}

/// The data directory's size on disk, in MiB.
fn disk_mib(dir: &Path) -> u64 {
    fn walk(path: &Path) -> u64 {
        let Ok(entries) = std::fs::read_dir(path) else { return 0 };
        entries
            .flatten()
            .map(|entry| match entry.metadata() {
                Ok(meta) if meta.is_dir() => walk(&entry.path()),
                Ok(meta) => meta.len(),
                Err(_) => 0,
            })
            .sum()
    }
    walk(dir) >> 20
}

/// The machine, for the figures' context.
fn machine() {
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let memory = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find(|line| line.starts_with("MemTotal"))
        .unwrap_or_default()
        .to_string();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "machine: {cpus} CPUs, {}, load average {}",
        memory.split_whitespace().collect::<Vec<_>>().join(" "),
        load.trim()
    );
}

/// The tokens of one table: a judge and two players.
struct Cast {
    judge: String,
    alice: String,
    bob: String,
}

impl Cast {
    async fn issue(client: &Client) -> Self {
        Self {
            judge: client.token(json!({"role": "judge", "label": "soak judge"})).await,
            alice: client.token(json!({"role": "player", "player": "alice"})).await,
            bob: client.token(json!({"role": "player", "player": "bob"})).await,
        }
    }
}

/// One client's table: what it plays, round after round.
struct Table {
    client: Client,
    cast: Arc<Cast>,
    /// Each ruleset's picture file name (`GET /v1/rulesets`).
    pictures: Arc<Vec<(String, String)>>,
    commands: Arc<AtomicU64>,
    failures: Arc<AtomicU64>,
    /// Every stream the load created, in order, for the warmed restart to read again.
    touched: Touched,
}

/// The streams the load created, in the order it created them.
type Touched = Arc<std::sync::Mutex<Vec<Stream>>>;

/// A stream the load created and read.
#[derive(Clone)]
struct Stream {
    /// `battles/<id>` or `campaigns/<id>`.
    path: String,
    /// `battle-<id>` or `campaign-<id>`.
    stream: String,
    /// The picture the load read (a battle's ruleset picture, a campaign's map).
    picture: Option<String>,
}

impl Table {
    async fn play(&self, worker: usize, until: Instant) {
        let campaign = self.command("/v1/campaigns", &self.cast.judge, campaign()).await.and_then(|c| stream_id(&c));
        if let Some(id) = &campaign {
            self.touch(format!("campaigns/{id}"), format!("campaign-{id}"), Some("map.svg".into()));
        }
        // The load test's set-ups (coalition first, then the other four rulesets).
        let battles = setups::all(coalition_battle());
        let mut round = worker;
        while Instant::now() < until {
            match round % 6 {
                0 => self.coalition_battle(round).await,
                // zone-rpg, swift-swords, percentile-skirmish, warmachine.
                other @ 1..=4 => self.battle(battles[other].1.clone()).await,
                _ => {
                    if let Some(campaign) = &campaign {
                        self.campaign_turn(campaign).await;
                    }
                }
            }
            self.reads(round).await;
            round += 1;
        }
    }

    fn touch(&self, path: String, stream: String, picture: Option<String>) {
        if let Ok(mut touched) = self.touched.lock() {
            touched.push(Stream { path, stream, picture });
        }
    }

    /// A write; `None` (counted as a failure) if it was refused.
    async fn command(&self, path: &str, token: &str, body: Value) -> Option<Value> {
        let reply = self.client.send(path, token, body).await;
        match reply {
            Some(_) => self.commands.fetch_add(1, Ordering::Relaxed),
            None => self.failures.fetch_add(1, Ordering::Relaxed),
        };
        reply
    }

    async fn read(&self, path: &str, token: Option<&str>) {
        if !self.client.get(path, token).await {
            self.failures.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A coalition battle played through: entropy from both players, sealed strategies, the
    /// judge's bonuses, the resolution (which reveals the seed), read between the steps.
    async fn coalition_battle(&self, round: usize) {
        let cast = &self.cast;
        let Some(id) = self.command("/v1/battles", &cast.judge, coalition_battle()).await.and_then(|b| stream_id(&b))
        else {
            return;
        };
        self.touch(format!("battles/{id}"), format!("battle-{id}"), None);
        let at = |tail: &str| format!("/v1/battles/{id}{tail}");
        self.command(&at("/entropy"), &cast.alice, json!({"entropy": format!("alice {round}")})).await;
        self.command(&at("/entropy"), &cast.bob, json!({"entropy": format!("bob {round}")})).await;
        self.read(&at(""), Some(&cast.alice)).await;
        self.command(&at("/strategies"), &cast.alice, json!({"side": "a", "strategy": "Hold the ridge"})).await;
        self.command(&at("/strategies"), &cast.bob, json!({"side": "b", "strategy": "Swarm them at night"})).await;
        self.read(&at(""), Some(&cast.judge)).await;
        self.command(&at("/strategy-bonuses"), &cast.judge, json!({"side": "a", "bonus": 7})).await;
        self.command(&at("/strategy-bonuses"), &cast.judge, json!({"side": "b", "bonus": 4})).await;
        self.command(&at("/resolve"), &cast.judge, json!({})).await;
        self.read(&at(""), None).await;
        self.read(&format!("/v1/streams/battle-{id}/events"), None).await;
        if round.is_multiple_of(4) {
            self.read(&at("/verify"), None).await;
        }
    }

    /// A battle of another ruleset: created, then a judge's rolls on it, read between them.
    async fn battle(&self, setup: Value) {
        let cast = &self.cast;
        let ruleset = setup["ruleset"].as_str().unwrap_or_default().to_string();
        let Some(id) = self.command("/v1/battles", &cast.judge, setup).await.and_then(|b| stream_id(&b)) else {
            return;
        };
        let picture = self.pictures.iter().find(|(name, _)| *name == ruleset).map(|(_, picture)| picture.clone());
        self.touch(format!("battles/{id}"), format!("battle-{id}"), picture.clone());
        for roll in 0..6 {
            let body = json!({"expression": "2d6", "purpose": format!("soak {roll}")});
            self.command(&format!("/v1/streams/battle-{id}/rolls"), &cast.judge, body).await;
            let token = [None, Some(cast.alice.as_str()), Some(cast.judge.as_str())][roll % 3];
            self.read(&format!("/v1/battles/{id}"), token).await;
        }
        if let Some(picture) = picture {
            self.read(&format!("/v1/battles/{id}/{picture}"), None).await;
        }
        self.read(&format!("/v1/streams/battle-{id}/dice"), None).await;
    }

    /// One turn of the client's campaign: opened, rolled on, locked and adjudicated, read.
    async fn campaign_turn(&self, campaign: &str) {
        let cast = &self.cast;
        let at = |tail: &str| format!("/v1/campaigns/{campaign}{tail}");
        let deadline = (Utc::now() + chrono::Duration::days(1)).to_rfc3339();
        self.command(&at("/turns"), &cast.judge, json!({"deadline": deadline})).await;
        for roll in 0..3 {
            let body = json!({"expression": "1d20", "purpose": format!("weather {roll}")});
            self.command(&format!("/v1/streams/campaign-{campaign}/rolls"), &cast.judge, body).await;
        }
        self.read(&at(""), Some(&cast.alice)).await;
        self.command(&at("/lock"), &cast.judge, json!({})).await;
        self.command(&at("/adjudicate"), &cast.judge, json!({})).await;
        self.read(&at(""), None).await;
        self.read(&at("/map.svg"), None).await;
    }

    /// What readers do between writes: the log's tail, listings, now and then a live reader.
    async fn reads(&self, round: usize) {
        let head = metric(&self.client.metrics().await, "herald_events_total");
        self.read(&format!("/v1/events?from={}&limit=100", head.saturating_sub(100)), None).await;
        if round.is_multiple_of(5) {
            self.read("/v1/battles?limit=50", None).await;
        }
        if round.is_multiple_of(8) {
            self.client.live(head.saturating_sub(50), Duration::from_millis(500)).await;
        }
    }
}

/// The id of the stream a creation answered with (`battle-<id>` → `<id>`).
fn stream_id(created: &Value) -> Option<String> {
    let stream = created["stream"].as_str()?;
    Some(stream.split_once('-').map_or(stream, |(_, id)| id).to_string())
}

fn in_a_day() -> String {
    (Utc::now() + chrono::Duration::days(1)).to_rfc3339()
}

/// The README's coalition battle (seed 003).
fn coalition_battle() -> Value {
    json!({
        "armies": {
            "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
                  "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000},
                            {"creature": "Grizzly Bears", "colors": ["green"], "power": 2, "toughness": 2, "troops": 2500}]},
            "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
                  "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}
        },
        "engagement": {"kind": "attack", "attacker": "a"},
        "terrain": "plains",
        "strategy_deadline": in_a_day(),
    })
}

/// The README's campaign round of two armies (seed 003).
fn campaign() -> Value {
    json!({
        "name": "Soak round",
        "map": {"sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"}}}},
        "armies": [
            {"army": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "creator": null,
                      "colors": ["red", "green", "blue"],
                      "troops": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]},
             "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
            {"army": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "creator": null, "colors": [],
                      "troops": [{"creature": "Phyrexian Broodling", "colors": ["black"], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]},
             "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
        ],
        "options": {"enforce_army_counts": false, "enforce_site_counts": false}
    })
}

/// An HTTP client of the server.
#[derive(Clone)]
struct Client {
    http: reqwest::Client,
    base: String,
    pid: u32,
}

impl Client {
    fn new(server: &Server) -> Self {
        let http = reqwest::Client::builder().pool_max_idle_per_host(64).build().expect("a client");
        Self { http, base: format!("http://127.0.0.1:{}", server.port), pid: server.child.id() }
    }

    fn rss_mib(&self) -> u64 {
        rss_mib(self.pid)
    }

    async fn get(&self, path: &str, token: Option<&str>) -> bool {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        match request.send().await {
            Ok(response) => response.status().is_success() && response.bytes().await.is_ok(),
            Err(_) => false,
        }
    }

    async fn send(&self, path: &str, token: &str, body: Value) -> Option<Value> {
        let response =
            self.http.post(format!("{}{path}", self.base)).bearer_auth(token).json(&body).send().await.ok()?;
        let ok = response.status().is_success();
        let body: Value = response.json().await.ok()?;
        if !ok && std::env::var_os("HERALD_SOAK_VERBOSE").is_some() {
            eprintln!("refused {path}: {body}");
        }
        ok.then_some(body)
    }

    async fn token(&self, body: Value) -> String {
        let issued = self.send("/v1/tokens", ADMIN, body).await.expect("a token");
        issued["token"].as_str().expect("a token").to_string()
    }

    async fn metrics(&self) -> String {
        match self.http.get(format!("{}/metrics", self.base)).send().await {
            Ok(response) => response.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// Each battle ruleset's picture file name.
    async fn pictures(&self) -> Vec<(String, String)> {
        let Ok(response) = self.http.get(format!("{}/v1/rulesets", self.base)).send().await else { return Vec::new() };
        let listed: Value = response.json().await.unwrap_or_default();
        let all = listed.get("rulesets").unwrap_or(&listed).as_array().cloned().unwrap_or_default();
        all.iter()
            .filter_map(|ruleset| Some((ruleset["id"].as_str()?.to_string(), ruleset["picture"].as_str()?.to_string())))
            .collect()
    }

    /// A live reader from `from`, for `window`, then gone.
    async fn live(&self, from: u64, window: Duration) {
        let Ok(mut response) = self.http.get(format!("{}/v1/events/live?from={from}", self.base)).send().await else {
            return;
        };
        let until = Instant::now() + window;
        while let Ok(Ok(Some(_))) =
            tokio::time::timeout(until.saturating_duration_since(Instant::now()), response.chunk()).await
        {}
    }
}
