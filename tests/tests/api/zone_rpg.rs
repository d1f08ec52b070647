//! A zone-rpg fight (seed 001) played over HTTP: an ambusher's bonus round kept hidden from the
//! players, two ordinary rounds of attacks and reactions, illegal actions refused with
//! problem+json naming the code and the seed's heading, a GM's roll, the end of the fight with
//! its durability rolls, then verified by an anonymous reader; and a coalition battle fought out
//! as a zone-rpg fight.

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::{assert_rule, events_of, find, ok, stream_events, Cast, SEED};

fn fight() -> Value {
    json!({
        "ruleset": "zone-rpg",
        "seed": SEED,
        "zones": [{"name": "road"}, {"name": "thicket"}, {"name": "hill"}],
        "borders": [{"a": "road", "b": "thicket"}, {"a": "thicket", "b": "hill"}],
        "factions": [{"name": "party"}, {"name": "bandits"}],
        "initiative": {"kind": "faction", "faction": "bandits"},
        "characters": [
            {"id": "Balthasar", "faction": "party", "controller": "alice", "health": 10, "wit": 12, "agi": 10, "str": 14,
             "zone": "road", "weapons": [{"name": "sword", "damage": "d6"}], "armour": {"name": "light armour", "value": 1}},
            {"id": "Sybilla", "faction": "party", "controller": "bob", "health": 20, "wit": 13, "agi": 12, "str": 9,
             "zone": "road", "weapons": [{"name": "dagger", "damage": "d4"},
                {"name": "musket", "damage": "d8", "range": 6, "hands": "two", "held": false}]},
            {"id": "bandit leader", "faction": "bandits", "group": "band", "health": 8, "wit": 10, "agi": 9, "str": 12,
             "zone": "road", "weapons": [{"name": "battleaxe", "damage": "d8", "hands": "two"}]},
            {"id": "bandit", "faction": "bandits", "group": "band", "health": 8, "wit": 9, "agi": 8, "str": 10,
             "zone": "road", "weapons": [{"name": "axe", "damage": "d6"}]},
            {"id": "lookout", "faction": "bandits", "group": "band", "health": 6, "wit": 12, "agi": 12, "str": 8,
             "zone": "hill", "concealed": true, "weapons": [{"name": "bow", "damage": "d6", "range": 8, "hands": "two"}]}
        ]
    })
}

struct Table<'a> {
    app: &'a TestApp,
    actions: String,
    path: String,
    stream: String,
}

impl Table<'_> {
    async fn act(&self, token: &str, body: Value) -> Vec<Value> {
        events_of(&ok(self.app, &self.actions, token, body).await)
    }

    async fn refused(&self, token: &str, body: Value, status: u16, code: &str, rule: &str) {
        let reply = self.app.request("POST", &self.actions, Some(token), Some(body)).await;
        assert_rule(&reply, status, code, rule);
    }

    async fn view(&self, token: Option<&str>) -> Value {
        let view = self.app.request("GET", &self.path, token, None).await;
        assert_eq!(view.status, 200, "{:#}", view.body);
        view.body
    }

    async fn character(&self, token: Option<&str>, id: &str) -> Value {
        let view = self.view(token).await;
        view["characters"].as_array().and_then(|all| all.iter().find(|c| c["id"] == id).cloned()).unwrap_or_default()
    }

    /// Whoever's go it is passes (the GM may pass for any faction) until the round ends.
    async fn pass_out_the_round(&self, gm: &str) {
        loop {
            let view = self.view(Some(gm)).await;
            if view["phase"] != "round" {
                return;
            }
            let faction = view["current_faction"].as_str().unwrap_or_default().to_string();
            self.act(gm, json!({"type": "pass", "faction": faction})).await;
        }
    }

    /// Decline for every target still to decide on the pending attack.
    async fn let_it_through(&self, token: &str) -> Vec<Value> {
        let view = self.view(Some(token)).await;
        let mut events = Vec::new();
        for target in view["pending_attack"]["targets"].as_array().cloned().unwrap_or_default() {
            if target["decided"] == false {
                let character = target["target"]["character"].clone();
                events.extend(self.act(token, json!({"type": "decline", "character": character})).await);
            }
        }
        events
    }
}

