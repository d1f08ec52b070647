//! A warmachine battle (seed 000) played over HTTP: two full rounds (four player turns) of a
//! warcaster, two warjacks and a unit of three on each side, with illegal declarations refused
//! with the rule, then verified by replay.

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::{assert_problem, events_of, find, ok, Cast, SEED};

fn grid() -> Value {
    // Six columns of five boxes: blanks on top, systems below (seed 000 "L/R/H, Location").
    let letters = ["--LLM", "--LLM", "--CHM", "--CHS", "--RRS", "--RRS"];
    let columns: Vec<Value> = letters
        .iter()
        .map(|column| {
            column
                .chars()
                .map(|letter| {
                    let system = match letter {
                        'L' => json!("left_arm"),
                        'R' => json!("right_arm"),
                        'H' => json!("head"),
                        'S' => json!("superstructure"),
                        'M' => json!("movement"),
                        'C' => json!("cortex"),
                        _ => Value::Null,
                    };
                    json!({"system": system, "damaged": false})
                })
                .collect()
        })
        .collect();
    json!({"kind": "grid", "grid": {"columns": columns}})
}

fn melee(name: &str, pow: u8) -> Value {
    json!({"name": name, "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": pow})
}

fn caster(id: &str, player: &str, x: f64, y: f64) -> Value {
    json!({"id": id, "player": player, "position": {"x": x, "y": y}, "profile": {
        "name": "Captain", "model_type": "warcaster", "base": "small",
        "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 15, "arm": 15, "arc": 6, "ctrl": 12},
        "damage": {"kind": "boxes", "boxes": 17}, "weapons": [melee("Sword", 7)]}})
}

fn jack(id: &str, player: &str, caster: &str, x: f64, y: f64, rifle: bool) -> Value {
    let mut weapons = vec![
        json!({"name": "Fist", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 12, "location": "left"}),
    ];
    if rifle {
        weapons.push(json!({"name": "Rifle", "kind": "ranged", "rng": {"kind": "inches", "inches": 24.0}, "rof": 1, "pow": 12, "location": "right"}));
    }
    json!({"id": id, "player": player, "battlegroup": caster, "position": {"x": x, "y": y}, "profile": {
        "name": "Ironclad", "model_type": "warjack", "base": "medium",
        "stats": {"spd": 6, "str": 11, "mat": 7, "rat": 4, "def": 12, "arm": 18},
        "damage": grid(), "weapons": weapons}})
}

fn trooper(id: &str, player: &str, unit: &str, x: f64, y: f64) -> Value {
    json!({"id": id, "player": player, "unit": unit, "position": {"x": x, "y": y}, "profile": {
        "name": "Grunt", "model_type": "trooper", "base": "small",
        "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 13, "arm": 13},
        "damage": {"kind": "boxes", "boxes": 1}, "weapons": [melee("Spear", 10)]}})
}

/// The small two-player battle these tests play (paging.rs lists it among others).
pub fn battle() -> Value {
    json!({
        "ruleset": "warmachine",
        "seed": SEED,
        "table": {"width": 48.0, "depth": 48.0, "terrain": [
            {"name": "wall", "kind": "obstruction", "height": 3.0,
             "shape": {"kind": "rect", "min": {"x": 30.0, "y": 18.0}, "max": {"x": 40.0, "y": 19.0}}}
        ]},
        "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
        "models": [
            caster("red-caster", "red", 24.0, 8.0),
            jack("red-jack-1", "red", "red-caster", 20.0, 10.0, false),
            jack("red-jack-2", "red", "red-caster", 28.0, 10.0, true),
            trooper("red-grunt-1", "red", "red-grunts", 10.0, 10.0),
            trooper("red-grunt-2", "red", "red-grunts", 11.5, 10.0),
            trooper("red-grunt-3", "red", "red-grunts", 13.0, 10.0),
            caster("blue-caster", "blue", 24.0, 40.0),
            jack("blue-jack-1", "blue", "blue-caster", 20.0, 30.0, false),
            // Out of its warcaster's control range: it does not power up (seed 000 "Control Phase").
            jack("blue-jack-2", "blue", "blue-caster", 44.0, 30.0, false),
            trooper("blue-grunt-1", "blue", "blue-grunts", 36.0, 30.0),
            trooper("blue-grunt-2", "blue", "blue-grunts", 37.5, 30.0),
            trooper("blue-grunt-3", "blue", "blue-grunts", 39.0, 30.0),
        ]
    })
}

