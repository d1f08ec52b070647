//! Commitments to a battle's hidden formulas (issue 14 item 2; docs/DICE.md "Commitments to
//! hidden formulas"): the judge sets non-default formulas, the battle is fought, and an anonymous
//! reader — with only the ledger, the revealed key and the opened commitment, and a ChaCha20
//! that is not the project's (crate::outsider) — checks the opening against the commitment
//! published before the first die and recomputes every draw and every outcome: size bonuses,
//! color bonuses, modified totals, pairs, winner, casualties and the kill attempt.

use herald_tests::{sample_battle, spawn_app, TestApp};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::outsider::{canonical_formulas, die, effective_seed, formula_commitment, hex32};
use crate::support::*;

/// Formulas unlike the defaults in every part (docs/rulesets/coalition-battle.md).
fn judges_formulas() -> Value {
    json!({
        "tie_rule": "higher_total",
        "size_formula": {"weighting": "troops", "scale": 15},
        "casualty_formula": {"base": 80, "per_pair_lost": 60, "per_margin": 7, "max": 700},
        "kill_formula": {"defence": 4, "damage_step": 50, "max_damage_bonus": 8, "overkill": 2, "capture_penalty": 3, "spare": 3},
        "joint_formula": {"size_formula": {"weighting": "troops", "scale": 6}, "casualty_percent": 150, "retreat_penalty": 1}
    })
}

/// A battle opened under `policy` (`None`: the default) with the server's own random seed, the
/// judge's formulas set, alice (side a) going for a kill, fought to its end.
async fn fight(app: &TestApp, cast: &Cast, policy: Option<&str>) -> Battle {
    let mut body = sample_battle(&in_a_day(), None);
    if let Some(policy) = policy {
        body["formula_opening"] = json!(policy);
    }
    let battle = create(app, &cast.judge, body).await;
    let set = json!({"type": "set_formulas", "options": judges_formulas(), "formula_salt": "00".repeat(32)});
    let retry = [("Idempotency-Key", "formulas-1")];
    let reply = app.request_with("POST", &battle.at("/actions"), Some(&cast.judge), Some(set.clone()), &retry).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    let salt = &events_of(&reply)[0]["data"]["formula_salt"];
    assert_ne!(salt, &json!("00".repeat(32)), "the service draws the salt, never the client");
    // A retry is the same request (the salt derives from its key): answered as the first time.
    let again = app.request_with("POST", &battle.at("/actions"), Some(&cast.judge), Some(set), &retry).await;
    assert_eq!(again.status, 200, "{:#}", again.body);
    assert_eq!(again.body["replayed"], true);
    assert_eq!(&events_of(&again)[0]["data"]["formula_salt"], salt);
    prepare_and_fight(app, cast, &battle).await;
    battle
}

fn num(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("a number: {value}"))
}

fn nums(value: &Value) -> Vec<u64> {
    value.as_array().unwrap_or_else(|| panic!("an array: {value}")).iter().map(num).collect()
}

/// The commitment in force when the first die was drawn: the last one published before it.
fn commitment_before_first_die(events: &[Value]) -> (usize, Value) {
    let first_roll =
        events.iter().position(|e| e["type"] == "coalition.BattleResolved").expect("the battle was resolved");
    events[..first_roll]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, e)| e["data"]["formula_commitment"].is_string())
        .map(|(index, e)| (index, e["data"]["formula_commitment"].clone()))
        .expect("a commitment was published before the first die")
}

