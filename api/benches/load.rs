//! The service under load, through HTTP, against the real `herald` binary (issue 13's goals).
//!
//! ```sh
//! cargo bench -p herald-api --bench load       # release build; about 4 minutes; prints the figures
//! ```
//!
//! Every figure is printed beside the baseline it is compared with, measured in the same run on
//! the same machine (which the first lines describe):
//!
//! 1. a POST on a stream of 10,000 events costs at most 1.2× a POST on a stream of 10;
//! 2. posting orders in a 100-turn, 200-army campaign takes at most 5 ms at the 99th percentile;
//! 3. 32 clients on 32 streams through HTTP reach at least 0.5× the store's own 32-writer rate
//!    (printed beside it: the store's 32 writers appending what one of those rolls appended, its
//!    event and its command record, read back from the server's log: the like-for-like rate);
//! 4. 32 clients on one stream reach at least 2,000 commands/s;
//! 5. a battle view GET runs at least 0.5× the rate of `/healthz`;
//! 6. the server restarts on a 1,000,000-event log with its port open at once, ready in at most
//!    2 s, and its memory is stated;
//! 7. 32 clients creating battles (new streams of each battle ruleset) reach at least 0.5× the
//!    store appending the same events as new streams with 32 writers, with a p99 of at most 20 ms.
//!
//! The store baseline (3) is measured in this process on a data directory of its own; everything
//! else goes through HTTP to a `herald` child process. The campaign (2) and the million events
//! (6) are written through the service and the store in this process first (faster than HTTP),
//! then served by the child. Run as a test or in a debug build it uses small sizes and short
//! windows as a quick check that it still runs.
//!
//! To profile one figure, `HERALD_LOAD_ONLY=3 HERALD_LOAD_WINDOW=30 cargo bench -p herald-api
//! --bench load` runs only the store baseline and figure 3 for 30 s, while, say,
//! `perf record -F 299 --call-graph dwarf -p $(pgrep -n herald)` samples the server
//! (docs/PERFORMANCE.md). `HERALD_LOAD_ONLY=1` times one client's rolls, one at a time, on a
//! 10-event stream. `HERALD_LOAD_ONLY=7` runs only the creates and their store baseline;
//! `HERALD_LOAD_ONLY=2` only the campaign orders.
//! `HERALD_LOAD_BIN=path/to/herald` serves from another build, to compare two.

#[path = "../../domain/benches/support/round.rs"]
mod round;
#[path = "load/server.rs"]
mod server;
#[path = "load/setups.rs"]
mod setups;