struct Table<'a> {
    app: &'a TestApp,
    actions: String,
    path: String,
}

impl Table<'_> {
    async fn act(&self, token: &str, body: Value) -> Vec<Value> {
        events_of(&ok(self.app, &self.actions, token, body).await)
    }

    async fn refused(&self, token: &str, body: Value, code: &str, rule: &str) {
        let reply = self.app.request("POST", &self.actions, Some(token), Some(body)).await;
        assert_problem(&reply, 422, code);
        let said = reply.body["rule"].as_str().unwrap_or_default();
        assert!(said.contains(rule), "{code} should cite {rule}, said {said}");
    }

    /// Activate, do nothing, end the activation.
    async fn idle(&self, token: &str, activation: &str) {
        self.act(token, json!({"type": "activate", "activation": activation})).await;
        self.act(token, json!({"type": "end_activation"})).await;
    }

    async fn model(&self, id: &str) -> Value {
        let view = self.app.request("GET", &self.path, None, None).await;
        assert_eq!(view.status, 200, "{:#}", view.body);
        view.body["models"]
            .as_array()
            .and_then(|models| models.iter().find(|m| m["id"] == id).cloned())
            .unwrap_or_default()
    }
}

#[actix_web::test]
async fn two_full_rounds_of_a_small_battle_are_played_refused_where_illegal_and_verified() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(battle())).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let id = created.body["stream"].as_str().unwrap_or_default().trim_start_matches("battle-").to_string();
    let table = Table { app: &app, actions: format!("/v1/battles/{id}/actions"), path: format!("/v1/battles/{id}") };
    let (alice, bob) = (cast.alice.as_str(), cast.bob.as_str());

    // A player cannot act for the other side.
    let reply = app.request("POST", &table.actions, Some(bob), Some(json!({"type": "start_turn"}))).await;
    assert_eq!(reply.status, 403, "{:#}", reply.body);

    // ---- Turn 1, red. Maintenance and control: focus to ARC, jacks power up, 1 focus allocated.
    let events = table
        .act(alice, json!({"type": "start_turn", "control": {"allocate": [{"warjack": "red-jack-1", "focus": 1}]}}))
        .await;
    assert!(find(&events, "warmachine.TurnStarted").is_some());
    let powered: Vec<&Value> = events.iter().filter(|e| e["type"] == "warmachine.PoweredUp").collect();
    assert_eq!(powered.len(), 2, "both red jacks are in control range");
    assert_eq!(table.model("red-jack-1").await["focus"], 2);
    assert_eq!(table.model("red-caster").await["focus"], 5);

    // A retry with the same Idempotency-Key answers the first result; the same key for another
    // action is a conflict, never mistaken for it.
    let activate_caster = json!({"type": "activate", "activation": "red-caster"});
    let key = [("Idempotency-Key", "red-activation-1")];
    let first = app.request_with("POST", &table.actions, Some(alice), Some(activate_caster.clone()), &key).await;
    assert_eq!(first.status, 200, "{:#}", first.body);
    let again = app.request_with("POST", &table.actions, Some(alice), Some(activate_caster), &key).await;
    assert_eq!((again.status, again.body["replayed"].clone()), (200, json!(true)), "{:#}", again.body);
    let other = json!({"type": "activate", "activation": "red-jack-2"});
    let reused = app.request_with("POST", &table.actions, Some(alice), Some(other), &key).await;
    assert_problem(&reused, 409, "conflict");
    table.act(alice, json!({"type": "move", "model": "red-caster", "movement": {"kind": "full_advance", "path": [{"x": 24.0, "y": 12.0}]}})).await;
    table.act(alice, json!({"type": "end_activation"})).await;

    // A run: SPD + 5", one focus spent, the activation ends at once.
    table.act(alice, json!({"type": "activate", "activation": "red-jack-1"})).await;
    table.refused(alice, json!({"type": "move", "model": "red-jack-1", "movement": {"kind": "run", "path": [{"x": 20.0, "y": 21.5}]}}), "warmachine.movement.too_far", "Run").await;
    let events = table.act(alice, json!({"type": "move", "model": "red-jack-1", "movement": {"kind": "run", "path": [{"x": 20.0, "y": 20.0}]}})).await;
    assert_eq!(find(&events, "warmachine.Advanced").map(|e| e["data"]["cost"].clone()), Some(json!("focus")));
    assert!(find(&events, "warmachine.ActivationEnded").is_some(), "running ends the activation");
    assert_eq!(table.model("red-jack-1").await["focus"], 1);

    // Aim, then a ranged attack: 2d6 + RAT + 2 against DEF, every die recorded.
    table.act(alice, json!({"type": "activate", "activation": "red-jack-2"})).await;
    table.act(alice, json!({"type": "move", "model": "red-jack-2", "movement": {"kind": "aim"}})).await;
    let events = table
        .act(alice, json!({"type": "attack", "attacker": "red-jack-2", "weapon": "Rifle", "target": "blue-jack-1"}))
        .await;
    let attack = find(&events, "warmachine.AttackResolved").expect("an attack");
    assert_eq!(attack["data"]["roll"]["aim_bonus"], 2);
    assert_eq!(attack["data"]["roll"]["roll"]["draws"].as_array().map(Vec::len), Some(2));
    // ROF 1: a second initial attack with the rifle is refused.
    table
        .refused(
            alice,
            json!({"type": "attack", "attacker": "red-jack-2", "weapon": "Rifle", "target": "blue-jack-1"}),
            "warmachine.attack.rate_of_fire",
            "Weapon Statistics",
        )
        .await;
    table.act(alice, json!({"type": "end_activation"})).await;

    // Unit movement: one trooper moves, the others are placed within 2" with line of sight.
    table.act(alice, json!({"type": "activate", "activation": "red-grunts"})).await;
    table.refused(alice, json!({"type": "move", "model": "red-grunt-1", "movement": {"kind": "full_advance", "path": [{"x": 10.0, "y": 15.0}]},
        "placement": {"placed": [{"model": "red-grunt-2", "at": {"x": 11.5, "y": 15.0}}, {"model": "red-grunt-3", "at": {"x": 14.0, "y": 15.0}}]}}),
        "warmachine.movement.unit_coherency", "Unit Movement").await;
    let events = table.act(alice, json!({"type": "move", "model": "red-grunt-1", "movement": {"kind": "full_advance", "path": [{"x": 10.0, "y": 15.0}]},
        "placement": {"placed": [{"model": "red-grunt-2", "at": {"x": 11.5, "y": 15.0}}, {"model": "red-grunt-3", "at": {"x": 11.0, "y": 16.4}}]}})).await;
    assert!(find(&events, "warmachine.TroopersPlaced").is_some());
    table.act(alice, json!({"type": "end_activation"})).await;
    table.act(alice, json!({"type": "end_turn"})).await;

    // ---- Turn 2, blue.
    table
        .act(bob, json!({"type": "start_turn", "control": {"allocate": [{"warjack": "blue-jack-1", "focus": 1}]}}))
        .await;
    assert_eq!(table.model("blue-jack-2").await["focus"], 0, "out of control range: no power up");

    // A charge without line of sight is refused (the wall is an obstruction).
    table.act(bob, json!({"type": "activate", "activation": "blue-grunts"})).await;
    table.refused(bob, json!({"type": "move", "model": "blue-grunt-1", "movement": {"kind": "charge", "target": "red-jack-2", "to": {"x": 30.0, "y": 22.0}}}),
        "warmachine.charge_no_line_of_sight", "Independent model charges").await;
    table.act(bob, json!({"type": "move", "model": "blue-grunt-1", "movement": {"kind": "full_advance", "path": [{"x": 36.0, "y": 26.0}]},
        "placement": {"placed": [{"model": "blue-grunt-2", "at": {"x": 37.5, "y": 26.0}}, {"model": "blue-grunt-3", "at": {"x": 36.0, "y": 27.5}}]}})).await;
    table.act(bob, json!({"type": "end_activation"})).await;

    // A warjack with no focus cannot run.
    table.act(bob, json!({"type": "activate", "activation": "blue-jack-2"})).await;
    table.refused(bob, json!({"type": "move", "model": "blue-jack-2", "movement": {"kind": "run", "path": [{"x": 44.0, "y": 24.0}]}}),
        "warmachine.run_needs_focus", "Run").await;
    table.act(bob, json!({"type": "move", "model": "blue-jack-2", "movement": {"kind": "full_advance", "path": [{"x": 44.0, "y": 25.0}]}})).await;
    table.act(bob, json!({"type": "end_activation"})).await;

    // A charge of more than 3": a charge attack whose damage roll is boosted by the charge, so
    // boosting it again is refused (seed 000's EXAMPLE).
    table.act(bob, json!({"type": "activate", "activation": "blue-jack-1"})).await;
    let events = table.act(bob, json!({"type": "move", "model": "blue-jack-1", "movement": {"kind": "charge", "target": "red-jack-1", "to": {"x": 20.0, "y": 21.6}}})).await;
    let charged = find(&events, "warmachine.Charged").expect("a charge");
    assert_eq!(charged["data"]["in_melee_range"], true, "{charged:#}");
    assert_eq!(charged["data"]["charge_attack"], true, "{charged:#}");
    table.refused(bob, json!({"type": "attack", "attacker": "blue-jack-1", "weapon": "Fist", "target": "red-jack-1", "boost_damage": true}),
        "warmachine.damage.charge_already_boosted", "Additional Dice and Boosted Rolls").await;
    let events = table
        .act(bob, json!({"type": "attack", "attacker": "blue-jack-1", "weapon": "Fist", "target": "red-jack-1"}))
        .await;
    let attack = find(&events, "warmachine.AttackResolved").expect("the charge attack");
    assert_eq!(attack["data"]["charge_attack"], true);
    if attack["data"]["roll"]["hit"] == true {
        assert_eq!(attack["data"]["damage"][0]["roll"]["roll"]["options"]["auto_boosted"], true, "{attack:#}");
    }
    table.act(bob, json!({"type": "end_activation"})).await;

    // Every model activates once per turn.
    let reply = app.request("POST", &table.actions, Some(bob), Some(json!({"type": "end_turn"}))).await;
    assert_problem(&reply, 422, "warmachine.not_all_activated");
    table.idle(bob, "blue-caster").await;
    table.act(bob, json!({"type": "end_turn"})).await;

    // ---- Turn 3, red: the engaged warjack strikes back; the others hold.
    table.act(alice, json!({"type": "start_turn"})).await;
    assert_eq!(table.model("red-jack-1").await["engaged"], true);
    table.act(alice, json!({"type": "activate", "activation": "red-jack-1"})).await;
    table.act(alice, json!({"type": "move", "model": "red-jack-1", "movement": {"kind": "forfeit"}})).await;
    table
        .act(alice, json!({"type": "attack", "attacker": "red-jack-1", "weapon": "Fist", "target": "blue-jack-1"}))
        .await;
    table.act(alice, json!({"type": "end_activation"})).await;
    for activation in ["red-caster", "red-jack-2", "red-grunts"] {
        table.idle(alice, activation).await;
    }
    table
        .refused(
            alice,
            json!({"type": "activate", "activation": "red-caster"}),
            "warmachine.already_activated",
            "Activation Phase",
        )
        .await;
    table.act(alice, json!({"type": "end_turn"})).await;

    // ---- Turn 4, blue.
    table.act(bob, json!({"type": "start_turn"})).await;
    for activation in ["blue-caster", "blue-jack-1", "blue-jack-2", "blue-grunts"] {
        table.idle(bob, activation).await;
    }
    table.act(bob, json!({"type": "end_turn"})).await;

    // The views: every model with its position, damage, focus and conditions; the table SVG now
    // and as of any version; the battle in the listing.
    let view = app.request("GET", &table.path, None, None).await;
    assert_eq!(view.body["turn"], 4, "{:#}", view.body);
    assert_eq!(view.body["models"].as_array().map(Vec::len), Some(12));
    let svg = app.request("GET", &format!("{}/table.svg", table.path), None, None).await;
    assert_eq!(svg.status, 200);
    let text = svg.body.as_str().unwrap_or_default();
    assert!(text.starts_with("<svg") || text.starts_with("<?xml"), "{text}");
    assert!(text.contains("red-jack-1") && text.contains("wall"));
    let early = app.request("GET", &format!("{}/table.svg?at=1", table.path), None, None).await;
    assert_eq!(early.status, 200);
    let listing = app.request("GET", "/v1/battles", None, None).await;
    assert!(listing
        .body
        .as_array()
        .is_some_and(|all| all.iter().any(|b| b["id"] == id.as_str() && b["ruleset"] == "warmachine")));
    // Coalition actions on a warmachine battle are refused, not misread.
    let reply = app.request("POST", &format!("{}/resolve", table.path), Some(&cast.judge), Some(json!({}))).await;
    assert_problem(&reply, 422, "battle.wrong_ruleset");

    // The judge ends the battle; the seed is revealed at once and anyone can verify every die.
    let events = table.act(&cast.judge, json!({"type": "end_battle", "reason": "two rounds played"})).await;
    assert!(find(&events, "warmachine.SeedRevealed").is_some(), "{events:#?}");
    let verified = app.request("GET", &format!("{}/verify", table.path), None, None).await;
    assert_eq!(verified.status, 200, "{:#}", verified.body);
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    assert_eq!(verified.body["rules"], "warmachine@2");
}