#[actix_web::test]
async fn a_fight_is_played_over_http_refused_where_illegal_kept_hidden_and_verified_by_anyone() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(fight())).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let stream = created.body["stream"].as_str().unwrap_or_default().to_string();
    let id = stream.trim_start_matches("battle-").to_string();
    let table = Table {
        app: &app,
        actions: format!("/v1/battles/{id}/actions"),
        path: format!("/v1/battles/{id}"),
        stream: stream.clone(),
    };
    let (gm, alice, bob) = (cast.judge.as_str(), cast.alice.as_str(), cast.bob.as_str());

    // Players act only for their own characters; the bandits hold the initiative.
    table
        .refused(
            bob,
            json!({"type": "take_turn", "character": "Balthasar"}),
            403,
            "zone-rpg.not_your_character",
            "herald",
        )
        .await;
    table
        .refused(
            alice,
            json!({"type": "start_round", "first_faction": "party"}),
            403,
            "zone-rpg.not_your_faction",
            "herald",
        )
        .await;
    ok(&app, &format!("{}/entropy", table.path), alice, json!({"entropy": "alice rolls for the party"})).await;

    // ---- The bonus round: only the concealed lookout acts, and sneaks into the thicket.
    let events = table.act(gm, json!({"type": "start_round", "first_faction": "bandits"})).await;
    assert_eq!(find(&events, "zone-rpg.RoundStarted").map(|e| e["data"]["bonus"].clone()), Some(json!(true)));
    table
        .refused(
            gm,
            json!({"type": "take_turn", "character": "bandit"}),
            422,
            "zone-rpg.bonus_round",
            "seed 001 \"Sneaking in combat\"",
        )
        .await;
    table.act(gm, json!({"type": "take_turn", "character": "lookout"})).await;
    table.act(gm, json!({"type": "move", "character": "lookout", "path": ["thicket"], "sneak": true})).await;
    let events = table.act(gm, json!({"type": "end_turn"})).await;
    assert!(find(&events, "zone-rpg.RoundEnded").is_some(), "everyone else must pass: {events:#?}");
    // Where the lookout is stays with the GM: the view, the picture and the events hide it.
    assert_eq!(table.character(Some(alice), "lookout").await["zone"], Value::Null);
    assert_eq!(table.character(None, "lookout").await["position_hidden"], true);
    assert_eq!(table.character(Some(gm), "lookout").await["zone"], "thicket");
    let svg = app.request("GET", &format!("{}/zones.svg", table.path), Some(alice), None).await;
    assert_eq!(svg.status, 200);
    let text = svg.body.as_str().unwrap_or_default().to_string();
    assert!(text.starts_with("<svg") && text.contains("Balthasar") && !text.contains("lookout"), "{text}");
    let gm_svg = app.request("GET", &format!("{}/zones.svg", table.path), Some(gm), None).await;
    assert!(gm_svg.body.as_str().unwrap_or_default().contains("lookout"));
    for token in [None, Some(alice)] {
        let seen = stream_events(&app, &table.stream, token).await;
        let moved = find(&seen, "zone-rpg.Moved").expect("the sneaking move");
        assert_eq!(
            (moved["data"]["zone"].clone(), moved["data"]["path"][0].clone()),
            (json!("hidden"), json!("hidden"))
        );
        let created = find(&seen, "zone-rpg.BattleCreated").expect("created");
        let lookout =
            created["data"]["characters"].as_array().and_then(|c| c.iter().find(|c| c["id"] == "lookout").cloned());
        assert_eq!(lookout.map(|l| l["zone"].clone()), Some(json!("hidden")));
    }
    let seen = stream_events(&app, &table.stream, Some(gm)).await;
    assert_eq!(find(&seen, "zone-rpg.Moved").map(|m| m["data"]["zone"].clone()), Some(json!("thicket")));

    // ---- Round 1: Balthasar strikes the bandit; the GM lets it through.
    table.act(gm, json!({"type": "start_round", "first_faction": "party"})).await;
    table
        .refused(
            gm,
            json!({"type": "take_turn", "character": "bandit"}),
            422,
            "zone-rpg.not_your_go",
            "seed 001 \"Combat procedure\"",
        )
        .await;
    table.act(alice, json!({"type": "take_turn", "character": "Balthasar"})).await;
    table
        .refused(
            alice,
            json!({"type": "move", "character": "Balthasar", "path": ["thicket", "hill", "thicket"]}),
            422,
            "zone-rpg.too_far",
            "seed 001 \"Taking a turn\"",
        )
        .await;
    let events = table
        .act(alice, json!({"type": "attack", "attacker": "Balthasar", "weapon": "sword", "target": {"kind": "character", "character": "bandit"}}))
        .await;
    assert!(find(&events, "zone-rpg.AttackDeclared").is_some());
    table
        .refused(
            alice,
            json!({"type": "end_turn"}),
            422,
            "zone-rpg.attack_pending",
            "seed 001 \"Reacting to an attack\"",
        )
        .await;
    table
        .refused(alice, json!({"type": "decline", "character": "bandit"}), 403, "zone-rpg.not_your_character", "herald")
        .await;
    let events = table.let_it_through(gm).await;
    let resolved = find(&events, "zone-rpg.AttackResolved").expect("resolved once the bandit declined");
    let rolled = &resolved["data"]["rolls"][0];
    assert_eq!((rolled["die"].clone(), rolled["draws"].as_array().map(Vec::len)), (json!("d6"), Some(1)));
    assert!(rolled["draws"][0]["purpose"].as_str().unwrap_or_default().contains("Balthasar's sword"));
    table
        .refused(alice, json!({"type": "attack", "attacker": "Balthasar", "weapon": "sword", "target": {"kind": "character", "character": "bandit leader"}}),
            422, "zone-rpg.main_action_spent", "seed 001 \"Taking a turn\"")
        .await;
    table.act(alice, json!({"type": "end_turn"})).await;

    // The bandit leader swings at Sybilla, who dodges with an AGI save.
    table.act(gm, json!({"type": "take_turn", "character": "bandit leader"})).await;
    table
        .act(gm, json!({"type": "attack", "attacker": "bandit leader", "weapon": "battleaxe", "target": {"kind": "character", "character": "Sybilla"}}))
        .await;
    let events = table.act(bob, json!({"type": "react", "character": "Sybilla", "reaction": {"kind": "dodge"}})).await;
    let reacted = find(&events, "zone-rpg.Reacted").expect("a dodge");
    assert_eq!(reacted["data"]["save"]["ability"], "agi");
    assert!(find(&events, "zone-rpg.AttackResolved").is_some());
    let events = table.act(gm, json!({"type": "end_turn"})).await;
    // Sybilla reacted: her turn is spent for this round, so the party has nobody left and must
    // pass; play goes back to the bandits.
    assert_eq!(table.character(Some(bob), "Sybilla").await["turn"], "used");
    let passed = find(&events, "zone-rpg.FactionPassed").expect("a forced pass");
    assert_eq!((passed["data"]["faction"].clone(), passed["data"]["forced"].clone()), (json!("party"), json!(true)));
    table
        .refused(
            bob,
            json!({"type": "take_turn", "character": "Sybilla"}),
            422,
            "zone-rpg.not_your_go",
            "seed 001 \"Combat procedure\"",
        )
        .await;

    // The lookout shoots from hiding: Balthasar is taken by surprise, the lookout revealed.
    table.act(gm, json!({"type": "take_turn", "character": "lookout"})).await;
    let events = table
        .act(gm, json!({"type": "attack", "attacker": "lookout", "weapon": "bow", "target": {"kind": "character", "character": "Balthasar"}}))
        .await;
    let declared = find(&events, "zone-rpg.AttackDeclared").expect("the shot");
    assert_eq!(
        (declared["data"]["surprise"].clone(), declared["data"]["targets"][0]["can_react"].clone()),
        (json!(true), json!(false))
    );
    assert!(find(&events, "zone-rpg.Revealed").is_some());
    table.act(gm, json!({"type": "end_turn"})).await;
    assert_eq!(table.character(Some(alice), "lookout").await["zone"], "thicket");
    table.pass_out_the_round(gm).await;

    // ---- Round 2: Sybilla readies her musket; a GM's roll for the weather.
    table.act(gm, json!({"type": "start_round", "first_faction": "party"})).await;
    table.act(bob, json!({"type": "take_turn", "character": "Sybilla"})).await;
    table.refused(bob, json!({"type": "attack", "attacker": "Sybilla", "weapon": "musket", "target": {"kind": "character", "character": "bandit leader"}}),
        422, "zone-rpg.weapon_not_held", "seed 001 \"Taking a turn\"").await;
    table
        .act(bob, json!({"type": "perform", "character": "Sybilla", "action": {"kind": "unequip", "item": "dagger"}}))
        .await;
    table
        .act(bob, json!({"type": "perform", "character": "Sybilla", "action": {"kind": "equip", "item": "musket"}}))
        .await;
    table.act(bob, json!({"type": "end_turn"})).await;
    let rolled = ok(
        &app,
        &format!("/v1/streams/{}/rolls", table.stream),
        gm,
        json!({"expression": "d20", "purpose": "does the rain start"}),
    )
    .await;
    assert!(find(&events_of(&rolled), "dice.JudgeRolled").is_some());
    table.pass_out_the_round(gm).await;
    let view = table.view(None).await;
    assert_eq!(
        (view["ruleset"].clone(), view["round"].clone(), view["phase"].clone()),
        (json!("zone-rpg"), json!(2), json!("between_rounds"))
    );

    // The listing knows it; a coalition route refuses it.
    let listing = app.request("GET", "/v1/battles", None, None).await;
    assert!(listing
        .body
        .as_array()
        .is_some_and(|all| all.iter().any(|b| b["id"] == id.as_str() && b["ruleset"] == "zone-rpg")));
    let reply = app.request("POST", &format!("{}/resolve", table.path), Some(gm), Some(json!({}))).await;
    assert_eq!(reply.status, 422);

    // ---- The GM ends the fight: durability rolls, the seed revealed, anyone can verify.
    table
        .refused(
            alice,
            json!({"type": "end_fight", "winner": "party", "reason": "we won"}),
            403,
            "zone-rpg.gm_only",
            "herald",
        )
        .await;
    let events = table.act(gm, json!({"type": "end_fight", "winner": "party", "reason": "the bandits scatter"})).await;
    assert!(find(&events, "zone-rpg.FightEnded").is_some());
    assert!(find(&events, "zone-rpg.DurabilityRolled").is_some(), "the sword was used: {events:#?}");
    assert!(find(&events, "dice.SeedRevealed").is_some(), "{events:#?}");
    table.refused(gm, json!({"type": "start_round", "first_faction": "party"}), 422, "zone-rpg.ended", "herald").await;
    let verified = app.request("GET", &format!("{}/verify", table.path), None, None).await;
    assert_eq!(verified.status, 200, "{:#}", verified.body);
    assert_eq!(
        (verified.body["result"].clone(), verified.body["rules"].clone()),
        (json!("verified"), json!("zone-rpg@1")),
        "{:#}",
        verified.body
    );
    let view = table.view(None).await;
    assert_eq!((view["winner"].clone(), view["seed_revealed"].clone()), (json!("party"), json!(true)));
    app.stop_now().await;
}

