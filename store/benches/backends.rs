//! sled and PostgreSQL side by side, in one run: one writer, 50 writers with 100-event batches,
//! two PostgreSQL "instances" (two stores on one database) sharing the 50 writers, then replay
//! and `$all` catch-up of everything written. Commanded's EventStore on PostgreSQL (its published
//! 4.9 k events/s with one writer and 8.6 k with 50) is the bar; docs/PERFORMANCE.md records a run.
//!
//! `cargo bench -p herald-store --bench backends`. Run as a test (`cargo test --benches`) it
//! writes a few hundred events as a check that it still runs. PostgreSQL is the throwaway
//! cluster the tests use (`.ci/install-postgres`); without it only sled is measured. That
//! cluster runs with `fsync=off` unless `HERALD_TEST_POSTGRES_DURABLE=1` is set: set it to
//! compare durable commits with sled's (which always flushes).
//!
//! Beside the PostgreSQL store's 1 writer and 50 writers, `pgbench` (where installed) runs a
//! custom script on the same cluster, with the same durability, that writes what an append
//! writes (the `$all` head row locked and moved on, the events, the stream's head, the command,
//! a notify, in one transaction, all in one pipeline: one round trip), with 1 client and single
//! events, then 50 clients and 100-event transactions: the database's own rate, which the
//! store's is printed as a ratio of (issue 29).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use herald_store::{AppendRequest, EventStore, ExpectedVersion, NewEvent, SledStore};

/// (single appends by one writer, batches per writer of the 50): full under `--bench`.
fn sizes() -> (u64, u64) {
    if std::env::args().any(|arg| arg == "--bench") {
        (3_000, 20)
    } else {
        (50, 1)
    }
}
const WRITERS: usize = 50;
const BATCH: u64 = 100;

/// The event of docs/PERFORMANCE.md: a unit move with a dice roll.
fn new_event(n: u64) -> NewEvent {
    NewEvent {
        id: uuid::Uuid::now_v7(),
        event_type: "coalition.UnitMoved".into(),
        schema: 1,
        recorded_at: chrono::Utc::now(),
        actor: "player:0192b7e4-7c1a-7d3e-9f00-1c2d3e4f5a6b".into(),
        command_id: None,
        correlation_id: None,
        causation_id: None,
        rules: "coalition@1".into(),
        data: serde_json::json!({ "unit": format!("u{}", n % 97), "from": [3, 4], "to": [5, 6],
                                   "roll": { "dice": "2d6", "result": [3, 5] } })
        .into(),
    }
}

fn append(store: &dyn EventStore, stream: &str, count: u64) {
    let request = AppendRequest {
        stream: stream.to_string(),
        expected: ExpectedVersion::Any,
        events: (0..count).map(new_event).collect(),
        command_id: Some(uuid::Uuid::now_v7().to_string()),
        command: None,
    };
    store.append(request).expect("append");
}

fn rate(events: u64, elapsed: Duration) -> f64 {
    events as f64 / elapsed.as_secs_f64()
}

/// One writer appending single events, each a durable commit.
fn one_writer(backend: &str, store: &dyn EventStore, count: u64) -> f64 {
    let stream = format!("battle-{}", uuid::Uuid::now_v7());
    let switched = context_switches();
    let started = Instant::now();
    for _ in 0..count {
        append(store, &stream, 1);
    }
    let elapsed = started.elapsed();
    if let (Some(before), Some(after)) = (switched, context_switches()) {
        let mut by_thread: Vec<String> = after
            .iter()
            .filter_map(|(name, now)| {
                let was = before.get(name).copied().unwrap_or_default();
                let each = |now: u64, was: u64| now.saturating_sub(was) as f64 / count as f64;
                let (voluntary, involuntary) =
                    (each(now.voluntary, was.voluntary), each(now.involuntary, was.involuntary));
                let cpu = each(now.cpu_ns, was.cpu_ns) / 1_000.0;
                (voluntary + involuntary >= 0.01 || cpu >= 1.0)
                    .then(|| format!("{name} {voluntary:.2} + {involuntary:.2}, {cpu:.0} µs"))
            })
            .collect();
        by_thread.sort();
        eprintln!(
            "{backend}, 1 writer, an append, by thread name: context switches voluntary (the thread blocked, and \
             something woke it) + involuntary, and CPU time: {} ({:.0} µs an append in all)",
            by_thread.join(", "),
            elapsed.as_secs_f64() * 1e6 / count as f64
        );
    }
    rate(count, elapsed)
}

