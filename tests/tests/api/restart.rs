//! A restart of the server keeps everything: battles, events, sealed seeds and tokens.

use herald_tests::spawn_app;
use serde_json::json;

use crate::support::*;

// seed 003 §4.1.1, §4.2 (a battle interrupted by a restart is finished and verifies)
#[tokio::test]
async fn a_restart_keeps_battles_events_tokens_and_sealed_seeds() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    // A server-drawn seed this time: it must survive the restart sealed.
    let battle = create(&app, &cast.judge, herald_tests::sample_battle(&in_a_day(), None)).await;
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "before the restart"})).await;
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;
    ok(&app, &battle.at("/strategies"), &cast.bob, json!({"side": "b", "strategy": STRATEGY_B})).await;
    let key = [("idempotency-key", "grade-a")];
    let graded = app
        .request_with(
            "POST",
            &battle.at("/strategy-bonuses"),
            Some(&cast.judge),
            Some(json!({"side": "a", "bonus": 6})),
            &key,
        )
        .await;
    assert_eq!(graded.status, 200);
    let view_before = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    let events_before = stream_events(&app, &battle.stream, Some(&cast.judge)).await;
    let all_before = app.request("GET", "/v1/events?limit=1000", Some(&cast.judge), None).await;

    let app = app.restart().await;

    let view_after = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(view_after.status, 200, "{:#}", view_after.body);
    assert_eq!(view_after.body, view_before.body);
    assert_eq!(view_after.header("etag"), view_before.header("etag"));
    assert_eq!(stream_events(&app, &battle.stream, Some(&cast.judge)).await, events_before);
    let all_after = app.request("GET", "/v1/events?limit=1000", Some(&cast.judge), None).await;
    assert_eq!(all_after.body, all_before.body);
    let battles = app.request("GET", "/v1/battles", None, None).await;
    assert_eq!(battles.body[0]["stream"], battle.stream.as_str());
    for token in [&cast.judge, &cast.alice, &cast.bob, &cast.observer] {
        assert_eq!(app.request("GET", "/v1/tokens/me", Some(token), None).await.status, 200, "tokens survive");
    }
    // Sealing survives too: bob still cannot read side a.
    let peek = app.request("GET", &battle.at("/strategies/a"), Some(&cast.bob), None).await;
    assert_problem(&peek, 403, "coalition.battle.strategy_sealed");
    // Idempotency keys survive: the retry is a replay.
    let retry = app
        .request_with(
            "POST",
            &battle.at("/strategy-bonuses"),
            Some(&cast.judge),
            Some(json!({"side": "a", "bonus": 6})),
            &key,
        )
        .await;
    assert_eq!(retry.body["replayed"], true, "{:#}", retry.body);
    assert_eq!(retry.body["events"], graded.body["events"]);
    let ready = app.request("GET", "/readyz", None, None).await;
    assert_eq!(ready.body["status"], "ready", "{:#}", ready.body);

    // Finish the battle: the sealed seed is still there to roll with, then revealed.
    ok(&app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "b", "bonus": 5})).await;
    let resolved = resolve(&app, &cast, &battle).await;
    assert_eq!(events_of(&resolved)[0]["type"], "coalition.BattleResolved");
    let events = stream_events(&app, &battle.stream, None).await;
    let revealed = find(&events, "coalition.SeedRevealed").expect("the seed is revealed");
    let created = find(&events, "coalition.BattleCreated").expect("created");
    let seed = hex::decode(revealed["data"]["seed"].as_str().expect("seed")).expect("hex");
    use sha2::Digest;
    assert_eq!(created["data"]["seed_commitment"], hex::encode(sha2::Sha256::digest(&seed)));
    let verified = app.request("GET", &battle.at("/verify"), Some(&cast.observer), None).await;
    assert_eq!(verified.body["verified"], true, "{:#}", verified.body);

    // And once more: the finished battle is still there and still verifies.
    let app = app.restart().await;
    let verified = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(verified.body["verified"], true, "{:#}", verified.body);
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["status"], "resolved");
    app.stop().await;
}

// Issue 13: a restart reads the saved read models and folds only what came after.
#[tokio::test]
async fn a_restart_reads_the_saved_read_models_and_folds_only_what_came_after_them() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "saved"})).await;
    // A graceful stop saves the models; the restart reads them.
    let app = app.restart().await;
    let snapshot = app.data_dir.join("read-models").join("read-models.json");
    let older = std::fs::read(&snapshot).expect("saved at the stop");
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;
    let view_before = app.request("GET", &battle.path(), Some(&cast.judge), None).await;

    // As after a crash, the snapshot is older than the log: the start reads it and folds the
    // strategy submitted after it from the log.
    let data_dir = app.data_dir.clone();
    let dir = app.stop().await;
    std::fs::write(&snapshot, &older).expect("the older snapshot put back");
    let app = herald_tests::spawn_app_in(&data_dir).await;
    let view_after = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(view_after.body, view_before.body);
    assert_eq!(view_after.header("etag"), view_before.header("etag"));

    // A snapshot that is not one (torn, edited) is not used: the log is folded from the start.
    drop(app.stop().await);
    std::fs::write(&snapshot, b"{\"format\": 1, \"build\"").expect("written");
    let mut app = herald_tests::spawn_app_in(&data_dir).await;
    let view = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(view.body, view_before.body);
    app.keep(dir);
    app.stop().await;
}
