//! A coalition round over real HTTP with everything a round needs after chapter 3 (seed 003): a
//! control change at the movement lock (§5.4.2), a capture (§4.5), a kill (§4.3.2–4.3.4), a joint
//! battle with its named departure (§4.4), a vote (§1.4) and a raider spawn (§6.3.2), with the
//! refusals answered as problem+json naming code and rule, hidden formulas never shown to players,
//! and the whole campaign verified by replay.
//!
//! The battles are made certain by the judge's formulas for each battle (configurable per battle):
//! a size bonus of 10 for the larger side and a kill formula no d20 can resist, so the attacker's
//! every die beats the defender's and each attempt succeeds.

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::{assert_rule, in_a_day};

fn red_army(name: &str, rank: &str, troops: [u32; 4]) -> Value {
    let line = |creature: &str, size: u32, slot: u32, full: u32, left: u32| json!({"creature": creature, "colors": ["red"], "power": size, "toughness": size, "slot": slot, "full": full, "troops": left});
    json!({
        "name": name, "team": "coalition", "rank": rank, "creator": null, "colors": ["red", "green", "blue"], "legend": null,
        "troops": [line("Kris Mage", 1, 0, 5000, troops[0]), line("Goblin Chieftain", 2, 1, 2500, troops[1]),
                   line("Hill Giant", 3, 2, 1500, troops[2]), line("Shivan Dragon", 5, 3, 1000, troops[3])]
    })
}

fn black_army(name: &str, team: &str, rank: &str, troops: u32) -> Value {
    json!({
        "name": name, "team": team, "rank": rank, "creator": null, "colors": [], "legend": null,
        "troops": [{"creature": "Phyrexian Broodling", "colors": ["black"], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": troops}]
    })
}

fn entry(army: Value, controller: &str, square: &str) -> Value {
    json!({"army": army, "controllers": [controller], "start": {"by": "square", "square": square}})
}

fn coalition_player(name: &str, rank: &str) -> Value {
    let leader = matches!(rank, "general" | "admiral");
    if leader {
        json!({"name": name, "team": "coalition", "rank": rank, "factions": []})
    } else {
        json!({"name": name, "team": "coalition", "rank": rank, "factions": ["red", "green", "blue"], "rank_faction": "red"})
    }
}

fn phyrexian(name: &str, rank: &str) -> Value {
    json!({"name": name, "team": "phyrexia", "rank": rank})
}

const FULL: [u32; 4] = [5000, 2500, 1500, 1000];

fn setup() -> Value {
    json!({
        "name": "Round 12",
        "map": {"bounds": {"columns": 14, "rows": 38}, "default_terrain": "plains",
                "sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"}, "win_condition": true},
                          "5K": {"name": "Portal of Rath", "square": "5K", "kind": {"kind": "portal"}, "win_condition": true},
                          "35H": {"name": "Benalia", "square": "35H", "kind": {"kind": "town"}}}},
        "players": [coalition_player("gerrard", "general"), coalition_player("hanna", "admiral"),
                    coalition_player("sisay", "captain"), coalition_player("tahngarth", "lt_commander"),
                    coalition_player("orim", "lt_commander"), phyrexian("yawgmoth", "chief_praetor"),
                    phyrexian("crovax", "evincar"), phyrexian("rag", "cpl"), phyrexian("vorn", "cpl")],
        "armies": [
            entry(red_army("Gerrard", "chief_praetor_general", FULL), "gerrard", "30A"),
            entry(black_army("Yawgmoth", "phyrexia", "chief_praetor_general", 5000), "yawgmoth", "3A"),
            entry(red_army("Sisay", "evincar_captain", FULL), "sisay", "28A"),
            entry(red_army("Sai Rei", "cpl_lt_commander", FULL), "tahngarth", "10D"),
            entry(black_army("Plague Host", "phyrexia", "cpl_lt_commander", 2000), "rag", "10E"),
            entry(red_army("Barrin", "cpl_lt_commander", FULL), "orim", "20D"),
            entry(black_army("Vorn", "phyrexia", "cpl_lt_commander", 400), "vorn", "20E"),
            entry(red_army("Tahngarth", "cpl_lt_commander", FULL), "tahngarth", "15E"),
            entry(red_army("Orim", "cpl_lt_commander", FULL), "orim", "15I"),
            entry(black_army("Dauthi", "phyrexia", "cpl_lt_commander", 2000), "crovax", "15G"),
            entry(red_army("Proxy", "cpl_lt_commander", FULL), "sisay", "25F")
        ],
        "mercenaries": [
            {"faction": "town_defender", "army": black_army("Benalish Guard", "mercenary", "cpl_lt_commander", 5000),
             "start": {"by": "square", "square": "35H"}},
            {"faction": "raider", "army": black_army("Raider 1", "mercenary", "centurion_lieutenant", 5000),
             "start": {"by": "square", "square": "38N"}}
        ],
        "options": {"enforce_army_counts": false, "enforce_site_counts": false}
    })
}