/// The effective seed an outsider computes from the log: the revealed seed checked against its
/// commitment, mixed with the stream and the contributions (docs/DICE.md "Seeds").
fn tape_key(events: &[Value], stream: &str) -> [u8; 32] {
    let revealed = find(events, "coalition.SeedRevealed").expect("the seed is revealed at the end");
    let seed = hex32(&revealed["data"]["seed"]);
    assert_eq!(json!(hex::encode(Sha256::digest(seed))), events[0]["data"]["seed_commitment"]);
    let contributions: Vec<String> = events
        .iter()
        .filter(|e| e["type"] == "coalition.EntropyContributed")
        .map(|e| e["data"]["entropy"].as_str().expect("entropy").to_string())
        .collect();
    let key = effective_seed(&seed, stream, &contributions);
    assert_eq!(hex::encode(key), revealed["data"]["effective_seed"]);
    key
}

/// `round(scale × (larger − smaller) / larger)` half up, capped at 10, to the larger army.
fn size_bonuses(scale: u64, sizes: [u64; 2]) -> [u64; 2] {
    let bonus = |larger: u64, smaller: u64| ((2 * scale * (larger - smaller) + larger) / (2 * larger)).min(10);
    match sizes[0].cmp(&sizes[1]) {
        std::cmp::Ordering::Equal => [0, 0],
        std::cmp::Ordering::Greater => [bonus(sizes[0], sizes[1]), 0],
        std::cmp::Ordering::Less => [0, bonus(sizes[1], sizes[0])],
    }
}

/// +1 when every living slot shares a color (seed 003 §4.2.3).
fn color_bonus(army: &Value, troops: &[u64]) -> u64 {
    let living: Vec<&Value> =
        army["slots"].as_array().expect("slots").iter().zip(troops).filter(|(_, t)| **t > 0).map(|(s, _)| s).collect();
    let Some(first) = living.first() else { return 0 };
    let shared = first["colors"]
        .as_array()
        .expect("colors")
        .iter()
        .any(|color| living.iter().all(|slot| slot["colors"].as_array().expect("colors").contains(color)));
    u64::from(shared)
}

