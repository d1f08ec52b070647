//! A small campaign round over HTTP: set up, two turns of orders in the seed's text format,
//! lock, adjudicate, the battle the armies meet in fought in its own stream, its result applied
//! next turn with the loser bumped, the turn report text and the SVG map (seed 003 ch. 1–4).

use herald_tests::{spawn_app, TestApp};
use serde_json::{json, Value};

use crate::support::{in_a_day, Cast};

fn army(name: &str, team: &str, colors: Value, creature: &str, color: &str) -> Value {
    json!({
        "name": name, "team": team, "rank": "cpl_lt_commander", "creator": null, "colors": colors, "legend": null,
        "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]
    })
}

pub async fn create(app: &TestApp, cast: &Cast) -> (String, String) {
    let body = json!({
        "name": "Round 1",
        "map": {"bounds": {"columns": 14, "rows": 38}, "terrain": {"8E": "swamp"}, "default_terrain": "plains",
                "sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"}, "win_condition": true}}},
        "armies": [
            {"army": army("Sai Rei", "coalition", json!(["red", "green", "blue"]), "Kris Mage", "red"),
             "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
            {"army": army("Plague Host", "phyrexia", json!([]), "Phyrexian Broodling", "black"),
             "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
        ],
        "options": {"enforce_army_counts": false, "enforce_site_counts": false}
    });
    let reply = app.request("POST", "/v1/campaigns", Some(&cast.judge), Some(body)).await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    let stream = reply.body["stream"].as_str().expect("stream").to_string();
    let id = stream.trim_start_matches("campaign-").to_string();
    (id, stream)
}

pub async fn turn(app: &TestApp, cast: &Cast, id: &str, orders: &[(&str, &str)]) -> Value {
    let opened = app
        .request("POST", &format!("/v1/campaigns/{id}/turns"), Some(&cast.judge), Some(json!({"deadline": in_a_day()})))
        .await;
    assert_eq!(opened.status, 200, "{:#}", opened.body);
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

pub fn events_of<'a>(reply: &'a Value, kind: &str) -> Vec<&'a Value> {
    reply["events"].as_array().expect("events").iter().filter(|e| e["type"] == kind).collect()
}

#[tokio::test]
async fn a_campaign_turn_moves_armies_opens_their_battle_and_applies_its_result_next_turn() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (id, _) = create(&app, &cast).await;

    // seed 003 §3.2.2.5 text orders; both armies end in 8E: a no-attacker battle (§4.1.2.3).
    let first = turn(&app, &cast, &id, &[("alice", "Sai Rei: 5E > 8E"), ("bob", "Plague Host: 9E > 8E")]).await;
    let announced = events_of(&first, "coalition.BattleAnnounced");
    assert_eq!(announced.len(), 1);
    let battle = announced[0]["data"]["battle"].as_str().expect("battle stream").to_string();
    let battle_id = battle.trim_start_matches("battle-").to_string();

    // The battle stream was opened by the service with both armies and a committed seed.
    let view = app.request("GET", &format!("/v1/battles/{battle_id}"), Some(&cast.judge), None).await;
    assert_eq!(view.status, 200, "{:#}", view.body);
    let side_of = |name: &str| if view.body["sides"]["a"]["army"]["name"] == name { "a" } else { "b" };
    let (alice_side, bob_side) = (side_of("Sai Rei"), side_of("Plague Host"));
    assert_ne!(alice_side, bob_side);
    assert_eq!(view.body["sides"][alice_side]["army"]["controller"], "alice");
    assert_eq!(view.body["terrain"], "swamp");
    for (token, side, text) in
        [(&cast.alice, alice_side, "Mages hold the bog"), (&cast.bob, bob_side, "Broodlings rush")]
    {
        let submitted = app
            .request(
                "POST",
                &format!("/v1/battles/{battle_id}/strategies"),
                Some(token),
                Some(json!({"side": side, "strategy": text})),
            )
            .await;
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

    // Next turn: the result is applied and the loser is moved next to the battle (§4.2.5).
    let second = turn(&app, &cast, &id, &[]).await;
    let applied = events_of(&second, "coalition.BattleResultApplied");
    assert_eq!(applied.len(), 1);
    let bumped = events_of(&second, "coalition.ArmyBumped");
    assert_eq!(bumped.len(), 1, "the loser leaves the battle square");
    assert_eq!(bumped[0]["data"]["from"], "8E");

    let armies = app.request("GET", &format!("/v1/campaigns/{id}/armies"), None, None).await;
    let troops: Vec<u64> =
        armies.body.as_array().expect("armies").iter().map(|a| a["troops"].as_u64().expect("n")).collect();
    assert!(troops.iter().all(|t| *t < 4000), "both armies lost troops: {troops:?}");

    // The turn reports as data and as the Movement Judge's forum post.
    let report = app.request("GET", &format!("/v1/campaigns/{id}/turns/1/report?format=text"), None, None).await;
    let text = report.body.as_str().expect("text");
    assert!(text.contains("Sai Rei: 5E > 8E"), "{text}");
    assert!(text.contains("no-attacker battle"), "{text}");
    let report = app.request("GET", &format!("/v1/campaigns/{id}/turns/2/report?format=text"), None, None).await;
    assert!(report.body.as_str().expect("text").contains("retreats from 8E"));
    assert_eq!(app.request("GET", &format!("/v1/campaigns/{id}/turns/9/report"), None, None).await.status, 404);

    // A third turn: the winner marches on with a long move, one leg a turn (§3.2.2.3).
    let armies = app.request("GET", &format!("/v1/campaigns/{id}/armies"), None, None).await;
    let sai_rei =
        armies.body.as_array().expect("armies").iter().find(|a| a["name"] == "Sai Rei").expect("alive").clone();
    let from = sai_rei["square"].as_str().expect("square").to_string();
    let (row, column) = from.split_at(from.len() - 1);
    let row: u32 = row.parse().expect("row");
    let long = format!("Sai Rei: {from} > {}{column} > {}{column}", row + 3, row + 6);
    let third = turn(&app, &cast, &id, &[("alice", long.as_str())]).await;
    assert!(events_of(&third, "coalition.MovementAdjudicated")[0]["data"]["long_moves"][0]["legs"].is_array());
    // Where each army ended is its move report's `to`: a round set up now repeats none of it in
    // `positions` (docs/PERFORMANCE.md, "Campaign").
    let movement = &events_of(&third, "coalition.MovementAdjudicated")[0]["data"];
    assert!(movement.get("positions").is_none(), "{movement:#}");
    let reports = movement["moves"].as_array().expect("reports");
    assert!(reports.iter().any(|report| report["army"] == "Sai Rei" && report["to"] == format!("{}{column}", row + 3)));
    let report = app.request("GET", &format!("/v1/campaigns/{id}/turns/3/report?format=text"), None, None).await;
    let text = report.body.as_str().expect("text");
    assert!(text.contains(&format!("Sai Rei: {from} > {}{column}", row + 3)), "{text}");

    // A judge replays every command of the round with the sealed root seed; anyone else replays
    // every adjudicated turn from its revealed turn seed (docs/DICE.md "Keys").
    let verify = format!("/v1/streams/campaign-{id}/verify");
    let report = app.request("GET", &verify, Some(&cast.judge), None).await;
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    let report = app.request("GET", &verify, Some(&cast.alice), None).await;
    assert_eq!(report.body["result"], "verified", "{:#}", report.body);
    // The root stays sealed until the round ends, and so does the key of the dice drawn since
    // the last adjudication (interval:3, published with turn 4's report).
    assert_eq!(report.body["sealed_keys"], serde_json::json!(["stream", "interval:3"]), "{:#}", report.body);
    let battle_report = app.request("GET", &format!("/v1/battles/{battle_id}/verify"), None, None).await;
    assert_eq!(battle_report.body["result"], "verified", "the battle's seed is revealed when it ends");

    // The SVG map, now and as of the first event.
    let svg = app.request("GET", &format!("/v1/campaigns/{id}/map.svg"), None, None).await;
    assert_eq!(svg.header("content-type").as_deref(), Some("image/svg+xml"));
    assert!(svg.body.as_str().expect("svg").contains("Sai Rei: CPL/Lt Cmdr army"));
    let then = app.request("GET", &format!("/v1/campaigns/{id}/map?at=2"), None, None).await;
    let squares: Vec<&Value> = then.body["armies"].as_array().expect("armies").iter().map(|a| &a["square"]).collect();
    assert_eq!(squares, vec!["9E", "5E"]);
    app.stop().await;
}