struct Round<'a> {
    app: &'a TestApp,
    id: String,
    judge: String,
    tokens: std::collections::BTreeMap<&'static str, String>,
}

impl Round<'_> {
    fn token(&self, player: &str) -> &str {
        self.tokens.get(player).map(String::as_str).unwrap_or_else(|| panic!("no token for {player}"))
    }

    fn path(&self, rest: &str) -> String {
        format!("/v1/campaigns/{}{rest}", self.id)
    }

    async fn post(&self, rest: &str, token: &str, body: Value) -> herald_tests::Reply {
        self.app.request("POST", &self.path(rest), Some(token), Some(body)).await
    }

    async fn ok(&self, rest: &str, token: &str, body: Value) -> Value {
        let reply = self.post(rest, token, body).await;
        assert_eq!(reply.status, 200, "POST {rest}: {:#}", reply.body);
        reply.body
    }

    async fn open(&self) {
        self.ok("/turns", &self.judge, json!({"deadline": in_a_day()})).await;
    }

    async fn orders(&self, player: &str, text: &str) {
        self.ok("/orders", self.token(player), json!({"text": text})).await;
    }

    async fn lock_and_adjudicate(&self) -> Value {
        let locked = self.app.request("POST", &self.path("/lock"), Some(&self.judge), None).await;
        assert_eq!(locked.status, 200, "{:#}", locked.body);
        let reply = self.app.request("POST", &self.path("/adjudicate"), Some(&self.judge), None).await;
        assert_eq!(reply.status, 200, "{:#}", reply.body);
        reply.body
    }

    async fn army(&self, name: &str) -> Option<Value> {
        let armies = self.app.request("GET", &self.path("/armies"), None, None).await;
        armies.body.as_array().expect("armies").iter().find(|a| a["name"] == name).cloned()
    }
}

fn events<'a>(reply: &'a Value, kind: &str) -> Vec<&'a Value> {
    reply["events"].as_array().expect("events").iter().filter(|e| e["type"] == kind).map(|e| &e["data"]).collect()
}

/// A battle fought out: formulas set by the judge, strategies (the winning `attacker` with its
/// attempt, or for both of its armies), bonuses 10 and 0, resolved. Returns the resolution reply.
async fn fight(round: &Round<'_>, battle: &str, winner: &str, strategies: &[(&str, Value)]) -> Value {
    let id = battle.trim_start_matches("battle-");
    let view = round.app.request("GET", &format!("/v1/battles/{id}"), Some(&round.judge), None).await;
    assert_eq!(view.status, 200, "{:#}", view.body);
    assert!(view.body["weather"].is_string(), "the weather is posted with the battle: {:#}", view.body);
    let winning_side = side_of(&view.body, winner);
    let formulas = json!({"type": "set_formulas", "options": {
        "size_formula": {"weighting": "troops", "scale": 1000},
        "kill_formula": {"defence": 0, "damage_step": 1, "max_damage_bonus": 100, "overkill": 3, "capture_penalty": 0, "spare": 2},
        "joint_formula": {"size_formula": {"weighting": "troops", "scale": 1000}, "casualty_percent": 125, "retreat_penalty": 2}}});
    let set = round.app.request("POST", &format!("/v1/battles/{id}/actions"), Some(&round.judge), Some(formulas)).await;
    assert_eq!(set.status, 200, "{:#}", set.body);
    for (player, body) in strategies {
        let reply = round
            .app
            .request("POST", &format!("/v1/battles/{id}/strategies"), Some(round.token(player)), Some(body.clone()))
            .await;
        assert_eq!(reply.status, 200, "{player}'s strategy: {:#}", reply.body);
    }
    for (side, bonus) in
        [("a", if winning_side == "a" { 10 } else { 0 }), ("b", if winning_side == "b" { 10 } else { 0 })]
    {
        let reply = round
            .app
            .request(
                "POST",
                &format!("/v1/battles/{id}/strategy-bonuses"),
                Some(&round.judge),
                Some(json!({"side": side, "bonus": bonus})),
            )
            .await;
        assert_eq!(reply.status, 200, "{:#}", reply.body);
    }
    let resolved =
        round.app.request("POST", &format!("/v1/battles/{id}/resolve"), Some(&round.judge), Some(json!({}))).await;
    assert_eq!(resolved.status, 200, "{:#}", resolved.body);
    resolved.body
}

