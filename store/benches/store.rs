//! Store benchmarks, each against a raw sled baseline measured in the same run.
//!
//! (a) durable single-event append vs a raw two-tree transaction + flush; (b) the same for a
//! 100-event batch; (c) 32 concurrent appenders vs one (group commit); (d) replaying a stream
//! with `read_stream` pages vs a raw scan + decode of the same bytes, on a 1,000,000-event
//! stream (criterion iterations replay the first 100,000; one full 1M replay is timed too);
//! (e) bytes on disk per logical byte after the 1M load. A summary with the ratios and goals is
//! printed at the end; docs/PERFORMANCE.md records a run.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{black_box, BenchmarkId, Criterion, Throughput};
use herald_store::codec::{decode_event, encode_event, position_key, stream_key};
use herald_store::{
    AppendRequest, Direction, Durability, EventStore, ExpectedVersion, NewEvent, RecordedEvent, SledStore,
};
use sled::transaction::{ConflictableTransactionError, Transactional};

const REPLAY_PAGE: usize = 1_000;

/// Events in the replay stream: 1M under `cargo bench`, a smoke-test 10k when run as a test.
fn replay_events() -> u64 {
    if std::env::args().any(|arg| arg == "--bench") {
        1_000_000
    } else {
        10_000
    }
}

/// Events replayed per criterion iteration.
fn replay_sample() -> u64 {
    replay_events() / 10
}
const CONCURRENT: usize = 32;

/// Mean time per iteration of every benchmark, filled in by `iter_custom`.
static MEANS: Mutex<BTreeMap<&'static str, (Duration, u64)>> = Mutex::new(BTreeMap::new());

fn record(name: &'static str, elapsed: Duration, iters: u64) -> Duration {
    let mut means = MEANS.lock().expect("means lock");
    let entry = means.entry(name).or_insert((Duration::ZERO, 0));
    entry.0 += elapsed;
    entry.1 += iters;
    elapsed
}

fn mean(name: &str) -> Duration {
    let means = MEANS.lock().expect("means lock");
    means.get(name).map_or(Duration::ZERO, |(total, iters)| *total / (*iters).max(1) as u32)
}

/// A realistic event: a unit move with a dice roll, about 300 bytes as a JSON envelope.
fn new_event(n: u64) -> NewEvent {
    NewEvent {
        id: uuid::Uuid::now_v7(),
        event_type: "coalition.UnitMoved".into(),
        schema: 1,
        recorded_at: chrono::Utc::now(),
        actor: "player:0192b7e4-7c1a-7d3e-9f00-1c2d3e4f5a6b".into(),
        command_id: Some(uuid::Uuid::now_v7().to_string()),
        correlation_id: None,
        causation_id: None,
        rules: "coalition@1".into(),
        data: serde_json::json!({ "unit": format!("u{}", n % 97), "from": [3, 4], "to": [5, 6],
                                   "roll": { "dice": "2d6", "result": [3, 5] } })
        .into(),
    }
}

fn stream_name(n: usize) -> String {
    format!("battle-{}", uuid::Uuid::from_u128(0x0192_b7e4_0000_7000_8000_0000_0000_0000 + n as u128))
}

fn append(store: &SledStore, stream: &str, count: u64) {
    let request = AppendRequest {
        stream: stream.to_string(),
        expected: ExpectedVersion::Any,
        events: (0..count).map(new_event).collect(),
        command_id: None,
        command: None,
    };
    store.append(request).expect("append");
}

/// The raw baseline: what the store writes at minimum, events plus stream index, one
/// transaction, one flush.
struct Raw {
    db: sled::Db,
    events: sled::Tree,
    streams: sled::Tree,
    next: u64,
}

impl Raw {
    fn open(path: &std::path::Path) -> Self {
        let db = sled::open(path).expect("open raw sled");
        let events = db.open_tree("events").expect("tree");
        let streams = db.open_tree("streams").expect("tree");
        Self { db, events, streams, next: 0 }
    }

