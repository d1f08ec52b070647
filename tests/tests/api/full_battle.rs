//! A whole battle over HTTP: create, entropy, sealed strategies, bonuses, resolution, the seed
//! revealed, verification — and an outsider recomputing the dice from the published events.

use herald_tests::{sample_battle, spawn_app};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::*;

/// A d20 from the tape keyed by `key`, starting at output word `word` (docs/DICE.md "Deriving a
/// die"): reject words at or above the largest multiple of 20 below 2^32.
fn d20_at(key: [u8; 32], word: u64) -> u32 {
    let mut rng = ChaCha20Rng::from_seed(key);
    rng.set_word_pos(u128::from(word));
    let limit = (1u64 << 32) - (1u64 << 32) % 20;
    loop {
        let w = rng.next_u32();
        if u64::from(w) < limit {
            return 1 + w % 20;
        }
    }
}

fn bytes32(hex_text: &str) -> [u8; 32] {
    hex::decode(hex_text).expect("hex").try_into().expect("32 bytes")
}

// seed 003 §4.1.1 (sealed strategies), §4.2.1–4.2.4 (bonuses, four d20 per side), docs/DICE.md
#[tokio::test]
async fn a_full_battle_is_played_over_http_and_an_outsider_can_check_every_die() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;

    // Create: 201, Location, ETag, the commitment in coalition.BattleCreated.
    let battle = create(&app, &cast.judge, sample_battle(&in_a_day(), Some(SEED))).await;
    assert_eq!(battle.created.header("location"), Some(battle.path()));
    let version = battle.created.body["version"].as_u64().expect("a version");
    assert_eq!(battle.created.header("etag"), Some(format!("\"{version}\"")));
    assert_eq!(battle.created.body["replayed"], false);
    let created = events_of(&battle.created);
    let opened = find(&created, "coalition.BattleCreated").expect("coalition.BattleCreated");
    assert_eq!(opened["data"]["seed_commitment"], COMMITMENT);
    assert_eq!(opened["version"], 0);

    // Entropy and strategies.
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "alice's lucky string 7f3a"})).await;
    ok(&app, &battle.at("/entropy"), &cast.bob, json!({"entropy": "bob rolls for the Host"})).await;
    let submitted =
        ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;
    assert_eq!(events_of(&submitted)[0]["data"]["strategy"], STRATEGY_A, "alice sees her own strategy echoed");
    ok(&app, &battle.at("/strategies"), &cast.bob, json!({"side": "b", "strategy": STRATEGY_B})).await;

    // seed 003 §4.1.1: the other side's strategy is sealed until the battle is resolved.
    let peek = app.request("GET", &battle.at("/strategies/a"), Some(&cast.bob), None).await;
    assert_rule(&peek, 403, "coalition.battle.strategy_sealed", "seed 003 §4.1.1");
    let peek = app.request("GET", &battle.at("/strategies/a"), Some(&cast.observer), None).await;
    assert_problem(&peek, 403, "coalition.battle.strategy_sealed");
    let peek = app.request("GET", &battle.at("/strategies/b"), None, None).await;
    assert_problem(&peek, 403, "coalition.battle.strategy_sealed");
    let own = app.request("GET", &battle.at("/strategies/a"), Some(&cast.alice), None).await;
    assert_eq!(own.status, 200, "{:#}", own.body);
    assert_eq!(own.body["strategy"], STRATEGY_A);
    assert_eq!(own.body["side"], "a");
    let judged = app.request("GET", &battle.at("/strategies/b"), Some(&cast.judge), None).await;
    assert_eq!(judged.body["strategy"], STRATEGY_B);

    // The battle as bob sees it: side a's strategy hidden, no size bonus.
    let as_bob = app.request("GET", &battle.path(), Some(&cast.bob), None).await;
    assert_eq!(as_bob.status, 200);
    assert_eq!(as_bob.body["sides"]["a"]["strategy"], Value::Null);
    assert_eq!(as_bob.body["sides"]["a"]["strategy_submitted"], true);
    assert_eq!(as_bob.body["sides"]["b"]["strategy"], STRATEGY_B);
    assert_eq!(as_bob.body["sides"]["a"]["size_bonus"], Value::Null);
    assert_eq!(as_bob.body["seed"], Value::Null, "the seed is sealed");
    assert_eq!(as_bob.body["seed_commitment"], COMMITMENT);
    // ... and the stored event of side a's strategy is redacted for bob too.
    let bob_events = stream_events(&app, &battle.stream, Some(&cast.bob)).await;
    let a_strategy =
        bob_events.iter().find(|e| e["data"]["type"] == "coalition.StrategySubmitted" && e["data"]["side"] == "a");
    assert_eq!(a_strategy.expect("side a's strategy event")["data"]["strategy"], "hidden");
    let as_judge = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(as_judge.body["sides"]["a"]["strategy"], STRATEGY_A);
    assert_eq!(as_judge.body["sides"]["b"]["strategy"], STRATEGY_B);

    // seed 003 §4.2.1: the judge grades both strategies.
    ok(&app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "a", "bonus": 7, "note": "terrain"})).await;
    ok(&app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "b", "bonus": 4})).await;

    // seed 003 §4.2.4: four d20 per side, each recorded with its tape word.
    let resolved = resolve(&app, &cast, &battle).await;
    let resolved_events = events_of(&resolved);
    let resolution = find(&resolved_events, "coalition.BattleResolved").expect("coalition.BattleResolved");
    let mut draws = Vec::new();
    for side in ["a", "b"] {
        let dice = resolution["data"]["dice"][side].as_array().expect("dice");
        assert_eq!(dice.len(), 4, "four d20 for side {side}");
        for (i, die) in dice.iter().enumerate() {
            let draw = &die["draw"];
            assert_eq!(draw["sides"], 20);
            let value = draw["value"].as_u64().expect("value");
            assert!((1..=20).contains(&value), "{draw}");
            assert!(draw["word"].is_u64(), "{draw}");
            assert_eq!(draw["purpose"], format!("side {side} die {}", i + 1));
            draws.push(draw.clone());
        }
    }
    assert_eq!(draws.len(), 8);
    // seed 003 §4.2.2–4.2.3: b is larger (30000 vs 20000 weighted: +3) and all black (+1).
    assert_eq!(resolution["data"]["bonuses"]["b"], json!({"strategy": 4, "size": 3, "color": 1}));
    assert_eq!(resolution["data"]["bonuses"]["a"], json!({"strategy": 7, "size": 0, "color": 0}));
    let winner = resolution["data"]["winner"].as_str().expect("a winner").to_string();
    // The battle ended: the answer also carries the seed the service revealed in consequence.
    let types: Vec<&str> = resolved_events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types, ["coalition.BattleResolved", "coalition.SeedRevealed"]);
    assert_eq!(resolved.body["version"], resolved_events[1]["version"]);

    // The seed is revealed by the service once the battle ended.
    let events = stream_events(&app, &battle.stream, None).await;
    let revealed = find(&events, "coalition.SeedRevealed").expect("coalition.SeedRevealed");
    assert_eq!(revealed["data"]["seed"], SEED);
    assert_eq!(revealed["actor"], "system");
    let versions: Vec<u64> = events.iter().map(|e| e["version"].as_u64().expect("version")).collect();
    assert_eq!(versions, (0..events.len() as u64).collect::<Vec<_>>(), "versions are gap-free from 0");

    // Everyone may read the strategies now.
    for token in [Some(cast.bob.as_str()), Some(cast.observer.as_str()), None] {
        let read = app.request("GET", &battle.at("/strategies/a"), token, None).await;
        assert_eq!(read.status, 200, "{:#}", read.body);
        assert_eq!(read.body["strategy"], STRATEGY_A);
    }
    let as_bob = app.request("GET", &battle.path(), Some(&cast.bob), None).await;
    assert_eq!(as_bob.body["status"], "resolved");
    assert_eq!(as_bob.body["winner"], winner.as_str());
    assert_eq!(as_bob.body["seed"], SEED);
    assert_eq!(as_bob.body["sides"]["a"]["strategy"], STRATEGY_A);
    assert_eq!(as_bob.body["sides"]["b"]["size_bonus"], Value::Null, "seed 003 §4.2.2: the size bonus stays secret");
    assert_eq!(as_bob.body["result"]["totals"], Value::Null);
    let as_judge = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(as_judge.body["sides"]["b"]["size_bonus"], 3);
    // Observers see the dice but not the totals the size bonus enters.
    let observed = stream_events(&app, &battle.stream, Some(&cast.observer)).await;
    let observed_resolution = find(&observed, "coalition.BattleResolved").expect("resolution");
    assert_eq!(observed_resolution["data"]["bonuses"]["b"]["size"], "hidden");
    assert_eq!(observed_resolution["data"]["dice"]["a"][0]["total"], "hidden");
    assert_eq!(observed_resolution["data"]["dice"]["a"][0]["draw"], draws[0]);

    // Anyone may verify.
    let verified = app.request("GET", &battle.at("/verify"), Some(&cast.observer), None).await;
    assert_eq!(verified.status, 200, "{:#}", verified.body);
    assert_eq!(verified.body["verified"], true, "{:#}", verified.body);
    assert_eq!(verified.body["result"], "verified");
    assert_eq!(verified.body["seed"], "revealed");
    assert_eq!(verified.body["first_difference"], Value::Null);
    assert_eq!(verified.body["events_checked"].as_u64(), Some(events.len() as u64));
    let by_stream = app.request("GET", &format!("/v1/streams/{}/verify", battle.stream), None, None).await;
    assert_eq!(by_stream.body["verified"], true, "{:#}", by_stream.body);

    // An outsider checks the dice with nothing but the events and docs/DICE.md.
    let seed = bytes32(revealed["data"]["seed"].as_str().expect("seed"));
    let commitment: [u8; 32] = Sha256::digest(seed).into();
    let published = find(&events, "coalition.BattleCreated").expect("created")["data"]["seed_commitment"].clone();
    assert_eq!(Value::String(hex::encode(commitment)), published, "the revealed seed hashes to the commitment");
    let mut hasher = Sha256::new();
    hasher.update(seed);
    hasher.update(Sha256::digest(battle.stream.as_bytes()));
    let contributions: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "coalition.EntropyContributed")
        .filter_map(|e| e["data"]["entropy"].as_str())
        .collect();
    assert_eq!(contributions, ["alice's lucky string 7f3a", "bob rolls for the Host"]);
    for contribution in &contributions {
        hasher.update(Sha256::digest(contribution.as_bytes()));
    }
    let effective: [u8; 32] = hasher.finalize().into();
    assert_eq!(revealed["data"]["effective_seed"], hex::encode(effective));
    assert_eq!(draws[0]["word"], 0, "the first die of the battle is the tape's first word");
    for draw in &draws {
        let word = draw["word"].as_u64().expect("word");
        assert_eq!(u64::from(d20_at(effective, word)), draw["value"].as_u64().expect("value"), "{draw}");
    }

    // After the end, nothing changes the battle (except overrides and the reveal).
    let late = app
        .request(
            "POST",
            &battle.at("/strategies"),
            Some(&cast.alice),
            Some(json!({"side": "a", "strategy": "retreat"})),
        )
        .await;
    assert_problem(&late, 422, "coalition.battle.already_ended");
    app.stop().await;
}

