//! Verification catches a stored die changed behind the server's back, and refuses to run with a
//! sealed seed for anyone but a judge.

use herald_store::codec::{decode_event, encode_event, EVENTS_TREE};
use herald_tests::{spawn_app, spawn_app_in};
use serde_json::{json, Value};
use sha2::Digest;

use crate::support::*;

/// Change `/dice/a/0/draw/value` of the stored `coalition.BattleResolved` event; returns its
/// version and the old and new values.
fn tamper_with_first_die(data_dir: &std::path::Path) -> (u64, u64, u64) {
    let db = sled::open(data_dir).expect("the data directory opens once the server stopped");
    let events = db.open_tree(EVENTS_TREE).expect("the events tree");
    for entry in events.iter() {
        let (key, bytes) = entry.expect("an entry");
        let mut event = decode_event(&bytes).expect("a stored event decodes");
        if event.event_type != "coalition.BattleResolved" {
            continue;
        }
        let mut data = event.data.to_value();
        let value = data.pointer_mut("/dice/a/0/draw/value").expect("a die");
        let old = value.as_u64().expect("a face");
        let new = old % 20 + 1;
        *value = json!(new);
        event.data = data.into();
        events.insert(key, encode_event(&event)).expect("written back");
        db.flush().expect("flushed");
        return (event.version, old, new);
    }
    panic!("no coalition.BattleResolved event stored");
}

// seed 003 §4.2.4 (the dice decide), docs/DICE.md (dice anyone can check)
#[tokio::test]
async fn a_die_changed_in_the_database_is_found_by_verification_with_its_version_and_path() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    prepare(&app, &cast, &battle).await;
    resolve(&app, &cast, &battle).await;
    let clean = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(clean.body["verified"], true, "{:#}", clean.body);

    let data_dir = app.data_dir.clone();
    let dir = app.stop().await;
    // The store's writer thread releases sled's lock when it is dropped; give it a moment.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let (version, old, new) = tamper_with_first_die(&data_dir);
    // The read models saved at the stop hold the battle as it was; whoever edits the log behind
    // the server's back and wants the views to show it deletes them (ARCHITECTURE.md,
    // "Snapshots of the read models"). `verify` replays the log itself either way.
    std::fs::remove_dir_all(data_dir.join("read-models")).expect("the saved read models removed");
    let app = spawn_app_in(&data_dir).await;

    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["result"]["dice"]["a"][0]["value"], new, "the tampered event is what is served");
    for token in [None, Some(cast.observer.as_str()), Some(cast.judge.as_str())] {
        let report = app.request("GET", &battle.at("/verify"), token, None).await;
        assert_eq!(report.status, 200, "{:#}", report.body);
        assert_eq!(report.body["verified"], false, "{:#}", report.body);
        assert_eq!(report.body["result"], "differs");
        let difference = &report.body["first_difference"];
        assert_eq!(difference["version"], version, "{difference:#}");
        assert_eq!(difference["event_type"], "coalition.BattleResolved");
        let fields = difference["fields"].as_array().expect("fields");
        let die = fields.iter().find(|f| f["path"] == "/dice/a/0/draw/value").expect("the changed die is named");
        assert_eq!(die["stored"], new);
        assert_eq!(die["replayed"], old);
        if token != Some(cast.judge.as_str()) {
            // Totals would give the secret size bonus away.
            for field in fields.iter().filter(|f| f["path"].as_str().is_some_and(|p| p.ends_with("/total"))) {
                assert_eq!(field["stored"], "hidden");
            }
        }
    }
    app.stop().await;
    drop(dir);
}

// docs/DICE.md "Sealing and reveal"
#[tokio::test]
async fn a_battle_with_a_sealed_seed_is_verified_by_judges_only() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create(&app, &cast.judge, herald_tests::sample_battle(&in_a_day(), None)).await;
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;
    for token in [None, Some(cast.observer.as_str()), Some(cast.alice.as_str()), Some(cast.bob.as_str())] {
        let reply = app.request("GET", &battle.at("/verify"), token, None).await;
        assert_problem(&reply, 403, "verify.seed_sealed");
        let reply = app.request("GET", &format!("/v1/streams/{}/verify", battle.stream), token, None).await;
        assert_problem(&reply, 403, "verify.seed_sealed");
    }
    let judged = app.request("GET", &battle.at("/verify"), Some(&cast.judge), None).await;
    assert_eq!(judged.status, 200, "{:#}", judged.body);
    assert_eq!(judged.body["verified"], true, "{:#}", judged.body);
    assert_eq!(judged.body["seed"], "sealed");
    assert_eq!(judged.body["events_checked"], 2);
    // Verifying reveals nothing.
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["seed"], Value::Null);

    // A judge may reveal early; then anyone may verify. The early reveal seals a fresh seed for
    // the dice to come (docs/DICE.md "Re-sealing"), so a second early reveal publishes that one
    // and seals yet another: never the same seed twice.
    let early = app.request("POST", &battle.at("/reveal"), Some(&cast.judge), None).await;
    assert_eq!(early.status, 200, "{:#}", early.body);
    let first = &events_of(&early)[0];
    assert_eq!(first["type"], "coalition.SeedRevealed");
    let fresh = first["data"]["next_commitment"].as_str().expect("an early reveal re-seals").to_string();
    let twice = app.request("POST", &battle.at("/reveal"), Some(&cast.judge), None).await;
    assert_eq!(twice.status, 200, "{:#}", twice.body);
    let second = &events_of(&twice)[0]["data"];
    assert_ne!(second["seed"], first["data"]["seed"], "the second reveal publishes the fresh seed");
    let digest = sha2::Sha256::digest(hex::decode(second["seed"].as_str().unwrap_or_default()).unwrap_or_default());
    assert_eq!(hex::encode(digest), fresh, "the fresh seed matches the commitment the first reveal published");
    assert_ne!(second["next_commitment"], Value::Null, "and seals another");
    let public = app.request("GET", &battle.at("/verify"), Some(&cast.observer), None).await;
    assert_eq!(public.body["verified"], true, "{:#}", public.body);
    // Two keys revealed, the third still sealed (no die drawn from it yet): "partial".
    assert_eq!(public.body["seed"], "partial", "{:#}", public.body);
    // With the seed public, entropy could steer the dice: refused.
    let steer = app.request("POST", &battle.at("/entropy"), Some(&cast.bob), Some(json!({"entropy": "steer"}))).await;
    assert_problem(&steer, 422, "coalition.battle.entropy_after_reveal");
    app.stop().await;
}
