//! PostgreSQL going away under two writing instances (issue 27 item 2), caused for real on a
//! cluster of the test's own (`OwnCluster`: the shared one cannot be stopped under the other
//! tests): its backend connections terminated (`pg_terminate_backend`), the server stopped fast
//! and immediate (`pg_ctl stop -m fast|immediate`) and started again, while clients keep writing
//! through both instances. Meanwhile writes answer `503 storage_unavailable` with `Retry-After`
//! and `/readyz` says why; the instances reconnect by themselves. A refused write is retried with
//! its `Idempotency-Key` (alternating instances) until it is acknowledged, so after each fault
//! every write is acknowledged exactly once, and the log must hold exactly the acknowledged
//! events: each at the position and with the content its answer gave, nothing else, `$all`
//! gap-free and identical on both instances, and as followers of `$all` on each instance saw it.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use herald_store::conformance::cluster::{OwnCluster, StopMode};
use herald_tests::{sample_battle, spawn_app_on_store, TestApp, ADMIN_TOKEN};
use serde_json::Value;
use tokio::sync::RwLock;

use crate::support::*;

/// The generous bound on anything awaited: a broken reconnection fails here, a slow machine
/// does not.
const DEADLINE: Duration = Duration::from_secs(180);

/// An acknowledged event: what its write's answer said.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    id: String,
    stream: String,
    version: u64,
    event_type: String,
    data: Value,
}

impl Seen {
    fn of(event: &Value) -> (u64, Self) {
        let position = event["position"].as_u64().expect("a position");
        let seen = Self {
            id: event["id"].as_str().expect("an id").to_string(),
            stream: event["stream"].as_str().expect("a stream").to_string(),
            version: event["version"].as_u64().expect("a version"),
            event_type: event["type"].as_str().expect("a type").to_string(),
            data: event["data"].clone(),
        };
        (position, seen)
    }
}

/// What the writing clients and the followers found.
#[derive(Default)]
struct Record {
    /// Acknowledged writes: key → the events its 2xx answer returned, by position.
    acked: Mutex<BTreeMap<String, Vec<(u64, Seen)>>>,
    /// Every refusal: status, problem body, `Retry-After`.
    refusals: Mutex<Vec<(u16, Value, Option<String>)>>,
    /// Acknowledgements that were replays (the first attempt had committed unacknowledged).
    replayed: AtomicUsize,
    /// What each instance's follower of `$all` saw, by position.
    followed: [Mutex<BTreeMap<u64, String>>; 2],
}