    fn append(&mut self, stream: &str, count: u64) {
        let (mut events, mut streams) = (sled::Batch::default(), sled::Batch::default());
        for i in 0..count {
            let new = new_event(i);
            let event = RecordedEvent {
                id: new.id,
                stream: stream.to_string(),
                version: self.next,
                position: self.next,
                event_type: new.event_type,
                schema: new.schema,
                recorded_at: new.recorded_at,
                actor: new.actor,
                command_id: new.command_id,
                correlation_id: None,
                causation_id: None,
                rules: new.rules,
                data: new.data,
            };
            let key = position_key(self.next);
            events.insert(&key[..], encode_event(&event));
            streams.insert(stream_key(stream, self.next), &key[..]);
            self.next += 1;
        }
        (&self.events, &self.streams)
            .transaction(|(e, s)| {
                e.apply_batch(&events)?;
                s.apply_batch(&streams)?;
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .expect("raw transaction");
        self.db.flush().expect("raw flush");
    }
}

fn bench_appends(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path().join("store")).expect("open store");
    let mut raw = Raw::open(&dir.path().join("raw"));
    let stream = stream_name(0);
    for (label, count) in [("a_single", 1u64), ("b_batch100", 100)] {
        let mut group = c.benchmark_group(format!("append_{label}"));
        group.throughput(Throughput::Elements(count));
        let store_name: &'static str = if count == 1 { "a_store" } else { "b_store" };
        let raw_name: &'static str = if count == 1 { "a_raw" } else { "b_raw" };
        group.bench_function(BenchmarkId::new("store", count), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                (0..iters).for_each(|_| append(&store, &stream, count));
                record(store_name, start.elapsed(), iters)
            })
        });
        group.bench_function(BenchmarkId::new("raw_sled", count), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                (0..iters).for_each(|_| raw.append(&stream, count));
                record(raw_name, start.elapsed(), iters)
            })
        });
        group.finish();
    }
}

fn bench_concurrency(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("open store");
    let streams: Vec<String> = (0..CONCURRENT).map(stream_name).collect();
    let mut group = c.benchmark_group("c_concurrent_appenders");
    group.throughput(Throughput::Elements(1));
    group.bench_function("1_thread", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            (0..iters).for_each(|_| append(&store, &streams[0], 1));
            record("c_one", start.elapsed(), iters)
        })
    });
    // One iteration is one append by each of the 32 threads.
    group.throughput(Throughput::Elements(CONCURRENT as u64));
    group.bench_function("32_threads", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            std::thread::scope(|scope| {
                for stream in &streams {
                    let store = &store;
                    scope.spawn(move || (0..iters).for_each(|_| append(store, stream, 1)));
                }
            });
            record("c_32", start.elapsed(), iters)
        })
    });
    group.finish();
}

/// Issue 15.6: what the `fsync` after each group flush costs, against the same store with
/// sled's flush alone (`Durability::ProcessCrash`), one appender and 32.
fn bench_durability(c: &mut Criterion) {
    let streams: Vec<String> = (0..CONCURRENT).map(stream_name).collect();
    let mut group = c.benchmark_group("f_durability");
    for (durability, one, many) in
        [(Durability::PowerLoss, "f_one_fsync", "f_32_fsync"), (Durability::ProcessCrash, "f_one_flush", "f_32_flush")]
    {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open_with(dir.path(), durability).expect("open store");
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("{durability:?}/1_thread"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                (0..iters).for_each(|_| append(&store, &streams[0], 1));
                record(one, start.elapsed(), iters)
            })
        });
        group.throughput(Throughput::Elements(CONCURRENT as u64));
        group.bench_function(format!("{durability:?}/32_threads"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                std::thread::scope(|scope| {
                    for stream in &streams {
                        let store = &store;
                        scope.spawn(move || (0..iters).for_each(|_| append(store, stream, 1)));
                    }
                });
                record(many, start.elapsed(), iters)
            })
        });
    }
    group.finish();
}

fn replay_store(store: &SledStore, stream: &str, events: u64) -> u64 {
    let (mut from, mut seen) = (0, 0u64);
    while seen < events {
        let page = store.read_stream(stream, from, Direction::Forwards, REPLAY_PAGE).expect("read");
        let Some(last) = page.last() else { break };
        from = last.version + 1;
        seen += page.len() as u64;
        black_box(&page);
    }
    seen
}