use std::{
    path::Path,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use chrono::Utc;
use herald_api::app::{CommandMeta, Service};
use herald_domain::{
    coalition::{
        campaign::{CampaignCommand, CampaignState, CoalitionCampaign, PositionsRecord},
        map::Map,
    },
    Actor, Role,
};
use herald_projections::Catalog;
use herald_store::{AppendRequest, EventStore, ExpectedVersion, NewEvent, Payload, SledStore};
use serde_json::{json, Value};
use server::Server;

const ADMIN: &str = "hrd_load-test-admin-token";
const CLIENTS: usize = 32;

/// Sizes: the issue's in a release build, small ones for a quick check.
struct Sizes {
    window: Duration,
    long_stream: u64,
    samples: usize,
    armies: usize,
    turns: u32,
    million: u64,
}

impl Sizes {
    fn pick() -> Self {
        if cfg!(debug_assertions) || std::env::var_os("HERALD_LOAD_QUICK").is_some() {
            Self {
                window: Duration::from_millis(500),
                long_stream: 200,
                samples: 20,
                armies: 20,
                turns: 3,
                million: 2_000,
            }
        } else {
            let window = std::env::var("HERALD_LOAD_WINDOW").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
            Self {
                window: Duration::from_secs(window),
                long_stream: 10_000,
                samples: 400,
                armies: 200,
                turns: 100,
                million: 1_000_000,
            }
        }
    }
}

/// The command the HTTP figures post: a judge's roll on a battle's stream (one `dice.JudgeRolled`
/// event with its draw). Entropy would be cheaper, but a participant may contribute only four
/// times to a stream (docs/DICE.md), and these figures post thousands of commands to one.
fn roll() -> Value {
    json!({"expression": "1d6", "purpose": "load"})
}

/// Where a judge rolls on battle `id`.
fn roll_path(id: &str) -> String {
    format!("/v1/streams/battle-{id}/rolls")
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing we use.
    let sizes = Sizes::pick();
    machine();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let mut report = Vec::new();

    let only = std::env::var("HERALD_LOAD_ONLY").unwrap_or_default();
    if only == "1" {
        let dir = tempfile::tempdir().expect("a data directory");
        let server = Server::start(dir.path(), ADMIN, &[]);
        let client = Client::new(&server);
        let (median, p99) = runtime.block_on(async {
            let judge = client.token(json!({"role": "judge"})).await;
            let battle = client.battle(&judge).await;
            client.grow(&judge, &battle, 10).await;
            client.one_at_a_time(&judge, &battle, sizes.samples).await
        });
        println!("1. one client, POSTs on a 10-event stream: median {}, p99 {}", micros(median), micros(p99));
        return;
    }
    if only == "2" {
        let dir = tempfile::tempdir().expect("a data directory");
        let campaign = write_campaign(dir.path(), &sizes);
        let server = Server::start(dir.path(), ADMIN, &[]);
        println!("server pid {}: orders in a {}-turn campaign", server.child.id(), sizes.turns);
        let client = Client::new(&server);
        let (median, p99) = runtime.block_on(client.post_orders(&campaign, sizes.samples));
        println!("2. POST orders: median {}, p99 {}", micros(median), micros(p99));
        return;
    }
    if only == "7" {
        println!("{}", creates(&runtime, sizes.window));
        return;
    }
    let only_three = only == "3";
    let store = store_baseline(sizes.window);
    report.push(format!(
        "store: {} writers on as many streams, one event an append: {:.0} events/s, {} of CPU time an event, {:.1} appends a group commit (the baseline of 3)",
        store.writers,
        store.rate,
        cpu_micros(store.cpu_per_event),
        store.per_flush
    ));

    if only_three {
        let dir = tempfile::tempdir().expect("a data directory");
        let server = Server::start(dir.path(), ADMIN, &[]);
        println!("server pid {}: 32 clients on 32 streams for {:?}", server.child.id(), sizes.window);
        let client = Client::new(&server);
        let many = runtime.block_on(async {
            let judge = client.token(json!({"role": "judge"})).await;
            client.many_streams(&judge, sizes.window).await
        });
        drop(server);
        let like = store_rolls(written(dir.path(), &many.stream, true), sizes.window);
        println!("{}", report[0]);
        println!("{}", many.line(&store, &like));
        return;
    }

    let dir = tempfile::tempdir().expect("a data directory");
    let campaign = write_campaign(dir.path(), &sizes);
    let server = Server::start(dir.path(), ADMIN, &[]);
    let client = Client::new(&server);
    let many = runtime.block_on(async {
        let judge = client.token(json!({"role": "judge"})).await;
        let view = client.battle(&judge).await;
        let health = client.rate(sizes.window, |c| async move { c.get("/healthz").await }).await;
        let view_path = format!("/v1/battles/{view}");
        let reads = client
            .rate(sizes.window, move |c| {
                let path = view_path.clone();
                async move { c.get(&path).await }
            })
            .await;
        report.push(format!(
            "5. GET a battle view {reads:.0}/s vs /healthz {health:.0}/s: {:.2}x (goal >= 0.5x)",
            reads / health
        ));

        let many = client.many_streams(&judge, sizes.window).await;

        let long = client.battle(&judge).await;
        let (writer, target) = (judge.clone(), long.clone());
        let one = client
            .rate_each(sizes.window, move |c, _| {
                let (path, token) = (roll_path(&target), writer.clone());
                async move { c.post(&path, &token, roll()).await }
            })
            .await;
        report.push(format!("4. 32 clients on one stream: {one:.0} commands/s (goal >= 2000)"));

        client.grow(&judge, &long, sizes.long_stream).await;
        let short = client.battle(&judge).await;
        client.grow(&judge, &short, 10).await;
        let (on_short, on_long) = client.alternate(&judge, &short, &long, sizes.samples).await;
        report.push(format!(
            "1. POST on a 10-event stream {} vs on a {}-event stream {}: {:.2}x (goal <= 1.2x)",
            micros(on_short),
            sizes.long_stream,
            micros(on_long),
            on_long.as_secs_f64() / on_short.as_secs_f64()
        ));

        let orders = client.post_orders(&campaign, sizes.samples).await;
        report.push(format!(
            "2. POST orders in a {}-turn, {}-army campaign ({} events): median {}, p99 {} (goal: p99 <= 5 ms)",
            sizes.turns,
            sizes.armies,
            campaign.events,
            micros(orders.0),
            micros(orders.1)
        ));
        report.push(format!("   server memory after this run: {} MiB", server.rss_mib()));
        many
    });
    drop(server);
    let like = store_rolls(written(dir.path(), &many.stream, true), sizes.window);
    report.insert(2, many.line(&store, &like));
    report.push(creates(&runtime, sizes.window));

    let big = tempfile::tempdir().expect("a data directory");
    let million = write_million(big.path(), sizes.million);
    let restart = restart(big.path(), million);
    report.push(restart);

    println!("\n== herald load test (docs/PERFORMANCE.md, \"The service under load\")");
    for line in report {
        println!("{line}");
    }
}

fn micros(duration: Duration) -> String {
    format!("{:.2} ms", duration.as_secs_f64() * 1000.0)
}

/// What this machine is.
fn machine() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpu.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).unwrap_or("?");
    let memory = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let total = memory.lines().next().unwrap_or("?");
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("machine: {cores} cores,{model}; {total}; load average {}", load.trim());
}

