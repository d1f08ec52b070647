//! Issue 26 item 7: an `Idempotency-Key` makes every write safe to retry and never answers one
//! request with another's result. Every `POST` of the spec is walked with its examples: the same
//! key and body answer as the first time (a write that went through is replayed, not done
//! again); the same key with another body (or, for a route without one, another stream) is
//! refused with 409 `conflict` (docs/API.md "Writes").

use herald_tests::{spawn_app, TestApp, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::examples::{fill, request_examples};
use crate::support::*;

/// POST `body` to `path` with `key` as the admin.
async fn keyed(app: &TestApp, path: &str, key: &str, body: Option<Value>) -> herald_tests::Reply {
    app.request_with("POST", path, Some(ADMIN_TOKEN), body, &[("idempotency-key", key)]).await
}

/// `value` with its `n`th leaf (depth first) changed: a string gets a suffix, a number one more,
/// a boolean its opposite; `None` when it has fewer leaves.
fn mutated(value: &Value, n: usize) -> Option<Value> {
    fn walk(value: &mut Value, n: &mut usize) -> bool {
        match value {
            Value::Object(fields) => fields.values_mut().any(|field| walk(field, n)),
            Value::Array(items) => items.iter_mut().any(|item| walk(item, n)),
            leaf => {
                if *n > 0 {
                    *n -= 1;
                    return false;
                }
                *leaf = match leaf {
                    Value::String(text) => Value::String(format!("{text} again")),
                    Value::Number(number) => {
                        number.as_u64().map_or(json!(number.as_f64().unwrap_or(0.0) + 1.0), |n| json!(n + 1))
                    }
                    Value::Bool(flag) => Value::Bool(!*flag),
                    _ => Value::String("other".into()),
                };
                true
            }
        }
    }
    let mut copy = value.clone();
    let mut left = n;
    walk(&mut copy, &mut left).then_some(copy)
}

#[tokio::test]
async fn every_post_replays_the_same_request_and_refuses_another_with_the_same_key() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let spec = app.request("GET", "/openapi.json", None, None).await.body;
    let paths = spec["paths"].as_object().expect("paths");

    // Creations: one stream per example; the retry answers with the stream it opened.
    let mut battles = std::collections::BTreeMap::new();
    let mut campaigns = Vec::new();
    for route in ["/v1/battles", "/v1/campaigns"] {
        let examples = request_examples(&paths[route]["post"]);
        assert!(!examples.is_empty(), "{route} has examples");
        for (index, (name, example)) in examples.iter().enumerate() {
            let key = format!("create {name}");
            let first = keyed(&app, route, &key, Some(example.clone())).await;
            assert_eq!(first.status, 201, "{route} {name}: {:#}", first.body);
            let again = keyed(&app, route, &key, Some(example.clone())).await;
            assert_eq!(again.status, 200, "{route} {name} retried: {:#}", again.body);
            assert_eq!(again.body["replayed"], true);
            assert_eq!(again.body["stream"], first.body["stream"]);
            assert_eq!(again.body["events"], first.body["events"]);
            assert_eq!(again.header("location"), first.header("location"));
            // Another ruleset's set-up, the same set-up with a seed, or a changed name: 409.
            let mut seeded = example.clone();
            seeded["seed"] = json!("ff".repeat(32));
            let mut others = vec![seeded];
            if let Some((_, other)) = examples.get((index + 1) % examples.len()).filter(|_| examples.len() > 1) {
                others.push(other.clone());
            }
            for other in others {
                let refused = keyed(&app, route, &key, Some(other.clone())).await;
                assert_problem(&refused, 409, "conflict");
            }
            let mut found = None;
            for n in 0.. {
                let Some(other) = mutated(example, n) else { break };
                if other == *example {
                    continue;
                }
                let reply = keyed(&app, route, &key, Some(other)).await;
                assert!(!(200..300).contains(&reply.status), "{route} {name} changed answered {:#}", reply.body);
                if reply.status == 409 {
                    found = Some(n);
                    break;
                }
            }
            assert!(found.is_some(), "{route} {name}: no changed set-up refused as a conflict");
            let stream = first.body["stream"].as_str().expect("a stream").to_string();
            if route == "/v1/battles" {
                battles.insert(name.trim_start_matches("Create").to_string(), stream);
            } else {
                campaigns.push(stream);
            }
        }
    }
    let created = app.request("GET", "/v1/battles", Some(ADMIN_TOKEN), None).await;
    assert_eq!(created.body.as_array().map(Vec::len), Some(battles.len()), "retries opened no battle");

    // Tokens: the retry answers with the same token and issues none.
    let body = json!({"role": "observer", "label": "press"});
    let issued = keyed(&app, "/v1/tokens", "press pass", Some(body.clone())).await;
    assert_eq!(issued.status, 201, "{:#}", issued.body);
    let again = keyed(&app, "/v1/tokens", "press pass", Some(body.clone())).await;
    assert_eq!(again.status, 200, "{:#}", again.body);
    assert_eq!(again.body["token"], issued.body["token"]);
    assert_eq!(again.body["record"]["id"], issued.body["record"]["id"]);
    let other = keyed(&app, "/v1/tokens", "press pass", Some(json!({"role": "observer", "label": "press 2"}))).await;
    assert_problem(&other, 409, "conflict");
    let listed = app.request("GET", "/v1/tokens?role=observer", Some(ADMIN_TOKEN), None).await;
    let labelled = listed.body["tokens"].as_array().expect("tokens").iter().filter(|t| t["label"] == "press").count();
    assert_eq!(labelled, 1, "one token issued: {:#}", listed.body);
    let token = issued.body["token"].as_str().expect("a token");
    assert_eq!(app.request("GET", "/v1/tokens/me", Some(token), None).await.status, 200);

    // Every other POST, with each of its examples.
    // A second battle of each ruleset: the same request on another stream under a used key.
    let mut twins = std::collections::BTreeMap::new();
    for (name, example) in request_examples(&paths["/v1/battles"]["post"]) {
        let created = app.request("POST", "/v1/battles", Some(ADMIN_TOKEN), Some(example)).await;
        let stream = created.body["stream"].as_str().expect("a second battle").to_string();
        twins.insert(name.trim_start_matches("Create").to_string(), stream);
    }
    let campaign = campaigns[0].clone();
    let (_, example) = request_examples(&paths["/v1/campaigns"]["post"]).remove(0);
    let second = app.request("POST", "/v1/campaigns", Some(ADMIN_TOKEN), Some(example)).await;
    let elsewhere = second.body["stream"].as_str().expect("a second campaign").to_string();
    let vote = json!({"topic": "Attack Red Base first?", "options": ["yes", "no"], "closes_at": in_a_day()});
    ok(&app, &format!("/v1/campaigns/{campaign}/votes"), &cast.judge, vote).await;
    let (mut replayed, mut conflicts, mut walked) = (0, Vec::new(), Vec::new());
    // Closing the round ends it, and every campaign write after it is refused: walked last.
    let mut paths: Vec<_> = paths.iter().collect();
    paths.sort_by_key(|(path, _)| path.ends_with("/close") && path.starts_with("/v1/campaigns/{campaign_id}"));
    for (path, item) in paths {
        let Some(operation) = item.get("post") else { continue };
        if ["/v1/battles", "/v1/campaigns", "/v1/tokens"].contains(&path.as_str()) {
            continue;
        }
        let declared = operation["parameters"].as_array().into_iter().flatten().any(|p| p["name"] == "Idempotency-Key");
        assert!(declared, "POST {path} declares Idempotency-Key");
        let mut examples = request_examples(operation).into_iter().map(|(n, e)| (n, Some(e))).collect::<Vec<_>>();
        if operation.get("requestBody").is_none() {
            examples.push(("no body".into(), None));
        }
        for (name, example) in examples {
            let ruleset = match name.as_str() {
                "WarmachineCommand" => "WarmachineBattle",
                "ZoneRpgCommand" => "ZoneRpgBattle",
                "SkirmishCommand" => "PercentileSkirmishBattle",
                "SwiftSwordsCommand" => "SwiftSwordsBattle",
                _ => "CoalitionBattle",
            };
            let battle = battles[ruleset].clone();
            let target = fill(path, &battle, &campaign, &battle);
            let key = format!("{path} {name}");
            walked.push(format!("POST {path} ({name})"));
            let first = keyed(&app, &target, &key, example.clone()).await;
            let again = keyed(&app, &target, &key, example.clone()).await;
            assert_eq!(again.status, first.status, "POST {target} ({name}) retried: {:#}", again.body);
            if !(200..300).contains(&first.status) || first.body["events"].as_array().is_none_or(Vec::is_empty) {
                continue; // refused (or nothing written): a retry is decided again, as it was
            }
            assert_eq!(again.body["replayed"], true, "POST {target} ({name}): {:#}", again.body);
            assert_eq!(again.body["events"], first.body["events"], "POST {target} ({name})");
            assert_eq!(again.body["version"], first.body["version"], "POST {target} ({name})");
            replayed += 1;
            // Another request with the same key: a changed body, or the same on another stream.
            let mut refused = false;
            if let Some(example) = &example {
                for n in 0.. {
                    let Some(other) = mutated(example, n) else { break };
                    let reply = keyed(&app, &target, &key, Some(other.clone())).await;
                    assert!(
                        !(200..300).contains(&reply.status),
                        "POST {target} ({name}) with {other} under a used key answered {:#}",
                        reply.body
                    );
                    if reply.status == 409 {
                        assert_problem(&reply, 409, "conflict");
                        refused = true;
                        break;
                    }
                }
            }
            let twin = &twins[ruleset];
            let other_stream = fill(path, twin, &elsewhere, twin);
            if other_stream != target {
                let reply = keyed(&app, &other_stream, &key, example.clone()).await;
                assert_problem(&reply, 409, "conflict");
                refused = true;
            }
            if refused {
                conflicts.push(format!("POST {path} ({name})"));
            } else {
                panic!("POST {path} ({name}): no other request was refused under its key");
            }
        }
    }
    assert!(walked.len() >= 35, "{} walked", walked.len());
    assert!(replayed >= 10, "only {replayed} writes went through and were replayed: {walked:#?}");
    assert_eq!(conflicts.len(), replayed, "{conflicts:#?}");
    app.stop().await;
}
