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
fn one_writer(store: &dyn EventStore, count: u64) -> f64 {
    let stream = format!("battle-{}", uuid::Uuid::now_v7());
    let started = Instant::now();
    for _ in 0..count {
        append(store, &stream, 1);
    }
    rate(count, started.elapsed())
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

/// `replay_all` of the whole log, and `read_all` in pages of 1,000 (a read model catching up).
fn reads(store: &dyn EventStore) -> (u64, f64, f64) {
    let started = Instant::now();
    let mut replayed = 0u64;
    store
        .replay_all(0, &mut |event| {
            std::hint::black_box(event.data);
            replayed += 1;
            ControlFlow::Continue(())
        })
        .expect("replay");
    let replay = rate(replayed, started.elapsed());
    let started = Instant::now();
    let (mut from, mut read) = (0, 0u64);
    loop {
        let page = store.read_all(from, 1_000).expect("read");
        let Some(last) = page.last() else { break };
        from = last.position + 1;
        read += page.len() as u64;
    }
    (replayed, replay, rate(read, started.elapsed()))
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

fn measure(backend: &'static str, stores: &[Arc<dyn EventStore>], second: Option<Arc<dyn EventStore>>) -> Row {
    let (single, batches) = sizes();
    let one = one_writer(stores[0].as_ref(), single);
    let fifty = many_writers(stores, batches);
    let two_instances = second.map(|other| many_writers(&[stores[0].clone(), other], batches));
    let (events, replay, catch_up) = reads(stores[0].as_ref());
    Row { backend, one, fifty, two_instances, events, replay, catch_up }
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let sled: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("open sled"));
    let mut rows = vec![measure("sled", &[sled], None)];
    match herald_store::conformance::postgres_store() {
        Some((store, schema)) => {
            let first: Arc<dyn EventStore> = Arc::new(store);
            let second: Arc<dyn EventStore> = Arc::new(schema.connect().expect("a second store"));
            rows.push(measure("PostgreSQL", &[first], Some(second)));
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
}
