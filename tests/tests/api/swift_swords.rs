//! A swift-swords encounter (seed 004) played over HTTP: Roland against two goblins in a ford,
//! through the countdown, a refresh and a carried die, a Block and a Pool action, an injury,
//! with illegal actions refused with their rule; then verified by an anonymous reader. And a
//! coalition battle fought out under swift-swords and applied back.

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::{assert_problem, events_of, find, ok, Cast, SEED};

/// Roland and two goblins InContact in a ford. Every figure is on level 9, which only a bane
/// weapon lowers, so the fight lasts until the GM ends it whatever the dice (the stream's name,
/// a fresh UUID, enters the effective seed).
fn encounter() -> Value {
    let goblin = |id: &str| {
        json!({"id": id, "side": "goblins", "start": {"zone": "ford", "group": "melee"},
               "action_dice": {"kind": "set", "values": [5, 4, 3]}, "physical": 9, "mental": 9,
               "weapons": [{"name": "Spear", "dice": 4, "weight": "medium"}]})
    };
    json!({
        "ruleset": "swift-swords",
        "seed": SEED,
        "map": {
            "zones": [{"id": "ford", "column": 0, "row": 0, "terrain": "river ford", "going": "rough"},
                      {"id": "bank", "column": 1, "row": 0, "terrain": "wooded bank"}],
            "borders": [{"a": "ford", "b": "bank", "cover": "soft_light", "name": "reeds"}]
        },
        "sides": [{"name": "heroes", "controller": "alice"}, {"name": "goblins"}],
        "figures": [
            {"id": "roland", "side": "heroes", "controller": "alice", "start": {"zone": "ford", "group": "melee"},
             "action_dice": {"kind": "roll", "dice": 4}, "physical": 9, "mental": 9, "heroic": true,
             "weapons": [{"name": "Broadsword", "dice": 4, "weight": "medium"}],
             "defences": {"dodge": 5, "block": 5, "parry": 4},
             "shield": {"name": "Medium Shield", "block": 2}},
            goblin("goblin-1"),
            goblin("goblin-2")
        ],
        "options": {"minor_advantage_dice": 0, "major_advantage_dice": 0}
    })
}

struct Table<'a> {
    app: &'a TestApp,
    actions: String,
    path: String,
    seen: Vec<Value>,
}

impl Table<'_> {
    async fn view(&self) -> Value {
        let view = self.app.request("GET", &self.path, None, None).await;
        assert_eq!(view.status, 200, "{:#}", view.body);
        view.body
    }

    async fn act(&mut self, token: &str, body: Value) -> Vec<Value> {
        let events = events_of(&ok(self.app, &self.actions, token, body).await);
        self.seen.extend(events.iter().cloned());
        events
    }

    /// Send `body`; a 422 `swift-swords.cannot_afford` calls the refresh instead.
    async fn act_or_refresh(&mut self, token: &str, figure: &str, body: Value) {
        let reply = self.app.request("POST", &self.actions, Some(token), Some(body)).await;
        if reply.status == 422 && reply.body["code"] == "swift-swords.cannot_afford" {
            self.act(token, json!({"type": "call_refresh", "figure": figure})).await;
            return;
        }
        assert_eq!(reply.status, 200, "{:#}", reply.body);
        self.seen.extend(events_of(&reply));
    }

    async fn refused(&self, token: &str, body: Value, status: u16, code: &str, rule: &str) {
        let reply = self.app.request("POST", &self.actions, Some(token), Some(body)).await;
        assert_problem(&reply, status, code);
        let said = reply.body["rule"].as_str().unwrap_or_default();
        assert!(said.contains(rule), "{code} should cite {rule}, said {said}");
    }

    fn saw(&self, event_type: &str) -> bool {
        self.seen.iter().any(|event| event["type"] == event_type)
    }
}