/// What one thread (or all of one name) did so far, from `/proc/self/task/*/{status,schedstat}`.
#[derive(Debug, Default, Clone, Copy)]
struct Switches {
    voluntary: u64,
    involuntary: u64,
    /// Time on a CPU, in ns.
    cpu_ns: u64,
}

/// The context switches and CPU time of this process's threads so far, summed by thread name;
/// `None` where there are no such files (not Linux). Threads that ended are not counted: the
/// stores' threads live as long as the stores.
fn context_switches() -> Option<std::collections::BTreeMap<String, Switches>> {
    let mut by_name = std::collections::BTreeMap::new();
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let path = task.ok()?.path();
        let Ok(status) = std::fs::read_to_string(path.join("status")) else { continue };
        let mut name = String::new();
        let mut counts = Switches::default();
        for line in status.lines() {
            let count = |prefix: &str| line.strip_prefix(prefix).and_then(|rest| rest.trim().parse::<u64>().ok());
            if let Some(rest) = line.strip_prefix("Name:") {
                name = rest.trim().to_string();
            } else if let Some(count) = count("voluntary_ctxt_switches:") {
                counts.voluntary = count;
            } else if let Some(count) = count("nonvoluntary_ctxt_switches:") {
                counts.involuntary = count;
            }
        }
        counts.cpu_ns = std::fs::read_to_string(path.join("schedstat"))
            .ok()
            .and_then(|stat| stat.split_whitespace().next().and_then(|ns| ns.parse().ok()))
            .unwrap_or(0);
        let total: &mut Switches = by_name.entry(name).or_default();
        total.voluntary += counts.voluntary;
        total.involuntary += counts.involuntary;
        total.cpu_ns += counts.cpu_ns;
    }
    Some(by_name)
}

/// [`WRITERS`] threads spread over `stores`, each appending `batches` batches of [`BATCH`] to a
/// stream of its own.
fn many_writers(stores: &[Arc<dyn EventStore>], batches: u64) -> f64 {
    let started = Instant::now();
    std::thread::scope(|scope| {
        for writer in 0..WRITERS {
            let store = stores[writer % stores.len()].clone();
            scope.spawn(move || {
                let stream = format!("battle-{}", uuid::Uuid::now_v7());
                for _ in 0..batches {
                    append(store.as_ref(), &stream, BATCH);
                }
            });
        }
    });
    rate(WRITERS as u64 * batches * BATCH, started.elapsed())
}

/// `replay_all` of the whole log, and `read_all` in pages of 1,000 (a read model catching up),
/// each twice, alternating, and the better of each, after an untimed pass: the first read after
/// the writes pays for what later ones find done (PostgreSQL sets each new row's hint bits on
/// its first read, and the pages come into the caches), so whichever ran first looked slower
/// (replay_all, when it was timed first and once: 61-69 k events/s against paging's 124-238 k,
/// where its second pass did 154 k).
fn reads(store: &dyn EventStore) -> (u64, f64, f64) {
    let replay = |store: &dyn EventStore| {
        let started = Instant::now();
        let mut replayed = 0u64;
        store
            .replay_all(0, &mut |event| {
                std::hint::black_box(event.data);
                replayed += 1;
                ControlFlow::Continue(())
            })
            .expect("replay");
        (replayed, rate(replayed, started.elapsed()))
    };
    let page = |store: &dyn EventStore| {
        let started = Instant::now();
        let (mut from, mut read) = (0, 0u64);
        loop {
            let page = store.read_all(from, 1_000).expect("read");
            let Some(last) = page.last() else { break };
            from = last.position + 1;
            read += page.len() as u64;
        }
        (read, rate(read, started.elapsed()))
    };
    let (warm, _) = page(store);
    let (replayed, first_replay) = replay(store);
    let (read, first_page) = page(store);
    assert_eq!(warm, read);
    let (_, second_replay) = replay(store);
    let (_, second_page) = page(store);
    assert_eq!(replayed, read, "replay_all and paging read the same log");
    eprintln!(
        "reads: replay_all {first_replay:.0} then {second_replay:.0} events/s, pages of 1,000 {first_page:.0} then \
         {second_page:.0} (alternating, after an untimed pass)"
    );
    (replayed, first_replay.max(second_replay), first_page.max(second_page))
}