/// The store's own rate: 32 threads, each appending one event at a time to its own stream.
fn store_baseline(window: Duration) -> Baseline {
    store_rate(window, |thread| AppendRequest {
        stream: format!("battle-baseline-{thread}"),
        expected: ExpectedVersion::Any,
        events: vec![NewEvent {
            id: uuid::Uuid::now_v7(),
            event_type: "coalition.EntropyContributed".into(),
            schema: 2,
            recorded_at: Utc::now(),
            actor: "token:judge".into(),
            command_id: Some(uuid::Uuid::now_v7().to_string()),
            correlation_id: None,
            causation_id: None,
            rules: "coalition-battle@1".into(),
            data: json!({"type": "coalition.EntropyContributed", "entropy": "x", "by": "token:judge"}).into(),
        }],
        command_id: None,
        command: None,
    })
}

/// Figure 3's like-for-like baseline: 32 threads each appending to a stream of its own, one
/// append at a time, what one of figure 3's rolls appended through HTTP (read back from the
/// server's log: the same events, payloads and command record, under a fresh command id).
fn store_rolls(rolled: Written, window: Duration) -> Baseline {
    let rolled = Arc::new(rolled);
    store_rate(window, move |thread| again(&rolled, format!("battle-like-{thread}"), ExpectedVersion::Any))
}

/// One append of a command's events and record, read back from a log.
type Written = (Vec<herald_store::RecordedEvent>, Option<Payload>);

/// `written` appended again to `stream`: new event ids and times, a fresh command id.
fn again(written: &Written, stream: String, expected: ExpectedVersion) -> AppendRequest {
    let (events, command) = written;
    let command_id = uuid::Uuid::now_v7().to_string();
    AppendRequest {
        stream,
        expected,
        events: events
            .iter()
            .map(|event| NewEvent {
                id: uuid::Uuid::now_v7(),
                event_type: event.event_type.clone(),
                schema: event.schema,
                recorded_at: Utc::now(),
                actor: event.actor.clone(),
                command_id: Some(command_id.clone()),
                correlation_id: event.correlation_id.clone(),
                causation_id: Some(command_id.clone()),
                rules: event.rules.clone(),
                data: event.data.clone(),
            })
            .collect(),
        command_id: Some(command_id),
        command: command.clone(),
    }
}