fn replay_streaming(store: &SledStore, stream: &str, events: u64) -> u64 {
    let mut seen = 0;
    store
        .replay_stream(stream, 0, &mut |event| {
            black_box(event);
            seen += 1;
            if seen < events {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .expect("replay");
    seen
}

fn replay_raw(events: &sled::Tree, count: u64) -> u64 {
    let mut seen = 0;
    for entry in events.iter().take(count as usize) {
        let (_, bytes) = entry.expect("scan");
        black_box(decode_event(&bytes).expect("decode"));
        seen += 1;
    }
    seen
}

/// The raw scan again, but keeping pages of decoded events alive like `read_stream` callers do.
fn replay_raw_paged(events: &sled::Tree, count: u64) -> u64 {
    let mut seen = 0;
    let mut page = Vec::with_capacity(REPLAY_PAGE);
    for entry in events.iter().take(count as usize) {
        let (_, bytes) = entry.expect("scan");
        page.push(decode_event(&bytes).expect("decode"));
        if page.len() == REPLAY_PAGE {
            seen += page.len() as u64;
            black_box(&page);
            page = Vec::with_capacity(REPLAY_PAGE);
        }
    }
    seen + page.len() as u64
}

fn dir_bytes(path: &std::path::Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let (mut apparent, mut allocated) = (0, 0);
    for entry in std::fs::read_dir(path).expect("read dir").flatten() {
        let meta = entry.metadata().expect("metadata");
        if meta.is_dir() {
            let (a, b) = dir_bytes(&entry.path());
            apparent += a;
            allocated += b;
        } else {
            apparent += meta.len();
            allocated += meta.blocks() * 512;
        }
    }
    (apparent, allocated)
}

fn bench_replay(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("open store");
    let stream = stream_name(1);
    let (replay_events, replay_sample) = (replay_events(), replay_sample());
    let start = Instant::now();
    for _ in 0..replay_events / 1000 {
        append(&store, &stream, 1000);
    }
    eprintln!("loaded {replay_events} events in {:.1?}", start.elapsed());

    // (e) disk use after the load, against the events' logical size.
    let (mut json_bytes, mut encoded_bytes) = (0u64, 0u64);
    let mut from = 0;
    loop {
        let page = store.read_all(from, 10_000).expect("read all");
        let Some(last) = page.last() else { break };
        from = last.position + 1;
        for event in &page {
            json_bytes += serde_json::to_vec(event).expect("json").len() as u64;
            encoded_bytes += encode_event(event).len() as u64;
        }
    }
    store.db().expect("the database").flush().expect("flush");
    let (apparent, allocated) = dir_bytes(dir.path());
    summary(format!(
        "(e) disk: {allocated} bytes allocated ({apparent} apparent) for {replay_events} events; \
         logical {json_bytes} bytes as JSON envelopes, {encoded_bytes} encoded; \
         disk/JSON = {:.2}x, disk/encoded = {:.2}x (goal <= 3x)",
        allocated as f64 / json_bytes as f64,
        allocated as f64 / encoded_bytes as f64,
    ));

    let events = store.db().expect("the database").open_tree(herald_store::codec::EVENTS_TREE).expect("events tree");
    let mut group = c.benchmark_group("d_replay");
    group.throughput(Throughput::Elements(replay_sample));
    group.bench_function("store_read_stream", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            (0..iters).for_each(|_| assert_eq!(replay_store(&store, &stream, replay_sample), replay_sample));
            record("d_store", start.elapsed(), iters)
        })
    });
    group.bench_function("store_replay_stream", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            (0..iters).for_each(|_| assert_eq!(replay_streaming(&store, &stream, replay_sample), replay_sample));
            record("d_streaming", start.elapsed(), iters)
        })
    });
    group.bench_function("raw_scan_decode", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            (0..iters).for_each(|_| assert_eq!(replay_raw(&events, replay_sample), replay_sample));
            record("d_raw", start.elapsed(), iters)
        })
    });
    group.bench_function("raw_scan_decode_paged", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            (0..iters).for_each(|_| assert_eq!(replay_raw_paged(&events, replay_sample), replay_sample));
            record("d_raw_paged", start.elapsed(), iters)
        })
    });
    group.finish();

    let rate = |replay: &dyn Fn() -> u64| {
        let start = Instant::now();
        assert_eq!(replay(), replay_events);
        replay_events as f64 / start.elapsed().as_secs_f64()
    };
    let store_rate = rate(&|| replay_store(&store, &stream, u64::MAX));
    let streaming_rate = rate(&|| replay_streaming(&store, &stream, u64::MAX));
    let raw_rate = rate(&|| replay_raw(&events, replay_events));
    summary(format!(
        "(d) full {replay_events} replay: store read_stream {store_rate:.0} events/s, raw scan+decode {raw_rate:.0} \
         events/s, ratio {:.2}x (goal >= 0.5x and >= 700000 events/s); store replay_stream {streaming_rate:.0} \
         events/s, ratio {:.2}x",
        store_rate / raw_rate,
        streaming_rate / raw_rate
    ));
}

