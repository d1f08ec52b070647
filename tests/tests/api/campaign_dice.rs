//! Campaign dice no one can choose (issue 25, rules `coalition-campaign@4`, docs/DICE.md "Keys"):
//! players mix entropy into each turn until its lock, the dice between adjudications come from
//! interval keys published with the next turn's report, and the root is published when the round
//! ends. An anonymous reader then recomputes every die of the round with the `chacha20` and
//! `sha2` crates alone (not the project's code), checks every key derives from the root, and finds
//! no sealed draw after each adjudication.

use std::collections::BTreeMap;

use herald_store::codec::{decode_event, encode_event, EVENTS_TREE};
use herald_tests::{spawn_app, spawn_app_in, TestApp};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::dice::{check_ledger, create_campaign_with, events_of, ledger};
use crate::outsider::{die, draws_in, effective_seed, hex32};
use crate::support::{assert_rule, in_a_day, Cast};

/// docs/DICE.md "Keys", written again: `sha256(label ‖ root ‖ stream ‖ n as 4 bytes big-endian)`.
fn derive(label: &str, root: &[u8; 32], stream: &str, n: u32) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(label.as_bytes());
    hasher.update(root);
    hasher.update(stream.as_bytes());
    hasher.update(n.to_be_bytes());
    hasher.finalize().into()
}

fn sha(seed: &[u8; 32]) -> Value {
    Value::String(hex::encode(Sha256::digest(seed)))
}

async fn options_round(app: &TestApp, cast: &Cast) -> (String, String) {
    let id = create_campaign_with(app, cast, json!({"enforce_army_counts": false, "enforce_site_counts": false})).await;
    let stream = format!("campaign-{id}");
    (id, stream)
}

async fn post(app: &TestApp, path: &str, token: &str, body: Option<Value>) -> Value {
    let reply = app.request("POST", path, Some(token), body).await;
    assert_eq!(reply.status, 200, "{path}: {:#}", reply.body);
    reply.body
}

async fn contribute(app: &TestApp, id: &str, token: &str, entropy: &str) {
    post(app, &format!("/v1/campaigns/{id}/entropy"), token, Some(json!({"entropy": entropy}))).await;
}

async fn judge_roll(app: &TestApp, cast: &Cast, stream: &str, purpose: &str) -> Value {
    let roll = json!({"expression": "2d6", "purpose": purpose});
    post(app, &format!("/v1/streams/{stream}/rolls"), &cast.judge, Some(roll)).await
}

/// Every event of a stream as an anonymous reader sees it.
async fn public_events(app: &TestApp, stream: &str) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let url = format!("/v1/streams/{stream}/events?limit=100&from={}", events.len());
        let page = app.request("GET", &url, None, None).await;
        assert_eq!(page.status, 200, "{:#}", page.body);
        let got = page.body["events"].as_array().expect("events").clone();
        let done = page.body["next"].is_null();
        events.extend(got);
        if done {
            return events;
        }
    }
}

/// The last contribution's `entropy` as `token` reads it.
async fn last_entropy(app: &TestApp, stream: &str, token: &str) -> Value {
    let page = app.request("GET", &format!("/v1/streams/{stream}/events"), Some(token), None).await;
    let events = page.body["events"].as_array().expect("events");
    let last = events.iter().rev().find(|e| e["type"] == "coalition.TurnEntropyContributed").expect("contributed");
    last["data"]["entropy"].clone()
}