/// The store's own rate with 32 threads, thread `i` appending `request(i)` one at a time for
/// `window` (after 300 ms of warming up), on a data directory of its own.
fn store_rate<F>(window: Duration, request: F) -> Baseline
where
    F: Fn(usize) -> AppendRequest + Send + Sync + 'static,
{
    let dir = tempfile::tempdir().expect("a data directory");
    let store = Arc::new(SledStore::open(dir.path()).expect("a store"));
    let (flushes, flushed) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let (counted, appends) = (flushes.clone(), flushed.clone());
    store.observe_commits(Arc::new(move |commit: herald_store::GroupCommit| {
        counted.fetch_add(1, Ordering::Relaxed);
        appends.fetch_add(commit.appends as u64, Ordering::Relaxed);
    }));
    let stop = Arc::new(AtomicBool::new(false));
    let count = Arc::new(AtomicU64::new(0));
    let request = Arc::new(request);
    // HERALD_LOAD_STORE_WRITERS: fewer writers make smaller group commits, as through HTTP, to
    // see what a group's fixed cost is (docs/PERFORMANCE.md).
    let writers = std::env::var("HERALD_LOAD_STORE_WRITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(CLIENTS);
    let threads: Vec<_> = (0..writers)
        .map(|thread| {
            let (store, stop, count, request) = (store.clone(), stop.clone(), count.clone(), request.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    store.append(request(thread)).expect("append");
                    count.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let (start, before, cpu) = (Instant::now(), count.load(Ordering::Relaxed), cpu_seconds("self"));
    let groups = (flushes.load(Ordering::Relaxed), flushed.load(Ordering::Relaxed));
    std::thread::sleep(window);
    let per_flush = (flushed.load(Ordering::Relaxed) - groups.1) as f64
        / (flushes.load(Ordering::Relaxed) - groups.0).max(1) as f64;
    let appended = count.load(Ordering::Relaxed) - before;
    let rate = appended as f64 / start.elapsed().as_secs_f64();
    let per_append = (cpu_seconds("self") - cpu) / appended.max(1) as f64;
    stop.store(true, Ordering::Relaxed);
    for thread in threads {
        let _ = thread.join();
    }
    Baseline { writers, rate, cpu_per_event: per_append, per_flush }
}

/// What the first (`last` false) or the last command appended to `stream`: its events and its
/// record, read from the log in `dir` (whose server has stopped).
fn written(dir: &Path, stream: &str, last: bool) -> Written {
    use herald_store::Direction::{Backwards, Forwards};
    let store = SledStore::open(dir).expect("the server's log");
    let (from, direction) = if last { (u64::MAX, Backwards) } else { (0, Forwards) };
    let events = store.read_stream(stream, from, direction, 1000).expect("its events");
    let command_id = events.first().and_then(|event| event.command_id.clone());
    let mut events: Vec<_> = events.into_iter().take_while(|event| event.command_id == command_id).collect();
    if last {
        events.reverse();
    }
    let command =
        command_id.and_then(|id| store.stored_command(&id).expect("its command")).and_then(|stored| stored.command);
    (events, command)
}

/// Figure 7: 32 clients creating battles through HTTP (client `i` of the `i % 5`th ruleset) on a
/// server of their own, then, once it is stopped, the first stream each ruleset opened read back
/// from its log and appended again as new streams by 32 threads into a store of their own (the
/// same events, command records included, `NoStream` each); the report line.
fn creates(runtime: &tokio::runtime::Runtime, window: Duration) -> String {
    let dir = tempfile::tempdir().expect("a data directory");
    let server = Server::start(dir.path(), ADMIN, &[]);
    let client = Client::new(&server);
    let setups = setups::all(coalition_battle());
    let names: Vec<&str> = setups.iter().map(|(name, _)| *name).collect();
    let made = runtime.block_on(async {
        let judge = client.token(json!({"role": "judge"})).await;
        client.creates(&judge, setups, window).await
    });
    let server_cpu = made.server_cpu;
    drop(server);
    let opened: Vec<Written> = made.first.iter().map(|stream| written(dir.path(), stream, false)).collect();
    let events: usize = opened.iter().map(|(events, _)| events.len()).sum();
    let store = store_creates(opened, window);
    let (mut latencies, rate) = (made.latencies, made.rate);
    format!(
        "7. creates ({}), 32 clients: {rate:.0}/s, median {}, p99 {} (goal <= 20 ms), server CPU {} a create, vs the \
         store appending the same {:.1} events a stream as new streams with {} writers: {:.0} streams/s, {} of CPU \
         each, {:.1} appends a group commit: {:.2}x (goal >= 0.5x)",
        names.join(", "),
        micros(median(&mut latencies)),
        micros(percentile(&mut latencies, 0.99)),
        cpu_micros(server_cpu),
        events as f64 / names.len() as f64,
        store.writers,
        store.rate,
        cpu_micros(store.cpu_per_event),
        store.per_flush,
        rate / store.rate
    )
}

/// What the create phase measured through HTTP.
struct Made {
    rate: f64,
    latencies: Vec<Duration>,
    server_cpu: f64,
    /// The first stream opened of each ruleset, in the order of the set-ups.
    first: Vec<String>,
}

/// The store appending `opened` (each stream's events and command record) again as new streams,
/// 32 threads for `window`; `rate` is streams a second, `cpu_per_event` CPU time a stream.
fn store_creates(opened: Vec<Written>, window: Duration) -> Baseline {
    let opened = Arc::new(opened);
    store_rate(window, move |thread| {
        again(&opened[thread % opened.len()], format!("battle-{}", uuid::Uuid::now_v7()), ExpectedVersion::NoStream)
    })
}

/// Figure 3's measure: commands per second through HTTP, and the CPU time of one command in the
/// server and in the load generator (this process, so its figure includes the runtime's).
struct Many {
    /// One of the streams rolled on, to read a roll back from.
    stream: String,
    rate: f64,
    server_cpu: f64,
    client_cpu: f64,
    /// Appends answered by one of the server's group commits, from its `/metrics`.
    per_flush: f64,
}

impl Many {
    /// The report line, beside the store's baseline and the store appending what a roll
    /// appended (`like`).
    fn line(&self, store: &Baseline, like: &Baseline) -> String {
        format!(
            "3. 32 clients on 32 streams: {:.0} commands/s vs the store's {:.0} events/s: {:.2}x (goal >= 0.5x); \
             CPU time per command: server {}, load generator {}, vs the store's {} per event; \
             {:.1} appends a group commit vs the store's {:.1}\n   \
             3, like for like: vs the store appending what a roll appended (its event and command record) with {} \
             writers: {:.0} appends/s, {} of CPU each, {:.1} appends a group commit: {:.2}x",
            self.rate,
            store.rate,
            self.rate / store.rate,
            cpu_micros(self.server_cpu),
            cpu_micros(self.client_cpu),
            cpu_micros(store.cpu_per_event),
            self.per_flush,
            store.per_flush,
            like.writers,
            like.rate,
            cpu_micros(like.cpu_per_event),
            like.per_flush,
            self.rate / like.rate
        )
    }
}

/// The store's own rate, and the CPU time (all threads) it spends on one event.
struct Baseline {
    /// How many threads appended.
    writers: usize,
    rate: f64,
    cpu_per_event: f64,
    /// Appends answered by one group commit (flush and fsync), on average.
    per_flush: f64,
}

/// CPU time (user and system, every thread) used so far by process `pid` ("self" for this one),
/// from `/proc/{pid}/stat`, whose times are in clock ticks of 1/100 s on Linux.
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are the 14th and 15th fields; `fields` starts at the 3rd.
    (ticks(11) + ticks(12)) as f64 / 100.0
}

/// Microseconds of CPU time per item.
fn cpu_micros(seconds: f64) -> String {
    format!("{:.0} µs", seconds * 1e6)
}

/// A campaign played for `turns` turns with `armies` armies through the service (as judges and
/// players would, one command at a time, each stored with its events), its next turn open.
struct Campaign {
    id: String,
    events: u64,
    /// A player and the orders it posts for its armies.
    player: String,
    orders: Value,
}

fn write_campaign(dir: &Path, sizes: &Sizes) -> Campaign {
    let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir).expect("a store"));
    let catalog = Arc::new(Catalog::new());
    let service = Service::new(store.clone(), catalog.clone());
    let id = uuid::Uuid::now_v7();
    let stream = format!("campaign-{id}");
    let mut rng = round::Scenario::new(7);
    let map = Map::default();
    let commitment = service.seal_seed(&stream, Some([7; 32])).expect("a seed");
    let judge = Actor::new("token:judge", Role::Judge);
    let run = |command: CampaignCommand, actor: &Actor, at| {
        let meta = CommandMeta {
            actor: actor.clone(),
            recorded_at: at,
            idempotency_key: None,
            correlation_id: None,
            expected_version: None,
            scope: herald_api::auth::Scope::Host,
        };
        service.execute_as::<CoalitionCampaign>(&stream, &command, meta).expect("the command is accepted");
    };
    let set_up = round::set_up(
        "Load test round",
        &map,
        sizes.armies,
        &mut rng,
        hex::encode(commitment),
        PositionsRecord::BeyondReports,
    );
    run(set_up, &judge, round::time(0, 0));
    let state = || catalog.entry(&stream).and_then(|e| e.state_as::<CampaignState>().cloned()).expect("a campaign");
    for turn in 1..=sizes.turns {
        run(
            CampaignCommand::OpenTurn { deadline: round::time(turn, 12), turn_key: None },
            &judge,
            round::time(turn, 0),
        );
        for (player, orders) in round::random_orders(&state(), &mut rng) {
            let post = CampaignCommand::PostOrders { text: None, orders, private: false, on_behalf_of: None };
            run(post, &Actor::player(format!("token:{player}"), player), round::time(turn, 1));
        }
        run(CampaignCommand::LockTurn, &judge, round::time(turn, 13));
        let results = round::battle_results(&state(), &mut rng);
        run(
            CampaignCommand::AdjudicateTurn { battle_results: results, interval_seed: None },
            &judge,
            round::time(turn, 13),
        );
    }
    let deadline = Utc::now() + chrono::Duration::days(3650);
    run(CampaignCommand::OpenTurn { deadline, turn_key: None }, &judge, Utc::now());
    let current = state();
    let (player, orders) = round::random_orders(&current, &mut rng).into_iter().next().expect("a player with armies");
    let events = catalog.entry(&stream).map_or(0, |e| e.version + 1);
    Campaign { id: id.to_string(), events, player, orders: serde_json::to_value(orders).expect("orders") }
}

/// A million events in 10,000 coalition battles of 100 events each (the battle opened, then 99
/// entropy contributions), appended straight to the store.
fn write_million(dir: &Path, total: u64) -> u64 {
    let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir).expect("a store"));
    let service = Service::new(store.clone(), Arc::new(Catalog::new()));
    // One battle opened through the service gives a valid `coalition.BattleCreated` to copy.
    let sample = format!("battle-{}", uuid::Uuid::now_v7());
    let commitment = hex::encode(service.seal_seed(&sample, Some([3; 32])).expect("a seed"));
    let setup =
        serde_json::from_value::<herald_domain::coalition::battle::ruleset::CoalitionBattleSetup>(coalition_battle())
            .expect("a set-up");
    let create =
        <herald_domain::coalition::battle::CoalitionBattle as herald_domain::Ruleset>::set_up(setup, commitment);
    let meta = CommandMeta {
        actor: Actor::new("token:judge", Role::Judge),
        recorded_at: Utc::now(),
        idempotency_key: None,
        correlation_id: None,
        expected_version: None,
        scope: herald_api::auth::Scope::Host,
    };
    let created = service
        .execute_as::<herald_domain::coalition::battle::CoalitionBattle>(&sample, &create, meta)
        .expect("a battle");
    let opening = created.events[0].data.clone();
    let per_battle = 100u64;
    let mut written = 1;
    let started = Instant::now();
    while written + per_battle <= total {
        let stream = format!("battle-{}", uuid::Uuid::now_v7());
        let event = |data: Payload, kind: &str| NewEvent {
            id: uuid::Uuid::now_v7(),
            event_type: kind.into(),
            schema: 2,
            recorded_at: Utc::now(),
            actor: "token:judge".into(),
            command_id: None,
            correlation_id: None,
            causation_id: None,
            rules: "coalition-battle@1".into(),
            data,
        };
        let mut events = vec![event(opening.clone(), "coalition.BattleCreated")];
        for n in 1..per_battle {
            let entropy =
                json!({"type": "coalition.EntropyContributed", "entropy": format!("luck {n}"), "by": "token:judge"});
            events.push(event(entropy.into(), "coalition.EntropyContributed"));
        }
        let request =
            AppendRequest { stream, expected: ExpectedVersion::NoStream, events, command_id: None, command: None };
        store.append(request).expect("append");
        written += per_battle;
    }
    eprintln!("wrote {written} events in {:.1} s", started.elapsed().as_secs_f64());
    written
}

