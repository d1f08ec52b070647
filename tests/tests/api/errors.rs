//! Errors as problem+json: malformed requests 400, unknown things 404, rule violations 422 naming
//! the rule — and no request body, however odd, makes the server fail with a 5xx.

use herald_tests::{sample_battle, spawn_app, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::support::*;

#[tokio::test]
async fn malformed_json_bad_paths_and_unknown_routes_are_problems_not_crashes() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;

    for body in ["{", "{\"armies\": ", "not json", "{\"entropy\": \"x\",}"] {
        let reply = app.post_raw("/v1/battles", Some(&cast.judge), "application/json", body).await;
        assert_problem(&reply, 400, "malformed_request");
        let reply = app.post_raw(&battle.at("/entropy"), Some(&cast.alice), "application/json", body).await;
        assert_problem(&reply, 400, "malformed_request");
    }
    // Valid JSON of the wrong shape, unknown fields, and a body that is not JSON at all.
    let wrong = app.request("POST", &battle.at("/entropy"), Some(&cast.alice), Some(json!({"entropy": 7}))).await;
    assert_problem(&wrong, 400, "malformed_request");
    let extra = app
        .request("POST", &battle.at("/entropy"), Some(&cast.alice), Some(json!({"entropy": "x", "dice": "loaded"})))
        .await;
    assert_problem(&extra, 400, "malformed_request");
    let text = app.post_raw(&battle.at("/entropy"), Some(&cast.alice), "text/plain", "{\"entropy\": \"x\"}").await;
    assert_problem(&text, 415, "unsupported_media_type");
    let seed =
        app.request("POST", "/v1/battles", Some(&cast.judge), Some(sample_battle(&in_a_day(), Some("zz")))).await;
    assert_problem(&seed, 400, "malformed_request");

    // A path that is not a battle id.
    for path in ["/v1/battles/not-a-uuid", "/v1/battles/not-a-uuid/verify", "/v1/battles/123/strategies/a"] {
        assert_problem(&app.request("GET", path, None, None).await, 400, "malformed_request");
    }
    let side = app.request("GET", &battle.at("/strategies/c"), Some(&cast.judge), None).await;
    assert_problem(&side, 400, "malformed_request");
    let post =
        app.request("POST", "/v1/battles/not-a-uuid/entropy", Some(&cast.alice), Some(json!({"entropy": "x"}))).await;
    assert_problem(&post, 400, "malformed_request");

    // Unknown routes and unknown battles.
    for path in ["/v1/nothing-here", "/nothing", "/v1/battles/x/y/z"] {
        assert_problem(&app.request("GET", path, None, None).await, 404, "not_found");
    }
    let missing = "/v1/battles/01936f3e-8f4d-7a31-8a9b-0c64d1f3a001";
    assert_problem(&app.request("GET", missing, None, None).await, 404, "not_found");
    assert_problem(&app.request("GET", &format!("{missing}/verify"), None, None).await, 404, "not_found");
    assert_problem(&app.request("GET", &format!("{missing}/strategies/a"), None, None).await, 404, "not_found");
    let nothing = app.request("GET", "/v1/streams/battle-nothing/events", None, None).await;
    assert_problem(&nothing, 404, "not_found");
    app.stop().await;
}

