//! Optimistic concurrency and safe retries: `ETag` is the stream version, `If-Match` pins it,
//! `Idempotency-Key` makes a repeated POST return the first answer without writing again.

use herald_tests::{sample_battle, spawn_app};
use serde_json::json;

use crate::support::*;

async fn etag(app: &herald_tests::TestApp, battle: &Battle) -> String {
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.status, 200);
    let etag = view.header("etag").expect("an ETag");
    assert_eq!(etag, format!("\"{}\"", view.body["version"]), "the ETag is the version");
    etag
}

#[tokio::test]
async fn if_match_with_a_stale_version_is_refused_with_412_and_the_current_one_goes_through() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    assert_eq!(etag(&app, &battle).await, "\"0\"");
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "first"})).await;
    let current = etag(&app, &battle).await;
    assert_eq!(current, "\"1\"");

    let body = json!({"side": "a", "strategy": STRATEGY_A});
    for stale in ["\"0\"", "0", "W/\"0\"", "\"7\""] {
        let reply = app
            .request_with(
                "POST",
                &battle.at("/strategies"),
                Some(&cast.alice),
                Some(body.clone()),
                &[("if-match", stale)],
            )
            .await;
        assert_problem(&reply, 412, "precondition_failed");
    }
    assert_eq!(etag(&app, &battle).await, current, "a refused write changes nothing");
    let bad = app
        .request_with(
            "POST",
            &battle.at("/strategies"),
            Some(&cast.alice),
            Some(body.clone()),
            &[("if-match", "yesterday")],
        )
        .await;
    assert_problem(&bad, 400, "malformed_request");

    let reply = app
        .request_with(
            "POST",
            &battle.at("/strategies"),
            Some(&cast.alice),
            Some(body.clone()),
            &[("if-match", &current)],
        )
        .await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(reply.body["version"], 2);
    assert_eq!(reply.header("etag").as_deref(), Some("\"2\""));
    assert_eq!(etag(&app, &battle).await, "\"2\"");
    // The stream listing carries the same ETag.
    let listing = app.request("GET", &battle.events_path(), None, None).await;
    assert_eq!(listing.header("etag").as_deref(), Some("\"2\""));
    app.stop().await;
}

#[tokio::test]
async fn a_repeated_post_with_the_same_idempotency_key_replays_the_first_answer_without_writing() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let body = json!({"side": "a", "strategy": STRATEGY_A});
    let key = [("idempotency-key", "alice-strategy-1")];
    let first = app.request_with("POST", &battle.at("/strategies"), Some(&cast.alice), Some(body.clone()), &key).await;
    assert_eq!(first.status, 200, "{:#}", first.body);
    assert_eq!(first.body["replayed"], false);
    let version = etag(&app, &battle).await;

    let again = app.request_with("POST", &battle.at("/strategies"), Some(&cast.alice), Some(body), &key).await;
    assert_eq!(again.status, 200, "{:#}", again.body);
    assert_eq!(again.body["replayed"], true);
    assert_eq!(again.body["events"], first.body["events"], "the same events, ids included");
    assert_eq!(again.body["version"], first.body["version"]);
    assert_eq!(etag(&app, &battle).await, version, "the stream version did not move");
    assert_eq!(stream_events(&app, &battle.stream, None).await.len(), 2);

    // The key is the caller's: bob's request under the same key is his own.
    let bobs = app
        .request_with(
            "POST",
            &battle.at("/strategies"),
            Some(&cast.bob),
            Some(json!({"side": "b", "strategy": STRATEGY_B})),
            &key,
        )
        .await;
    assert_eq!(bobs.body["replayed"], false, "{:#}", bobs.body);
    assert_eq!(bobs.body["version"], 2);
    // A key reused for another battle is a conflict, not a silent replay.
    let other = create_sample(&app, &cast).await;
    let reused = app
        .request_with(
            "POST",
            &other.at("/strategies"),
            Some(&cast.alice),
            Some(json!({"side": "a", "strategy": "x"})),
            &key,
        )
        .await;
    assert_problem(&reused, 409, "conflict");
    app.stop().await;
}

#[tokio::test]
async fn retrying_a_battle_creation_with_its_idempotency_key_opens_one_battle() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let body = sample_battle(&in_a_day(), None);
    let key = [("idempotency-key", "open-round-12")];
    let first = app.request_with("POST", "/v1/battles", Some(&cast.judge), Some(body.clone()), &key).await;
    assert_eq!(first.status, 201, "{:#}", first.body);
    let again = app.request_with("POST", "/v1/battles", Some(&cast.judge), Some(body), &key).await;
    assert!(again.status == 200 || again.status == 201, "{:#}", again.body);
    assert_eq!(again.body["replayed"], true, "{:#}", again.body);
    assert_eq!(again.body["stream"], first.body["stream"]);
    assert_eq!(again.body["events"], first.body["events"]);
    assert_eq!(again.header("location"), first.header("location"));
    let battles = app.request("GET", "/v1/battles", None, None).await;
    assert_eq!(battles.body.as_array().map(Vec::len), Some(1), "{:#}", battles.body);
    app.stop().await;
}

#[tokio::test]
async fn concurrent_writes_without_if_match_all_land_with_gap_free_versions() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    // Writers to one stream take turns in the application service, so every one lands, in
    // some order, with no version skipped or reused.
    // (A judge's rolls: entropy would do, but a participant may contribute only four times.)
    let path = format!("/v1/streams/{}/rolls", battle.stream);
    let writes = (0..24).map(|i| {
        let (app, path, judge) = (&app, &path, &cast.judge);
        async move {
            let roll = json!({"expression": "1d6", "purpose": format!("roll {i}")});
            app.request("POST", path, Some(judge), Some(roll)).await
        }
    });
    let replies = futures_util::future::join_all(writes).await;
    for reply in &replies {
        assert_eq!(reply.status, 200, "{:#}", reply.body);
    }
    let events = stream_events(&app, &battle.stream, None).await;
    assert_eq!(events.len(), 25);
    let versions: Vec<u64> = events.iter().map(|e| e["version"].as_u64().expect("version")).collect();
    assert_eq!(versions, (0..25).collect::<Vec<_>>());
    app.stop().await;
}

// seed 003 §4.2 (resolution), docs/DICE.md "Sealing and reveal"
#[tokio::test]
async fn a_retried_resolution_replays_the_dice_and_the_seed_reveal_without_rolling_again() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    prepare(&app, &cast, &battle).await;
    let key = [("idempotency-key", "resolve-once")];
    let first = app.request_with("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({})), &key).await;
    assert_eq!(first.status, 200, "{:#}", first.body);
    let types: Vec<&str> =
        first.body["events"].as_array().expect("events").iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types, ["coalition.BattleResolved", "coalition.SeedRevealed"]);
    let again = app.request_with("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({})), &key).await;
    assert_eq!(again.status, 200, "{:#}", again.body);
    assert_eq!(again.body["replayed"], true);
    assert_eq!(again.body["events"], first.body["events"], "the same dice and the same reveal");
    assert_eq!(again.body["version"], first.body["version"]);
    assert_eq!(again.header("etag"), first.header("etag"));
    assert_eq!(stream_events(&app, &battle.stream, None).await.len(), 9);
    // Without the key, a second resolution is refused.
    let twice = app.request("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({}))).await;
    assert_problem(&twice, 422, "coalition.battle.already_ended");
    app.stop().await;
}