/// The black-box tests' coalition battle, its strategies due in a day.
fn coalition_battle() -> Value {
    setups::coalition(&(Utc::now() + chrono::Duration::days(1)).to_rfc3339())
}

/// Start the server on a million events: how soon the port opens, how soon it is ready; first
/// on the bare log (the read models folded from it, then saved), then again after a graceful
/// stop (the saved read models read back, api/src/snapshots.rs).
fn restart(dir: &Path, events: u64) -> String {
    let started = Instant::now();
    let first = Server::spawn(dir, ADMIN, &[]);
    let first_open = first.wait_for_port(started);
    let first_ready = first.wait_until_ready(started);
    first.stop_gracefully();
    let started = Instant::now();
    let server = Server::spawn(dir, ADMIN, &[]);
    let opened = server.wait_for_port(started);
    let ready = server.wait_until_ready(started);
    format!(
        "6. restart on {events} events: port open after {}, ready (read models restored and caught up) after {} \
         (goal <= 2 s); memory then {} MiB. First start on the bare log (no saved read models): port open after {}, \
         ready after {}",
        micros(opened),
        micros(ready),
        server.rss_mib(),
        micros(first_open),
        micros(first_ready),
    )
}

/// An HTTP client of the server, with the load patterns.
#[derive(Clone)]
struct Client {
    http: reqwest::Client,
    base: String,
    /// The server's process id, to read its CPU time.
    pid: u32,
}