/// Recompute the whole battle from `formulas` (as opened) and the log; every number must equal
/// what the server recorded.
fn recompute_battle(events: &[Value], stream: &str, formulas: &Value) {
    let key = tape_key(events, stream);
    let created = &events[0]["data"];
    let resolved = &find(events, "coalition.BattleResolved").expect("resolved")["data"];
    let kill = &find(events, "coalition.KillAttempted").expect("alice's kill attempt")["data"];
    let sides = ["a", "b"];
    let entered: Vec<Vec<u64>> = sides
        .iter()
        .map(|side| {
            created["armies"][side]["slots"].as_array().expect("slots").iter().map(|s| num(&s["troops"])).collect()
        })
        .collect();
    // The kill squad sits out the battle (seed 003 §4.3.3): side a fights without it.
    let risked = nums(&kill["risked"]);
    let fighting: Vec<Vec<u64>> =
        vec![entered[0].iter().zip(&risked).map(|(troops, out)| troops - out).collect(), entered[1].clone()];

    // Size bonus (the opened size formula weighs troops here) and color bonus.
    assert_eq!(formulas["size_formula"]["weighting"], "troops");
    let sizes = [fighting[0].iter().sum(), fighting[1].iter().sum()];
    let size = size_bonuses(num(&formulas["size_formula"]["scale"]), sizes);
    let mut modifiers = [0u64; 2];
    for (i, side) in sides.iter().enumerate() {
        let bonuses = &resolved["bonuses"][side];
        assert_eq!(num(&bonuses["size"]), size[i], "side {side}'s size bonus");
        assert_eq!(num(&bonuses["color"]), color_bonus(&created["armies"][side], &fighting[i]), "side {side}'s color");
        modifiers[i] = num(&bonuses["strategy"]) + size[i] + num(&bonuses["color"]);
    }
    assert_eq!([num(&resolved["bonuses"]["a"]["strategy"]), num(&resolved["bonuses"]["b"]["strategy"])], [7, 4]);

    // Every d20 from the tape, and its modified total.
    let mut totals = [Vec::new(), Vec::new()];
    for (i, side) in sides.iter().enumerate() {
        for die_recorded in resolved["dice"][side].as_array().expect("four dice") {
            let draw = &die_recorded["draw"];
            let face = u64::from(die(&key, num(&draw["word"]), 20));
            assert_eq!(face, num(&draw["value"]), "{draw}");
            assert_eq!(num(&die_recorded["total"]), face + modifiers[i], "side {side}'s modified total");
            totals[i].push(face + modifiers[i]);
        }
    }

    // Pairs, pairs won and the winner (tie rule: higher total, then a roll-off).
    let pairs: Vec<&str> = totals[0]
        .iter()
        .zip(&totals[1])
        .map(|(a, b)| match a.cmp(b) {
            std::cmp::Ordering::Greater => "a",
            std::cmp::Ordering::Less => "b",
            std::cmp::Ordering::Equal => "tie",
        })
        .collect();
    assert_eq!(resolved["pairs"], json!(pairs));
    let won = |side: &str| pairs.iter().filter(|p| **p == side).count() as u64;
    assert_eq!([num(&resolved["pairs_won"]["a"]), num(&resolved["pairs_won"]["b"])], [won("a"), won("b")]);
    let sums = [totals[0].iter().sum::<u64>(), totals[1].iter().sum::<u64>()];
    let winner = match (won("a").cmp(&won("b")), sums[0].cmp(&sums[1])) {
        (std::cmp::Ordering::Greater, _) => "a",
        (std::cmp::Ordering::Less, _) => "b",
        (_, std::cmp::Ordering::Greater) => "a",
        (_, std::cmp::Ordering::Less) => "b",
        _ => {
            // Equal pairs and equal sums: the last roll-off round decides; recompute each die.
            let rounds = resolved["tie_break"]["roll_off"].as_array().expect("a roll-off");
            let mut last = "a";
            for round in rounds {
                let [a, b] = [("a", 0), ("b", 1)].map(|(side, i)| {
                    let draw = &round[side]["draw"];
                    let face = u64::from(die(&key, num(&draw["word"]), 20));
                    assert_eq!(face, num(&draw["value"]));
                    assert_eq!(num(&round[side]["total"]), face + modifiers[i]);
                    face + modifiers[i]
                });
                last = if a > b {
                    "a"
                } else if b > a {
                    "b"
                } else {
                    last
                };
            }
            last
        }
    };
    assert_eq!(resolved["winner"], winner);
    if resolved["tie_break"].is_null() {
        assert!(won("a") != won("b"), "no tie break without a tie");
    }

    // Casualties (seed 003 §4.2.5): the opened casualty formula on the pairs each side lost.
    let c = &formulas["casualty_formula"];
    let mut losses = Vec::new();
    for (i, side) in sides.iter().enumerate() {
        let (mut count, mut margin) = (0, 0);
        for (mine, theirs) in totals[i].iter().zip(&totals[1 - i]) {
            if theirs > mine {
                count += 1;
                margin += theirs - mine;
            }
        }
        let rate = (num(&c["base"]) + num(&c["per_pair_lost"]) * count + num(&c["per_margin"]) * margin)
            .min(num(&c["max"]))
            .min(1000);
        let recorded = &resolved["casualties"][side];
        assert_eq!(num(&recorded["rate_tenths_percent"]), rate, "side {side}'s casualty rate");
        let lost: Vec<u64> = fighting[i].iter().map(|troops| troops * rate / 1000 / 10 * 10).collect();
        assert_eq!(nums(&recorded["losses"]), lost, "side {side}'s losses");
        losses.push(lost);
    }

    // The kill attempt (seed 003 §4.3.3–4.3.4) under the opened kill formula.
    let k = &formulas["kill_formula"];
    let spared_on = |spare: &Value| {
        let face = u64::from(die(&key, num(&spare["word"]), 20));
        assert_eq!(face, num(&spare["value"]));
        face > 20 - num(&k["spare"])
    };
    if winner == "a" {
        // Top rank: the slots of the largest power + toughness (the sample's slots have no rank).
        let top = |army: &Value| -> Vec<usize> {
            let keys: Vec<u64> = army["slots"]
                .as_array()
                .expect("slots")
                .iter()
                .map(|s| num(&s["power"]) + num(&s["toughness"]))
                .collect();
            let max = keys.iter().copied().max().unwrap_or(0);
            keys.iter().enumerate().filter(|(_, k)| **k == max).map(|(i, _)| i).collect()
        };
        let left = |troops: &[u64], lost: &[u64]| -> Vec<u64> { troops.iter().zip(lost).map(|(t, l)| t - l).collect() };
        let (mine, theirs) = (left(&entered[0], &losses[0]), left(&fighting[1], &losses[1]));
        let top_a: u64 = top(&created["armies"]["a"]).iter().map(|i| mine[*i]).sum();
        let top_b: u64 = top(&created["armies"]["b"]).iter().map(|i| theirs[*i]).sum();
        let lost_tenths = losses[1].iter().sum::<u64>() * 1000 / fighting[1].iter().sum::<u64>();
        let damage = (lost_tenths / num(&k["damage_step"])).min(num(&k["max_damage_bonus"]));
        let attack = damage + if top_a > top_b { num(&k["overkill"]) } else { 0 };
        let defence = num(&k["defence"]);
        let mut rolled = Vec::new();
        for (roll, modifier) in [("attacker_roll", attack), ("target_roll", defence)] {
            let draw = &kill[roll]["draw"];
            let face = u64::from(die(&key, num(&draw["word"]), 20));
            assert_eq!(face, num(&draw["value"]), "{roll}");
            assert_eq!(num(&kill[roll]["modifier"]), modifier, "{roll}'s modifier");
            assert_eq!(num(&kill[roll]["total"]), face + modifier, "{roll}'s total");
            rolled.push(face + modifier);
        }
        let succeeded = rolled[0] > rolled[1];
        if succeeded {
            assert_eq!(kill["outcome"], "succeeded");
        } else {
            assert_eq!(kill["outcome"], "failed");
            let spared = spared_on(&kill["spare"]);
            assert_eq!(nums(&kill["risked_lost"]), if spared { vec![0; risked.len()] } else { risked.clone() });
        }
    } else {
        assert_eq!(kill["outcome"], "battle_lost");
        let spared = spared_on(&kill["spare"]);
        assert_eq!(nums(&kill["risked_lost"]), if spared { vec![0; risked.len()] } else { risked.clone() });
    }
}

