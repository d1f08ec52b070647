//! Every die checkable by an outsider (issue 14): a campaign turn with random routes and a bump,
//! its battle, then an anonymous reader recomputes every draw from the revealed keys alone with
//! the `chacha20` crate's keystream (not the project's `rand_chacha`), and `verify` answers.

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::outsider::{die, draws_in, effective_seed, hex32};
use crate::support::{in_a_day, Cast};

fn army(name: &str, team: &str, colors: Value, creature: &str, color: &str) -> Value {
    json!({
        "name": name, "team": team, "rank": "cpl_lt_commander", "creator": null, "colors": colors, "legend": null,
        "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]
    })
}

async fn create_campaign(app: &TestApp, cast: &Cast) -> String {
    create_campaign_with(app, cast, json!({"enforce_army_counts": false, "enforce_site_counts": false})).await
}

/// A campaign of Sai Rei (5E, alice) and Plague Host (9E, bob) with `options`; its id.
pub(crate) async fn create_campaign_with(app: &TestApp, cast: &Cast, options: Value) -> String {
    let body = json!({
        "name": "Dice round",
        "map": {"bounds": {"columns": 14, "rows": 38}, "terrain": {}, "default_terrain": "plains",
                "sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"}, "win_condition": true}}},
        "armies": [
            {"army": army("Sai Rei", "coalition", json!(["red", "green", "blue"]), "Kris Mage", "red"),
             "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
            {"army": army("Plague Host", "phyrexia", json!([]), "Phyrexian Broodling", "black"),
             "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
        ],
        "options": options
    });
    let reply = app.request("POST", "/v1/campaigns", Some(&cast.judge), Some(body)).await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    reply.body["stream"].as_str().expect("stream").trim_start_matches("campaign-").to_string()
}

pub(crate) async fn turn(app: &TestApp, cast: &Cast, id: &str, orders: &[(&str, &str)]) -> Value {
    let opened = app
        .request("POST", &format!("/v1/campaigns/{id}/turns"), Some(&cast.judge), Some(json!({"deadline": in_a_day()})))
        .await;
    assert_eq!(opened.status, 200, "{:#}", opened.body);
    let commitment = &opened.body["events"][0]["data"]["seed_commitment"];
    assert!(commitment.is_string(), "the turn's opening commits to its seed: {:#}", opened.body);
    for (player, text) in orders {
        let token = if *player == "alice" { &cast.alice } else { &cast.bob };
        let posted =
            app.request("POST", &format!("/v1/campaigns/{id}/orders"), Some(token), Some(json!({"text": text}))).await;
        assert_eq!(posted.status, 200, "{:#}", posted.body);
    }
    assert_eq!(app.request("POST", &format!("/v1/campaigns/{id}/lock"), Some(&cast.judge), None).await.status, 200);
    let adjudicated = app.request("POST", &format!("/v1/campaigns/{id}/adjudicate"), Some(&cast.judge), None).await;
    assert_eq!(adjudicated.status, 200, "{:#}", adjudicated.body);
    adjudicated.body
}

pub(crate) fn events_of<'a>(reply: &'a Value, kind: &str) -> Vec<&'a Value> {
    reply["events"].as_array().expect("events").iter().filter(|e| e["type"] == kind).collect()
}

/// Every event of a stream as an anonymous reader sees it, following `next`.
async fn all_events(app: &TestApp, stream: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut url = format!("/v1/streams/{stream}/events?limit=100");
    loop {
        let page = app.request("GET", &url, None, None).await;
        assert_eq!(page.status, 200, "{:#}", page.body);
        events.extend(page.body["events"].as_array().expect("events").iter().cloned());
        match page.body["next"].as_u64() {
            Some(next) => url = format!("/v1/streams/{stream}/events?limit=100&from={next}"),
            None => return events,
        }
    }
}