impl Client {
    fn new(server: &Server) -> Self {
        let http = reqwest::Client::builder().pool_max_idle_per_host(64).build().expect("a client");
        Self { http, base: format!("http://127.0.0.1:{}", server.port), pid: server.child.id() }
    }

    async fn get(&self, path: &str) -> bool {
        match self.http.get(format!("{}{path}", self.base)).send().await {
            Ok(response) => response.status().is_success() && response.bytes().await.is_ok(),
            Err(_) => false,
        }
    }

    /// A POST whose answer is read but not parsed (as `wrk` would): the load generator shares
    /// the server's cores, and parsing each answer took CPU from the server it measures.
    async fn post(&self, path: &str, token: &str, body: Value) -> bool {
        match self.http.post(format!("{}{path}", self.base)).bearer_auth(token).json(&body).send().await {
            Ok(response) => response.status().is_success() && response.bytes().await.is_ok(),
            Err(_) => false,
        }
    }

    async fn send(&self, path: &str, token: &str, body: Value) -> Option<Value> {
        let response =
            self.http.post(format!("{}{path}", self.base)).bearer_auth(token).json(&body).send().await.ok()?;
        let ok = response.status().is_success();
        let body: Value = response.json().await.ok()?;
        ok.then_some(body)
    }

    async fn token(&self, body: Value) -> String {
        let issued = self.send("/v1/tokens", ADMIN, body).await.expect("a token");
        issued["token"].as_str().expect("a token").to_string()
    }