/// Every event of `$all` as the admin reads it through `app`, by position; retries while the
/// instance answers 503 (it may still be reconnecting).
async fn all_events(app: &TestApp) -> BTreeMap<u64, Seen> {
    let mut out = BTreeMap::new();
    let mut from = 0;
    let started = Instant::now();
    loop {
        let page = app.request("GET", &format!("/v1/events?from={from}&limit=500"), Some(ADMIN_TOKEN), None).await;
        if page.status == 503 && started.elapsed() < DEADLINE {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        assert_eq!(page.status, 200, "$all reads: {:#}", page.body);
        let events = page.body["events"].as_array().cloned().unwrap_or_default();
        if events.is_empty() {
            return out;
        }
        for event in &events {
            let (position, seen) = Seen::of(event);
            assert_eq!(position, from, "{}: $all is read in order, without a gap", app.address);
            out.insert(position, seen);
            from = position + 1;
        }
    }
}

/// One client: creates battles, each under a fresh `Idempotency-Key`, retrying a refused one
/// with the same key on the other instance until it is acknowledged. Holds `turn` (shared) while
/// a key is open, so the checker can stop the clients between two writes.
async fn client(
    apps: [Arc<TestApp>; 2],
    judge: String,
    name: usize,
    record: Arc<Record>,
    turn: Arc<RwLock<()>>,
    stop: Arc<AtomicBool>,
) {
    let mut count = 0;
    while !stop.load(Ordering::Acquire) {
        let _open = turn.read().await;
        count += 1;
        let key = format!("client-{name}-write-{count}");
        // A retry repeats its request exactly: the same body under the same key.
        let body = sample_battle(&in_a_day(), Some(SEED));
        let mut attempt = 0;
        loop {
            let app = &apps[(name + attempt) % 2];
            attempt += 1;
            let reply = app
                .request_with("POST", "/v1/battles", Some(&judge), Some(body.clone()), &[("idempotency-key", &key)])
                .await;
            if reply.status == 201 || reply.status == 200 {
                if reply.body["replayed"] == true {
                    record.replayed.fetch_add(1, Ordering::Relaxed);
                }
                let events: Vec<(u64, Seen)> = events_of(&reply).iter().map(Seen::of).collect();
                assert!(!events.is_empty(), "a creation appends: {:#}", reply.body);
                record.acked.lock().expect("acks").insert(key, events);
                break;
            }
            // Anything but a 503 is a failure of the test at once (not a retry loop).
            assert_eq!(reply.status, 503, "write {key} on {}: {:#}", app.address, reply.body);
            let retry_after = reply.header("retry-after");
            record.refusals.lock().expect("refusals").push((reply.status, reply.body.clone(), retry_after));
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A follower of `$all` through `app`: reads on from the last position it saw, checking that
/// each page starts where it asked and runs without a gap; 503s (the database away) are waited
/// out.
async fn follow(app: Arc<TestApp>, record: Arc<Record>, index: usize, stop: Arc<AtomicBool>) {
    let mut from = 0;
    while !stop.load(Ordering::Acquire) {
        let page = app.request("GET", &format!("/v1/events?from={from}&limit=200"), Some(ADMIN_TOKEN), None).await;
        if page.status == 503 {
            assert_eq!(page.body["code"], "storage_unavailable", "{:#}", page.body);
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        assert_eq!(page.status, 200, "a follower's read: {:#}", page.body);
        for event in page.body["events"].as_array().cloned().unwrap_or_default() {
            let (position, seen) = Seen::of(&event);
            assert_eq!(position, from, "{}: a follower sees $all in order, without a gap", app.address);
            record.followed[index].lock().expect("followed").insert(position, seen.id);
            from = position + 1;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Wait until `what` holds, polling; fails past [`DEADLINE`].
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut check: impl FnMut() -> F) {
    let started = Instant::now();
    while !check().await {
        assert!(started.elapsed() < DEADLINE, "never: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn acked_count(record: &Record) -> usize {
    record.acked.lock().expect("acks").len()
}

/// With the clients held between two writes: every acknowledged write's events are in `$all`
/// exactly once, at the positions and with the content the answer gave; `$all` holds nothing
/// else after `before` (the set-up's events); both instances read the same `$all`, gap-free;
/// what the followers saw is where they saw it. Returns how many writes were checked.
async fn check_log(apps: &[Arc<TestApp>; 2], record: &Record, before: u64, when: &str) -> usize {
    let acked = record.acked.lock().expect("acks").clone();
    let mut expected: BTreeMap<u64, Seen> = BTreeMap::new();
    for (key, events) in &acked {
        for (position, seen) in events {
            let earlier = expected.insert(*position, seen.clone());
            assert!(earlier.is_none(), "{when}: position {position} was acknowledged twice (write {key})");
        }
    }
    let one = all_events(&apps[0]).await;
    // The other instance may be a moment behind: wait until it has read as far.
    let head = one.keys().next_back().copied();
    until(&format!("{when}: the second instance reaches {head:?}"), || async {
        let ready = apps[1].request("GET", "/readyz", None, None).await;
        ready.body["projected"].as_u64() >= head
    })
    .await;
    let two = all_events(&apps[1]).await;
    assert_eq!(one, two, "{when}: both instances read the same $all");
    assert_eq!(one.len() as u64, head.map_or(0, |head| head + 1), "{when}: $all is gap-free");
    // Every acknowledged write, one by one, is there once, as acknowledged.
    for (key, events) in &acked {
        for (position, seen) in events {
            assert_eq!(one.get(position), Some(seen), "{when}: write {key}'s event at {position}");
        }
    }
    // And nothing is there that was not acknowledged (every refused write was retried with
    // its key until it was).
    let unacknowledged: Vec<(&u64, &Seen)> =
        one.iter().filter(|(position, _)| **position > before && !expected.contains_key(position)).collect();
    assert!(unacknowledged.is_empty(), "{when}: events no answer acknowledged: {unacknowledged:#?}");
    let ids: HashMap<&str, u64> = one.iter().map(|(position, seen)| (seen.id.as_str(), *position)).collect();
    assert_eq!(ids.len(), one.len(), "{when}: no event is in $all twice");
    for (index, followed) in record.followed.iter().enumerate() {
        for (position, id) in followed.lock().expect("followed").iter() {
            assert_eq!(one.get(position).map(|seen| &seen.id), Some(id), "{when}: follower {index} at {position}");
        }
    }
    acked.len()
}

/// Both instances say, in `/readyz`, that writes fail because the store cannot be reached.
async fn both_report_writes_failing(apps: &[Arc<TestApp>; 2], when: &str) {
    for app in apps {
        until(&format!("{when}: {} reports writes failing", app.address), || async {
            let ready = app.request("GET", "/readyz", None, None).await;
            ready.status == 503
                && ready.body["status"] == "writes_failing"
                && ready.body["writes"]["code"] == "storage_unavailable"
                && ready.body["writes"]["detail"].as_str().is_some_and(|detail| detail.contains("database"))
        })
        .await;
    }
}

/// Both instances are ready again (`/readyz` 200) by themselves.
async fn both_ready(apps: &[Arc<TestApp>; 2], when: &str) {
    for app in apps {
        until(&format!("{when}: {} is ready again", app.address), || async {
            app.request("GET", "/readyz", None, None).await.status == 200
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgresql_terminated_and_stopped_fast_and_immediate_under_two_writing_instances_loses_and_invents_nothing() {
    let Some(cluster) = OwnCluster::start() else { return };
    let cluster = Arc::new(cluster);
    let apps = [Arc::new(spawn_app_on_store(cluster.url()).await), Arc::new(spawn_app_on_store(cluster.url()).await)];
    let cast = Cast::issue(&apps[0]).await;
    // The judge's token is known to both instances before anything fails.
    let battle = create_sample(&apps[1], &cast).await;
    // And the observer's, whose views are read while the database is away.
    // (The other instance follows `$all` through LISTEN/NOTIFY: wait until it has the battle.)
    for app in &apps {
        until(&format!("{} shows the battle", app.address), || async {
            app.request("GET", &battle.path(), Some(&cast.observer), None).await.status == 200
        })
        .await;
    }
    let before = all_events(&apps[0]).await.keys().next_back().copied().expect("the set-up's events");

    let record = Arc::new(Record::default());
    let turn = Arc::new(RwLock::new(()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for name in 0..4 {
        let (apps, judge, record, turn, stop) =
            (apps.clone(), cast.judge.clone(), record.clone(), turn.clone(), stop.clone());
        tasks.push(tokio::spawn(client(apps, judge, name, record, turn, stop)));
    }
    for (index, app) in apps.iter().enumerate() {
        tasks.push(tokio::spawn(follow(app.clone(), record.clone(), index, stop.clone())));
    }
    let more_acked = |than: usize| {
        let record = record.clone();
        move || {
            let record = record.clone();
            async move { acked_count(&record) >= than }
        }
    };
    until("the clients write", more_acked(10)).await;

    let mut checked = Vec::new();
    for fault in ["pg_terminate_backend", "pg_ctl stop -m fast", "pg_ctl stop -m immediate"] {
        let (acked_before, refused_before) = (acked_count(&record), record.refusals.lock().expect("refusals").len());
        let cluster = cluster.clone();
        match fault {
            "pg_terminate_backend" => {
                let ended = tokio::task::spawn_blocking(move || cluster.terminate_backends()).await.expect("terminate");
                assert!(ended > 0, "the instances' sessions were ended");
            }
            _ => {
                let mode = if fault.ends_with("fast") { StopMode::Fast } else { StopMode::Immediate };
                let stopper = cluster.clone();
                tokio::task::spawn_blocking(move || stopper.stop(mode)).await.expect("stop");
                // Writes are refused with why, and both instances say so.
                let refused = record.clone();
                until(&format!("{fault}: writes are refused"), move || {
                    let refused = refused.clone();
                    async move { refused.refusals.lock().expect("refusals").len() > refused_before }
                })
                .await;
                both_report_writes_failing(&apps, fault).await;
                // What the read models hold is still served from memory.
                for app in &apps {
                    let view = app.request("GET", &battle.path(), Some(&cast.observer), None).await;
                    assert_eq!(view.status, 200, "{fault}: a view while the database is away: {:#}", view.body);
                }
                tokio::task::spawn_blocking(move || cluster.start_again()).await.expect("start again");
            }
        }
        // The instances reconnect by themselves and writes go on.
        both_ready(&apps, fault).await;
        until(&format!("{fault}: writes resume"), more_acked(acked_before + 20)).await;
        // Hold the clients between two writes and check the log write by write.
        let held = tokio::time::timeout(DEADLINE, turn.write()).await.expect("the clients finish their writes");
        let count = check_log(&apps, &record, before, fault).await;
        drop(held);
        let refusals = record.refusals.lock().expect("refusals").len() - refused_before;
        eprintln!("{fault}: {count} acknowledged writes checked one by one, {refusals} refusals meanwhile");
        checked.push((fault, count, refusals));
    }
    stop.store(true, Ordering::Release);
    for task in tasks {
        task.await.expect("a client or follower");
    }

    // Every refusal was a 503 storage_unavailable with Retry-After, naming the cause.
    let refusals = record.refusals.lock().expect("refusals").clone();
    assert!(!refusals.is_empty(), "the faults refused some writes");
    for (status, body, retry_after) in &refusals {
        assert_eq!((*status, body["code"].as_str()), (503, Some("storage_unavailable")), "{body:#}");
        assert!(retry_after.is_some(), "a 503 says when to retry: {body:#}");
        assert!(body["detail"].as_str().is_some_and(|detail| detail.contains("database")), "{body:#}");
    }
    let total = check_log(&apps, &record, before, "at the end").await;
    eprintln!(
        "{total} acknowledged writes in all, {} refusals, {} acknowledged as replays of a write committed \
         unacknowledged; per fault: {checked:?}",
        refusals.len(),
        record.replayed.load(Ordering::Relaxed)
    );
    for app in apps {
        Arc::try_unwrap(app).ok().expect("the only handle").stop_now().await;
    }
}
