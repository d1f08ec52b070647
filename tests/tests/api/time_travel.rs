//! `?at=<version>`: a battle as it stood after any event.

use herald_tests::spawn_app;
use serde_json::{json, Value};

use crate::support::*;

// seed 003 §4.1.1 (a strategy sealed then is public once the battle ended)
#[tokio::test]
async fn a_battle_can_be_read_as_it_stood_at_any_version_and_not_beyond_its_last() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    prepare(&app, &cast, &battle).await;

    let at0 = app.request("GET", &format!("{}?at=0", battle.path()), Some(&cast.judge), None).await;
    assert_eq!(at0.status, 200, "{:#}", at0.body);
    assert_eq!(at0.body["version"], 0);
    assert_eq!(at0.header("etag").as_deref(), Some("\"0\""));
    assert_eq!(at0.body["status"], "open");
    assert_eq!(at0.body["contributions"], json!([]));
    assert_eq!(at0.body["seed_commitment"], COMMITMENT);
    for side in ["a", "b"] {
        assert_eq!(at0.body["sides"][side]["strategy_submitted"], false);
        assert_eq!(at0.body["sides"][side]["strategy"], Value::Null);
        assert_eq!(at0.body["sides"][side]["strategy_bonus"], Value::Null);
    }
    assert_eq!(at0.body["sides"]["a"]["army"]["name"], "Sai Rei");

    // Version 2 is after both entropy contributions, before any strategy.
    let at2 = app.request("GET", &format!("{}?at=2", battle.path()), Some(&cast.judge), None).await;
    assert_eq!(at2.body["contributions"].as_array().map(Vec::len), Some(2));
    assert_eq!(at2.body["sides"]["a"]["strategy_submitted"], false);
    let now = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    let last = now.body["version"].as_u64().expect("version");
    assert_eq!(last, 6);
    assert_eq!(now.body["sides"]["a"]["strategy_bonus"], 7);

    // Sealed information stays sealed in the past, for the reader it is sealed from.
    let at3 = app.request("GET", &format!("{}?at=3", battle.path()), Some(&cast.bob), None).await;
    assert_eq!(at3.body["sides"]["a"]["strategy_submitted"], true);
    assert_eq!(at3.body["sides"]["a"]["strategy"], Value::Null);

    for beyond in [last + 1, 1000, i64::MAX as u64] {
        let reply = app.request("GET", &format!("{}?at={beyond}", battle.path()), None, None).await;
        assert_problem(&reply, 404, "not_found");
    }
    // Past the int64 the spec declares (issue 26 item 13): not a version at all.
    for bad in ["-1", "x", "1.5", &u64::MAX.to_string()] {
        let reply = app.request("GET", &format!("{}?at={bad}", battle.path()), None, None).await;
        assert_problem(&reply, 400, "malformed_request");
    }

    resolve(&app, &cast, &battle).await;
    // Once the battle ended, side a's strategy is public, also in the past (seed 003 §4.1.1).
    let at3 = app.request("GET", &format!("{}?at=3", battle.path()), Some(&cast.bob), None).await;
    assert_eq!(at3.body["sides"]["a"]["strategy"], STRATEGY_A);
    assert_eq!(at3.body["result"], Value::Null, "not resolved yet at version 3");
    assert_eq!(at3.body["seed"], Value::Null, "not revealed yet at version 3");
    app.stop().await;
}
