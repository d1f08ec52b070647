//! Issue 26 items 8, 9 and 11–15: the spec is a contract. What it declares is what the server
//! answers (the report's formats, `ruleset` optional where the server defaults it, bounds, 401
//! where a presented token is checked, strong `If-Match`), and a request is never half
//! understood: an unknown field at any depth is a 400 naming it, in the API's words.

use herald_tests::{spawn_app, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::examples::request_examples;
use crate::support::*;

/// The JSON body of the `curl … -X POST localhost:8080<route> … -d '{…}'` in `text`.
fn curl_body(text: &str, route: &str) -> Value {
    let start = text.find(&format!("-X POST localhost:8080{route} ")).expect("the curl line");
    let body = &text[start..];
    let open = body.find("-d '").expect("a body") + 4;
    let close = body[open..].find('\'').expect("its end") + open;
    serde_json::from_str(&body[open..close]).expect("the README's body is JSON")
}

/// Every pointer of an object inside `value` (`""` for the value itself).
fn object_pointers(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            out.push(at.to_string());
            for (key, field) in fields {
                object_pointers(field, &format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                object_pointers(item, &format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn an_unknown_field_at_any_depth_of_any_request_example_is_refused_by_its_pointer() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let spec = app.request("GET", "/openapi.json", None, None).await.body;
    let paths = spec["paths"].as_object().expect("paths");
    let mut battles = std::collections::BTreeMap::new();
    for (name, example) in request_examples(&paths["/v1/battles"]["post"]) {
        let created = app.request("POST", "/v1/battles", Some(ADMIN_TOKEN), Some(example)).await;
        assert_eq!(created.status, 201, "{name}: {:#}", created.body);
        battles.insert(
            name.trim_start_matches("Create").to_string(),
            created.body["stream"].as_str().unwrap_or_default().to_string(),
        );
    }
    let (_, example) = request_examples(&paths["/v1/campaigns"]["post"]).remove(0);
    let created = app.request("POST", "/v1/campaigns", Some(ADMIN_TOKEN), Some(example)).await;
    let campaign = created.body["stream"].as_str().expect("a campaign").to_string();
    let coalition = battles["CoalitionBattle"].clone();
    ok(
        &app,
        &format!("/v1/campaigns/{campaign}/votes"),
        &cast.judge,
        json!({"topic": "t", "options": ["yes", "no"], "closes_at": in_a_day()}),
    )
    .await;

    let (mut tried, mut missed) = (0, Vec::new());
    for (path, item) in paths {
        let Some(operation) = item.get("post") else { continue };
        for (name, example) in request_examples(operation) {
            let battle = match name.as_str() {
                "WarmachineCommand" => battles["WarmachineBattle"].clone(),
                "ZoneRpgCommand" => battles["ZoneRpgBattle"].clone(),
                "SkirmishCommand" => battles["PercentileSkirmishBattle"].clone(),
                "SwiftSwordsCommand" => battles["SwiftSwordsBattle"].clone(),
                _ => coalition.clone(),
            };
            let target = crate::examples::fill(path, &battle, &campaign, &battle);
            let mut objects = Vec::new();
            object_pointers(&example, "", &mut objects);
            for object in objects {
                let mut body = example.clone();
                if let Some(Value::Object(fields)) = body.pointer_mut(&object) {
                    fields.insert("contingnecy".into(), json!(true));
                }
                let reply = app.request("POST", &target, Some(ADMIN_TOKEN), Some(body)).await;
                tried += 1;
                let expected = format!("{object}/contingnecy");
                let named =
                    reply.body["errors"].as_array().into_iter().flatten().any(|e| e["pointer"] == expected.as_str());
                if reply.status != 400 || !named {
                    missed.push(format!("POST {path} ({name}) at {expected:?}: {} {}", reply.status, reply.body));
                }
            }
        }
    }
    assert!(tried > 100, "only {tried} unknown fields tried");
    assert!(
        missed.is_empty(),
        "{} of {tried} unknown fields not refused by their pointer:\n{}",
        missed.len(),
        missed.join("\n")
    );
    app.stop().await;
}

#[tokio::test]
async fn messages_say_what_a_field_takes_and_point_at_a_missing_one() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let reply = app
        .request("POST", &battle.at("/strategy-bonuses"), Some(&cast.judge), Some(json!({"side": "a", "bonus": 300})))
        .await;
    assert_problem(&reply, 400, "malformed_request");
    let detail = reply.body["errors"][0]["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("an integer from 0 to 255") && !detail.contains("u8"), "{:#}", reply.body);
    assert_eq!(reply.body["errors"][0]["pointer"], "/bonus");
    let reply =
        app.request("POST", &battle.at("/strategy-bonuses"), Some(&cast.judge), Some(json!({"bonus": 3}))).await;
    assert_problem(&reply, 400, "malformed_request");
    assert_eq!(reply.body["errors"][0]["pointer"], "/side", "{:#}", reply.body);
    // A set-up decoded by its ruleset speaks the same way.
    let mut setup = herald_tests::sample_battle(&in_a_day(), None);
    setup["armies"]["a"]["slots"][0]["power"] = json!(1.5);
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(setup)).await;
    assert_eq!(reply.status, 400, "{:#}", reply.body);
    let text = reply.body.to_string();
    assert!(!text.contains("expected u") && !text.contains("expected f"), "{text}");
    app.stop().await;
}

#[tokio::test]
async fn the_spec_says_what_the_server_answers() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let spec = app.request("GET", "/openapi.json", None, None).await.body;

    // Item 11: the turn report's formats and media types.
    let report = &spec["paths"]["/v1/campaigns/{campaign_id}/turns/{turn}/report"]["get"];
    let format =
        report["parameters"].as_array().expect("parameters").iter().find(|p| p["name"] == "format").expect("format");
    assert_eq!(
        format["schema"]["enum"].as_array().map(|e| e.iter().filter(|v| !v.is_null()).count()),
        Some(2),
        "{format:#}"
    );
    let content = report["responses"]["200"]["content"].as_object().expect("content");
    assert!(content.contains_key("application/json") && content.contains_key("text/plain"), "{content:#?}");
    let unknown = app
        .request("GET", "/v1/campaigns/01936f3e-8f4d-7a31-8a9b-0c64d1f3a002/turns/1/report?format=xml", None, None)
        .await;
    assert_problem(&unknown, 400, "malformed_request");

    // Item 12: `ruleset` may be left out where the server defaults it, and the README's bodies,
    // which leave it out, fit the spec.
    let schemas = &spec["components"]["schemas"];
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README");
    let mut campaign = String::new();
    for (create, route) in [("CreateCoalitionBattle", "/v1/battles"), ("CreateCoalitionCampaign", "/v1/campaigns")] {
        let required: Vec<&str> =
            schemas[create]["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        assert!(!required.contains(&"ruleset"), "{create} requires ruleset: {required:?}");
        let body = curl_body(&readme, route);
        for field in &required {
            assert!(body.get(field).is_some(), "the README's {route} body lacks the required {field}");
        }
        let created = app.request("POST", route, Some(&cast.judge), Some(body)).await;
        assert_eq!(created.status, 201, "the README's {route} body: {:#}", created.body);
        campaign = created.body["stream"].as_str().unwrap_or_default().to_string();
    }
    assert!(schemas["CreateWarmachineBattle"]["required"].as_array().is_some_and(|r| r.contains(&json!("ruleset"))));

    // Item 13: bounds the spec states are the server's.
    let battle = create_sample(&app, &cast).await;
    let events = &spec["paths"]["/v1/streams/{stream}/events"]["get"]["parameters"];
    let parameter =
        |name: &str| events.as_array().into_iter().flatten().find(|p| p["name"] == name).cloned().unwrap_or_default();
    assert_eq!(parameter("from")["schema"]["maximum"], json!(i64::MAX));
    let over = app.request("GET", &format!("{}?from={}", battle.events_path(), i64::MAX as u64 + 1), None, None).await;
    assert_problem(&over, 400, "malformed_request");
    let at_most = app.request("GET", &format!("{}?from={}", battle.events_path(), i64::MAX), None, None).await;
    assert_eq!(at_most.status, 200, "{:#}", at_most.body);
    assert!(parameter("direction")["schema"]["enum"].as_array().is_some_and(|e| !e.contains(&json!(""))));
    assert_problem(
        &app.request("GET", &format!("{}?direction=", battle.events_path()), None, None).await,
        400,
        "malformed_request",
    );
    let dice = &spec["paths"]["/v1/streams/{stream}/dice"]["get"]["parameters"];
    let limit = dice.as_array().into_iter().flatten().find(|p| p["name"] == "limit").expect("limit");
    assert_eq!(limit["schema"]["minimum"], 1, "{limit:#}");
    assert_problem(
        &app.request("GET", &format!("/v1/streams/{}/dice?limit=0", battle.stream), None, None).await,
        400,
        "malformed_request",
    );
    assert_eq!(schemas["KillFormula"]["properties"]["spare"]["maximum"], 20);
    let mut setup = herald_tests::sample_battle(&in_a_day(), None);
    setup["options"] = json!({"kill_formula": {"spare": 21}});
    let reply = app.request("POST", "/v1/battles", Some(&cast.judge), Some(setup)).await;
    assert_problem(&reply, 400, "malformed_request");
    assert!(reply.body.to_string().contains("/options/kill_formula/spare"), "{:#}", reply.body);

    // Item 13: 401 is documented exactly where a presented token is checked.
    let mut undocumented = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        let Some(operation) = item.get("get") else { continue };
        let target = path
            .replace("{battle_id}", &battle.id)
            .replace("{stream}", &battle.stream)
            .replace("{picture}", "picture.svg")
            .replace("{side}", "a")
            .replace("{campaign_id}", &campaign)
            .replace("{turn}", "1");
        if target.contains('{') || path.ends_with("/live") {
            continue;
        }
        let reply = app.request("GET", &target, Some("hrd_not-a-token"), None).await;
        let documented = operation["responses"].get("401").is_some();
        if (reply.status == 401) != documented {
            undocumented
                .push(format!("GET {path}: {} with an unknown token, 401 documented: {documented}", reply.status));
        }
    }
    assert!(undocumented.is_empty(), "{}", undocumented.join("\n"));
    app.stop().await;
}

#[tokio::test]
async fn if_match_compares_strongly_so_a_weak_tag_never_matches() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let current = app.request("GET", &battle.path(), None, None).await.header("etag").expect("an ETag");
    let body = json!({"entropy": "weak"});
    let weak = format!("W/{current}");
    let reply = app
        .request_with(
            "POST",
            &battle.at("/entropy"),
            Some(&cast.alice),
            Some(body.clone()),
            &[("if-match", weak.as_str())],
        )
        .await;
    assert_problem(&reply, 412, "precondition_failed");
    let reply = app
        .request_with("POST", &battle.at("/entropy"), Some(&cast.alice), Some(body), &[("if-match", current.as_str())])
        .await;
    assert_eq!(reply.status, 200, "{:#}", reply.body);
    app.stop().await;
}