/// The dice ledger of a stream, every page (small pages, to exercise the paging).
pub(crate) async fn ledger(app: &TestApp, stream: &str) -> Vec<Value> {
    let mut draws = Vec::new();
    let mut url = format!("/v1/streams/{stream}/dice?limit=3");
    loop {
        let page = app.request("GET", &url, None, None).await;
        assert_eq!(page.status, 200, "{:#}", page.body);
        draws.extend(page.body["draws"].as_array().expect("draws").iter().cloned());
        match page.body["next"].as_u64() {
            Some(next) => url = format!("/v1/streams/{stream}/dice?limit=3&from={next}"),
            None => return draws,
        }
    }
}

/// Recompute every draw of the ledger with the effective seed of its key; returns how many.
pub(crate) fn check_ledger(
    draws: &[Value],
    keys: &std::collections::BTreeMap<String, [u8; 32]>,
    events: &[Value],
) -> usize {
    for draw in draws {
        let key = keys.get(draw["key"].as_str().expect("key")).unwrap_or_else(|| panic!("key revealed: {draw}"));
        let sides = u32::try_from(draw["sides"].as_u64().expect("sides")).expect("sides");
        let value = die(key, draw["word"].as_u64().expect("word"), sides);
        assert_eq!(u64::from(value), draw["value"].as_u64().expect("value"), "{draw}");
        // The pointer names the draw inside its event.
        let event = events.iter().find(|e| e["version"] == draw["version"]).expect("the event");
        let recorded = event["data"].pointer(draw["pointer"].as_str().expect("pointer")).expect("pointer resolves");
        assert_eq!(recorded["word"], draw["word"]);
    }
    draws.len()
}

/// docs/verify_dice.py on the saved events and ledger of `stream` (skipped without python3).
pub(crate) fn verify_with_script(name: &str, events: &[Value], draws: &[Value]) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (events_file, ledger_file) = (dir.path().join("events.json"), dir.path().join("dice.json"));
    std::fs::write(&events_file, serde_json::to_vec(events).expect("json")).expect("written");
    std::fs::write(&ledger_file, serde_json::to_vec(draws).expect("json")).expect("written");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/verify_dice.py");
    let Ok(output) = std::process::Command::new("python3")
        .args([script, "--events"])
        .arg(&events_file)
        .arg("--ledger")
        .arg(&ledger_file)
        .output()
    else {
        eprintln!("python3 is not installed: docs/verify_dice.py not run");
        return;
    };
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{name}: {printed}{}", String::from_utf8_lossy(&output.stderr));
    assert!(printed.contains("VERIFIED"), "{printed}");
}

