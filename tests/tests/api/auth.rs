//! Bearer tokens and roles: 401 without a (known) token, 403 for the wrong role or side.

use herald_tests::{sample_battle, spawn_app, ADMIN_TOKEN};
use serde_json::json;

use crate::support::*;

#[tokio::test]
async fn every_write_without_a_token_is_refused_with_401_and_a_bearer_challenge() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let writes = [
        ("/v1/battles".to_string(), sample_battle(&in_a_day(), None)),
        (battle.at("/entropy"), json!({"entropy": "x"})),
        (battle.at("/strategies"), json!({"side": "a", "strategy": "x"})),
        (battle.at("/strategy-bonuses"), json!({"side": "a", "bonus": 1})),
        (battle.at("/resolve"), json!({})),
        (battle.at("/casualties"), json!({"side": "a", "losses": [0, 0], "reason": "x"})),
        (battle.at("/reveal"), json!({})),
        ("/v1/tokens".to_string(), json!({"role": "judge"})),
    ];
    for (path, body) in writes {
        let reply = app.request("POST", &path, None, Some(body.clone())).await;
        assert_problem(&reply, 401, "unauthenticated");
        assert_eq!(reply.header("www-authenticate").as_deref(), Some("Bearer"), "POST {path}");
        let unknown = app.request("POST", &path, Some("hrd_not-a-token"), Some(body)).await;
        assert_problem(&unknown, 401, "unauthenticated");
        assert!(unknown.header("www-authenticate").is_some(), "POST {path}");
    }
    // A malformed Authorization header is not a token either.
    let basic =
        app.request_with("GET", "/v1/tokens/me", None, None, &[("authorization", "Basic YWRtaW46YWRtaW4=")]).await;
    assert_problem(&basic, 401, "unauthenticated");
    let anonymous = app.request("GET", "/v1/tokens/me", None, None).await;
    assert_problem(&anonymous, 401, "unauthenticated");
    // Nothing was written by the refused requests.
    let events = stream_events(&app, &battle.stream, None).await;
    assert_eq!(events.len(), 1, "only coalition.BattleCreated");
    app.stop().await;
}

// seed 003 §1.3 (the battle judge), §5.4.1 (a player writes only for their own army)
#[tokio::test]
async fn roles_decide_who_may_open_battles_write_strategies_and_issue_tokens() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    for token in [&cast.observer, &cast.alice] {
        let reply = app.request("POST", "/v1/battles", Some(token), Some(sample_battle(&in_a_day(), None))).await;
        assert_rule(&reply, 403, "coalition.battle.not_a_judge", "seed 003 §1.3");
    }
    // An admin stands in for a judge.
    create(&app, ADMIN_TOKEN, sample_battle(&in_a_day(), None)).await;
    let battle = create_sample(&app, &cast).await;

    // seed 003 §5.4.1: bob controls side b only; observers control nothing.
    let other_side = app
        .request("POST", &battle.at("/strategies"), Some(&cast.bob), Some(json!({"side": "a", "strategy": "x"})))
        .await;
    assert_rule(&other_side, 403, "coalition.battle.not_controller", "seed 003 §5.4.1");
    let observer = app
        .request("POST", &battle.at("/strategies"), Some(&cast.observer), Some(json!({"side": "a", "strategy": "x"})))
        .await;
    assert_problem(&observer, 403, "coalition.battle.not_controller");
    let carol = app.token("player", Some("carol")).await;
    let outsider = app.request("POST", &battle.at("/entropy"), Some(&carol), Some(json!({"entropy": "x"}))).await;
    assert_problem(&outsider, 403, "coalition.battle.not_participant");

    // seed 003 §1.3: only the judge grades, resolves and reveals.
    let grade = app
        .request("POST", &battle.at("/strategy-bonuses"), Some(&cast.alice), Some(json!({"side": "a", "bonus": 10})))
        .await;
    assert_rule(&grade, 403, "coalition.battle.judge_only", "seed 003 §1.3");
    let resolve = app.request("POST", &battle.at("/resolve"), Some(&cast.bob), Some(json!({}))).await;
    assert_problem(&resolve, 403, "coalition.battle.judge_only");
    let reveal = app.request("POST", &battle.at("/reveal"), Some(&cast.observer), None).await;
    assert_problem(&reveal, 403, "coalition.battle.not_a_judge");

    // Only admins issue tokens.
    for token in [&cast.judge, &cast.alice, &cast.observer] {
        let reply = app.request("POST", "/v1/tokens", Some(token), Some(json!({"role": "admin"}))).await;
        assert_problem(&reply, 403, "forbidden");
    }
    // A player token needs a player; others must not have one; `system` is never issued.
    for body in [json!({"role": "player"}), json!({"role": "judge", "player": "alice"}), json!({"role": "system"})] {
        let reply = app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(body)).await;
        assert_problem(&reply, 400, "malformed_request");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_token_says_who_it_is_and_its_issue_is_audited_without_the_secret() {
    let app = spawn_app().await;
    let issued = app
        .request(
            "POST",
            "/v1/tokens",
            Some(ADMIN_TOKEN),
            Some(json!({"role": "player", "player": "alice", "label": "Sai Rei"})),
        )
        .await;
    assert_eq!(issued.status, 201, "{:#}", issued.body);
    let token = issued.body["token"].as_str().expect("a token");
    assert!(token.starts_with("hrd_"), "{token}");
    let id = issued.body["record"]["id"].as_str().expect("an id");

    let me = app.request("GET", "/v1/tokens/me", Some(token), None).await;
    assert_eq!(me.status, 200, "{:#}", me.body);
    assert_eq!(me.body, json!({"id": format!("token:{id}"), "role": "player", "player": "alice", "scope": "host"}));
    let admin = app.request("GET", "/v1/tokens/me", Some(ADMIN_TOKEN), None).await;
    assert_eq!(admin.body["role"], "admin");
    assert_eq!(admin.body["id"], "token:admin");

    let audit = stream_events(&app, "tokens", Some(ADMIN_TOKEN)).await;
    let event = find(&audit, "auth.TokenIssued").expect("auth.TokenIssued");
    assert_eq!(event["data"]["id"], id);
    assert_eq!(event["actor"], "token:admin");
    assert!(!event.to_string().contains(token), "the secret never enters the log");

    // Issue 15: who holds which token is for admins: the stream answers 403 to anyone else, and
    // $all leaves its events out for them.
    for reader in [None, Some(token)] {
        let listing = app.request("GET", "/v1/streams/tokens/events", reader, None).await;
        assert_eq!(listing.status, 403, "{:#}", listing.body);
        let all = app.request("GET", "/v1/events?limit=1000", reader, None).await;
        assert!(!all.body.to_string().contains("auth.TokenIssued"), "{:#}", all.body);
    }
    let all = app.request("GET", "/v1/events?limit=1000", Some(ADMIN_TOKEN), None).await;
    assert!(all.body.to_string().contains("auth.TokenIssued"), "admins still audit them");
    app.stop().await;
}