/// Issue 15: one answer per situation. Every command route answers an id that names nothing
/// with 404 `not_found`, as the GETs do, whatever the route's ruleset (the ruleset refuses a
/// command on a stream that does not exist; the service reports it as the unknown id it is).
/// Every body is of the right shape, so the unknown id is what is refused.
#[tokio::test]
async fn every_command_on_an_unknown_battle_or_campaign_is_404_not_found() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = "/v1/battles/01936f3e-8f4d-7a31-8a9b-0c64d1f3a001";
    let campaign = "/v1/campaigns/01936f3e-8f4d-7a31-8a9b-0c64d1f3a002";
    let commands = [
        (format!("{battle}/entropy"), json!({"entropy": "x"})),
        (format!("{battle}/strategies"), json!({"side": "a", "strategy": STRATEGY_A})),
        (format!("{battle}/strategy-bonuses"), json!({"side": "a", "bonus": 3})),
        (format!("{battle}/resolve"), json!({})),
        (format!("{battle}/casualties"), json!({"side": "a", "losses": [10], "reason": "a count"})),
        (format!("{battle}/reveal"), json!({})),
        (format!("{battle}/actions"), json!({"type": "end_turn"})),
        (
            format!("{battle}/tactical-result"),
            json!({"battle": "0193a1f0-0000-7000-8000-000000000001", "sides": {"a": "red", "b": "blue"}, "reason": "r"}),
        ),
        (format!("{campaign}/lock"), json!({})),
        (format!("{campaign}/turns"), json!({"deadline": "2030-12-01T05:00:00Z"})),
        (format!("{campaign}/adjudicate"), json!({})),
        (format!("{campaign}/orders"), json!({"text": "hold", "orders": []})),
        (
            "/v1/streams/battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a003/rolls".to_string(),
            json!({"expression": "1d6", "purpose": "a test"}),
        ),
    ];
    for (path, body) in commands {
        let reply = app.request("POST", &path, Some(&cast.judge), Some(body)).await;
        assert_problem(&reply, 404, "not_found");
    }
    app.stop().await;
}

// seed 003 §4.2.1 (bonus 0–10), §4.1.1 (deadline), §3.3.1 and ch. 6 (friendly armies never fight)
#[tokio::test]
async fn rule_violations_answer_422_naming_the_rule_and_append_nothing() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;

    // seed 003 §4.2.1: a bonus is between +0 and +10.
    let eleven = app
        .request("POST", &battle.at("/strategy-bonuses"), Some(&cast.judge), Some(json!({"side": "a", "bonus": 11})))
        .await;
    assert_rule(&eleven, 422, "coalition.battle.bonus_out_of_range", "seed 003 §4.2.1");
    assert_eq!(eleven.body["type"], "https://herald.example/problems/rule-violation");
    // seed 003 §4.2.1: side b sent nothing to grade.
    let ungraded = app
        .request("POST", &battle.at("/strategy-bonuses"), Some(&cast.judge), Some(json!({"side": "b", "bonus": 3})))
        .await;
    assert_rule(&ungraded, 422, "coalition.battle.strategy_missing", "seed 003 §4.2.1");
    // seed 003 §4.1.1: not before both strategies or the deadline.
    let early = app.request("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({}))).await;
    assert_rule(&early, 422, "coalition.battle.resolve_too_early", "seed 003 §4.1.1");
    ok(&app, &battle.at("/strategies"), &cast.bob, json!({"side": "b", "strategy": STRATEGY_B})).await;
    // seed 003 §4.2.1: both strategies in, but not graded.
    let ungraded = app.request("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({}))).await;
    assert_rule(&ungraded, 422, "coalition.battle.strategy_bonus_missing", "seed 003 §4.2.1");
    // Service limits.
    let empty = app.request("POST", &battle.at("/entropy"), Some(&cast.bob), Some(json!({"entropy": "  "}))).await;
    assert_problem(&empty, 422, "coalition.battle.entropy_empty");
    let long =
        app.request("POST", &battle.at("/entropy"), Some(&cast.bob), Some(json!({"entropy": "x".repeat(1025)}))).await;
    assert_problem(&long, 422, "coalition.battle.entropy_too_long");
    let essay = json!({"side": "b", "strategy": "x".repeat(100_001)});
    let essay = app.request("POST", &battle.at("/strategies"), Some(&cast.bob), Some(essay)).await;
    assert_problem(&essay, 422, "coalition.battle.strategy_too_long");
    let blank = app
        .request("POST", &battle.at("/strategies"), Some(&cast.bob), Some(json!({"side": "b", "strategy": ""})))
        .await;
    assert_rule(&blank, 422, "coalition.battle.strategy_empty", "seed 003 §4.1.1");
    // Nothing of that was appended.
    let view = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(view.body["version"], 2, "create + two strategies");
    assert_eq!(view.header("etag").as_deref(), Some("\"2\""));

    // seed 003 §4.1.1: strategies arrive before the deadline, so a battle whose deadline has
    // already passed is refused when it is opened (a strategy after the deadline is refused in
    // domain/tests/coalition_battle.rs, which sets the recorded time).
    let late = app.request("POST", "/v1/battles", Some(&cast.judge), Some(sample_battle(&an_hour_ago(), None))).await;
    assert_rule(&late, 422, "coalition.battle.deadline_passed", "seed 003 §4.1.1");

    // seed 003 §3.3.1: two armies of one team never fight; ch. 6: nor two mercenary armies.
    let mut friendly = sample_battle(&in_a_day(), None);
    friendly["armies"]["b"]["team"] = json!("coalition");
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(friendly.clone())).await;
    assert_rule(&reply, 422, "coalition.battle.friendly_armies", "seed 003 §3.3.1");
    friendly["armies"]["a"]["team"] = json!("mercenary");
    friendly["armies"]["b"]["team"] = json!("mercenary");
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(friendly)).await;
    assert_rule(&reply, 422, "coalition.battle.friendly_armies", "seed 003 ch. 6");
    // seed 003 §3.3.1: an army cannot fight itself.
    let mut itself = sample_battle(&in_a_day(), None);
    itself["armies"]["b"]["name"] = json!("Sai Rei");
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(itself)).await;
    assert_rule(&reply, 422, "coalition.battle.same_army", "seed 003 §3.3.1");
    // seed 003 §2.1: at most six creature types.
    let mut crowded = sample_battle(&in_a_day(), None);
    let slot = crowded["armies"]["a"]["slots"][0].clone();
    crowded["armies"]["a"]["slots"] = Value::Array(vec![slot; 7]);
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(crowded)).await;
    assert_rule(&reply, 422, "coalition.battle.too_many_creature_types", "seed 003 §2.1");
    // No battle was opened by the refused requests (the late one included).
    let battles = app.request("GET", "/v1/battles", None, None).await;
    assert_eq!(battles.body.as_array().map(Vec::len), Some(1), "{:#}", battles.body);
    app.stop().await;
}

