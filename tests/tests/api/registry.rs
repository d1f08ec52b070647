//! The ruleset registry over HTTP: the registered rulesets are listed with their schemas; every
//! battle ruleset shares one route set (ids as `<uuid>` or `battle-<uuid>`, actions, pictures);
//! a judge rolls dice on any stream and the roll is verified like every other die.

use herald_tests::spawn_app;
use serde_json::{json, Value};

use crate::support::*;

#[tokio::test]
async fn the_registered_rulesets_are_listed_with_their_rules_schemas_and_docs() {
    let app = spawn_app().await;
    let listed = app.request("GET", "/v1/rulesets", None, None).await;
    assert_eq!(listed.status, 200, "{:#}", listed.body);
    let rulesets = listed.body.as_array().expect("a list");
    let find = |kind: &str, id: &str| {
        rulesets.iter().find(|r| r["kind"] == kind && r["id"] == id).unwrap_or_else(|| panic!("{kind} {id}"))
    };
    let campaign = find("campaign", "coalition");
    assert_eq!(campaign["rules"], "coalition-campaign@4");
    assert_eq!(campaign["picture"], "map.svg");
    assert_eq!(find("battle", "coalition")["tactical"], false);
    let spec = app.request("GET", "/openapi.json", None, None).await;
    for ruleset in rulesets {
        assert!(ruleset["docs"].as_str().is_some_and(|docs| docs.starts_with("docs/rulesets/")), "{ruleset:#}");
        for part in ["setup", "command", "event", "view"] {
            let name = ruleset["schemas"][part].as_str().expect("a schema name");
            assert!(spec.body["components"]["schemas"].get(name).is_some(), "{name} is in the OpenAPI document");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_battle_is_addressed_by_its_uuid_or_its_stream_name_and_played_through_the_shared_routes() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let by_stream = app.request("GET", &format!("/v1/battles/{}", battle.stream), None, None).await;
    assert_eq!(by_stream.status, 200, "{:#}", by_stream.body);
    assert_eq!(by_stream.body["ruleset"], "coalition");
    assert_eq!(by_stream.body["id"], battle.id.as_str());
    // The coalition battle's commands are actions too.
    let action = json!({"type": "submit_strategy", "side": "a", "strategy": "hold the ford"});
    let reply =
        app.request("POST", &format!("/v1/battles/{}/actions", battle.stream), Some(&cast.alice), Some(action)).await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    assert_eq!(events_of(&reply)[0]["type"], "coalition.StrategySubmitted");
    assert_eq!(events_of(&reply)[0]["data"]["type"], "coalition.StrategySubmitted", "the payload carries its type");
    // Opening a battle and revealing a seed have their own routes.
    let create_again = json!({"type": "create_battle"});
    let reply = app.request("POST", &battle.at("/actions"), Some(&cast.judge), Some(create_again)).await;
    assert_problem(&reply, 400, "malformed_request");
    // A coalition battle draws no picture.
    let picture = app.request("GET", &battle.at("/table.svg"), None, None).await;
    assert_problem(&picture, 404, "not_found");
    let unknown = app.request("POST", "/v1/battles", Some(&cast.judge), Some(json!({"ruleset": "chess"}))).await;
    assert_problem(&unknown, 400, "malformed_request");
    assert!(unknown.body["detail"].as_str().is_some_and(|d| d.contains("chess") && d.contains("coalition")));
    let listing = app.request("GET", "/v1/battles", None, None).await;
    let line = &listing.body[0];
    assert_eq!((line["ruleset"].as_str(), line["rules"].as_str()), (Some("coalition"), Some("coalition-battle@2")));
    assert_eq!(line["participants"], json!(["Sai Rei", "Plague Host"]));
    app.stop().await;
}

fn judge_roll(expression: &str, purpose: &str, halve: Value) -> Value {
    json!({"expression": expression, "purpose": purpose, "halve": halve})
}

#[tokio::test]
async fn a_judge_rolls_on_a_battle_stream_and_anyone_verifies_the_roll_once_the_seed_is_revealed() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let rolls = format!("/v1/streams/{}/rolls", battle.stream);
    // seed 000 "Dice and Rounding": a d3 is a d6 halved and rounded up; halving rounds up.
    let reply = ok(&app, &rolls, &cast.judge, judge_roll("d3", "which flank the fog covers", Value::Null)).await;
    let rolled = find(&events_of(&reply), "dice.JudgeRolled").expect("the roll").clone();
    let drawn = rolled["data"]["roll"]["draws"][0]["value"].as_u64().expect("a d6 drawn");
    assert_eq!(rolled["data"]["roll"]["draws"][0]["sides"], 6);
    assert_eq!(rolled["data"]["result"].as_f64(), Some(drawn.div_ceil(2) as f64));
    let reply = ok(&app, &rolls, &cast.judge, judge_roll("2d6+3", "a halved total", json!("round_up"))).await;
    let halved = &events_of(&reply)[0]["data"];
    let total = halved["roll"]["total"].as_i64().expect("a total");
    assert_eq!(halved["result"].as_f64(), Some(((total + 1) / 2) as f64));
    // Only judges roll for the judge; a bad expression is a 400 naming it.
    let refused = app.request("POST", &rolls, Some(&cast.alice), Some(judge_roll("d6", "mine", Value::Null))).await;
    assert_problem(&refused, 403, "coalition.battle.judge_roll.not_a_judge");
    let bad = app.request("POST", &rolls, Some(&cast.judge), Some(judge_roll("2d", "x", Value::Null))).await;
    assert_problem(&bad, 400, "malformed_request");
    let missing = app
        .request(
            "POST",
            "/v1/streams/battle-nothing/rolls",
            Some(&cast.judge),
            Some(judge_roll("d6", "x", Value::Null)),
        )
        .await;
    assert_problem(&missing, 404, "not_found");
    // The judge's dice were the battle's first: entropy is closed.
    let late = app.request("POST", &battle.at("/entropy"), Some(&cast.alice), Some(json!({"entropy": "x"}))).await;
    assert_eq!(late.status, 422, "{:#}", late.body);
    // The battle is fought; its seed is revealed when it ends; anyone verifies every die.
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": "hold"})).await;
    ok(&app, &battle.at("/strategies"), &cast.bob, json!({"side": "b", "strategy": "swarm"})).await;
    ok(&app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "a", "bonus": 5})).await;
    ok(&app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "b", "bonus": 5})).await;
    resolve(&app, &cast, &battle).await;
    let verified = app.request("GET", &battle.at("/verify"), None, None).await;
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    // After the reveal a judge's die would be predictable: refused.
    let after = app.request("POST", &rolls, Some(&cast.judge), Some(judge_roll("d6", "too late", Value::Null))).await;
    assert_problem(&after, 422, "coalition.battle.judge_roll.seed_revealed");
    app.stop().await;
}