// seed 003 §4.2.2, §4.2.5, §4.3.3: secret formulas, committed before the dice, opened at the end
#[tokio::test]
async fn an_anonymous_reader_recomputes_every_outcome_once_the_committed_formulas_open() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let mut body = sample_battle(&in_a_day(), None);
    body["formula_opening"] = json!("open_at_end");
    // Before the end nobody but the judge sees the formulas; the commitment is public.
    let battle = create(&app, &cast.judge, body).await;
    let set = json!({"type": "set_formulas", "options": judges_formulas()});
    ok(&app, &battle.at("/actions"), &cast.judge, set).await;
    let early = stream_events(&app, &battle.stream, None).await;
    for event in &early {
        let data = &event["data"];
        if data.get("formula_commitment").is_some() {
            let commitment = data["formula_commitment"].as_str().expect("a public commitment");
            assert!(commitment.len() == 64 && commitment.bytes().all(|b| b.is_ascii_hexdigit()), "{data}");
            assert_eq!(data["formula_salt"], "hidden", "{data}");
        }
    }
    assert_eq!(find(&early, "coalition.FormulasSet").expect("set")["data"]["options"], "hidden");
    assert_problem(&app.request("GET", &battle.at("/formulas"), None, None).await, 401, "unauthenticated");
    let view = app.request("GET", &battle.path(), Some(&cast.bob), None).await;
    assert_eq!(view.body["formulas"], Value::Null);
    assert_eq!(view.body["formula_opening"], "open_at_end");

    // The battle is fought.
    prepare_and_fight(&app, &cast, &battle).await;

    // An anonymous reader, with the log alone.
    let events = stream_events(&app, &battle.stream, None).await;
    let (at, commitment) = commitment_before_first_die(&events);
    let set = &events[at]["data"];
    assert_eq!(events[at]["type"], "coalition.FormulasSet", "the judge's formulas are the ones in force");
    let salt = set["formula_salt"].as_str().expect("the salt is open once the battle ended");
    let canonical = canonical_formulas(&set["options"]);
    assert_eq!(json!(formula_commitment(salt, &canonical)), commitment, "the opening matches the commitment");
    assert_eq!(set["options"], judges_formulas(), "the formulas opened are the judge's");
    recompute_battle(&events, &battle.stream, &set["options"]);
    // The dice ledger lists every draw of the log, each recomputed from the key it names, and
    // docs/verify_dice.py agrees.
    let draws = crate::dice::ledger(&app, &battle.stream).await;
    let keys = [("stream".to_string(), tape_key(&events, &battle.stream))].into_iter().collect();
    let mut in_events = Vec::new();
    events.iter().for_each(|event| crate::outsider::draws_in(&event["data"], &mut in_events));
    assert_eq!(crate::dice::check_ledger(&draws, &keys, &events), in_events.len());
    assert!(in_events.len() >= 9, "eight d20 and the kill's dice: {in_events:?}");
    crate::dice::verify_with_script("battle", &events, &draws);
    // The view and the opening endpoint agree with the log, for anyone.
    let opening = app.request("GET", &battle.at("/formulas"), None, None).await;
    assert_eq!(opening.status, 200, "{:#}", opening.body);
    assert_eq!(opening.body["commitment"], commitment);
    assert_eq!(opening.body["canonical"], json!(canonical));
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["formulas"]["commitment"], commitment);
    assert!(view.body["sides"]["a"]["size_bonus"].is_u64(), "{:#}", view.body);
    let report = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    assert_eq!(commitment_statuses(&report.body), ["opened_matches", "opened_matches"], "{:#}", report.body);
    app.stop_now().await;
}