#[actix_web::test]
async fn a_coalition_battle_fought_out_as_a_warmachine_battle_takes_its_result() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let coalition = crate::support::create_sample(&app, &cast).await;
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(battle())).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let fought = created.body["stream"].as_str().unwrap_or_default().trim_start_matches("battle-").to_string();
    let apply = |sides: Value| json!({"battle": fought, "sides": sides, "reason": "fought out on the table"});
    let path = coalition.at("/tactical-result");

    // Not before the warmachine battle has a winner.
    let reply = app.request("POST", &path, Some(&cast.judge), Some(apply(json!({"a": "red", "b": "blue"})))).await;
    assert_problem(&reply, 422, "battle.tactical_not_decided");
    // Bob concedes: red (alice) wins. Nobody loses a model, so nobody loses troops.
    ok(
        &app,
        &format!("/v1/battles/{fought}/actions"),
        &cast.bob,
        json!({"type": "end_battle", "winner": "red", "reason": "concede"}),
    )
    .await;
    // Sides must match who controls which army.
    let reply = app.request("POST", &path, Some(&cast.judge), Some(apply(json!({"a": "blue", "b": "red"})))).await;
    assert_problem(&reply, 422, "battle.tactical_sides");
    let reply = app.request("POST", &path, Some(&cast.alice), Some(apply(json!({"a": "red", "b": "blue"})))).await;
    assert_eq!(reply.status, 403, "{:#}", reply.body);

    let reply = ok(&app, &path, &cast.judge, apply(json!({"a": "red", "b": "blue"}))).await;
    let events = events_of(&reply);
    let applied = find(&events, "coalition.TacticalResultApplied").expect("the result applied");
    assert_eq!(applied["data"]["winner"], "a");
    assert_eq!(applied["data"]["models_lost"]["a"], json!({"fielded": 6, "destroyed": 0}));
    assert_eq!(applied["data"]["casualties"]["b"]["total"], 0);
    let view = app.request("GET", &coalition.path(), None, None).await;
    assert_eq!(view.body["winner"], "a", "{:#}", view.body);
    // The coalition battle has ended: its seed is revealed and it verifies for anyone.
    let verified = app.request("GET", &coalition.at("/verify"), None, None).await;
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    // Once applied, the battle is over.
    let reply = app.request("POST", &path, Some(&cast.judge), Some(apply(json!({"a": "red", "b": "blue"})))).await;
    assert_eq!(reply.status, 422, "{:#}", reply.body);
}