/// Fight the battle the first turn announced: both strategies, the judge's bonuses, resolved.
async fn fight(app: &TestApp, cast: &Cast, battle: &str) {
    let battle_id = battle.trim_start_matches("battle-");
    let view = app.request("GET", &format!("/v1/battles/{battle_id}"), Some(&cast.judge), None).await;
    let side_of = |name: &str| if view.body["sides"]["a"]["army"]["name"] == name { "a" } else { "b" };
    let (alice_side, bob_side) = (side_of("Sai Rei"), side_of("Plague Host"));
    for (token, side, text) in [(&cast.alice, alice_side, "Mages hold"), (&cast.bob, bob_side, "Broodlings rush")] {
        let body = json!({"side": side, "strategy": text});
        post(app, &format!("/v1/battles/{battle_id}/strategies"), token, Some(body)).await;
    }
    for (side, bonus) in [(alice_side, 9), (bob_side, 0)] {
        let body = json!({"side": side, "bonus": bonus});
        post(app, &format!("/v1/battles/{battle_id}/strategy-bonuses"), &cast.judge, Some(body)).await;
    }
    post(app, &format!("/v1/battles/{battle_id}/resolve"), &cast.judge, Some(json!({}))).await;
}

// docs/DICE.md "Keys"; seed 003 §3.1 (turns), §5.4.1 (sanctions)
#[tokio::test]
async fn an_outsider_recomputes_every_die_of_a_round_and_checks_every_key_derives_from_the_revealed_root() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let admin = app.token("admin", None).await;
    let (id, stream) = options_round(&app, &cast).await;

    // Before the first turn: a judge's roll on interval:0, committed in the round's first event.
    judge_roll(&app, &cast, &stream, "weather omen before the first turn").await;

    // Turn 1: both players contribute; the armies meet on 7F. A judge rolls while orders are open
    // (interval:0 still: the turn's key is not final before the lock).
    let opened =
        post(&app, &format!("/v1/campaigns/{id}/turns"), &cast.judge, Some(json!({"deadline": in_a_day()}))).await;
    assert!(opened["events"][0]["data"]["interval_commitment"].is_string(), "{opened:#}");
    contribute(&app, &id, &cast.alice, "alice's first turn").await;
    contribute(&app, &id, &cast.bob, "bob: 7 bats at dawn").await;
    for (token, text) in [(&cast.alice, "Sai Rei: 5E > 7F"), (&cast.bob, "Plague Host: 9E > 7F")] {
        post(&app, &format!("/v1/campaigns/{id}/orders"), token, Some(json!({"text": text}))).await;
    }
    judge_roll(&app, &cast, &stream, "a ruling while orders are open").await;
    post(&app, &format!("/v1/campaigns/{id}/lock"), &cast.judge, None).await;
    let first = post(&app, &format!("/v1/campaigns/{id}/adjudicate"), &cast.judge, None).await;
    assert_eq!(events_of(&first, "coalition.IntervalSeedRevealed").len(), 1, "{first:#}");
    assert_eq!(events_of(&first, "coalition.TurnSeedRevealed").len(), 1, "{first:#}");
    let battle =
        events_of(&first, "coalition.BattleAnnounced")[0]["data"]["battle"].as_str().expect("battle").to_string();

    // While the round runs, verify is partial and says when each sealed key opens.
    let partial = app.request("GET", &format!("/v1/streams/{stream}/verify"), None, None).await;
    assert_eq!(partial.status, 200, "{:#}", partial.body);
    let sealed: Vec<&str> =
        partial.body["sealed_keys"].as_array().expect("sealed keys").iter().filter_map(Value::as_str).collect();
    assert_eq!(sealed, vec!["stream", "interval:1"], "{:#}", partial.body);
    for key in partial.body["keys"].as_array().expect("keys") {
        assert_eq!(key["opens"].is_string(), key["status"] == "unavailable", "{key}");
    }

    // Between the turns: a sanction (severity 1 × d6) and a judge's roll, on interval:1.
    let sanction = json!({"player": "bob", "army": "Plague Host", "severity": 1, "reason": "late orders"});
    let sanctioned = post(&app, &format!("/v1/campaigns/{id}/sanctions"), &cast.judge, Some(sanction)).await;
    assert!(events_of(&sanctioned, "coalition.SanctionImposed")[0]["data"]["draw"].is_object(), "{sanctioned:#}");
    judge_roll(&app, &cast, &stream, "a ruling between the turns").await;
    fight(&app, &cast, &battle).await;

    // Turn 2: alice alone contributes; the loser of the battle is bumped (turn:2).
    post(&app, &format!("/v1/campaigns/{id}/turns"), &cast.judge, Some(json!({"deadline": in_a_day()}))).await;
    contribute(&app, &id, &cast.alice, "second turn, alice").await;
    post(&app, &format!("/v1/campaigns/{id}/lock"), &cast.judge, None).await;
    let second = post(&app, &format!("/v1/campaigns/{id}/adjudicate"), &cast.judge, None).await;
    assert_eq!(events_of(&second, "coalition.ArmyBumped").len(), 1, "{second:#}");

    // Turn 3: both contribute twice; a judge rolls after the lock (turn:3).
    post(&app, &format!("/v1/campaigns/{id}/turns"), &cast.judge, Some(json!({"deadline": in_a_day()}))).await;
    for (token, text) in [(&cast.bob, "b3"), (&cast.alice, "a3"), (&cast.bob, "b3 again"), (&cast.alice, "ä3 ✓")] {
        contribute(&app, &id, token, text).await;
    }
    post(&app, &format!("/v1/campaigns/{id}/lock"), &cast.judge, None).await;
    judge_roll(&app, &cast, &stream, "a ruling after the lock").await;
    post(&app, &format!("/v1/campaigns/{id}/adjudicate"), &cast.judge, None).await;

    // The admin closes the round: the service publishes the root.
    let closed =
        post(&app, &format!("/v1/campaigns/{id}/close"), &admin, Some(json!({"reason": "the test is over"}))).await;
    assert_eq!(events_of(&closed, "coalition.RootSeedRevealed").len(), 1, "{closed:#}");

    // An anonymous reader, with the events alone.
    let events = public_events(&app, &stream).await;
    let of = |kind: &'static str| events.iter().filter(move |e| e["type"] == kind);
    let created = &events[0]["data"];
    let root = hex32(&of("coalition.RootSeedRevealed").next().expect("root revealed")["data"]["seed"]);
    assert_eq!(sha(&root), created["seed_commitment"], "the root is the one committed in the round's first event");

    // Each turn's contributions made before its lock, in order.
    let mut contributions: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut locked = std::collections::BTreeSet::new();
    for event in &events {
        let data = &event["data"];
        let turn = data["turn"].as_u64().and_then(|t| u32::try_from(t).ok());
        match event["type"].as_str() {
            Some("coalition.TurnLocked") => {
                locked.insert(turn.expect("turn"));
            }
            Some("coalition.TurnEntropyContributed") => {
                let turn = turn.expect("turn");
                assert!(!locked.contains(&turn), "no contribution after the lock");
                contributions.entry(turn).or_default().push(data["entropy"].as_str().expect("entropy").into());
            }
            _ => {}
        }
    }
    assert_eq!(contributions.values().map(Vec::len).collect::<Vec<_>>(), vec![2, 1, 4]);

    // Every key: derived from the root, committed before use, its effective seed mixing the
    // contributions of its turn.
    let mut keys: BTreeMap<String, [u8; 32]> = BTreeMap::new();
    let interval = |n: u32| {
        let seed = derive("herald/interval-seed/v1", &root, &stream, n);
        let mixed = if n == 0 { Vec::new() } else { contributions[&n].clone() };
        (seed, effective_seed(&seed, &stream, &mixed))
    };
    let (seed0, key0) = interval(0);
    assert_eq!(sha(&seed0), created["interval_commitment"], "interval:0 derives from the root");
    keys.insert("interval:0".into(), key0);
    for opened in of("coalition.TurnOpened") {
        let turn = u32::try_from(opened["data"]["turn"].as_u64().expect("turn")).expect("turn");
        let seed = derive("herald/turn-seed/v1", &root, &stream, turn);
        assert_eq!(sha(&seed), opened["data"]["seed_commitment"], "turn:{turn} derives from the root");
        keys.insert(format!("turn:{turn}"), effective_seed(&seed, &stream, &contributions[&turn]));
        let (seed, key) = interval(turn);
        assert_eq!(sha(&seed), opened["data"]["interval_commitment"], "interval:{turn} derives from the root");
        keys.insert(format!("interval:{turn}"), key);
    }
    for revealed in of("coalition.TurnSeedRevealed") {
        let id = format!("turn:{}", revealed["data"]["turn"]);
        assert_eq!(hex::encode(keys[&id]), revealed["data"]["effective_seed"], "{id} as revealed");
    }
    for revealed in of("coalition.IntervalSeedRevealed") {
        let id = format!("interval:{}", revealed["data"]["after_turn"]);
        assert_eq!(hex::encode(keys[&id]), revealed["data"]["effective_seed"], "{id} as revealed");
    }
    assert_eq!(of("coalition.TurnSeedRevealed").count(), 3);
    assert_eq!(of("coalition.IntervalSeedRevealed").count(), 3, "interval:0, 1 and 2, each with the next report");

    // Every die, with the key in force by the documented rule: interval:<n> from turn n's
    // adjudication (0: the set-up) until turn n + 1's lock, turn:<n> from its lock through its
    // adjudication. None is drawn from the root; each is revealed before the next turn opens.
    let mut in_force = "interval:0".to_string();
    let mut recomputed = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    let mut revealed_so_far = std::collections::BTreeSet::new();
    for event in &events {
        let data = &event["data"];
        match event["type"].as_str() {
            Some("coalition.TurnLocked") => in_force = format!("turn:{}", data["turn"]),
            Some("coalition.TurnOpened") => {
                // Only the interval key in force (draws after the last adjudication) may be sealed.
                let unrevealed: Vec<&String> =
                    pending.iter().filter(|k| !revealed_so_far.contains(*k) && **k != in_force).collect();
                assert!(unrevealed.is_empty(), "a draw before the last adjudication is still sealed: {unrevealed:?}");
            }
            Some("coalition.TurnSeedRevealed") => {
                revealed_so_far.insert(format!("turn:{}", data["turn"]));
            }
            Some("coalition.IntervalSeedRevealed") => {
                revealed_so_far.insert(format!("interval:{}", data["after_turn"]));
            }
            _ => {}
        }
        let mut draws = Vec::new();
        draws_in(data, &mut draws);
        for draw in draws {
            let sides = u32::try_from(draw["sides"].as_u64().expect("sides")).expect("sides");
            let value = die(&keys[&in_force], draw["word"].as_u64().expect("word"), sides);
            assert_eq!(u64::from(value), draw["value"].as_u64().expect("value"), "{in_force}: {draw}");
            recomputed.push((in_force.clone(), draw["purpose"].clone()));
            pending.push(in_force.clone());
        }
        if event["type"] == "coalition.TurnAdjudicated" {
            in_force = format!("interval:{}", data["turn"]);
        }
    }
    let used: std::collections::BTreeSet<&str> = recomputed.iter().map(|(key, _)| key.as_str()).collect();
    for key in ["interval:0", "interval:1", "turn:1", "turn:2", "turn:3"] {
        assert!(used.contains(key), "a die on {key}: {recomputed:#?}");
    }
    assert!(recomputed.iter().any(|(key, purpose)| key == "interval:1"
        && purpose.as_str().is_some_and(|p| p.starts_with("sanction on Plague Host"))));

    // The ledger names the same key for every draw and the dice recompute from it.
    let draws = ledger(&app, &stream).await;
    assert!(draws.iter().all(|d| d["key"] != "stream"), "nothing on a campaign stream draws from the root");
    assert_eq!(check_ledger(&draws, &keys, &events), recomputed.len());
    let ledger_keys: Vec<&str> = draws.iter().map(|d| d["key"].as_str().expect("key")).collect();
    assert_eq!(ledger_keys, recomputed.iter().map(|(key, _)| key.as_str()).collect::<Vec<_>>());

    // The battle hanging from the round: its seed derives from the root too.
    let battle_events = public_events(&app, &battle).await;
    let battle_seed: [u8; 32] = Sha256::new()
        .chain_update(b"herald/battle-seed/v1")
        .chain_update(root)
        .chain_update(battle.as_bytes())
        .finalize()
        .into();
    let revealed = battle_events.iter().find(|e| e["type"] == "coalition.SeedRevealed").expect("the battle's seed");
    assert_eq!(hex32(&revealed["data"]["seed"]), battle_seed, "the battle's seed derives from the root");

    // verify: every key revealed or derived, every command replayed.
    let report = app.request("GET", &format!("/v1/streams/{stream}/verify"), None, None).await;
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    assert_eq!(report.body["sealed_keys"], json!([]), "{:#}", report.body);
    for key in report.body["keys"].as_array().expect("keys") {
        assert_eq!(key["status"], "revealed", "{key}");
        assert_eq!(key["derived"], key["key"] != "stream", "{key}");
    }
    let battle_report = app.request("GET", &format!("/v1/streams/{battle}/verify"), None, None).await;
    assert_eq!(battle_report.body["result"], "verified", "{:#}", battle_report.body);
    app.stop().await;
}