// seed 003 §4.2.5 (casualties), §4.2.6 (the judge may modify the battle process)
#[tokio::test]
async fn a_judge_overrides_casualties_after_resolution_and_the_battle_still_verifies() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let early = app
        .request(
            "POST",
            &battle.at("/casualties"),
            Some(&cast.judge),
            Some(json!({"side": "b", "losses": [900, 100], "reason": "volley"})),
        )
        .await;
    assert_rule(&early, 422, "coalition.battle.not_resolved", "seed 003 §4.2.5");
    prepare(&app, &cast, &battle).await;
    resolve(&app, &cast, &battle).await;
    let body = json!({"side": "b", "losses": [900, 100], "reason": "the Broodlings walked into the volley"});
    let by_player = app.request("POST", &battle.at("/casualties"), Some(&cast.alice), Some(body.clone())).await;
    assert_problem(&by_player, 403, "coalition.battle.judge_only");
    let too_many = app
        .request(
            "POST",
            &battle.at("/casualties"),
            Some(&cast.judge),
            Some(json!({"side": "b", "losses": [5001, 0], "reason": "x"})),
        )
        .await;
    assert_rule(&too_many, 422, "coalition.battle.losses_exceed_troops", "seed 003 §4.2.5");
    let overridden = ok(&app, &battle.at("/casualties"), &cast.judge, body).await;
    assert_eq!(events_of(&overridden)[0]["type"], "coalition.CasualtiesOverridden");
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["sides"]["b"]["troops_after"], json!([4100, 2400]));
    let verified = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(verified.body["verified"], true, "{:#}", verified.body);
    app.stop().await;
}