#[tokio::test]
async fn an_outsider_recomputes_every_die_of_a_campaign_turn_from_its_revealed_turn_key() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let id = create_campaign(&app, &cast).await;
    let stream = format!("campaign-{id}");

    // Diagonal legs have several shortest routes: each is drawn (seed 003 §3.2.2.1). Both armies
    // end in 7F: a battle.
    let first = turn(&app, &cast, &id, &[("alice", "Sai Rei: 5E > 7F"), ("bob", "Plague Host: 9E > 7F")]).await;
    let revealed = events_of(&first, "coalition.TurnSeedRevealed");
    assert_eq!(revealed.len(), 1, "the turn's seed is revealed with its adjudication: {first:#}");
    assert_eq!(revealed[0]["data"]["turn"], 1);
    let battle =
        events_of(&first, "coalition.BattleAnnounced")[0]["data"]["battle"].as_str().expect("battle").to_string();
    let battle_id = battle.trim_start_matches("battle-").to_string();

    // The judge reveals the battle's seed early: a fresh sealed seed takes over (re-sealing).
    let early = app.request("POST", &format!("/v1/battles/{battle_id}/reveal"), Some(&cast.judge), None).await;
    assert_eq!(early.status, 200, "{:#}", early.body);
    let next = &early.body["events"][0]["data"]["next_commitment"];
    assert!(next.is_string(), "an early reveal commits to a fresh seed: {:#}", early.body);
    let judge_roll = json!({"expression": "2d6", "purpose": "a ruling after the early reveal"});
    let rolled = app.request("POST", &format!("/v1/streams/{battle}/rolls"), Some(&cast.judge), Some(judge_roll)).await;
    assert_eq!(rolled.status, 200, "a judge still rolls, from the fresh seed: {:#}", rolled.body);

    let view = app.request("GET", &format!("/v1/battles/{battle_id}"), Some(&cast.judge), None).await;
    let side_of = |name: &str| if view.body["sides"]["a"]["army"]["name"] == name { "a" } else { "b" };
    let (alice_side, bob_side) = (side_of("Sai Rei"), side_of("Plague Host"));
    for (token, side, text) in [(&cast.alice, alice_side, "Mages hold"), (&cast.bob, bob_side, "Broodlings rush")] {
        let url = format!("/v1/battles/{battle_id}/strategies");
        let submitted = app.request("POST", &url, Some(token), Some(json!({"side": side, "strategy": text}))).await;
        assert_eq!(submitted.status, 200, "{:#}", submitted.body);
    }
    for (side, bonus) in [(alice_side, 9), (bob_side, 0)] {
        let url = format!("/v1/battles/{battle_id}/strategy-bonuses");
        assert_eq!(
            app.request("POST", &url, Some(&cast.judge), Some(json!({"side": side, "bonus": bonus}))).await.status,
            200
        );
    }
    let resolved =
        app.request("POST", &format!("/v1/battles/{battle_id}/resolve"), Some(&cast.judge), Some(json!({}))).await;
    assert_eq!(resolved.status, 200, "{:#}", resolved.body);

    // Turn 2: the loser is bumped to a random empty square next to the battle (§4.2.5).
    let second = turn(&app, &cast, &id, &[]).await;
    assert_eq!(events_of(&second, "coalition.ArmyBumped").len(), 1);
    assert!(events_of(&second, "coalition.ArmyBumped")[0]["data"]["draw"].is_object());

    // An anonymous reader: every die drawn while a turn was open comes from that turn's key,
    // whose seed hashes to the commitment in the turn's opening.
    let events = all_events(&app, &stream).await;
    let mut commitments = std::collections::BTreeMap::new();
    let mut keys = std::collections::BTreeMap::new();
    for event in &events {
        if event["type"] == "coalition.TurnOpened" {
            commitments.insert(event["data"]["turn"].as_u64().expect("turn"), event["data"]["seed_commitment"].clone());
        }
        if event["type"] == "coalition.TurnSeedRevealed" {
            let turn = event["data"]["turn"].as_u64().expect("turn");
            let seed = hex32(&event["data"]["seed"]);
            assert_eq!(Value::String(hex::encode(Sha256::digest(seed))), commitments[&turn], "turn {turn}");
            let key = effective_seed(&seed, &stream, &[]);
            assert_eq!(hex::encode(key), event["data"]["effective_seed"]);
            keys.insert(turn, key);
        }
    }
    assert_eq!(keys.len(), 2, "both turns' seeds are revealed");
    let by_id = keys.iter().map(|(turn, key)| (format!("turn:{turn}"), *key)).collect();
    let campaign_draws = ledger(&app, &stream).await;
    assert!(campaign_draws.iter().any(|d| d["event_type"] == "coalition.ArmyBumped"), "{campaign_draws:#?}");
    assert!(campaign_draws.iter().any(|d| d["purpose"].as_str().is_some_and(|p| p.starts_with("route "))));
    let ledger_checked = check_ledger(&campaign_draws, &by_id, &events);
    verify_with_script("campaign", &events, &campaign_draws);
    let mut open_turn = None;
    let mut checked = 0;
    for event in &events {
        match event["type"].as_str() {
            Some("coalition.TurnOpened") => open_turn = event["data"]["turn"].as_u64(),
            Some("coalition.TurnAdjudicated") => open_turn = None,
            _ => {}
        }
        let mut draws = Vec::new();
        draws_in(&event["data"], &mut draws);
        for draw in draws {
            let turn = open_turn.expect("every campaign die is drawn while a turn is open");
            let (word, sides) = (draw["word"].as_u64().expect("word"), draw["sides"].as_u64().expect("sides"));
            let sides = u32::try_from(sides).expect("sides");
            assert_eq!(u64::from(die(&keys[&turn], word, sides)), draw["value"].as_u64().expect("value"), "{draw}");
            checked += 1;
        }
    }
    assert!(checked >= 3, "random routes and the bump were drawn and checked: {checked}");
    assert_eq!(ledger_checked, checked, "the ledger lists every draw of the campaign");

    // The battle: every die from the key in force when it was drawn, across the key change.
    let events = all_events(&app, &battle).await;
    let mut commitment = events[0]["data"]["seed_commitment"].clone();
    let mut contributions = Vec::new();
    let mut in_force: Vec<Vec<Value>> = vec![Vec::new()];
    let mut keys = Vec::new();
    for event in &events {
        let data = &event["data"];
        if event["type"].as_str().is_some_and(|kind| kind.ends_with("EntropyContributed")) {
            contributions.push(data["entropy"].as_str().expect("entropy").to_string());
        }
        if event["type"].as_str().is_some_and(|kind| kind.ends_with("SeedRevealed")) {
            let seed = hex32(&data["seed"]);
            assert_eq!(Value::String(hex::encode(Sha256::digest(seed))), commitment, "the seed in force");
            let key = effective_seed(&seed, &battle, &contributions);
            assert_eq!(hex::encode(key), data["effective_seed"]);
            keys.push(key);
            if let Some(next) = data.get("next_commitment") {
                commitment = next.clone();
                in_force.push(Vec::new());
            }
            continue;
        }
        let mut draws = Vec::new();
        draws_in(data, &mut draws);
        in_force.last_mut().expect("a key").extend(draws);
    }
    assert_eq!(keys.len(), 2, "the early reveal and the reveal at the end");
    assert!(in_force[0].is_empty(), "nothing was drawn before the early reveal");
    assert!(in_force[1].len() >= 3, "the judge's roll and the battle's dice: {:?}", in_force[1]);
    for (key, draws) in keys.iter().zip(&in_force) {
        for draw in draws {
            let sides = u32::try_from(draw["sides"].as_u64().expect("sides")).expect("sides");
            let value = die(key, draw["word"].as_u64().expect("word"), sides);
            assert_eq!(u64::from(value), draw["value"].as_u64().expect("value"), "{draw}");
        }
    }
    let by_id = ["stream", "reseal:1"].iter().map(|id| id.to_string()).zip(keys.iter().copied()).collect();
    let battle_draws = ledger(&app, &battle).await;
    assert_eq!(check_ledger(&battle_draws, &by_id, &events), in_force[1].len());
    verify_with_script("battle", &events, &battle_draws);
    assert!(battle_draws.iter().all(|d| d["key"] == "reseal:1"), "every die after the early reveal is re-sealed");
    let report = app.request("GET", &format!("/v1/battles/{battle_id}/verify"), None, None).await;
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    let keys: Vec<&Value> = report.body["keys"].as_array().expect("keys").iter().map(|k| &k["key"]).collect();
    assert_eq!(keys, vec!["stream", "reseal:1"]);

    // `verify` answers anyone: every revealed turn replayed, the root still sealed.
    let report = app.request("GET", &format!("/v1/streams/{stream}/verify"), None, None).await;
    assert_eq!(report.status, 200, "{:#}", report.body);
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    assert_eq!(report.body["sealed_keys"], json!(["stream", "interval:2"]), "{:#}", report.body);
    let keys: Vec<&Value> = report.body["keys"].as_array().expect("keys").iter().map(|k| &k["key"]).collect();
    assert_eq!(keys, vec!["stream", "turn:1", "turn:2", "interval:0", "interval:1", "interval:2"]);
    let judged = app.request("GET", &format!("/v1/streams/{stream}/verify"), Some(&cast.judge), None).await;
    assert_eq!(judged.body["result"], "verified", "{:#}", judged.body);
    assert_eq!(judged.body["seed"], "sealed");
    app.stop().await;
}