struct Row {
    backend: &'static str,
    one: f64,
    fifty: f64,
    two_instances: Option<f64>,
    events: u64,
    replay: f64,
    catch_up: f64,
}

/// Each phase's writes, then `after(phase)` (the PostgreSQL store reports how its group commits
/// went).
fn measure(
    backend: &'static str,
    stores: &[Arc<dyn EventStore>],
    second: Option<Arc<dyn EventStore>>,
    after: &dyn Fn(&str),
) -> Row {
    let (single, batches) = sizes();
    let one = one_writer(backend, stores[0].as_ref(), single);
    after("1 writer");
    let fifty = many_writers(stores, batches);
    after("50 writers");
    let two_instances = second.map(|other| many_writers(&[stores[0].clone(), other], batches));
    after("2 instances");
    let (events, replay, catch_up) = reads(stores[0].as_ref());
    Row { backend, one, fifty, two_instances, events, replay, catch_up }
}

/// The script pgbench runs for each transaction: an append of `:rows` events to the client's
/// own stream, the rows the store writes (`store/src/postgres/writer.rs`, which sends them as one
/// statement), in one pipeline.
const PGBENCH_SCRIPT: &str = r#"\startpipeline
BEGIN;
UPDATE herald_head SET next_position = next_position + :rows;
INSERT INTO herald_events (position, stream, version, id, event_type, schema, recorded_at, recorded_nanos, actor, command_id, correlation_id, causation_id, rules, data) SELECT h.next_position - :rows + g, 'pgbench-' || :client_id, h.next_position - :rows + g, gen_random_uuid(), 'coalition.UnitMoved', 1, now(), 0, 'player:0192b7e4-7c1a-7d3e-9f00-1c2d3e4f5a6b', NULL, NULL, NULL, 'coalition@1', '{"unit":"u17","from":[3,4],"to":[5,6],"roll":{"dice":"2d6","result":[3,5]}}'::json FROM herald_head h, generate_series(0, :rows - 1) g;
INSERT INTO herald_streams (stream, version) SELECT 'pgbench-' || :client_id, next_position - 1 FROM herald_head ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version;
INSERT INTO herald_commands (command_id, stream, command, first_version, last_version, first_position) SELECT gen_random_uuid()::text, 'pgbench-' || :client_id, NULL, next_position - :rows, next_position - 1, next_position - :rows FROM herald_head;
SELECT pg_notify('pgbench', 'x');
COMMIT;
\endpipeline
"#;

/// pgbench's rate in events/s (transactions/s times `rows`) with `clients` clients writing
/// `rows` events a transaction into the tables of a fresh schema on the test cluster; `None`
/// without pgbench.
fn pgbench(clients: usize, rows: u64) -> Option<f64> {
    let schema = herald_store::conformance::cluster::Schema::fresh()?;
    // A store connected once creates the schema's tables.
    drop(schema.connect().expect("the pgbench schema"));
    let url = schema.url().to_string();
    let port = url.rsplit_once(':').and_then(|(_, rest)| rest.split('/').next()).expect("the cluster's port");
    let dir = tempfile::tempdir().expect("temporary directory");
    let script = dir.path().join("append.sql");
    std::fs::write(&script, PGBENCH_SCRIPT).expect("the pgbench script");
    let (single, _) = sizes();
    let length = if single > 1_000 { ["-T", "5"] } else { ["-t", "20"] };
    let children_before = children_cpu();
    let output = std::process::Command::new("pgbench")
        .args(["-n", "-M", "prepared", "-h", "127.0.0.1", "-p", port, "-U", "herald"])
        .args(length)
        .args(["-c", &clients.to_string(), "-j", &clients.min(4).to_string()])
        .arg("-D")
        .arg(format!("rows={rows}"))
        .arg("-f")
        .arg(&script)
        .arg("postgres")
        .env("PGOPTIONS", format!("-c search_path={}", schema.name()))
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) => {
            eprintln!("pgbench not run ({error}): no PostgreSQL baseline");
            return None;
        }
    };
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "pgbench failed: {text}{}", String::from_utf8_lossy(&output.stderr));
    let tps = text
        .lines()
        .find_map(|line| line.strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|tps| tps.parse::<f64>().ok())
        .expect("pgbench's tps");
    let transactions = text
        .lines()
        .find_map(|line| line.strip_prefix("number of transactions actually processed: "))
        .and_then(|rest| rest.split('/').next())
        .and_then(|count| count.trim().parse::<u64>().ok());
    if let (Some(before), Some(after), Some(transactions)) = (children_before, children_cpu(), transactions) {
        if clients == 1 && transactions > 0 {
            eprintln!(
                "pgbench, 1 client: {tps:.0} transactions/s, {:.0} µs a transaction in all, its CPU {:.0} µs a \
                 transaction (clock ticks of 10 ms)",
                1e6 / tps,
                after.saturating_sub(before) as f64 * 1e4 / transactions as f64
            );
        }
    }
    Some(tps * rows as f64)
}

