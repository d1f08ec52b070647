//! A backup of a server being written to (issue 27 item 5): `GET /v1/export` (what
//! `herald export --url` downloads) taken while clients write is a consistent cut at one `$all`
//! position, the one its header and `X-Herald-Position` state: every event up to it, none after,
//! each as `$all` holds it, no gap and no half of a command; and it imports into a new log that
//! verifies, battle by battle.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use herald_tests::{sample_battle, spawn_app, spawn_app_in, TestApp, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::support::*;

/// The generous bound on anything awaited.
const DEADLINE: Duration = Duration::from_secs(180);

/// Every event of `$all`, by position.
async fn all_events(app: &TestApp) -> BTreeMap<u64, Value> {
    let mut out = BTreeMap::new();
    let mut from = 0;
    loop {
        let page = app.request("GET", &format!("/v1/events?from={from}&limit=500"), Some(ADMIN_TOKEN), None).await;
        assert_eq!(page.status, 200, "$all reads: {:#}", page.body);
        let events = page.body["events"].as_array().cloned().unwrap_or_default();
        if events.is_empty() {
            return out;
        }
        for event in events {
            let position = event["position"].as_u64().expect("a position");
            from = position + 1;
            out.insert(position, event);
        }
    }
}

/// One writing client: battles created, entropy sent to each (a command of one event after one
/// of several), until told to stop.
async fn write(app: Arc<TestApp>, cast: Arc<Cast>, stop: Arc<AtomicBool>, acked: Arc<AtomicUsize>) {
    while !stop.load(Ordering::Acquire) {
        let created =
            app.request("POST", "/v1/battles", Some(&cast.judge), Some(sample_battle(&in_a_day(), Some(SEED)))).await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        acked.fetch_add(1, Ordering::Relaxed);
        let stream = created.body["stream"].as_str().expect("a stream");
        let battle = stream.strip_prefix("battle-").expect("a battle stream");
        let entropy = app
            .request(
                "POST",
                &format!("/v1/battles/{battle}/entropy"),
                Some(&cast.alice),
                Some(json!({"entropy": "alice, while the backup runs"})),
            )
            .await;
        assert_eq!(entropy.status, 200, "{:#}", entropy.body);
        acked.fetch_add(1, Ordering::Relaxed);
    }
}

async fn until(what: &str, check: impl Fn() -> bool) {
    let started = Instant::now();
    while !check() {
        assert!(started.elapsed() < DEADLINE, "never: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_export_taken_while_clients_write_is_a_cut_at_one_position_and_imports_into_a_log_that_verifies() {
    let app = Arc::new(spawn_app().await);
    let cast = Arc::new(Cast::issue(&app).await);
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(AtomicUsize::new(0));
    let writers: Vec<_> =
        (0..4).map(|_| tokio::spawn(write(app.clone(), cast.clone(), stop.clone(), acked.clone()))).collect();
    until("the clients write", || acked.load(Ordering::Relaxed) >= 40).await;

    // The backup, while they write.
    let response = app
        .client
        .get(format!("{}/v1/export", app.address))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .expect("GET /v1/export");
    assert_eq!(response.status(), 200);
    let stated: u64 = response
        .headers()
        .get("x-herald-position")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok())
        .expect("X-Herald-Position states the cut");
    let bytes = response.bytes().await.expect("the export's bytes");
    let during = acked.load(Ordering::Relaxed);
    // The clients go on writing after the cut.
    until("the clients write on", || acked.load(Ordering::Relaxed) >= during + 40).await;
    stop.store(true, Ordering::Release);
    for writer in writers {
        writer.await.expect("a writer");
    }

    let files = tempfile::tempdir().expect("temporary directory");
    let file = files.path().join("backup.ndjson.gz");
    std::fs::write(&file, &bytes).expect("write the export");
    let mut header = Value::Null;
    let (mut events, mut commands) = (Vec::new(), HashMap::new());
    for line in BufReader::new(flate2::read::GzDecoder::new(bytes.as_ref())).lines() {
        let line: Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        if let Some(found) = line.get("herald_export") {
            header = found.clone();
        } else if let Some(event) = line.get("event") {
            events.push(event.clone());
        } else if let Some(command) = line.get("command") {
            commands.insert(command["command_id"].as_str().expect("a command id").to_string(), command.clone());
        }
    }
    assert_eq!(header["position"], stated, "the header states the same cut: {header:#}");
    assert_eq!(header["events"], stated + 1, "{header:#}");

    // A prefix of $all with no gap: every event up to the cut, as the log holds it, none after.
    let all = all_events(&app).await;
    let head = all.keys().next_back().copied().expect("a head");
    assert!(head > stated, "the log went on past the cut ({head} > {stated})");
    let positions: Vec<u64> = events.iter().map(|event| event["position"].as_u64().expect("a position")).collect();
    assert_eq!(positions, (0..=stated).collect::<Vec<_>>(), "the file holds $all from 0 to the cut, in order");
    for event in &events {
        let position = event["position"].as_u64().expect("a position");
        let live = &all[&position];
        for (field, live_field) in [("id", "id"), ("stream", "stream"), ("version", "version"), ("event_type", "type")]
        {
            assert_eq!(event[field], live[live_field], "{field} of the event at {position}");
        }
    }
    // No half-written command: each command's events are all in the file, and every event that
    // a command wrote comes with that command.
    let mut written: HashMap<&str, u64> = HashMap::new();
    for event in &events {
        if let Some(command) = event["command_id"].as_str() {
            *written.entry(command).or_default() += 1;
        }
    }
    for (command_id, count) in &written {
        let command = commands.get(*command_id).unwrap_or_else(|| panic!("command {command_id} is in the file"));
        let (first, last) = (command["first_version"].as_u64(), command["last_version"].as_u64());
        let expected = last.zip(first).map(|(last, first)| last - first + 1);
        assert_eq!(Some(*count), expected, "command {command_id} is whole in the file: {command:#}");
    }
    assert_eq!(written.len(), commands.len(), "no command of an append after the cut is in the file");

    // It imports into a new log (the import reads it back and compares), which verifies every
    // battle in it.
    let target = files.path().join("restored");
    let imported = {
        let (target, file) = (target.clone(), file.clone());
        tokio::task::spawn_blocking(move || {
            let store = herald_store::SledStore::open(&target).expect("a new sled log");
            herald_api::archive::import(&store, &file, false).expect("the import")
        })
        .await
        .expect("the import's thread")
    };
    assert_eq!(imported.position(), Some(stated));
    let restored = spawn_app_in(&target).await;
    let mut battles: Vec<&str> = events
        .iter()
        .filter_map(|event| event["stream"].as_str())
        .filter(|stream| stream.starts_with("battle-"))
        .collect();
    battles.sort_unstable();
    battles.dedup();
    assert!(battles.len() >= 10, "{} battles in the cut", battles.len());
    for stream in &battles {
        let battle = stream.strip_prefix("battle-").expect("a battle stream");
        let verified = restored.request("GET", &format!("/v1/battles/{battle}/verify"), Some(&cast.judge), None).await;
        assert_eq!(verified.status, 200, "{stream}: {:#}", verified.body);
        assert_eq!(verified.body["verified"], true, "{stream}: {:#}", verified.body);
    }
    eprintln!(
        "export cut at $all position {stated} of {head} at the end ({} commands, {} battles verified after import)",
        commands.len(),
        battles.len()
    );
    restored.stop_now().await;
    Arc::try_unwrap(app).ok().expect("the only handle").stop_now().await;
}