#[actix_web::test]
async fn a_coalition_battle_fought_out_as_a_zone_rpg_fight_takes_its_result() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let coalition = crate::support::create_sample(&app, &cast).await;
    let mut body = fight();
    body["factions"] = json!([{"name": "party", "controller": "alice"}, {"name": "bandits", "controller": "bob"}]);
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(body)).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let fought = created.body["stream"].as_str().unwrap_or_default().trim_start_matches("battle-").to_string();
    let apply = json!({"battle": fought, "sides": {"a": "party", "b": "bandits"}, "reason": "fought out in the zones"});
    let path = coalition.at("/tactical-result");
    let reply = app.request("POST", &path, Some(&cast.judge), Some(apply.clone())).await;
    assert_eq!(reply.status, 422, "not before the fight has a winner: {:#}", reply.body);
    // The GM ends it with the party (alice's) the winner, one bandit slain.
    let actions = format!("/v1/battles/{fought}/actions");
    ok(
        &app,
        &actions,
        &cast.judge,
        json!({"type": "adjust_health", "character": "bandit", "change": -8, "reason": "slain"}),
    )
    .await;
    ok(&app, &actions, &cast.judge, json!({"type": "end_fight", "winner": "party", "reason": "the bandits flee"}))
        .await;
    let events = events_of(&ok(&app, &path, &cast.judge, apply).await);
    let applied = find(&events, "coalition.TacticalResultApplied").expect("the result applied");
    assert_eq!(applied["data"]["winner"], "a");
    assert_eq!(applied["data"]["models_lost"]["b"], json!({"fielded": 3, "destroyed": 1}));
    let verified = app.request("GET", &coalition.at("/verify"), None, None).await;
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    app.stop_now().await;
}