/// The CPU time of this process's ended children so far (user and system), in clock ticks of
/// 10 ms (`/proc/self/stat`'s `cutime` and `cstime`); `None` where there is no such file.
fn children_cpu() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name in parentheses; cutime and cstime are the 16th and 17th
    // of the line, the 14th and 15th after the name.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let tick = |index: usize| fields.get(index).and_then(|field| field.parse::<u64>().ok());
    Some(tick(13)? + tick(14)?)
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let sled: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("open sled"));
    let mut rows = vec![measure("sled", &[sled], None, &|_| {})];
    let mut baseline = None;
    match herald_store::conformance::postgres_store() {
        Some((store, schema)) => {
            let (first, second) = (Arc::new(store), Arc::new(schema.connect().expect("a second store")));
            // pgbench first and after, so a drift of the shared machine shows.
            let before = (pgbench(1, 1), pgbench(WRITERS, BATCH));
            let paths = |phase: &str| {
                eprintln!(
                    "PostgreSQL group commits after {phase} (counted since connecting): first store {:?}, second {:?}",
                    first.write_paths(),
                    second.write_paths()
                )
            };
            let row = measure(
                "PostgreSQL",
                &[first.clone() as Arc<dyn EventStore>],
                Some(second.clone() as Arc<dyn EventStore>),
                &paths,
            );
            let after = (pgbench(1, 1), pgbench(WRITERS, BATCH));
            baseline = Some((row.one, row.fifty, before, after));
            rows.push(row);
        }
        None => eprintln!("PostgreSQL not installed: sled only"),
    }
    eprintln!("\n==== sled vs PostgreSQL (events/s; Commanded's EventStore: 4,900 one writer, 8,600 with 50) ====");
    eprintln!("| backend | 1 writer | 50 writers x 100 | 2 instances x 25 writers | replay_all | $all catch-up (pages of 1,000) | events |");
    eprintln!("|---|---|---|---|---|---|---|");
    for row in rows {
        let two =
            row.two_instances.map_or("—".to_string(), |rate| format!("{rate:.0} ({:.2}x Commanded)", rate / 8_600.0));
        eprintln!(
            "| {} | {:.0} ({:.2}x Commanded) | {:.0} ({:.2}x Commanded) | {two} | {:.0} | {:.0} | {} |",
            row.backend,
            row.one,
            row.one / 4_900.0,
            row.fifty,
            row.fifty / 8_600.0,
            row.replay,
            row.catch_up,
            row.events
        );
    }
    if let Some((one, fifty, before, after)) = baseline {
        let show = |store: f64, bench: (Option<f64>, Option<f64>)| match bench {
            (Some(a), Some(b)) => format!("pgbench {a:.0} and {b:.0} (before and after): {:.2}x", store / a.max(b)),
            _ => "no pgbench".to_string(),
        };
        eprintln!("\n==== the PostgreSQL store vs pgbench writing the same rows on the same cluster (events/s; goal >= 0.8x) ====");
        eprintln!("1 writer, single events: store {one:.0}, {}", show(one, (before.0, after.0)));
        eprintln!("50 writers, 100 events an append: store {fifty:.0}, {}", show(fifty, (before.1, after.1)));
        eprintln!(
            "round trips a transaction: the store 1 when its writer knows the head and the streams (the claim \
             of the $all head, the inserts, the heads and the notify in one statement, a transaction of its own: \
             docs/adr/0007, docs/adr/0009), 2 when it must read them first (1 more when a flight was refused: the counts above); pgbench's \
             script 1; a transaction holds one append with one writer, every append waiting with many"
        );
    }
}