/// The status of each formula commitment in a verify report, in stream order.
fn commitment_statuses(report: &Value) -> Vec<String> {
    report["formula_commitments"]
        .as_array()
        .unwrap_or_else(|| panic!("formula_commitments: {report:#}"))
        .iter()
        .map(|c| c["status"].as_str().expect("status").to_string())
        .collect()
}

/// Entropy, strategies (alice going for a kill), bonuses 7 and 4, resolution.
async fn prepare_and_fight(app: &TestApp, cast: &Cast, battle: &Battle) {
    ok(app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "alice 5e1f"})).await;
    ok(app, &battle.at("/entropy"), &cast.bob, json!({"entropy": "bob c0de"})).await;
    let kill = json!({"side": "a", "strategy": STRATEGY_A, "attempt": {"kind": "kill"}});
    ok(app, &battle.at("/strategies"), &cast.alice, kill).await;
    ok(app, &battle.at("/strategies"), &cast.bob, json!({"side": "b", "strategy": STRATEGY_B})).await;
    ok(app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "a", "bonus": 7})).await;
    ok(app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "b", "bonus": 4})).await;
    resolve(app, cast, battle).await;
}

// seed 003 §4.2.2: "that formula is secret and known only to the judge" — the default
#[tokio::test]
async fn under_the_secret_default_the_judge_shows_the_opening_and_anyone_checks_it() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = fight(&app, &cast, None).await;

    // The battle has ended; a reader still sees only the commitment.
    let events = stream_events(&app, &battle.stream, None).await;
    let (at, commitment) = commitment_before_first_die(&events);
    assert_eq!(events[at]["data"]["options"], "hidden");
    assert_eq!(events[at]["data"]["formula_salt"], "hidden");
    let resolved = &find(&events, "coalition.BattleResolved").expect("resolved")["data"];
    assert_eq!(resolved["bonuses"]["a"]["size"], "hidden");
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["formula_opening"], "secret");
    assert_eq!(view.body["formulas"], Value::Null);
    assert_eq!(view.body["formula_commitment"], commitment);
    assert_problem(&app.request("GET", &battle.at("/formulas"), None, None).await, 401, "unauthenticated");
    let refused = app.request("GET", &battle.at("/formulas"), Some(&cast.bob), None).await;
    assert_rule(&refused, 403, "coalition.battle.formulas_sealed", "seed 003 §4.2.2");
    let unknown =
        app.request("GET", "/v1/battles/00000000-0000-7000-8000-000000000000/formulas", Some(&cast.judge), None);
    assert_problem(&unknown.await, 404, "not_found");

    // On dispute the judge shows the opening; bob checks it against the log by hand.
    let opening = app.request("GET", &battle.at("/formulas"), Some(&cast.judge), None).await;
    assert_eq!(opening.status, 200, "{:#}", opening.body);
    let shown = &opening.body;
    assert_eq!(shown["commitment"], commitment, "the opening names the commitment in the log");
    let salt = shown["salt"].as_str().expect("salt");
    let canonical = shown["canonical"].as_str().expect("canonical text");
    assert_eq!(json!(formula_commitment(salt, canonical)), commitment, "sha256 of the opening is the commitment");
    assert_eq!(canonical, canonical_formulas(&shown["formulas"]), "the canonical text is of the formulas shown");
    assert_eq!(shown["formulas"]["size_formula"], judges_formulas()["size_formula"]);
    // A forged opening does not match.
    let mut forged = shown["formulas"].clone();
    forged["size_formula"]["scale"] = json!(10);
    assert_ne!(json!(formula_commitment(salt, &canonical_formulas(&forged))), commitment);
    // With the opening every outcome is recomputed as under open_at_end (from the judge's
    // record: under `secret` the modified totals stay the judge's, seed 003 §4.2.2).
    let judged = stream_events(&app, &battle.stream, Some(&cast.judge)).await;
    recompute_battle(&judged, &battle.stream, &shown["formulas"]);
    opening_checked_by_script(shown, &events);
    // `verify` checks the commitments for a judge, and tells anyone else only that they are sealed.
    let report = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    assert_eq!(commitment_statuses(&report.body), ["sealed", "sealed"]);
    let report = app.request("GET", &battle.at("/verify"), Some(&cast.judge), None).await;
    assert_eq!(commitment_statuses(&report.body), ["opened_matches", "opened_matches"]);
    app.stop_now().await;
}

