//! Empty armies are killed on engagement (seed 003 §4.3.1).

use herald_tests::{sample_battle, spawn_app};
use serde_json::{json, Value};

use crate::support::*;

fn emptied(mut battle: Value, sides: &[&str]) -> Value {
    for side in sides {
        for slot in battle["armies"][side]["slots"].as_array_mut().expect("slots") {
            slot["troops"] = json!(0);
        }
    }
    battle
}

// seed 003 §4.3.1
#[tokio::test]
async fn an_army_with_no_troops_is_killed_at_creation_without_dice_and_the_seed_is_revealed() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create(&app, &cast.judge, emptied(sample_battle(&in_a_day(), Some(SEED)), &["b"])).await;
    let created = events_of(&battle.created);
    let types: Vec<&str> = created.iter().filter_map(|e| e["type"].as_str()).collect();
    // The battle ended, so the service revealed the seed in the same answer.
    assert_eq!(types, ["coalition.BattleCreated", "coalition.ArmyKilled", "coalition.SeedRevealed"]);
    assert_eq!(created[1]["data"]["side"], "b");
    assert_eq!(created[1]["data"]["rule"], "seed 003 §4.3.1");
    assert_eq!(battle.created.body["version"], 2);
    assert_eq!(battle.created.header("etag").as_deref(), Some("\"2\""));

    let events = stream_events(&app, &battle.stream, None).await;
    let types: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types, ["coalition.BattleCreated", "coalition.ArmyKilled", "coalition.SeedRevealed"]);
    assert_eq!(events[2]["data"]["seed"], SEED);
    assert!(!events.iter().any(|e| e.to_string().contains("\"draw\"")), "no die was rolled");

    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["status"], "killed");
    assert_eq!(view.body["killed"], json!(["b"]));
    assert_eq!(view.body["winner"], "a");
    assert_eq!(view.body["result"], Value::Null);
    assert_eq!(view.body["sides"]["b"]["troops_after"], json!([0, 0]));
    // "No strats will be written."
    let strategy = app
        .request("POST", &battle.at("/strategies"), Some(&cast.alice), Some(json!({"side": "a", "strategy": "x"})))
        .await;
    assert_problem(&strategy, 422, "coalition.battle.already_ended");
    let resolve = app.request("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({}))).await;
    assert_problem(&resolve, 422, "coalition.battle.already_ended");
    let verified = app.request("GET", &battle.at("/verify"), Some(&cast.observer), None).await;
    assert_eq!(verified.body["verified"], true, "{:#}", verified.body);
    app.stop().await;
}

// seed 003 §4.3.1 (both armies empty: both killed, no winner)
#[tokio::test]
async fn two_empty_armies_are_both_killed_and_nobody_wins() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create(&app, &cast.judge, emptied(sample_battle(&in_a_day(), None), &["a", "b"])).await;
    let killed: Vec<Value> = events_of(&battle.created)
        .into_iter()
        .filter(|e| e["type"] == "coalition.ArmyKilled")
        .map(|e| e["data"]["side"].clone())
        .collect();
    assert_eq!(killed, [json!("a"), json!("b")]);
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["status"], "killed");
    assert_eq!(view.body["winner"], Value::Null);
    assert!(view.body["seed"].is_string(), "the seed is revealed: {:#}", view.body);
    app.stop().await;
}