#[tokio::test]
async fn a_malformed_resolve_body_is_refused_rather_than_ignored() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    prepare(&app, &cast, &battle).await;
    // A typo in `running_away` must not resolve the battle as if nobody ran.
    let typo = app.request("POST", &battle.at("/resolve"), Some(&cast.judge), Some(json!({"running_away": "c"}))).await;
    assert_problem(&typo, 400, "malformed_request");
    let garbage = app.post_raw(&battle.at("/resolve"), Some(&cast.judge), "application/json", "{nope").await;
    assert_problem(&garbage, 400, "malformed_request");
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["status"], "open");
    // No body at all is a plain resolution.
    let reply =
        app.client.post(format!("{}{}", app.address, battle.at("/resolve"))).bearer_auth(&cast.judge).send().await;
    let reply = reply.expect("sent");
    assert_eq!(reply.status().as_u16(), 200);
    let view = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(view.body["status"], "resolved");
    app.stop().await;
}

/// Bodies that are wrong in every way a client might get them wrong.
fn garbage_bodies() -> Vec<String> {
    let mut bodies: Vec<String> = [
        "",
        " ",
        "null",
        "true",
        "0",
        "-1",
        "1e400",
        "\"text\"",
        "[]",
        "{}",
        "[1, 2, 3]",
        "{\"side\": \"c\"}",
        "{\"side\": null, \"bonus\": null}",
        "{\"side\": \"a\", \"bonus\": -1}",
        "{\"side\": \"a\", \"bonus\": 256}",
        "{\"side\": \"a\", \"bonus\": 255}",
        "{\"side\": \"a\", \"bonus\": 1.5}",
        "{\"side\": \"a\", \"bonus\": 18446744073709551616}",
        "{\"side\": \"a\", \"bonus\": \"10\"}",
        "{\"side\": \"a\", \"strategy\": 12}",
        "{\"side\": \"a\", \"strategy\": [\"x\"]}",
        "{\"side\": \"b\", \"losses\": [-1], \"reason\": \"x\"}",
        "{\"side\": \"b\", \"losses\": [4294967296, 0], \"reason\": \"x\"}",
        "{\"side\": \"b\", \"losses\": [4294967295, 4294967295], \"reason\": \"x\"}",
        "{\"side\": \"b\", \"losses\": [], \"reason\": \"\"}",
        "{\"entropy\": null}",
        "{\"entropy\": \"\\u0000\"}",
        "{\"entropy\": {\"nested\": true}}",
        "{\"running_away\": 1}",
        "{\"role\": \"emperor\"}",
        "{\"role\": \"admin\", \"player\": 5}",
        "{\"armies\": null, \"engagement\": 1, \"strategy_deadline\": \"yesterday\"}",
        "{\"armies\": {\"a\": {}, \"b\": {}}, \"engagement\": {\"kind\": \"attack\"}, \"strategy_deadline\": 1}",
        "\u{feff}{}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    bodies.push(format!("{}{}", "[".repeat(5000), "]".repeat(5000)));
    bodies.push(format!("{{\"entropy\": \"{}\"}}", "y".repeat(2 << 20)));
    bodies
}

/// Valid battles whose numbers are as large (or odd) as their types allow.
fn extreme_battles() -> Vec<Value> {
    let deadline = in_a_day();
    let mut huge = sample_battle(&deadline, None);
    for side in ["a", "b"] {
        for slot in huge["armies"][side]["slots"].as_array_mut().expect("slots") {
            slot["troops"] = json!(u32::MAX);
            slot["power"] = json!(u32::MAX);
            slot["toughness"] = json!(u32::MAX);
        }
    }
    huge["options"] = json!({"tie_rule": "roll_off", "size_formula": {"weighting": "troops", "scale": u32::MAX},
                             "casualty_formula": {"base": 1000, "per_pair_lost": u32::MAX, "per_margin": u32::MAX, "max": 1000}});
    let mut tiny = sample_battle(&deadline, None);
    tiny["armies"]["a"]["slots"] =
        json!([{"creature": "Soldier", "colors": [], "power": 0, "toughness": 0, "troops": 1}]);
    tiny["options"] = json!({"size_formula": {"scale": 0}, "casualty_formula": {"base": 0, "per_pair_lost": 0, "per_margin": 0, "max": 0}});
    let mut far = sample_battle("9999-12-31T23:59:59Z", None);
    far["terrain"] = json!("\u{1F3D4}\u{FE0F} ".repeat(1000));
    vec![huge, tiny, far]
}

#[tokio::test]
async fn no_request_body_makes_any_post_endpoint_fail_with_a_server_error() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    ok(&app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;
    let endpoints = [
        ("/v1/battles".to_string(), cast.judge.as_str()),
        (battle.at("/entropy"), cast.alice.as_str()),
        (battle.at("/strategies"), cast.bob.as_str()),
        (battle.at("/strategy-bonuses"), cast.judge.as_str()),
        (battle.at("/casualties"), cast.judge.as_str()),
        (battle.at("/resolve"), cast.judge.as_str()),
        (battle.at("/reveal"), cast.observer.as_str()),
        ("/v1/tokens".to_string(), ADMIN_TOKEN),
    ];
    for body in garbage_bodies() {
        for (path, token) in &endpoints {
            for content_type in ["application/json", "text/plain"] {
                let reply = app.post_raw(path, Some(token), content_type, &body).await;
                let shown: String = body.chars().take(80).collect();
                assert!(
                    reply.status < 500,
                    "POST {path} ({content_type}) {shown:?} -> {} {:#}",
                    reply.status,
                    reply.body
                );
                if reply.status >= 400 {
                    let problem = reply.header("content-type").unwrap_or_default();
                    assert!(problem.starts_with("application/problem+json"), "POST {path} {shown:?}: {problem}");
                }
            }
        }
    }
    // Extreme but well-formed battles are played to the end without a server error.
    for body in extreme_battles() {
        let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(body.clone())).await;
        assert!(reply.status < 500, "{:#} -> {:#}", body, reply.body);
        if reply.status != 201 {
            continue;
        }
        let id = reply.body["stream"].as_str().expect("stream").trim_start_matches("battle-").to_string();
        for (side, token) in [("a", &cast.judge), ("b", &cast.judge)] {
            let path = format!("/v1/battles/{id}/strategies");
            let reply =
                app.request("POST", &path, Some(token), Some(json!({"side": side, "strategy": "charge"}))).await;
            assert!(reply.status < 500, "{:#}", reply.body);
            let path = format!("/v1/battles/{id}/strategy-bonuses");
            let reply = app.request("POST", &path, Some(token), Some(json!({"side": side, "bonus": 10}))).await;
            assert!(reply.status < 500, "{:#}", reply.body);
        }
        let reply = app
            .request(
                "POST",
                &format!("/v1/battles/{id}/resolve"),
                Some(&cast.judge),
                Some(json!({"running_away": "a"})),
            )
            .await;
        assert!(reply.status < 500, "{:#}", reply.body);
        for path in
            [format!("/v1/battles/{id}"), format!("/v1/battles/{id}/verify"), format!("/v1/streams/battle-{id}/events")]
        {
            for token in [None, Some(cast.judge.as_str())] {
                let reply = app.request("GET", &path, token, None).await;
                assert_eq!(reply.status, 200, "GET {path} {:#}", reply.body);
            }
        }
    }
    // Odd query strings and headers on reads.
    for path in [
        "/v1/events?limit=99999999999999999999999",
        "/v1/events?from=-1",
        "/v1/events?from=18446744073709551615",
        "/v1/events?type=&actor=",
        &format!("{}?at=18446744073709551615", battle.path()),
        &format!("{}?direction=backwards&from=0", battle.events_path()),
        &format!("{}?direction=backwards&from=18446744073709551615&limit=1000", battle.events_path()),
    ] {
        let reply = app.request("GET", path, None, None).await;
        assert!(reply.status < 500, "GET {path} -> {} {:#}", reply.status, reply.body);
    }
    for (name, value) in [("if-match", "\"-1\""), ("if-match", "*"), ("idempotency-key", ""), ("last-event-id", "x")] {
        let reply = app
            .request_with(
                "POST",
                &battle.at("/entropy"),
                Some(&cast.alice),
                Some(json!({"entropy": "h"})),
                &[(name, value)],
            )
            .await;
        assert!(reply.status < 500, "{name}: {value} -> {:#}", reply.body);
    }
    let long_key = "k".repeat(201);
    let reply = app
        .request_with(
            "POST",
            &battle.at("/entropy"),
            Some(&cast.alice),
            Some(json!({"entropy": "h"})),
            &[("idempotency-key", &long_key)],
        )
        .await;
    assert_problem(&reply, 400, "malformed_request");
    let ready = app.request("GET", "/readyz", None, None).await;
    assert_eq!(ready.status, 200, "the server is still healthy: {:#}", ready.body);
    app.stop().await;
}