/// docs/verify_dice.py --opening on the opening and the reader's events (skipped without
/// python3): exit status 0 when it matches the commitment, 1 for a forged one.
fn opening_checked_by_script(opening: &Value, events: &[Value]) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (opening_file, events_file, forged_file) =
        (dir.path().join("opening.json"), dir.path().join("events.json"), dir.path().join("forged.json"));
    std::fs::write(&opening_file, serde_json::to_vec(opening).expect("json")).expect("written");
    std::fs::write(&events_file, serde_json::to_vec(events).expect("json")).expect("written");
    let mut forged = opening.clone();
    forged["canonical"] =
        json!(opening["canonical"].as_str().expect("canonical").replace("\"scale\":15", "\"scale\":10"));
    std::fs::write(&forged_file, serde_json::to_vec(&forged).expect("json")).expect("written");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/verify_dice.py");
    let run = |file: &std::path::Path| {
        std::process::Command::new("python3")
            .arg(script)
            .arg("--opening")
            .arg(file)
            .arg("--events")
            .arg(&events_file)
            .output()
    };
    let Ok(output) = run(&opening_file) else {
        eprintln!("python3 is not installed: docs/verify_dice.py --opening not run");
        return;
    };
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{printed}{}", String::from_utf8_lossy(&output.stderr));
    assert!(printed.contains("MATCHES"), "{printed}");
    let forged = run(&forged_file).expect("python3 ran once");
    assert!(!forged.status.success(), "a forged opening is refused: {}", String::from_utf8_lossy(&forged.stdout));
}