#[tokio::test]
async fn orders_break_no_rule_silently() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (id, _) = create(&app, &cast).await;
    let url = format!("/v1/campaigns/{id}/orders");
    // No open turn yet (seed 003 §3.1).
    let early = app.request("POST", &url, Some(&cast.alice), Some(json!({"text": "Sai Rei: 5E > 6E"}))).await;
    assert_eq!(early.status, 422);
    assert_eq!(early.body["code"], "coalition.campaign.turn_not_open");
    app.request("POST", &format!("/v1/campaigns/{id}/turns"), Some(&cast.judge), Some(json!({"deadline": in_a_day()})))
        .await;
    // Four steps (seed 003 §3.2.2.1), a malformed line (§3.2.2.5), someone else's army (§5.2.1).
    let far = app.request("POST", &url, Some(&cast.alice), Some(json!({"text": "Sai Rei: 5E > 7G"}))).await;
    assert_eq!(far.status, 422, "{:#}", far.body);
    assert!(far.body["rule"].as_str().expect("rule").contains("§3.2.2.1"), "{:#}", far.body);
    let garbled = app.request("POST", &url, Some(&cast.alice), Some(json!({"text": "Sai Rei goes north"}))).await;
    assert_eq!(garbled.status, 422);
    assert_eq!(garbled.body["code"], "coalition.orders.malformed");
    let theirs = app.request("POST", &url, Some(&cast.alice), Some(json!({"text": "Plague Host: 9E > 9F"}))).await;
    assert_eq!(theirs.status, 403);
    // A private order is hidden from the other team until the lock (seed 003 §3.1).
    let private = app
        .request("POST", &url, Some(&cast.bob), Some(json!({"text": "Plague Host: 9E > 9F", "private": true})))
        .await;
    assert_eq!(private.status, 200);
    let seen_by_alice = app.request("GET", &url, Some(&cast.alice), None).await;
    assert_eq!(seen_by_alice.body.as_array().expect("orders").len(), 0);
    let seen_by_bob = app.request("GET", &url, Some(&cast.bob), None).await;
    assert_eq!(seen_by_bob.body.as_array().expect("orders").len(), 1);
    let events = app
        .request(
            "GET",
            &format!("/v1/streams/campaign-{id}/events?type=coalition.OrdersPosted"),
            Some(&cast.alice),
            None,
        )
        .await;
    assert_eq!(events.body["events"][0]["data"]["orders"][0]["order"], "hidden");
    app.request("POST", &format!("/v1/campaigns/{id}/lock"), Some(&cast.judge), None).await;
    let after_lock = app.request("GET", &url, Some(&cast.alice), None).await;
    assert_eq!(after_lock.body.as_array().expect("orders").len(), 1);
    app.stop().await;
}