fn figure<'v>(view: &'v Value, id: &str) -> &'v Value {
    view["figures"].as_array().and_then(|all| all.iter().find(|figure| figure["id"] == id)).unwrap_or(&Value::Null)
}

#[actix_web::test]
async fn an_encounter_is_fought_through_a_refresh_a_carried_die_a_block_a_pool_and_an_injury_and_verified() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (alice, bob, gm) = (cast.alice.clone(), cast.bob.clone(), cast.judge.clone());
    let refused = app.request("POST", "/v1/battles", Some(&alice), Some(encounter())).await;
    assert_eq!(refused.status, 403, "{:#}", refused.body);
    let created = app.request("POST", "/v1/battles", Some(&gm), Some(encounter())).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let id = created.body["stream"].as_str().unwrap_or_default().trim_start_matches("battle-").to_string();
    let mut table = Table {
        app: &app,
        actions: format!("/v1/battles/{id}/actions"),
        path: format!("/v1/battles/{id}"),
        seen: vec![],
    };

    // Only the GM begins the encounter; the first action dice are rolled for everyone.
    table.refused(&alice, json!({"type": "begin"}), 403, "swift-swords.judge_only", "swift-swords").await;
    let events = table.act(&gm, json!({"type": "begin"})).await;
    let rolled: Vec<&Value> = events.iter().filter(|e| e["type"] == "swift-swords.ActionDiceRolled").collect();
    assert_eq!(rolled.len(), 3);
    let goblin_dice = rolled.iter().find(|e| e["data"]["figure"] == "goblin-1").map(|e| e["data"]["hand"].clone());
    assert_eq!(goblin_dice, Some(json!([5, 4, 3])), "a minor NPC is given its set values");

    // A player cannot act for the GM's goblins, nor for figures out of the countdown's turn.
    let view = table.view().await;
    let next = view["next_to_act"][0].as_str().unwrap_or_default().to_string();
    let other = if next == "roland" { "goblin-1" } else { "roland" };
    let token = if other == "roland" { alice.clone() } else { gm.clone() };
    let target = if other == "roland" { "goblin-1" } else { "roland" };
    let weapon = if other == "roland" { "Broadsword" } else { "Spear" };
    table
        .refused(
            &token,
            json!({"type": "attack", "figure": other, "weapon": weapon, "targets": [target]}),
            422,
            "swift-swords.not_in_turn",
            "The Countdown",
        )
        .await;
    table
        .refused(
            &bob,
            json!({"type": "attack", "figure": "roland", "weapon": "Broadsword", "targets": ["goblin-1"]}),
            403,
            "swift-swords.not_your_figure",
            "swift-swords",
        )
        .await;

    let (mut blocked, mut pooled, mut carried, mut tried_ones) = (false, false, false, false);
    for _ in 0..300 {
        let view = table.view().await;
        if view["phase"] == "ended" {
            break;
        }
        let met = table
            .seen
            .iter()
            .any(|e| e["type"] == "swift-swords.AttackResolved" && !e["data"]["record"]["block"].is_null());
        if blocked && met && pooled && carried && table.saw("swift-swords.RefreshCalled") {
            break;
        }
        if let Some(awaiting) = view["awaiting"].as_object() {
            let defender = awaiting["from"][0].as_str().unwrap_or_default().to_string();
            assert_eq!(awaiting["kind"], "defence");
            assert_eq!(defender, "roland", "goblins have no defence skills");
            let roland = figure(&view, "roland");
            let declare = roland["pools"]["block"] == 0;
            let usable = roland["usable_dice"].as_u64().unwrap_or(0) > 0;
            let defence = if declare && usable { "block" } else { "none" };
            let events = table
                .act(&alice, json!({"type": "defend", "figure": "roland", "defence": defence, "take_rank": true}))
                .await;
            if let Some(declared) = find(&events, "swift-swords.DefenceDeclared") {
                blocked = blocked || declared["data"]["pool"].as_u64().unwrap_or(0) > 0;
            }
            continue;
        }
        if view["phase"] == "refresh" {
            let waiting: Vec<Value> = view["figures"]
                .as_array()
                .map(|all| {
                    all.iter()
                        .filter(|f| f["done"] == false && f["out_of_action"] == false && f["action_dice"] != json!([]))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            let Some(figure) = waiting.first() else { break };
            let id = figure["id"].as_str().unwrap_or_default().to_string();
            let token = if id == "roland" { alice.clone() } else { gm.clone() };
            if !carried {
                let events = table.act(&token, json!({"type": "carry_over", "figure": id})).await;
                carried = find(&events, "swift-swords.DieCarried").is_some();
                let next_round = events
                    .iter()
                    .find(|e| e["type"] == "swift-swords.ActionDiceRolled" && e["data"]["figure"] == id.as_str());
                if let Some(next_round) = next_round {
                    assert_eq!(next_round["data"]["carried"], true, "the carried die is rolled with the new ones");
                }
            } else {
                table.act(&token, json!({"type": "pass", "figure": id})).await;
            }
            continue;
        }
        let Some(next) = view["next_to_act"][0].as_str().map(str::to_string) else { break };
        if next == "roland" {
            if !tried_ones {
                // Dice showing 1 cannot be combined to pay for an action.
                let body = json!({"type": "attack", "figure": "roland", "weapon": "Broadsword", "targets": ["goblin-1"], "pay": [1, 3]});
                table.refused(&alice, body, 422, "swift-swords.ones_cannot_pay", "Actions & Refresh").await;
                tried_ones = true;
            }
            let roland = figure(&view, "roland");
            let block = roland["pools"]["block"].as_u64().unwrap_or(0);
            if !pooled && block > 0 && block < 7 {
                // Pool: one die (any but a 1) added to the Block pool, which it keeps.
                let events = table.act(&alice, json!({"type": "pool", "figure": "roland", "into": "block"})).await;
                let size = find(&events, "swift-swords.Pooled").map(|e| e["data"]["size"].clone());
                assert_eq!(size, Some(json!(block + 1)));
                pooled = true;
                continue;
            }
            let target = if figure(&view, "goblin-1")["out_of_action"] == false { "goblin-1" } else { "goblin-2" };
            let body = json!({"type": "attack", "figure": "roland", "weapon": "Broadsword", "targets": [target], "options": {"strip_block": 0}});
            table.act_or_refresh(&alice, "roland", body).await;
        } else {
            let body = json!({"type": "attack", "figure": next, "weapon": "Spear", "targets": ["roland"]});
            let gm = gm.clone();
            table.act_or_refresh(&gm, &next, body).await;
        }
    }
    assert!(blocked && pooled && carried, "blocked {blocked}, pooled {pooled}, carried {carried}");
    assert!(table.saw("swift-swords.RefreshCalled"));
    assert!(table.saw("swift-swords.AttackResolved"));
    let blocks = table
        .seen
        .iter()
        .filter(|e| e["type"] == "swift-swords.AttackResolved" && !e["data"]["record"]["block"].is_null())
        .count();
    assert!(blocks > 0, "a goblin's attack met the block pool");

    assert!(tried_ones);
    // The GM inflicts a great blow if no attack did: trauma and an injury roll.
    if !table.saw("swift-swords.InjuryRolled") {
        let events = table
            .act(&gm, json!({"type": "inflict", "figure": "goblin-2", "damage": 1, "ranks": "physical", "massive": true, "reason": "the ford's current smashes it on a rock"}))
            .await;
        let injury = find(&events, "swift-swords.InjuryRolled").expect("massive damage rolls on the injury table");
        assert_eq!(injury["data"]["modifier"], 1, "+1 for a killing blow");
        assert_eq!(injury["data"]["location_draws"].as_array().map(Vec::len), Some(4), "4d6 for the location");
    }

    // The views: every figure with its dice, pools, status, ranks; the zones picture.
    let view = table.view().await;
    let roland = figure(&view, "roland");
    for field in ["action_dice", "pools", "status", "group", "physical", "mental", "states", "injuries"] {
        assert!(roland.get(field).is_some(), "the view shows {field}: {roland:#}");
    }
    let svg = app.request("GET", &format!("{}/zones.svg", table.path), None, None).await;
    assert_eq!(svg.status, 200);
    let text = svg.body.as_str().unwrap_or_default();
    assert!(text.starts_with("<svg") && text.contains("ford") && text.contains("roland"), "{text}");
    let listing = app.request("GET", "/v1/battles", None, None).await;
    assert!(listing
        .body
        .as_array()
        .is_some_and(|all| all.iter().any(|b| b["id"] == id.as_str() && b["ruleset"] == "swift-swords")));

    // The GM ends the encounter; the seed is revealed at once and anyone can verify every die.
    if view["phase"] != "ended" {
        let events = table
            .act(&gm, json!({"type": "end_battle", "winner": "heroes", "reason": "the goblins flee the ford"}))
            .await;
        assert!(find(&events, "dice.SeedRevealed").is_some(), "{events:#?}");
    }
    let verified = app.request("GET", &format!("{}/verify", table.path), None, None).await;
    assert_eq!(verified.status, 200, "{:#}", verified.body);
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    assert_eq!(verified.body["rules"], "swift-swords@1");
}

#[actix_web::test]
async fn a_coalition_battle_fought_out_as_a_swift_swords_encounter_takes_its_result() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let coalition = crate::support::create_sample(&app, &cast).await;
    let duel = json!({
        "ruleset": "swift-swords",
        "map": {"zones": [{"id": "field", "column": 0, "row": 0}]},
        "sides": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
        "figures": [
            {"id": "red-mob", "side": "red", "controller": "alice", "start": {"zone": "field"},
             "action_dice": {"kind": "roll", "dice": 3}, "physical": 3, "mental": 3,
             "formation": {"kind": "mob", "members": 4}, "weapons": [{"name": "Spears", "dice": 4, "weight": "medium"}]},
            {"id": "blue-mob", "side": "blue", "controller": "bob", "start": {"zone": "field"},
             "action_dice": {"kind": "roll", "dice": 3}, "physical": 3, "mental": 3,
             "formation": {"kind": "mob", "members": 3}, "weapons": [{"name": "Axes", "dice": 4, "weight": "medium"}]}
        ]
    });
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(duel)).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let fought = created.body["stream"].as_str().unwrap_or_default().trim_start_matches("battle-").to_string();
    let apply = |sides: Value| json!({"battle": fought, "sides": sides, "reason": "fought out in the field"});
    let path = coalition.at("/tactical-result");
    let reply = app.request("POST", &path, Some(&cast.judge), Some(apply(json!({"a": "red", "b": "blue"})))).await;
    assert_problem(&reply, 422, "battle.tactical_not_decided");
    // Bob concedes; a player may only name another side.
    let actions = format!("/v1/battles/{fought}/actions");
    let reply = app
        .request(
            "POST",
            &actions,
            Some(&cast.bob),
            Some(json!({"type": "end_battle", "winner": "blue", "reason": "mine"})),
        )
        .await;
    assert_problem(&reply, 403, "swift-swords.judge_only");
    ok(&app, &actions, &cast.bob, json!({"type": "end_battle", "winner": "red", "reason": "concede"})).await;
    let reply = ok(&app, &path, &cast.judge, apply(json!({"a": "red", "b": "blue"}))).await;
    let events = events_of(&reply);
    let applied = find(&events, "coalition.TacticalResultApplied").expect("the result applied");
    assert_eq!(applied["data"]["winner"], "a");
    assert_eq!(applied["data"]["models_lost"]["a"], json!({"fielded": 4, "destroyed": 0}), "a mob counts its members");
    let verified = app.request("GET", &coalition.at("/verify"), None, None).await;
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
}