// seed 003 §4.2.2 read by a referee who publishes the formulas after each battle: a campaign
// option passed to the battles it opens
#[tokio::test]
async fn a_campaign_passes_its_formula_opening_to_the_battles_it_opens() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let options =
        json!({"enforce_army_counts": false, "enforce_site_counts": false, "battle_formula_opening": "open_at_end"});
    let id = crate::dice::create_campaign_with(&app, &cast, options).await;
    let orders = [("alice", "Sai Rei: 5E > 7F"), ("bob", "Plague Host: 9E > 7F")];
    let adjudicated = crate::dice::turn(&app, &cast, &id, &orders).await;
    let announced = crate::dice::events_of(&adjudicated, "coalition.BattleAnnounced");
    let battle = announced[0]["data"]["battle"].as_str().expect("a battle").to_string();
    let events = stream_events(&app, &battle, None).await;
    let created = &events[0]["data"];
    assert_eq!(created["formula_opening"], "open_at_end", "{created:#}");
    assert!(created["formula_commitment"].is_string(), "the campaign's battle commits to its formulas: {created:#}");
    assert_eq!(created["formula_salt"], "hidden");
    app.stop_now().await;
}

/// Change the stored `coalition.FormulasSet`'s size-formula scale behind the server's back.
fn tamper_with_formulas(data_dir: &std::path::Path) {
    use herald_store::codec::{decode_event, encode_event, EVENTS_TREE};
    let db = sled::open(data_dir).expect("the data directory opens once the server stopped");
    let events = db.open_tree(EVENTS_TREE).expect("the events tree");
    for entry in events.iter() {
        let (key, bytes) = entry.expect("an entry");
        let mut event = decode_event(&bytes).expect("a stored event decodes");
        if event.event_type != "coalition.FormulasSet" {
            continue;
        }
        let mut data = event.data.to_value();
        *data.pointer_mut("/options/size_formula/scale").expect("a scale") = json!(10);
        event.data = data.into();
        events.insert(key, encode_event(&event)).expect("written back");
        db.flush().expect("flushed");
        return;
    }
    panic!("no coalition.FormulasSet event stored");
}

// docs/DICE.md "Commitments to hidden formulas": a formula changed after its commitment
#[tokio::test]
async fn formulas_changed_in_the_database_no_longer_match_their_commitment() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = fight(&app, &cast, Some("open_at_end")).await;
    let data_dir = app.data_dir.clone();
    let dir = app.stop().await;
    // The store's writer thread releases sled's lock when it is dropped; give it a moment.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    tamper_with_formulas(&data_dir);
    std::fs::remove_dir_all(data_dir.join("read-models")).expect("the saved read models removed");
    let app = herald_tests::spawn_app_in(&data_dir).await;

    let report = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(report.body["result"], "differs", "{:#}", report.body);
    assert_eq!(commitment_statuses(&report.body), ["opened_matches", "opened_differs"]);
    assert_eq!(report.body["first_difference"]["event_type"], "coalition.FormulasSet");
    // The outsider's own check finds it too.
    let events = stream_events(&app, &battle.stream, None).await;
    let (at, commitment) = commitment_before_first_die(&events);
    let set = &events[at]["data"];
    let salt = set["formula_salt"].as_str().expect("salt");
    assert_ne!(json!(formula_commitment(salt, &canonical_formulas(&set["options"]))), commitment);
    app.stop().await;
    drop(dir);
}
