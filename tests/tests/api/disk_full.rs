//! A full disk under the real server (issue 27), caused for real: the data directory on a small
//! tmpfs the test mounts itself (root only; CI runs as root), filled by several writing clients.
//! Writes answer 507 `storage_full` with `Retry-After`, `/readyz` says why, reads, views and
//! verification go on, writes resume by themselves once space returns; every acknowledged write
//! is there after (and after a restart), and every event a reader saw is at the position it saw.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use herald_store::conformance::Tmpfs;
use herald_tests::{sample_battle, spawn_app_with, TestApp, ADMIN_TOKEN};
use serde_json::Value;

use crate::support::*;

/// Acknowledged creations: each stream with the events its 201 returned (position, id).
type Acked = Arc<Mutex<Vec<(String, Vec<(u64, String)>)>>>;
/// Refused writes: status, body, `Retry-After`.
type Refusals = Arc<Mutex<Vec<(u16, Value, Option<String>)>>>;

/// Every event of `$all` as the admin reads it: position → id.
async fn all_events(app: &TestApp) -> HashMap<u64, String> {
    let mut out = HashMap::new();
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
            out.insert(position, event["id"].as_str().expect("an id").to_string());
            from = position + 1;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_full_disk_answers_507_keeps_reads_and_resumes_writes_by_itself_losing_nothing_acknowledged() {
    let Some(disk) = Tmpfs::mount("24m") else { return };
    let data_dir = disk.dir().join("data");
    std::fs::create_dir(&data_dir).expect("data dir");
    let ballast = disk.dir().join("ballast");
    let app = {
        let data_dir = data_dir.clone();
        Arc::new(
            spawn_app_with(move |settings| {
                settings.data_dir = data_dir.clone();
                settings.storage_reserve_mb = 2;
            })
            .await,
        )
    };
    let cast = Arc::new(Cast::issue(&app).await);
    // Room the test gives back once the disk is full.
    std::fs::write(&ballast, vec![0u8; 3 << 20]).expect("ballast");
    // And room for the restart at the end (a start needs some: OPERATIONS.md).
    let ballast_for_restart = disk.dir().join("ballast-for-restart");
    std::fs::write(&ballast_for_restart, vec![0u8; 4 << 20]).expect("ballast");

    // Acknowledged creations: stream → the events the 201 returned (id by position).
    let acked: Acked = Arc::default();
    let refusals: Refusals = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut writers = Vec::new();
    for _ in 0..4 {
        let (app, cast, acked, refusals, stop) =
            (app.clone(), cast.clone(), acked.clone(), refusals.clone(), stop.clone());
        writers.push(tokio::spawn(async move {
            while !stop.load(Ordering::Acquire) {
                let reply = app
                    .request("POST", "/v1/battles", Some(&cast.judge), Some(sample_battle(&in_a_day(), Some(SEED))))
                    .await;
                if reply.status == 201 {
                    let stream = reply.body["stream"].as_str().expect("a stream").to_string();
                    let events = events_of(&reply)
                        .iter()
                        .map(|e| {
                            (e["position"].as_u64().expect("a position"), e["id"].as_str().expect("an id").to_string())
                        })
                        .collect();
                    acked.lock().expect("acks").push((stream, events));
                } else {
                    let retry_after = reply.header("retry-after");
                    refusals.lock().expect("refusals").push((reply.status, reply.body.clone(), retry_after));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }));
    }
    // A reader following $all by position.
    let seen: Arc<Mutex<HashMap<u64, String>>> = Arc::default();
    let reader = {
        let (app, seen, stop) = (app.clone(), seen.clone(), stop.clone());
        tokio::spawn(async move {
            let mut from = 0;
            while !stop.load(Ordering::Acquire) {
                let page =
                    app.request("GET", &format!("/v1/events?from={from}&limit=100"), Some(ADMIN_TOKEN), None).await;
                assert_eq!(page.status, 200, "$all reads while the disk is full: {:#}", page.body);
                for event in page.body["events"].as_array().cloned().unwrap_or_default() {
                    let position = event["position"].as_u64().expect("a position");
                    seen.lock().expect("seen").insert(position, event["id"].as_str().expect("an id").to_string());
                    from = position + 1;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
    };

    // The writers fill the disk.
    while refusals.lock().expect("refusals").len() < 20 {
        assert!(Instant::now() < deadline, "the writers never filled the disk");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (status, body, retry_after) in refusals.lock().expect("refusals").iter() {
        assert_eq!((*status, body["code"].as_str()), (507, Some("storage_full")), "{body:#}");
        assert!(retry_after.is_some(), "a 507 says when to retry");
    }
    let ready = app.request("GET", "/readyz", None, None).await;
    assert_eq!(ready.status, 503, "{:#}", ready.body);
    assert_eq!(ready.body["status"], "writes_failing", "{:#}", ready.body);
    assert_eq!(ready.body["writes"]["code"], "storage_full", "{:#}", ready.body);
    // Reads, views and verification go on.
    let (stream, _) =
        acked.lock().expect("acks").first().cloned().expect("a battle was created before the disk filled");
    let battle_path = format!("/v1/battles/{}", stream.strip_prefix("battle-").expect("a battle stream"));
    let view = app.request("GET", &battle_path, Some(&cast.observer), None).await;
    assert_eq!(view.status, 200, "{:#}", view.body);
    let verified = app.request("GET", &format!("{battle_path}/verify"), Some(&cast.judge), None).await;
    assert_eq!(verified.status, 200, "{:#}", verified.body);
    assert_eq!(verified.body["verified"], true, "{:#}", verified.body);

    // Space returns: writes resume by themselves.
    std::fs::remove_file(&ballast).expect("free the ballast");
    let acked_before = acked.lock().expect("acks").len();
    while acked.lock().expect("acks").len() < acked_before + 5 {
        assert!(Instant::now() < deadline, "writes did not resume once space returned");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ready = app.request("GET", "/readyz", None, None).await;
    assert_eq!(ready.body["writes"], Value::Null, "{:#}", ready.body);
    stop.store(true, Ordering::Release);
    for writer in writers {
        writer.await.expect("a writer");
    }
    reader.await.expect("the reader");

    let acked = Arc::try_unwrap(acked).expect("writers done").into_inner().expect("acks");
    let seen = Arc::try_unwrap(seen).expect("reader done").into_inner().expect("seen");
    let check = |all: &HashMap<u64, String>, when: &str| {
        for (stream, events) in &acked {
            for (position, id) in events {
                assert_eq!(all.get(position), Some(id), "{when}: acknowledged event of {stream} at {position}");
            }
        }
        for (position, id) in &seen {
            assert_eq!(all.get(position), Some(id), "{when}: the event a reader saw at {position}");
        }
        let head = all.keys().max().copied().unwrap_or(0);
        assert_eq!(all.len() as u64, head + 1, "{when}: $all is gap-free");
    };
    let live = all_events(&app).await;
    check(&live, "after space returned");
    // The writers may have filled the disk to the reserve again, so the read models may not be
    // saved at this stop (the log says so); a stop that does not check for them.
    Arc::try_unwrap(app).ok().expect("the only handle").stop_now().await;
    std::fs::remove_file(&ballast_for_restart).expect("free room for the restart");
    let app = spawn_app_with(move |settings| {
        settings.data_dir = data_dir.clone();
        settings.storage_reserve_mb = 2;
    })
    .await;
    let restarted = all_events(&app).await;
    check(&restarted, "after a restart");
    assert_eq!(restarted, live);
    eprintln!("{} battles acknowledged, {} events seen by the reader", acked.len(), seen.len());
    app.stop_now().await;
}
