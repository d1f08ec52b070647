//! Hidden information is hidden on every read path: the battle view, the event lists, the live
//! feed and write responses (docs/API.md "Hidden information").

use std::time::Duration;

use herald_tests::spawn_app;
use serde_json::{json, Value};

use crate::support::*;

// seed 003 §4.2.1 (the judge grades the strategies), §4.1.1 (strategies sealed until resolved)
#[tokio::test]
async fn strategy_bonuses_and_notes_stay_with_the_judge_until_the_battle_is_resolved() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    prepare(&app, &cast, &battle).await;

    let graded = |events: &[Value]| -> Vec<(Value, Value)> {
        events
            .iter()
            .filter(|e| e["type"] == "coalition.StrategyBonusAssigned")
            .map(|e| (e["data"]["bonus"].clone(), e["data"]["note"].clone()))
            .collect()
    };
    for token in [None, Some(cast.observer.as_str()), Some(cast.alice.as_str()), Some(cast.bob.as_str())] {
        let view = app.request("GET", &battle.path(), token, None).await;
        assert_eq!(view.body["sides"]["a"]["strategy_bonus"], Value::Null, "{token:?}");
        let stream = stream_events(&app, &battle.stream, token).await;
        assert_eq!(
            graded(&stream),
            [(json!("hidden"), json!("hidden")), (json!("hidden"), json!("hidden"))],
            "{token:?}"
        );
        let all = app.request("GET", "/v1/events?type=coalition.StrategyBonusAssigned", token, None).await;
        let all = all.body["events"].as_array().cloned().unwrap_or_default();
        assert_eq!(graded(&all).len(), 2);
        assert!(graded(&all).iter().all(|(bonus, _)| bonus == "hidden"), "{token:?}: {all:#?}");
    }
    // The live feed applies the same filter.
    let live = async {
        let url = format!("{}/v1/events/live?from=0&type=coalition.StrategyBonusAssigned", app.address);
        let mut response = app.client.get(url).bearer_auth(&cast.bob).send().await.expect("connected");
        let mut text = String::new();
        while text.matches("data: ").count() < 2 {
            let chunk = response.chunk().await.expect("open").expect("bytes");
            text.push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
        text
    };
    let text = tokio::time::timeout(Duration::from_secs(10), live).await.expect("the feed answers");
    assert!(!text.contains("\"bonus\":7") && !text.contains("terrain"), "{text}");
    // Judges see the grades.
    let judged = stream_events(&app, &battle.stream, Some(&cast.judge)).await;
    assert_eq!(graded(&judged), [(json!(7), json!("terrain")), (json!(4), Value::Null)]);
    let view = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(view.body["sides"]["a"]["strategy_bonus"], 7);

    // Once resolved, everyone sees the bonuses (but never the size bonus, seed 003 §4.2.2).
    resolve(&app, &cast, &battle).await;
    let stream = stream_events(&app, &battle.stream, Some(&cast.bob)).await;
    assert_eq!(graded(&stream), [(json!(7), json!("terrain")), (json!(4), Value::Null)]);
    let view = app.request("GET", &battle.path(), Some(&cast.bob), None).await;
    assert_eq!(view.body["sides"]["a"]["strategy_bonus"], 7);
    assert_eq!(view.body["sides"]["b"]["strategy_bonus"], 4);
    let created = find(&stream, "coalition.BattleCreated").expect("created");
    assert_eq!(created["data"]["options"]["size_formula"], "hidden");
    app.stop_now().await;
}