// docs/DICE.md "Keys", "Seeds" (the caps battles have); seed 003 §3.1 (the lock)
#[tokio::test]
async fn a_contribution_after_the_lock_by_an_outsider_or_over_the_caps_is_refused_and_nothing_is_written() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (id, stream) = options_round(&app, &cast).await;
    let path = format!("/v1/campaigns/{id}/entropy");
    let refused = assert_rule;

    // No turn open yet.
    let before = public_events(&app, &stream).await.len();
    let reply = app.request("POST", &path, Some(&cast.alice), Some(json!({"entropy": "early"}))).await;
    refused(&reply, 422, "coalition.campaign.entropy_after_lock", "seed 003 §3.1");
    post(&app, &format!("/v1/campaigns/{id}/turns"), &cast.judge, Some(json!({"deadline": in_a_day()}))).await;
    let before = public_events(&app, &stream).await.len().max(before);

    // Not a player of the round: an observer, a judge, a player of another round.
    let carol = app.token("player", Some("carol")).await;
    for token in [&cast.observer, &cast.judge, &carol] {
        let reply = app.request("POST", &path, Some(token), Some(json!({"entropy": "mine"}))).await;
        refused(&reply, 403, "coalition.campaign.not_participant", "docs/DICE.md");
    }
    // Outside 1 to 1,024 characters.
    for entropy in [String::new(), "x".repeat(1025)] {
        let reply = app.request("POST", &path, Some(&cast.alice), Some(json!({"entropy": entropy}))).await;
        refused(&reply, 422, "coalition.campaign.entropy_size", "docs/DICE.md");
    }
    assert_eq!(public_events(&app, &stream).await.len(), before, "nothing written");

    // Sealed until the lock: bob and the judge see alice's contribution hidden, alice sees it.
    contribute(&app, &id, &cast.alice, "alice's secret").await;
    assert_eq!(last_entropy(&app, &stream, &cast.alice).await, "alice's secret");
    assert_ne!(last_entropy(&app, &stream, &cast.bob).await, "alice's secret");
    assert_ne!(last_entropy(&app, &stream, &cast.judge).await, "alice's secret");

    // The caps: 4 each.
    for n in 2..=4 {
        contribute(&app, &id, &cast.alice, &format!("alice {n}")).await;
    }
    let before = public_events(&app, &stream).await.len();
    let reply = app.request("POST", &path, Some(&cast.alice), Some(json!({"entropy": "a fifth"}))).await;
    refused(&reply, 422, "coalition.campaign.entropy_limit", "docs/DICE.md");
    assert_eq!(public_events(&app, &stream).await.len(), before, "nothing written");
    contribute(&app, &id, &cast.bob, "bob may still").await;

    // After the lock.
    post(&app, &format!("/v1/campaigns/{id}/lock"), &cast.judge, None).await;
    let before = public_events(&app, &stream).await.len();
    let reply = app.request("POST", &path, Some(&cast.bob), Some(json!({"entropy": "too late"}))).await;
    refused(&reply, 422, "coalition.campaign.entropy_after_lock", "seed 003 §3.1");
    assert!(reply.body["detail"].as_str().is_some_and(|d| d.contains("locked")), "{:#}", reply.body);
    assert_eq!(public_events(&app, &stream).await.len(), before, "nothing written");
    assert_eq!(last_entropy(&app, &stream, &cast.bob).await, "bob may still", "public after the lock");
    app.stop().await;
}

