//! A percentile-skirmish battle (seed 002) played over HTTP: sealed declarations, a walk to an
//! enemy and open combat with sealed picks, a spell, an attack of opportunity and a range
//! attack, illegal actions refused with problem+json naming the code and the seed's heading,
//! the views and the table picture; the judge ends it, and an anonymous reader verifies every
//! die. A second test fights a coalition battle out under it and applies the result back.

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::{assert_problem, events_of, find, ok, stream_events, Cast, SEED};

fn card(name: &str, level: u32, initiative: i32, life: u32, weapons: Value) -> Value {
    json!({"name": name, "level": level, "movement": 4.0, "initiative": initiative, "life": life, "weapons": weapons})
}

fn battle() -> Value {
    let sword = json!([{"name": "Sword", "kind": "melee", "damage": "d6"}]);
    let bow = json!([{"name": "Bow", "kind": "ranged", "range": 24.0, "damage": "d8"}, {"name": "Dagger", "kind": "melee", "damage": "d4"}]);
    let mut knight = card("Knight", 3, 10, 20, sword.clone());
    knight["armour"] = json!([{"name": "Mail", "slot": "body", "protection": 2, "metal": true}]);
    knight["resistances"] = json!(["fire"]);
    knight["points"] = json!(60);
    let mut mage = card("Mage", 4, 9, 12, json!([{"name": "Staff", "kind": "melee", "damage": "d4"}]));
    mage["spell_points"] = json!(60);
    mage["spells"] = json!(["flying_fist", "speed"]);
    json!({
        "ruleset": "percentile-skirmish",
        "seed": SEED,
        "table": {"width": 36.0, "depth": 24.0, "terrain": [
            {"name": "King's road", "kind": "road", "shape": {"kind": "rect", "min": {"x": 0.0, "y": 9.0}, "max": {"x": 36.0, "y": 11.0}}},
            {"name": "Mill stream", "kind": "water", "shape": {"kind": "band", "points": [{"x": 30.0, "y": 0.0}, {"x": 30.0, "y": 24.0}], "width": 0.5}}
        ]},
        "participants": [{"name": "red", "controller": "alice", "points_limit": 200}, {"name": "blue", "controller": "bob"}],
        "minis": [
            {"id": "red-knight", "participant": "red", "position": {"x": 10.0, "y": 10.0}, "facing": 0.0, "profile": knight},
            {"id": "red-archer", "participant": "red", "position": {"x": 14.0, "y": 11.0}, "facing": 90.0, "profile": card("Archer", 2, 8, 10, bow)},
            {"id": "blue-guard", "participant": "blue", "position": {"x": 14.0, "y": 10.0}, "facing": 180.0, "profile": card("Guard", 1, 10, 16, sword)},
            {"id": "blue-mage", "participant": "blue", "position": {"x": 24.0, "y": 10.0}, "facing": 180.0, "profile": mage}
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

    async fn refused(&self, token: &str, body: Value, status: u16, code: &str, rule: &str) {
        let reply = self.app.request("POST", &self.actions, Some(token), Some(body)).await;
        assert_problem(&reply, status, code);
        let said = reply.body["rule"].as_str().unwrap_or_default();
        assert!(said.contains(rule), "{code} should cite {rule}, said {said}");
    }

    async fn view(&self, token: Option<&str>) -> Value {
        let view = self.app.request("GET", &self.path, token, None).await;
        assert_eq!(view.status, 200, "{:#}", view.body);
        view.body
    }

    async fn mini(&self, id: &str) -> Value {
        let view = self.view(None).await;
        view["minis"].as_array().and_then(|minis| minis.iter().find(|m| m["id"] == id).cloned()).unwrap_or_default()
    }
}

async fn open(app: &TestApp, cast: &Cast) -> (String, String) {
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(battle())).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let stream = created.body["stream"].as_str().unwrap_or_default().to_string();
    let id = stream.trim_start_matches("battle-").to_string();
    (id, stream)
}

#[actix_web::test]
async fn a_skirmish_with_sealed_declarations_open_combat_a_spell_and_an_opportunity_is_refereed_and_verified() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (alice, bob) = (cast.alice.as_str(), cast.bob.as_str());

    // A set-up over its points limit is refused, naming the resistances' costs.
    let mut costly = battle();
    costly["participants"][0]["points_limit"] = json!(100);
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(costly)).await;
    assert_problem(&reply, 422, "percentile-skirmish.over_points");
    assert!(reply.body["rule"].as_str().unwrap_or_default().contains("RESISTANCES"));

    let (id, stream) = open(&app, &cast).await;
    let table = Table { app: &app, actions: format!("/v1/battles/{id}/actions"), path: format!("/v1/battles/{id}") };
    ok(&app, &format!("/v1/battles/{id}/entropy"), alice, json!({"entropy": "alice rolls for the knights"})).await;
    ok(&app, &format!("/v1/battles/{id}/entropy"), bob, json!({"entropy": "bob rolls for the guard"})).await;

    // ---- Turn 1, round 10: red and blue both have a mini of initiative 10.
    let view = table.view(None).await;
    assert_eq!((view["turn"].clone(), view["round"]["value"].clone()), (json!(1), json!(10)), "{view:#}");
    table
        .refused(
            alice,
            json!({"type": "declare", "participant": "red", "minis": ["red-archer"]}),
            422,
            "percentile-skirmish.initiative_too_low",
            "seed 002 \"TURN\"",
        )
        .await;
    table
        .refused(
            bob,
            json!({"type": "declare", "participant": "red", "minis": []}),
            403,
            "percentile-skirmish.not_your_participant",
            "herald",
        )
        .await;
    table.act(alice, json!({"type": "declare", "participant": "red", "minis": ["red-knight"]})).await;
    // Sealed: bob and anonymous readers see that red declared, not what.
    let for_bob = table.view(Some(bob)).await;
    let red = &for_bob["round"]["declarations"][0];
    assert_eq!((red["declared"].clone(), red["minis"].clone()), (json!(true), Value::Null), "{for_bob:#}");
    let events = stream_events(&app, &stream, None).await;
    assert_eq!(
        find(&events, "percentile-skirmish.Declared").map(|e| e["data"]["minis"].clone()),
        Some(json!("hidden"))
    );
    let events = stream_events(&app, &stream, Some(alice)).await;
    assert_eq!(
        find(&events, "percentile-skirmish.Declared").map(|e| e["data"]["minis"][0].clone()),
        Some(json!("red-knight"))
    );
    // The guard waits for a later round; now everything is public.
    let events = table.act(bob, json!({"type": "declare", "participant": "blue", "minis": []})).await;
    let declared = find(&events, "percentile-skirmish.RoundDeclared").expect("the round is declared");
    assert_eq!(declared["data"]["order"], json!(["red-knight"]));
    let events = stream_events(&app, &stream, None).await;
    assert_eq!(
        find(&events, "percentile-skirmish.Declared").map(|e| e["data"]["minis"][0].clone()),
        Some(json!("red-knight"))
    );

    // The knight walks along the road (4″ + 1″ road bonus would allow 5″) up to the guard.
    table
        .refused(
            alice,
            json!({"type": "move", "mini": "red-knight", "path": [{"x": 15.5, "y": 10.0}]}),
            422,
            "percentile-skirmish.too_far",
            "seed 002 \"TURN\"",
        )
        .await;
    let events =
        table.act(alice, json!({"type": "move", "mini": "red-knight", "path": [{"x": 13.2, "y": 10.0}]})).await;
    let moved = find(&events, "percentile-skirmish.Moved").expect("moved");
    assert_eq!(moved["data"]["allowance"]["road_bonus"], true);
    // Open combat: the guard faces the knight. Alice's pick is sealed from bob.
    let events = table
        .act(
            alice,
            json!({"type": "melee_attack", "attacker": "red-knight", "target": "blue-guard", "weapon": "Sword"}),
        )
        .await;
    assert!(find(&events, "percentile-skirmish.OpenCombatStarted").is_some());
    table
        .refused(
            bob,
            json!({"type": "choose_combat_option", "mini": "red-knight", "choice": "parry_and_counter_attack"}),
            403,
            "percentile-skirmish.not_your_mini",
            "herald",
        )
        .await;
    table
        .act(alice, json!({"type": "choose_combat_option", "mini": "red-knight", "choice": "swing_to_the_head"}))
        .await;
    let combat = table.view(Some(bob)).await["combat"].clone();
    assert_eq!(
        (combat["attacker_chosen"].clone(), combat["attacker_choice"].clone()),
        (json!(true), Value::Null),
        "{combat:#}"
    );
    table
        .refused(
            alice,
            json!({"type": "end_actions", "mini": "red-knight"}),
            422,
            "percentile-skirmish.combat_pending",
            "seed 002 \"Open combat\"",
        )
        .await;
    // Thrust to the body beats swing to the head: the guard hits, the knight misses.
    let events = table
        .act(bob, json!({"type": "choose_combat_option", "mini": "blue-guard", "choice": "thrust_to_the_body"}))
        .await;
    let resolved = find(&events, "percentile-skirmish.OpenCombatResolved").expect("resolved");
    assert_eq!(resolved["data"]["exchange"], "b_hits", "{resolved:#}");
    assert_eq!(resolved["data"]["attacker_choice"], "swing_to_the_head");
    let hit = &resolved["data"]["damage"][0];
    assert_eq!(hit["mini"], "red-knight");
    assert_eq!(hit["damage"]["armour"], 2, "the knight's mail");
    table.act(alice, json!({"type": "end_actions", "mini": "red-knight"})).await;

    // ---- Round 9: the mage casts.
    table.act(bob, json!({"type": "declare", "participant": "blue", "minis": ["blue-mage"]})).await;
    table
        .refused(
            bob,
            json!({"type": "cast_spell", "caster": "blue-mage", "spell": "fireball", "at": {"x": 10.0, "y": 10.0}}),
            422,
            "percentile-skirmish.unknown_spell",
            "seed 002 \"SPELL DESCRIPTIONS\"",
        )
        .await;
    let events = table
        .act(bob, json!({"type": "cast_spell", "caster": "blue-mage", "spell": "flying_fist", "target": "red-knight"}))
        .await;
    let spell = find(&events, "percentile-skirmish.SpellCast").expect("cast");
    assert_eq!(spell["data"]["cost"], 5);
    let outcome = &spell["data"]["outcomes"][0];
    assert_eq!(outcome["roll"]["sides"], 100, "{outcome:#}");
    assert_eq!(outcome["band"], "long", "10.8″ of the mage's 16″");
    assert_eq!(outcome["chance"]["chance"], 39, "35% + level 4");
    assert_eq!(table.mini("blue-mage").await["spell_points"], 55);
    table.act(bob, json!({"type": "end_actions", "mini": "blue-mage"})).await;

    // ---- Round 8: the archer steps away from the guard: an attack of opportunity.
    table.act(alice, json!({"type": "declare", "participant": "red", "minis": ["red-archer"]})).await;
    table.act(bob, json!({"type": "declare", "participant": "blue", "minis": []})).await;
    let events =
        table.act(alice, json!({"type": "move", "mini": "red-archer", "path": [{"x": 14.0, "y": 14.0}]})).await;
    assert_eq!(
        find(&events, "percentile-skirmish.Moved").map(|e| e["data"]["provoked"].clone()),
        Some(json!(["blue-guard"]))
    );
    table
        .refused(
            alice,
            json!({"type": "ranged_attack", "attacker": "red-archer", "target": "blue-mage", "weapon": "Bow"}),
            422,
            "percentile-skirmish.opportunity_pending",
            "seed 002 \"Attack of opportunity\"",
        )
        .await;
    let events = table
        .act(bob, json!({"type": "attack_of_opportunity", "attacker": "blue-guard", "target": "red-archer"}))
        .await;
    let attack = find(&events, "percentile-skirmish.Attacked").expect("the attack of opportunity");
    assert_eq!(
        (attack["data"]["kind"].clone(), attack["data"]["chance"]["chance"].clone()),
        (json!("opportunity"), json!(52))
    );
    let events = table
        .act(alice, json!({"type": "ranged_attack", "attacker": "red-archer", "target": "blue-mage", "weapon": "Bow"}))
        .await;
    let shot = find(&events, "percentile-skirmish.Attacked").expect("the shot");
    assert_eq!((shot["data"]["band"].clone(), shot["data"]["chance"]["chance"].clone()), (json!("medium"), json!(54)));
    let hit = shot["data"]["hit"] == true;
    assert_eq!(hit, shot["data"]["roll"]["value"].as_u64() <= shot["data"]["chance"]["chance"].as_u64());
    let events = table.act(alice, json!({"type": "end_actions", "mini": "red-archer"})).await;
    // No mini has an initiative below 8, but the guard waited: round 7 is offered to blue (seed
    // 002 INITIATIVE: "wait to perform actions on a later initiative round").
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        kinds,
        ["percentile-skirmish.ActionsEnded", "percentile-skirmish.RoundEnded", "percentile-skirmish.RoundStarted"],
        "{events:#?}"
    );
    let view = table.view(None).await;
    assert_eq!((view["turn"].clone(), view["round"]["value"].clone()), (json!(1), json!(7)), "{view:#}");
    // The guard lets that round go too: the turn ends, turn 2 begins.
    let events = table.act(bob, json!({"type": "declare", "participant": "blue", "minis": []})).await;
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        kinds,
        [
            "percentile-skirmish.Declared",
            "percentile-skirmish.RoundDeclared",
            "percentile-skirmish.RoundEnded",
            "percentile-skirmish.TurnEnded",
            "percentile-skirmish.TurnStarted",
            "percentile-skirmish.RoundStarted"
        ],
        "{events:#?}"
    );
    assert_eq!(table.view(None).await["turn"], 2);

    // The views and the picture.
    // The dice depend on the battle's stream name (a new UUID each run), so how much the guard's
    // hit and the spell took is whatever their damage records say: the view agrees with the last.
    let knight = table.mini("red-knight").await;
    let log = Value::Array(stream_events(&app, &stream, None).await);
    let mut left = Vec::new();
    collect_life_left(&log, "red-knight", &mut left);
    assert!(!left.is_empty(), "the guard's hit is recorded: {log:#}");
    assert_eq!(knight["life"].as_u64(), left.last().copied(), "{knight:#}");
    assert_eq!(knight["resistances"], json!([{"resistance": "fire", "cost": 50}]));
    assert_eq!(knight["points"], 110);
    let svg = app.request("GET", &format!("{}/table.svg", table.path), None, None).await;
    assert_eq!(svg.status, 200);
    let text = svg.body.as_str().unwrap_or_default();
    assert!(text.starts_with("<svg") && text.contains("Mill stream") && text.contains("red-knight"), "{text}");
    let listing = app.request("GET", "/v1/battles", None, None).await;
    assert!(listing
        .body
        .as_array()
        .is_some_and(|all| all.iter().any(|b| b["id"] == id.as_str() && b["ruleset"] == "percentile-skirmish")));

    // Verification is a judge's until the seed is public; the judge ends the battle, the seed is
    // revealed in the same response, and anyone verifies every die.
    let early = app.request("GET", &format!("{}/verify", table.path), None, None).await;
    assert_eq!(early.status, 403, "{:#}", early.body);
    let events =
        table.act(&cast.judge, json!({"type": "end_battle", "winner": "red", "reason": "one turn played"})).await;
    assert!(find(&events, "dice.SeedRevealed").is_some(), "{events:#?}");
    let verified = app.request("GET", &format!("{}/verify", table.path), None, None).await;
    assert_eq!(verified.status, 200, "{:#}", verified.body);
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    assert_eq!(verified.body["rules"], "percentile-skirmish@1");
    table
        .refused(
            alice,
            json!({"type": "end_actions", "mini": "red-knight"}),
            422,
            "percentile-skirmish.ended",
            "herald",
        )
        .await;
}