fn side_of(view: &Value, army: &str) -> &'static str {
    if view["sides"]["a"]["army"]["name"] == army || view["sides"]["a"]["partner"]["army"]["name"] == army {
        "a"
    } else {
        "b"
    }
}

#[tokio::test]
async fn a_round_with_a_capture_a_kill_a_joint_battle_a_control_change_at_the_lock_a_vote_and_a_raider() {
    let app = spawn_app().await;
    let judge = app.token("judge", None).await;
    let mut tokens = std::collections::BTreeMap::new();
    for player in ["gerrard", "hanna", "sisay", "tahngarth", "orim", "crovax", "rag", "vorn"] {
        tokens.insert(player, app.token("player", Some(player)).await);
    }
    let created = app.request("POST", "/v1/campaigns", Some(&judge), Some(setup())).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let stream = created.body["stream"].as_str().expect("stream").to_string();
    let round = Round { app: &app, id: stream.trim_start_matches("campaign-").to_string(), judge, tokens };
    let granted = events(&created.body, "coalition.ControlAuthorityGranted");
    assert_eq!(granted[0]["holders"], json!(["yawgmoth"]));
    assert_eq!(granted[1]["holders"], json!(["gerrard", "hanna"]));

    // Turn 1 (seed 003 §5.4.2): orim posts for Proxy, which Sisay controls; Hanna, who holds the
    // Coalition's authority, gives it to orim before the lock, and back after it.
    round.open().await;
    round.orders("tahngarth", "Sai Rei: 10D > 10E; engage Plague Host\nTahngarth: 15E > 15G; Joint Engage").await;
    round.orders("orim", "Barrin: 20D > 20E; engage Vorn\nOrim: 15I > 15G; Joint Engage\nProxy: 25F > 26F").await;
    let foreign = round.post("/orders", round.token("orim"), json!({"text": "Vorn: 20E > 21E"})).await;
    assert_rule(&foreign, 403, "coalition.campaign.not_controller", "seed 003 §5.2.1");
    let stranger =
        round.post("/control-requests", round.token("sisay"), json!({"army": "Proxy", "controllers": ["orim"]})).await;
    assert_rule(&stranger, 403, "coalition.campaign.no_control_authority", "seed 003 §5.2.2.1");
    let too_low = round
        .post("/control-requests", round.token("hanna"), json!({"army": "Gerrard", "controllers": ["orim"]}))
        .await;
    assert_rule(&too_low, 422, "coalition.campaign.rank_too_low", "seed 003 §5.3.1");
    round.ok("/control-requests", round.token("hanna"), json!({"army": "Proxy", "controllers": ["orim"]})).await;
    let locked = app.request("POST", &round.path("/lock"), Some(&round.judge), None).await;
    assert_eq!(locked.status, 200);
    round.ok("/control-requests", round.token("hanna"), json!({"army": "Proxy", "controllers": ["sisay"]})).await;
    let control = app.request("GET", &round.path("/control"), None, None).await;
    let proxy = control.body["armies"]
        .as_array()
        .expect("armies")
        .iter()
        .find(|a| a["army"] == "Proxy")
        .cloned()
        .expect("Proxy");
    assert_eq!((proxy["controllers"].clone(), proxy["at_lock"].clone()), (json!(["sisay"]), json!(["orim"])));
    let turn1 = app.request("POST", &round.path("/adjudicate"), Some(&round.judge), None).await;
    assert_eq!(turn1.status, 200, "{:#}", turn1.body);
    let turn1 = turn1.body;
    assert_eq!(round.army("Proxy").await.expect("Proxy")["square"], "26F", "orim controlled Proxy at the lock");
    assert!(events(&turn1, "coalition.PlayerReprimanded").is_empty());
    let announced = events(&turn1, "coalition.BattleAnnounced");
    assert_eq!(announced.len(), 3, "{announced:#?}");
    assert_eq!(events(&turn1, "coalition.WeatherRolled").len(), 3);
    let battle_at = |square: &str| {
        announced
            .iter()
            .find(|b| b["square"] == square)
            .map(|b| b["battle"].as_str().expect("battle").to_string())
            .expect("a battle")
    };
    let (capture, kill, joint) = (battle_at("10E"), battle_at("20E"), battle_at("15G"));
    assert!(announced.iter().any(|b| b["square"] == "15G" && b["joint"] == true && b["automatic"] == true));

    // The capture (seed 003 §4.5): Sai Rei risks 2000 of its lowest rank.
    let view = app
        .request("GET", &format!("/v1/battles/{}", capture.trim_start_matches("battle-")), Some(&round.judge), None)
        .await;
    let (ours, theirs) = (side_of(&view.body, "Sai Rei"), side_of(&view.body, "Plague Host"));
    let resolved = fight(&round, &capture, "Sai Rei", &[
        ("tahngarth", json!({"side": ours, "strategy": "Surround them and take their banners", "attempt": {"kind": "capture"}})),
        ("rag", json!({"side": theirs, "strategy": "Break out to the north"})),
    ]).await;
    let captured = events(&resolved, "coalition.CaptureAttempted");
    assert_eq!(captured[0]["outcome"], "succeeded", "{:#}", resolved);
    assert_eq!(captured[0]["risked"][0], 2000);
    // Players never see the capture's modifiers (seed 003 §4.3.3: the formula is secret).
    let seen = app
        .request(
            "GET",
            &format!("/v1/streams/{capture}/events?type=coalition.CaptureAttempted,coalition.BattleCreated"),
            Some(round.token("rag")),
            None,
        )
        .await;
    for event in seen.body["events"].as_array().expect("events") {
        match event["type"].as_str() {
            Some("coalition.CaptureAttempted") => assert_eq!(event["data"]["attacker_roll"]["total"], "hidden"),
            _ => assert_eq!(event["data"]["options"]["kill_formula"], "hidden"),
        }
    }

    // The kill (seed 003 §4.3.2–4.3.4): Barrin risks 500 of its largest slot.
    let view = app
        .request("GET", &format!("/v1/battles/{}", kill.trim_start_matches("battle-")), Some(&round.judge), None)
        .await;
    let (ours, theirs) = (side_of(&view.body, "Barrin"), side_of(&view.body, "Vorn"));
    let too_many = app
        .request(
            "POST",
            &format!("/v1/battles/{}/strategies", kill.trim_start_matches("battle-")),
            Some(round.token("vorn")),
            Some(json!({"side": theirs, "strategy": "Kill their commander", "attempt": {"kind": "kill"}})),
        )
        .await;
    assert_rule(&too_many, 422, "coalition.battle.kill_needs_500", "seed 003 §4.3.2");
    let resolved = fight(
        &round,
        &kill,
        "Barrin",
        &[
            ("orim", json!({"side": ours, "strategy": "Dragons dive on their commander", "attempt": {"kind": "kill"}})),
            ("vorn", json!({"side": theirs, "strategy": "Hide in the swamp"})),
        ],
    )
    .await;
    let killed = events(&resolved, "coalition.KillAttempted");
    assert_eq!((killed[0]["outcome"].clone(), killed[0]["risked"][3].clone()), (json!("succeeded"), json!(500)));
    let public = app.request("GET", &format!("/v1/battles/{}", kill.trim_start_matches("battle-")), None, None).await;
    assert_eq!(public.body["attempts"][0]["totals"], Value::Null, "the pair's totals are the judge's");

    // The joint battle (seed 003 §4.4): Tahngarth and Orim against Dauthi; Tahngarth's strategy
    // names Orim to leave north.
    let view = app
        .request("GET", &format!("/v1/battles/{}", joint.trim_start_matches("battle-")), Some(&round.judge), None)
        .await;
    let (ours, theirs) = (side_of(&view.body, "Tahngarth"), side_of(&view.body, "Dauthi"));
    assert_eq!(view.body["joint"], true);
    let resolved = fight(
        &round,
        &joint,
        "Tahngarth",
        &[
            (
                "tahngarth",
                json!({"side": ours, "army": "Tahngarth", "strategy": "Pin them from the west",
                              "departure": {"army": "Orim", "direction": "north"}}),
            ),
            ("orim", json!({"side": ours, "army": "Orim", "strategy": "Sweep in from the east"})),
            ("crovax", json!({"side": theirs, "strategy": "Dig in"})),
        ],
    )
    .await;
    let joint_result = events(&resolved, "coalition.JointBattleResolved");
    assert_eq!(joint_result[0]["armies"].as_array().expect("armies").len(), 3);
    assert_eq!(joint_result[0]["departure"], json!({"army": "Orim", "direction": "north"}));

    // Turn 2: the results come back to the campaign.
    round.open().await;
    let turn2 = round.lock_and_adjudicate().await;
    let capture_event = events(&turn2, "coalition.ArmyCaptured");
    assert_eq!(
        (capture_event[0]["army"].clone(), capture_event[0]["to"].clone()),
        (json!("Plague Host"), json!("20K"))
    );
    let host = round.army("Plague Host").await.expect("captured, not killed");
    assert_eq!((host["team"].clone(), host["square"].clone()), (json!("coalition"), json!("20K")));
    assert!(host["conversion"].is_object(), "partially converted");
    let kills = events(&turn2, "coalition.ArmyKilledInCampaign");
    assert_eq!((kills[0]["army"].clone(), kills[0]["rule"].clone()), (json!("Vorn"), json!("seed 003 §4.3.3")));
    assert!(round.army("Vorn").await.is_none(), "a killed army leaves the map");
    let bumped = events(&turn2, "coalition.ArmyBumped");
    let orim = bumped.iter().find(|b| b["army"] == "Orim").expect("Orim leaves");
    assert_eq!((orim["to"].clone(), orim["draw"].clone()), (json!("14G"), Value::Null), "north, as named");
    assert!(bumped.iter().any(|b| b["army"] == "Dauthi"));

    // A vote (seed 003 §1.4): the General counts 3, an Admiral 2, a Captain 1; one vote each.
    let closes = (chrono::Utc::now() + chrono::Duration::seconds(2)).to_rfc3339();
    let called = round
        .ok(
            "/votes",
            round.token("hanna"),
            json!({"topic": "Attack the Portal of Rath?", "options": ["yes", "no"], "closes_at": closes}),
        )
        .await;
    let vote = events(&called, "coalition.VoteCalled")[0]["vote"].as_str().expect("id").to_string();
    for (player, option) in [("gerrard", "yes"), ("hanna", "no"), ("sisay", "yes")] {
        round.ok(&format!("/votes/{vote}/ballots"), round.token(player), json!({"option": option})).await;
    }
    let twice = round.post(&format!("/votes/{vote}/ballots"), round.token("sisay"), json!({"option": "no"})).await;
    assert_rule(&twice, 422, "coalition.campaign.already_voted", "seed 003 §1.4.1");
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let closed = round.ok(&format!("/votes/{vote}/close"), round.token("orim"), json!(null)).await;
    let tally = &events(&closed, "coalition.VoteClosed")[0];
    assert_eq!(tally["winners"], json!(["yes"]));
    assert_eq!(tally["tally"][0]["points"], 4);
    let votes = app.request("GET", &round.path("/votes"), None, None).await;
    assert_eq!(votes.body[0]["ballots"][0]["option"], "yes", "an open vote: who voted what is public");

    // Turns until a raider spawns (seed 003 §6.3.2: 3 in 20 with one raider on the map).
    let mut spawned: Option<Value> = None;
    for turn in 0..150 {
        round.open().await;
        let adjudicated = round.lock_and_adjudicate().await;
        let rolled = events(&adjudicated, "coalition.RaiderSpawnRolled");
        assert_eq!(rolled.len(), 1, "one d20 each movement update");
        if spawned.is_none() && rolled[0]["spawned"].is_object() {
            spawned = Some(rolled[0]["spawned"].clone());
        }
        // Two turns at least, so the captured Plague Host counts its two days.
        if spawned.is_some() && turn >= 1 {
            break;
        }
    }
    let spawned = spawned.expect("a raider spawns within 150 turns (odds of not: 1 in 40 billion)");
    let name = spawned["army"]["name"].as_str().expect("name");
    let raider = round.army(name).await.expect("on the map");
    assert_eq!((raider["team"].clone(), raider["mercenary"]["faction"].clone()), (json!("mercenary"), json!("raider")));
    assert_eq!(round.army("Plague Host").await.expect("alive")["conversion"], Value::Null, "fully converted by now");

    // The judge replays every command of the round with the sealed seed (replay determinism).
    let verified = app.request("GET", &format!("/v1/streams/{stream}/verify"), Some(&round.judge), None).await;
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    app.stop().await;
}