/// Give turn 1 of the stored round a forged key: its commitment in `TurnOpened` and its seed in
/// `TurnSeedRevealed` agree with each other, but not with the root.
fn forge_turn_key(data_dir: &std::path::Path) {
    let forged = [7u8; 32];
    let db = sled::open(data_dir).expect("the data directory opens once the server stopped");
    let events = db.open_tree(EVENTS_TREE).expect("the events tree");
    let mut edited = 0;
    for entry in events.iter() {
        let (key, bytes) = entry.expect("an entry");
        let mut event = decode_event(&bytes).expect("a stored event decodes");
        let mut data = event.data.to_value();
        match event.event_type.as_str() {
            "coalition.TurnOpened" if data["turn"] == 1 => data["seed_commitment"] = sha(&forged),
            "coalition.TurnSeedRevealed" if data["turn"] == 1 => data["seed"] = json!(hex::encode(forged)),
            _ => continue,
        }
        event.data = data.into();
        events.insert(key, encode_event(&event)).expect("written back");
        edited += 1;
    }
    assert_eq!(edited, 2, "the turn key's commitment and its seed");
    db.flush().expect("flushed");
}

// docs/DICE.md "Keys" (every key derives from the root)
#[tokio::test]
async fn a_turn_key_edited_in_the_store_is_named_by_verify_as_not_deriving_from_the_root() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let admin = app.token("admin", None).await;
    let (id, stream) = options_round(&app, &cast).await;
    post(&app, &format!("/v1/campaigns/{id}/turns"), &cast.judge, Some(json!({"deadline": in_a_day()}))).await;
    contribute(&app, &id, &cast.alice, "alice").await;
    post(&app, &format!("/v1/campaigns/{id}/orders"), &cast.alice, Some(json!({"text": "Sai Rei: 5E > 7F"}))).await;
    post(&app, &format!("/v1/campaigns/{id}/lock"), &cast.judge, None).await;
    post(&app, &format!("/v1/campaigns/{id}/adjudicate"), &cast.judge, None).await;
    post(&app, &format!("/v1/campaigns/{id}/close"), &admin, Some(json!({"reason": "done"}))).await;
    let clean = app.request("GET", &format!("/v1/streams/{stream}/verify"), None, None).await;
    assert_eq!(clean.body["result"], "verified", "{:#}", clean.body);

    let data_dir = app.data_dir.clone();
    let dir = app.stop().await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    forge_turn_key(&data_dir);
    std::fs::remove_dir_all(data_dir.join("read-models")).expect("the saved read models removed");
    let app = spawn_app_in(&data_dir).await;
    let report = app.request("GET", &format!("/v1/streams/{stream}/verify"), None, None).await;
    assert_eq!(report.status, 200, "{:#}", report.body);
    assert_eq!(report.body["result"], "differs", "{:#}", report.body);
    let reason = report.body["first_difference"]["reason"].as_str().expect("a reason");
    assert!(reason.contains("key turn:1 does not derive from the revealed root"), "{reason}");
    app.stop().await;
    drop(dir);
}