    async fn battle(&self, judge: &str) -> String {
        let created = self.send("/v1/battles", judge, coalition_battle()).await.expect("a battle");
        created["stream"].as_str().expect("a stream").trim_start_matches("battle-").to_string()
    }

    async fn battles(&self, judge: &str, count: usize) -> Arc<Vec<String>> {
        let mut ids = Vec::new();
        for _ in 0..count {
            ids.push(self.battle(judge).await);
        }
        Arc::new(ids)
    }

    /// Requests per second over `window` from 32 clients each sending `request` in a loop.
    async fn rate<F, Fut>(&self, window: Duration, request: F) -> f64
    where
        F: Fn(Client) -> Fut + Clone + Send + 'static,
        Fut: std::future::Future<Output = bool> + Send,
    {
        self.rate_each(window, move |client, _| request(client)).await
    }

    /// Requests per second over `window` from 32 clients, worker `i` sending `request(_, i)`.
    async fn rate_each<F, Fut>(&self, window: Duration, request: F) -> f64
    where
        F: Fn(Client, usize) -> Fut + Clone + Send + 'static,
        Fut: std::future::Future<Output = bool> + Send,
    {
        let done = Arc::new(AtomicU64::new(0));
        let until = Instant::now() + window;
        let workers: Vec<_> = (0..CLIENTS)
            .map(|worker| {
                let (client, request, done) = (self.clone(), request.clone(), done.clone());
                tokio::spawn(async move {
                    while Instant::now() < until {
                        if request(client.clone(), worker).await {
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        let started = Instant::now();
        for worker in workers {
            let _ = worker.await;
        }
        done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
    }

    /// Figure 7's HTTP half: 32 clients creating battles for `window`, client `i` with set-up
    /// `i % setups.len()`, each create timed.
    async fn creates(&self, judge: &str, setups: Vec<(&'static str, Value)>, window: Duration) -> Made {
        let setups = Arc::new(setups);
        let first = std::sync::Mutex::new(vec![String::new(); setups.len()]);
        let first = Arc::new(first);
        let server = cpu_seconds(&self.pid.to_string());
        let until = Instant::now() + window;
        let workers: Vec<_> = (0..CLIENTS)
            .map(|worker| {
                let (client, setups, first, judge) = (self.clone(), setups.clone(), first.clone(), judge.to_string());
                tokio::spawn(async move {
                    let which = worker % setups.len();
                    let mut latencies = Vec::new();
                    while Instant::now() < until {
                        let started = Instant::now();
                        let created = client.send("/v1/battles", &judge, setups[which].1.clone()).await;
                        let created = created.unwrap_or_else(|| panic!("a {} battle is created", setups[which].0));
                        latencies.push(started.elapsed());
                        let mut first = first.lock().expect("the first streams");
                        if first[which].is_empty() {
                            first[which] = created["stream"].as_str().expect("a stream").to_string();
                        }
                    }
                    latencies
                })
            })
            .collect();
        let started = Instant::now();
        let mut latencies = Vec::new();
        for worker in workers {
            latencies.extend(worker.await.expect("a worker"));
        }
        let elapsed = started.elapsed().as_secs_f64();
        let created = latencies.len() as f64;
        let first = first.lock().expect("the first streams").clone();
        Made {
            rate: created / elapsed,
            latencies,
            server_cpu: (cpu_seconds(&self.pid.to_string()) - server) / created.max(1.0),
            first,
        }
    }

    /// Figure 3: 32 clients, each rolling on a battle of its own, for `window`, and the CPU time
    /// one command costs the server and the load generator.
    async fn many_streams(&self, judge: &str, window: Duration) -> Many {
        let streams = self.battles(judge, CLIENTS).await;
        let stream = format!("battle-{}", streams[0]);
        let writer = judge.to_string();
        let groups = self.group_commits().await;
        let (server, client) = (cpu_seconds(&self.pid.to_string()), cpu_seconds("self"));
        let started = Instant::now();
        let rate = self
            .rate_each(window, move |c, worker| {
                let (path, token) = (roll_path(&streams[worker]), writer.clone());
                async move { c.post(&path, &token, roll()).await }
            })
            .await;
        let commands = rate * started.elapsed().as_secs_f64();
        let (count, appends) = self.group_commits().await;
        Many {
            stream,
            per_flush: (appends - groups.1) / (count - groups.0).max(1.0),
            rate,
            server_cpu: (cpu_seconds(&self.pid.to_string()) - server) / commands.max(1.0),
            client_cpu: (cpu_seconds("self") - client) / commands.max(1.0),
        }
    }

    /// The server's group commits so far and the appends they answered
    /// (`herald_store_flush_appends`, a histogram, on `/metrics`).
    async fn group_commits(&self) -> (f64, f64) {
        let text = match self.http.get(format!("{}/metrics", self.base)).send().await {
            Ok(response) => response.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        let value = |name: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.trim().parse::<f64>().ok()))
                .unwrap_or(0.0)
        };
        (value("herald_store_flush_appends_count"), value("herald_store_flush_appends_sum"))
    }

    /// Roll for the judge on `battle` until its stream holds `events` events.
    async fn grow(&self, judge: &str, battle: &str, events: u64) {
        let path = format!("/v1/battles/{battle}");
        loop {
            let view = self.http.get(format!("{}{path}", self.base)).send().await.expect("a view");
            let version: u64 = view
                .headers()
                .get("etag")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim_matches('"').parse().ok())
                .expect("an etag");
            if version + 1 >= events {
                return;
            }
            let missing = (events - version - 1) as usize;
            let rolls = roll_path(battle);
            let posts = (0..missing.min(256)).map(|_| self.post(&rolls, judge, roll()));
            futures_util::future::join_all(posts).await;
        }
    }

    /// Median latency of POSTs to `short` and to `long`, alternating, one at a time.
    async fn alternate(&self, judge: &str, short: &str, long: &str, samples: usize) -> (Duration, Duration) {
        let (mut on_short, mut on_long) = (Vec::new(), Vec::new());
        for _ in 0..samples {
            for (battle, into) in [(short, &mut on_short), (long, &mut on_long)] {
                let started = Instant::now();
                assert!(self.post(&roll_path(battle), judge, roll()).await, "a judge's roll is accepted");
                into.push(started.elapsed());
            }
        }
        (median(&mut on_short), median(&mut on_long))
    }

    /// Median and 99th percentile of `samples` rolls on `battle`, one at a time.
    async fn one_at_a_time(&self, judge: &str, battle: &str, samples: usize) -> (Duration, Duration) {
        let mut latencies = Vec::new();
        for _ in 0..samples {
            let started = Instant::now();
            assert!(self.post(&roll_path(battle), judge, roll()).await, "a judge's roll is accepted");
            latencies.push(started.elapsed());
        }
        (median(&mut latencies), percentile(&mut latencies, 0.99))
    }

    /// Median and 99th percentile of posting a player's orders, one at a time.
    async fn post_orders(&self, campaign: &Campaign, samples: usize) -> (Duration, Duration) {
        let token = self.token(json!({"role": "player", "player": campaign.player})).await;
        let path = format!("/v1/campaigns/{}/orders", campaign.id);
        let mut latencies = Vec::new();
        for _ in 0..samples {
            let started = Instant::now();
            let body = json!({"orders": campaign.orders});
            assert!(self.post(&path, &token, body).await, "orders are accepted");
            latencies.push(started.elapsed());
        }
        let p99 = percentile(&mut latencies, 0.99);
        (median(&mut latencies), p99)
    }
}

fn median(samples: &mut [Duration]) -> Duration {
    percentile(samples, 0.5)
}

fn percentile(samples: &mut [Duration], at: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * at).round() as usize;
    samples.get(index).copied().unwrap_or_default()
}
