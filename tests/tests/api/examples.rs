//! The spec's examples are what the server reads: every request example of `/openapi.json` is
//! posted to a real server (on a battle of its ruleset, a campaign, a vote) and none is refused
//! as malformed (400), of the wrong type (415) or breaks the server; a creation example creates.
//! And every error response of every operation carries an example of its own status.

use herald_tests::{spawn_app, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::support::*;

/// `path` with its parameters filled in for `ruleset`'s battle, the campaign and its first vote.
pub(crate) fn fill(path: &str, battle: &str, campaign: &str, stream: &str) -> String {
    path.replace("{battle_id}", battle)
        .replace("{campaign_id}", campaign)
        .replace("{stream}", stream)
        .replace("{vote}", "1")
        .replace("{token_id}", "no-such-token")
}

/// The request examples of an operation, by name (`example` is named after the operation).
pub(crate) fn request_examples(operation: &Value) -> Vec<(String, Value)> {
    let Some(body) = operation.pointer("/requestBody/content/application~1json") else { return Vec::new() };
    if let Some(example) = body.get("example") {
        return vec![("example".to_string(), example.clone())];
    }
    body.get("examples")
        .and_then(Value::as_object)
        .map(|named| named.iter().map(|(name, example)| (name.clone(), example["value"].clone())).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn every_request_example_is_read_by_the_server() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let spec = app.request("GET", "/openapi.json", None, None).await.body;
    let paths = spec["paths"].as_object().expect("paths");

    // One battle of each ruleset, from the creation examples themselves.
    let mut battles = std::collections::BTreeMap::new();
    for (name, example) in request_examples(&paths["/v1/battles"]["post"]) {
        let created = app.request("POST", "/v1/battles", Some(ADMIN_TOKEN), Some(example)).await;
        assert_eq!(created.status, 201, "the {name} example creates a battle: {:#}", created.body);
        let stream = created.body["stream"].as_str().expect("a stream").to_string();
        battles.insert(name.trim_start_matches("Create").to_string(), stream);
    }
    let coalition = battles.get("CoalitionBattle").cloned().expect("a coalition battle");
    let mut campaign = None;
    for (name, example) in request_examples(&paths["/v1/campaigns"]["post"]) {
        let created = app.request("POST", "/v1/campaigns", Some(ADMIN_TOKEN), Some(example)).await;
        assert_eq!(created.status, 201, "the {name} example creates a campaign: {:#}", created.body);
        campaign = created.body["stream"].as_str().map(str::to_string);
    }
    let campaign = campaign.expect("a campaign");
    let vote = json!({"topic": "Attack Red Base first?", "options": ["yes", "no"], "closes_at": in_a_day()});
    ok(&app, &format!("/v1/campaigns/{campaign}/votes"), &cast.judge, vote).await;

    let mut refused = Vec::new();
    let mut posted = 0;
    for (path, item) in paths {
        let Some(operation) = item.get("post") else { continue };
        if path == "/v1/battles" || path == "/v1/campaigns" {
            continue;
        }
        for (name, example) in request_examples(operation) {
            // An action goes to a battle of the ruleset whose command union it belongs to.
            let battle = match name.as_str() {
                "BattleCommand" => coalition.clone(),
                "WarmachineCommand" => battles["WarmachineBattle"].clone(),
                "ZoneRpgCommand" => battles["ZoneRpgBattle"].clone(),
                "SkirmishCommand" => battles["PercentileSkirmishBattle"].clone(),
                "SwiftSwordsCommand" => battles["SwiftSwordsBattle"].clone(),
                _ => coalition.clone(),
            };
            let target = fill(path, &battle, &campaign, &battle);
            let reply = app.request("POST", &target, Some(ADMIN_TOKEN), Some(example.clone())).await;
            posted += 1;
            if matches!(reply.status, 400 | 413 | 415) || reply.status >= 500 {
                refused.push(format!("POST {target} ({name}) {example}: {} {}", reply.status, reply.body));
            }
        }
    }
    assert!(posted >= 30, "only {posted} examples posted");
    assert!(refused.is_empty(), "examples the server does not read:\n{}", refused.join("\n"));
    app.stop().await;
}

#[tokio::test]
async fn every_error_response_has_an_example_of_its_status_and_every_operation_a_description() {
    let app = spawn_app().await;
    let spec = app.request("GET", "/openapi.json", None, None).await.body;
    let mut missing = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("an item") {
            if operation.get("description").and_then(Value::as_str).is_none_or(str::is_empty) {
                missing.push(format!("{method} {path}: no description"));
            }
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                let Some(body) = response.pointer("/content/application~1problem+json") else { continue };
                let example = &body["example"];
                if example["status"].as_u64().map(|s| s.to_string()).as_deref() != Some(status.as_str())
                    || example["code"].as_str().is_none()
                {
                    missing.push(format!("{method} {path} {status}: example {example}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    app.stop().await;
}