#[tokio::test]
async fn a_judge_rolls_on_a_campaign_stream_for_a_sanction_and_the_roll_replays() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let army = |name: &str, team: &str, colors: Value, creature: &str, color: &str| {
        json!({"name": name, "team": team, "rank": "cpl_lt_commander", "creator": null, "colors": colors, "legend": null,
               "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]})
    };
    let body = json!({
        "name": "Round 1",
        "armies": [
            {"army": army("Sai Rei", "coalition", json!(["red", "green", "blue"]), "Kris Mage", "red"),
             "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
            {"army": army("Plague Host", "phyrexia", json!([]), "Phyrexian Broodling", "black"),
             "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
        ],
        "options": {"enforce_army_counts": false, "enforce_site_counts": false}
    });
    let created = app.request("POST", "/v1/campaigns", Some(&cast.judge), Some(body)).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let stream = created.body["stream"].as_str().expect("stream").to_string();
    // seed 003 §5.4.1: a sanction's severity is multiplied by a die.
    let reply = ok(
        &app,
        &format!("/v1/streams/{stream}/rolls"),
        &cast.judge,
        judge_roll("d6", "sanction on Sai Rei", Value::Null),
    )
    .await;
    let events = events_of(&reply);
    let rolled = find(&events, "dice.JudgeRolled").expect("the roll");
    assert_eq!(rolled["rules"], "coalition-campaign@4");
    // The campaign's seed stays sealed: a judge verifies it, an anonymous reader may not yet.
    let verified = app.request("GET", &format!("/v1/streams/{stream}/verify"), Some(&cast.judge), None).await;
    assert_eq!(verified.body["result"], "verified", "{:#}", verified.body);
    let sealed = app.request("GET", &format!("/v1/streams/{stream}/verify"), None, None).await;
    assert_problem(&sealed, 403, "verify.seed_sealed");
    app.stop().await;
}