/// Issue 15 (limits on everything a client writes): a 900,000-character army name or token
/// label is refused with a message naming the field and its limit, and nothing is written.
#[tokio::test]
async fn an_overlong_name_or_label_is_refused_naming_the_field_and_the_limit() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let mut battle = sample_battle(&in_a_day(), None);
    battle["armies"]["a"]["name"] = json!("n".repeat(900_000));
    let refused = app.request("POST", "/v1/battles", Some(&cast.judge), Some(battle)).await;
    assert_rule(&refused, 422, "request.text_too_long", "herald: docs/API.md \"Limits\"");
    let detail = refused.body["detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("armies.a.name is 900000 characters; it may be at most 256"), "{detail}");
    let listed = app.request("GET", "/v1/battles", None, None).await;
    assert_eq!(listed.body.as_array().map(Vec::len), Some(0), "nothing was written: {:#}", listed.body);

    let label = json!({"role": "observer", "label": "l".repeat(300)});
    let refused = app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(label)).await;
    assert_rule(&refused, 422, "request.text_too_long", "herald: docs/API.md \"Limits\"");
    app.stop().await;
}

/// Issue 15: a participant cannot lengthen a battle's stream at will with entropy: four
/// contributions each, before the first roll (docs/DICE.md).
#[tokio::test]
async fn a_participant_contributes_entropy_at_most_four_times() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    for n in 0..4 {
        ok(&app, &battle.at("/entropy"), &cast.bob, json!({"entropy": format!("bob {n}")})).await;
    }
    let fifth = app.request("POST", &battle.at("/entropy"), Some(&cast.bob), Some(json!({"entropy": "again"}))).await;
    assert_rule(&fifth, 422, "coalition.battle.entropy_limit", "herald: docs/DICE.md");
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "alice has her own four"})).await;
    app.stop().await;
}