static SUMMARY: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn summary(line: String) {
    eprintln!("{line}");
    SUMMARY.lock().expect("summary lock").push(line);
}

fn ratios() {
    let per_sec = |name: &str, events: f64| events / mean(name).as_secs_f64().max(f64::MIN_POSITIVE);
    let (a_store, a_raw) = (per_sec("a_store", 1.0), per_sec("a_raw", 1.0));
    summary(format!(
        "(a) single append: store {a_store:.0}/s ({:.1?}), raw {a_raw:.0}/s ({:.1?}), ratio {:.2}x (goal >= 0.5x)",
        mean("a_store"),
        mean("a_raw"),
        a_store / a_raw
    ));
    let (b_store, b_raw) = (per_sec("b_store", 100.0), per_sec("b_raw", 100.0));
    summary(format!(
        "(b) 100-event batch: store {b_store:.0} events/s ({:.1?}/batch), raw {b_raw:.0} events/s ({:.1?}/batch), \
         ratio {:.2}x (goal >= 0.5x)",
        mean("b_store"),
        mean("b_raw"),
        b_store / b_raw
    ));
    let (one, many) = (per_sec("c_one", 1.0), per_sec("c_32", CONCURRENT as f64));
    summary(format!(
        "(c) 32 appenders {many:.0} events/s vs 1 appender {one:.0} events/s, ratio {:.2}x (goal >= 5x)",
        many / one
    ));
    let (one_fsync, one_flush) = (per_sec("f_one_fsync", 1.0), per_sec("f_one_flush", 1.0));
    let (many_fsync, many_flush) = (per_sec("f_32_fsync", CONCURRENT as f64), per_sec("f_32_flush", CONCURRENT as f64));
    summary(format!(
        "(f) fsync after each group flush: 1 appender {one_fsync:.0}/s ({:.1?}) vs flush only {one_flush:.0}/s \
         ({:.1?}), {:.2}x; 32 appenders {many_fsync:.0} events/s vs {many_flush:.0} events/s, {:.2}x",
        mean("f_one_fsync"),
        mean("f_one_flush"),
        one_fsync / one_flush,
        many_fsync / many_flush
    ));
    let sample = replay_sample() as f64;
    let (d_store, d_raw, d_paged) =
        (per_sec("d_store", sample), per_sec("d_raw", sample), per_sec("d_raw_paged", sample));
    let d_streaming = per_sec("d_streaming", sample);
    summary(format!(
        "(d) replay ({sample} of {}, criterion mean, pages of {REPLAY_PAGE}): store read_stream {d_store:.0} \
         events/s, raw scan+decode {d_raw:.0} events/s, ratio {:.2}x (goal >= 0.5x and >= 700000 events/s); \
         raw kept in pages {d_paged:.0} events/s, read_stream/that {:.2}x; \
         store replay_stream {d_streaming:.0} events/s, ratio {:.2}x",
        replay_events(),
        d_store / d_raw,
        d_store / d_paged,
        d_streaming / d_raw
    ));
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args();
    bench_appends(&mut c);
    bench_concurrency(&mut c);
    bench_durability(&mut c);
    bench_replay(&mut c);
    c.final_summary();
    ratios();
    eprintln!("\n==== herald-store benchmark summary ====");
    for line in SUMMARY.lock().expect("summary lock").iter() {
        eprintln!("{line}");
    }
}
