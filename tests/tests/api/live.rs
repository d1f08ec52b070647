//! Live events over Server-Sent Events: catch up from a position, then follow.

use std::time::Duration;

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::*;

/// One SSE message: its `id`, `event` and `data` fields.
#[derive(Debug)]
struct Message {
    id: u64,
    event: String,
    data: Value,
}

/// Read messages from a streaming response until `enough` says stop.
async fn read_messages(
    response: &mut reqwest::Response,
    buffer: &mut String,
    enough: impl Fn(&[Message]) -> bool,
) -> Vec<Message> {
    let mut messages = Vec::new();
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let (mut id, mut event, mut data) = (None, None, None);
            for line in block.lines() {
                if let Some(value) = line.strip_prefix("id: ") {
                    id = value.parse().ok();
                } else if let Some(value) = line.strip_prefix("event: ") {
                    event = Some(value.to_string());
                } else if let Some(value) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(value).ok();
                }
            }
            if let (Some(id), Some(event), Some(data)) = (id, event, data) {
                messages.push(Message { id, event, data });
            } else {
                assert!(block.starts_with(':'), "a message or a comment: {block:?}");
            }
            if enough(&messages) {
                return messages;
            }
        }
        let chunk = response.chunk().await.expect("the stream stays open").expect("more bytes");
        buffer.push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
    }
}

async fn open(app: &TestApp, query: &str) -> reqwest::Response {
    let response = app.client.get(format!("{}/v1/events/live{query}", app.address)).send().await.expect("connected");
    assert_eq!(response.status().as_u16(), 200);
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(content_type.starts_with("text/event-stream"), "{content_type}");
    response
}

#[tokio::test]
async fn live_events_catch_up_from_a_position_then_follow_new_appends() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;

    let test = async {
        let mut response = open(&app, "?from=0").await;
        let mut buffer = String::new();
        // Catch up: the battle's creation and side a's strategy (the four token events before
        // them are for admins only).
        let caught_up = read_messages(&mut response, &mut buffer, |m| m.len() >= 2).await;
        assert_eq!(caught_up.iter().map(|m| m.id).collect::<Vec<_>>(), [4, 5]);
        assert_eq!(caught_up[0].event, "coalition.BattleCreated");
        assert_eq!(caught_up[0].data["stream"], battle.stream.as_str());
        assert_eq!(caught_up[0].data["position"], 4);
        assert_eq!(caught_up[1].data["data"]["strategy"], "hidden", "anonymous readers get sealed strategies");
        // Follow: a new append arrives on the open connection.
        ok(&app, &battle.at("/entropy"), &cast.bob, json!({"entropy": "live"})).await;
        let followed = read_messages(&mut response, &mut buffer, |m| !m.is_empty()).await;
        assert_eq!(followed[0].id, 6);
        assert_eq!(followed[0].event, "coalition.EntropyContributed");
        drop(response);

        // Resume after a position with Last-Event-ID, and filter by type.
        let mut resumed = app
            .client
            .get(format!("{}/v1/events/live?type=coalition.EntropyContributed", app.address))
            .header("last-event-id", "4")
            .send()
            .await
            .expect("connected");
        let mut buffer = String::new();
        let only = read_messages(&mut resumed, &mut buffer, |m| !m.is_empty()).await;
        assert_eq!(only[0].id, 6);
        assert_eq!(only[0].event, "coalition.EntropyContributed");
        drop(resumed);

        // A judge's live view shows the strategy.
        let mut judged = app
            .client
            .get(format!("{}/v1/events/live?from=5", app.address))
            .bearer_auth(&cast.judge)
            .send()
            .await
            .expect("connected");
        let mut buffer = String::new();
        let strategy = read_messages(&mut judged, &mut buffer, |m| !m.is_empty()).await;
        assert_eq!(strategy[0].data["data"]["strategy"], STRATEGY_A);
    };
    tokio::time::timeout(Duration::from_secs(20), test).await.expect("the live stream answers in time");
    // The server still answers after the clients went away.
    assert_eq!(app.request("GET", "/healthz", None, None).await.status, 200);
    // A graceful stop would wait for the server to notice the dropped SSE connections (its
    // second keep-alive write, 30 s later); this test does not need the data again.
    let started = std::time::Instant::now();
    app.stop_now().await;
    assert!(started.elapsed() < Duration::from_secs(5), "stopped in {:?}", started.elapsed());
}

/// Issue 26 item 10: a client that closes its live readers gets its places back at once: the
/// next reader is admitted (within the `Retry-After: 1` a refusal names, not the 30 s the
/// server took to notice a closed idle connection before).
#[tokio::test]
async fn a_closed_live_reader_frees_its_place_at_once() {
    let app = spawn_app().await;
    let token = app.token("observer", None).await;
    let connect = || {
        // A client of its own per reader: one connection each, closed when it is dropped.
        let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().expect("a client");
        let (url, bearer) = (format!("{}/v1/events/live", app.address), format!("Bearer {token}"));
        async move { client.get(url).header("authorization", bearer).send().await.expect("connected") }
    };
    let mut open = Vec::new();
    loop {
        let response = connect().await;
        if response.status().as_u16() == 429 {
            assert_eq!(response.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
            break;
        }
        assert_eq!(response.status().as_u16(), 200);
        open.push(response);
        assert!(open.len() <= 64, "a token's share of live readers is bounded");
    }
    assert!(!open.is_empty());
    drop(open);
    // Each refusal says to retry after a second; three of them are far below the old 30 s.
    let mut attempts = 0;
    let admitted = loop {
        attempts += 1;
        let response = connect().await;
        if response.status().as_u16() != 429 || attempts == 3 {
            break response;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    };
    assert_eq!(admitted.status().as_u16(), 200, "admitted again after {attempts} attempts");
    drop(admitted);
    app.stop().await;
}