/// Issue 15 item 4: a set-up past a cap is a 422 problem naming the limit, nothing is written,
/// and the spec shows the cap as `maxItems`.
#[tokio::test]
async fn a_set_up_with_more_models_than_the_cap_is_refused_naming_the_limit() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let mut body = battle();
    let models: Vec<Value> = (0..201)
        .map(|i| {
            trooper(
                &format!("grunt-{i}"),
                "red",
                "grunts",
                1.0 + f64::from(i % 20) * 2.0,
                1.0 + f64::from(i / 20) * 2.0,
            )
        })
        .collect();
    body["models"] = Value::Array(models);
    let refused = app.request("POST", "/v1/battles", Some(&cast.judge), Some(body)).await;
    assert_problem(&refused, 422, "warmachine.model_count");
    assert_eq!(refused.body["rule"], json!("herald: docs/API.md \"Limits\""), "{:#}", refused.body);
    let detail = refused.body["detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("models holds 201 models; at most 200 models"), "{detail}");
    let listed = app.request("GET", "/v1/battles", None, None).await;
    assert_eq!(listed.body.as_array().map(Vec::len), Some(0), "nothing was written: {:#}", listed.body);
    let spec = app.request("GET", "/openapi.json", None, None).await;
    assert_eq!(spec.body.pointer("/components/schemas/WarmachineSetup/properties/models/maxItems"), Some(&json!(200)));
    app.stop().await;
}