#[actix_web::test]
async fn a_coalition_battle_fought_out_as_a_percentile_skirmish_takes_its_result() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let coalition = crate::support::create_sample(&app, &cast).await;
    let (fought, _) = open(&app, &cast).await;
    let apply = |sides: Value| json!({"battle": fought, "sides": sides, "reason": "fought out at the mill"});
    let path = coalition.at("/tactical-result");
    let reply = app.request("POST", &path, Some(&cast.judge), Some(apply(json!({"a": "red", "b": "blue"})))).await;
    assert_problem(&reply, 422, "battle.tactical_not_decided");
    ok(
        &app,
        &format!("/v1/battles/{fought}/actions"),
        &cast.bob,
        json!({"type": "end_battle", "winner": "red", "reason": "concede"}),
    )
    .await;
    let reply = ok(&app, &path, &cast.judge, apply(json!({"a": "red", "b": "blue"}))).await;
    let events = events_of(&reply);
    let applied = find(&events, "coalition.TacticalResultApplied").expect("the result applied");
    assert_eq!(applied["data"]["winner"], "a");
    assert_eq!(applied["data"]["models_lost"]["a"], json!({"fielded": 2, "destroyed": 0}));
}

/// Every `life_left` recorded for `mini` in damage records anywhere in `value`, in order.
fn collect_life_left(value: &Value, mini: &str, found: &mut Vec<u64>) {
    match value {
        Value::Object(fields) => {
            if fields.get("mini").and_then(Value::as_str) == Some(mini) {
                if let Some(left) = fields.get("life_left").and_then(Value::as_u64) {
                    found.push(left);
                }
            }
            fields.values().for_each(|field| collect_life_left(field, mini, found));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_life_left(item, mini, found)),
        _ => {}
    }
}
