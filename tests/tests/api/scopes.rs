//! Scoped, expiring, revocable tokens (issue 15; DESIGN.md "roles per campaign or battle"): a
//! judge of one campaign judges that campaign and the battles it announced and nothing else;
//! every mutating route refuses a token outside its scope before it reads the body; outside its
//! scope a token reads as the public does; admins list and revoke tokens; `/metrics` is served
//! as the host chooses.

use herald_api::config::MetricsExposure;
use herald_tests::{sample_battle, spawn_app, spawn_app_with, TestApp, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::{
    campaign,
    support::{assert_problem, create_sample, in_a_day, Cast},
};

/// Issue a token with `body` (role, scope, expiry…) as the admin; its secret and record.
async fn issue(app: &TestApp, body: Value) -> (String, Value) {
    let reply = app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(body)).await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    (reply.body["token"].as_str().expect("a token").to_string(), reply.body["record"].clone())
}

/// The position after the last event of `$all` (what an admin sees).
async fn head(app: &TestApp) -> usize {
    let mut count = 0;
    let mut from = 0;
    loop {
        let page = app.request("GET", &format!("/v1/events?from={from}&limit=1000"), Some(ADMIN_TOKEN), None).await;
        count += page.body["events"].as_array().map_or(0, Vec::len);
        match page.body["next"].as_u64() {
            Some(next) => from = next,
            None => return count,
        }
    }
}

#[tokio::test]
async fn a_campaign_judge_judges_that_campaign_and_its_battles_and_nothing_else() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (a, a_stream) = campaign::create(&app, &cast).await;
    let (b, b_stream) = campaign::create(&app, &cast).await;
    let (judge, record) = issue(&app, json!({"role": "judge", "scope": a_stream, "label": "Round 1 judge"})).await;
    assert_eq!(record["scope"], a_stream);

    let me = app.request("GET", "/v1/tokens/me", Some(&judge), None).await;
    assert_eq!(me.body["scope"], a_stream, "{:#}", me.body);
    assert_eq!(me.body["role"], "judge");

    // Campaign B is not this judge's.
    let deadline = json!({"deadline": in_a_day()});
    let refused = app.request("POST", &format!("/v1/campaigns/{b}/turns"), Some(&judge), Some(deadline.clone())).await;
    assert_problem(&refused, 403, "token.out_of_scope");
    assert!(refused.body["detail"].as_str().is_some_and(|d| d.contains(&b_stream)), "{:#}", refused.body);

    // Campaign A is: a turn where the armies meet opens a battle of A (seed 003 §4.1.2.3).
    let opened = app.request("POST", &format!("/v1/campaigns/{a}/turns"), Some(&judge), Some(deadline)).await;
    assert_eq!(opened.status, 200, "{:#}", opened.body);
    for (token, text) in [(&cast.alice, "Sai Rei: 5E > 8E"), (&cast.bob, "Plague Host: 9E > 8E")] {
        let posted =
            app.request("POST", &format!("/v1/campaigns/{a}/orders"), Some(token), Some(json!({"text": text}))).await;
        assert_eq!(posted.status, 200, "{:#}", posted.body);
    }
    assert_eq!(app.request("POST", &format!("/v1/campaigns/{a}/lock"), Some(&judge), None).await.status, 200);
    let adjudicated = app.request("POST", &format!("/v1/campaigns/{a}/adjudicate"), Some(&judge), None).await;
    assert_eq!(adjudicated.status, 200, "{:#}", adjudicated.body);
    let announced = campaign::events_of(&adjudicated.body, "coalition.BattleAnnounced");
    let battle = announced.first().and_then(|e| e["data"]["battle"].as_str()).expect("a battle").to_string();

    // The battle A announced is the judge's to grade; a battle of no campaign is not.
    let view = app.request("GET", &format!("/v1/battles/{battle}"), Some(&judge), None).await;
    let side = if view.body["sides"]["a"]["army"]["controller"] == "alice" { "a" } else { "b" };
    let strategy = json!({"side": side, "strategy": "Mages hold the bog"});
    let submitted =
        app.request("POST", &format!("/v1/battles/{battle}/strategies"), Some(&cast.alice), Some(strategy)).await;
    assert_eq!(submitted.status, 200, "{:#}", submitted.body);
    let graded = app
        .request(
            "POST",
            &format!("/v1/battles/{battle}/strategy-bonuses"),
            Some(&judge),
            Some(json!({"side": side, "bonus": 7})),
        )
        .await;
    assert_eq!(graded.status, 200, "{:#}", graded.body);
    let standalone = create_sample(&app, &cast).await;
    let bonus = json!({"side": "a", "bonus": 7});
    let outside = app.request("POST", &standalone.at("/strategy-bonuses"), Some(&judge), Some(bonus)).await;
    assert_problem(&outside, 403, "token.out_of_scope");

    // A scoped token opens no new battle or campaign: a new stream is in no campaign yet.
    let before = head(&app).await;
    let new_battle = app.request("POST", "/v1/battles", Some(&judge), Some(sample_battle(&in_a_day(), None))).await;
    assert_problem(&new_battle, 403, "token.out_of_scope");
    let new_campaign = app.request("POST", "/v1/campaigns", Some(&judge), Some(json!({}))).await;
    assert_problem(&new_campaign, 403, "token.out_of_scope");
    assert_eq!(head(&app).await, before, "nothing opened");

    // Reading outside its scope, the judge sees what the public sees: alice's sealed strategy in
    // the standalone battle stays sealed to it, while inside its scope it reads as a judge.
    let sealed = app
        .request(
            "POST",
            &standalone.at("/strategies"),
            Some(&cast.alice),
            Some(json!({"side": "a", "strategy": "Hold the ridge"})),
        )
        .await;
    assert_eq!(sealed.status, 200, "{:#}", sealed.body);
    let public = app.request("GET", &standalone.at("/strategies/a"), None, None).await;
    let scoped = app.request("GET", &standalone.at("/strategies/a"), Some(&judge), None).await;
    assert_eq!((scoped.status, &scoped.body["code"]), (public.status, &public.body["code"]), "{:#}", scoped.body);
    assert_eq!(scoped.status, 403, "sealed from the public: {:#}", scoped.body);
    let inside = app.request("GET", &format!("/v1/battles/{battle}/strategies/{side}"), Some(&judge), None).await;
    assert_eq!(inside.status, 200, "a judge reads a sealed strategy in its scope: {:#}", inside.body);
    app.stop().await;
}

/// Fill a path template of the spec with ids out of the token's scope.
fn out_of_scope_path(template: &str, campaign: &str, battle: &str, webhook: &str) -> String {
    template
        .replace("{webhook_id}", webhook)
        .replace("{campaign_id}", campaign)
        .replace("{battle_id}", battle)
        .replace("{stream}", &format!("battle-{battle}"))
        .replace("{vote}", "1")
        .replace("{token_id}", "no-such-token")
}

#[tokio::test]
async fn every_mutating_route_refuses_a_token_outside_its_scope_and_writes_nothing() {
    // Webhook targets on the loopback address are allowed, so that a host-wide subscription
    // exists for the scoped admin to be refused.
    let app = spawn_app_with(|settings| settings.webhooks.allow_hosts = vec!["127.0.0.1".into()]).await;
    let cast = Cast::issue(&app).await;
    let (campaign, _) = campaign::create(&app, &cast).await;
    let own = create_sample(&app, &cast).await;
    let other = create_sample(&app, &cast).await;
    let hook = json!({"url": "http://127.0.0.1:9/hook"});
    let subscription = app.request("POST", "/v1/webhooks", Some(ADMIN_TOKEN), Some(hook)).await;
    assert_eq!(subscription.status, 201, "{:#}", subscription.body);
    let webhook = subscription.body["subscription"]["id"].as_str().expect("a subscription id").to_string();
    // An admin of one battle: its role passes every role check, so only the scope refuses.
    let (token, _) = issue(&app, json!({"role": "admin", "scope": own.stream})).await;
    let before = head(&app).await;

    let spec: Value = serde_json::from_str(&herald_api::openapi::spec_json()).expect("the spec is JSON");
    let mut checked = Vec::new();
    for (template, operations) in spec["paths"].as_object().expect("paths") {
        for method in ["post", "put", "patch", "delete"] {
            if operations.get(method).is_none() {
                continue;
            }
            let path = out_of_scope_path(template, &campaign, other.id.as_str(), &webhook);
            // `{}`: the scope is checked before the body is read (a token's body before it is
            // issued).
            let body = match template.as_str() {
                "/v1/tokens" => json!({"role": "observer"}),
                "/v1/webhooks" => json!({"url": "http://127.0.0.1:9/hook", "scope": other.stream}),
                _ => json!({}),
            };
            let reply = app.request(&method.to_uppercase(), &path, Some(&token), Some(body)).await;
            assert_problem(&reply, 403, "token.out_of_scope");
            checked.push(format!("{} {template}", method.to_uppercase()));
        }
    }
    assert!(checked.len() >= 20, "every mutating operation of the spec: {checked:?}");
    assert_eq!(head(&app).await, before, "nothing was written by {checked:?}");

    // Inside its scope the same token acts.
    let entropy = app.request("POST", &own.at("/entropy"), Some(&token), Some(json!({"entropy": "mine"}))).await;
    assert_eq!(entropy.status, 200, "{:#}", entropy.body);
    app.stop().await;
}

#[tokio::test]
async fn admins_list_and_revoke_tokens_and_a_revoked_or_expired_token_stops_working() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let (judge, record) = issue(&app, json!({"role": "judge", "label": "to revoke"})).await;
    let id = record["id"].as_str().expect("an id").to_string();
    assert_eq!(app.request("GET", "/v1/tokens/me", Some(&judge), None).await.status, 200);

    // Only an admin of the host revokes; an unknown id is a 404; the configured admin token is
    // changed in the settings, not revoked.
    let (campaign_admin, _) = issue(&app, json!({"role": "admin", "scope": battle.stream})).await;
    for (token, code) in [(&cast.judge, "forbidden"), (&campaign_admin, "token.out_of_scope")] {
        let refused = app.request("DELETE", &format!("/v1/tokens/{id}"), Some(token), None).await;
        assert_problem(&refused, 403, code);
    }
    assert_problem(&app.request("DELETE", "/v1/tokens/no-such-token", Some(ADMIN_TOKEN), None).await, 404, "not_found");
    assert_problem(&app.request("DELETE", "/v1/tokens/admin", Some(ADMIN_TOKEN), None).await, 422, "token.configured");

    let revoked = app.request("DELETE", &format!("/v1/tokens/{id}"), Some(ADMIN_TOKEN), None).await;
    assert_eq!(revoked.status, 200, "{:#}", revoked.body);
    let revoked_at = revoked.body["revoked_at"].as_str().expect("revoked_at").to_string();
    let me = app.request("GET", "/v1/tokens/me", Some(&judge), None).await;
    assert_problem(&me, 401, "unauthenticated");
    assert!(me.body["detail"].as_str().is_some_and(|d| d.contains("revoked")), "{:#}", me.body);
    let resolve = app.request("POST", &battle.at("/resolve"), Some(&judge), Some(json!({}))).await;
    assert_problem(&resolve, 401, "unauthenticated");
    // Revoking again changes nothing; the audit has one revocation.
    let again = app.request("DELETE", &format!("/v1/tokens/{id}"), Some(ADMIN_TOKEN), None).await;
    assert_eq!(again.body["revoked_at"], revoked_at.as_str());
    let audit = app.request("GET", "/v1/streams/tokens/events?limit=1000", Some(ADMIN_TOKEN), None).await;
    let revocations: Vec<&Value> = audit.body["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|event| event["type"] == "auth.TokenRevoked")
        .collect();
    assert_eq!(revocations.len(), 1, "{:#}", audit.body);
    assert_eq!(revocations[0]["data"]["id"], id.as_str());

    // The listing pages, filters and shows the revocation; it is for admins of the host.
    let first = app.request("GET", "/v1/tokens?limit=2", Some(ADMIN_TOKEN), None).await;
    assert_eq!(first.status, 200, "{:#}", first.body);
    assert_eq!(first.body["tokens"].as_array().map(Vec::len), Some(2));
    let link = first.header("link").expect("a Link to the next page");
    let next = link.trim_start_matches('<').split('>').next().expect("a URL").to_string();
    let mut listed: Vec<Value> = first.body["tokens"].as_array().cloned().unwrap_or_default();
    let mut page = app.request("GET", &next, Some(ADMIN_TOKEN), None).await;
    loop {
        listed.extend(page.body["tokens"].as_array().cloned().unwrap_or_default());
        let Some(after) = page.body["next"].as_str() else { break };
        page = app.request("GET", &format!("/v1/tokens?limit=2&after={after}"), Some(ADMIN_TOKEN), None).await;
    }
    // The configured admin, four of the cast, the judge and the battle's admin.
    assert_eq!(listed.len(), 7, "{listed:#?}");
    assert!(listed.iter().all(|token| token.get("token").is_none()), "never a secret");
    assert!(listed.iter().any(|token| token["id"] == id.as_str() && token["revoked_at"] == revoked_at.as_str()));
    let active = app.request("GET", "/v1/tokens?inactive=false&role=judge", Some(ADMIN_TOKEN), None).await;
    assert_eq!(active.body["tokens"].as_array().map(Vec::len), Some(1), "{:#}", active.body);
    for token in [&cast.judge, &cast.alice, &campaign_admin] {
        assert_eq!(app.request("GET", "/v1/tokens", Some(token), None).await.status, 403);
    }
    assert_problem(&app.request("GET", "/v1/tokens?limit=0", Some(ADMIN_TOKEN), None).await, 400, "malformed_request");

    // An expiry must lie ahead; a token past it is refused as expired.
    let past = json!({"role": "observer", "expires_at": "2020-01-01T00:00:00Z"});
    let refused = app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(past)).await;
    assert_problem(&refused, 422, "token.expiry_past");
    let soon = (chrono::Utc::now() + chrono::Duration::milliseconds(1500)).to_rfc3339();
    let (brief, _) = issue(&app, json!({"role": "observer", "expires_at": soon})).await;
    assert!(app.request("GET", "/v1/tokens/me", Some(&brief), None).await.body["expires_at"].is_string());
    tokio::time::sleep(std::time::Duration::from_millis(1600)).await;
    let expired = app.request("GET", "/v1/tokens/me", Some(&brief), None).await;
    assert_problem(&expired, 401, "unauthenticated");
    assert!(expired.body["detail"].as_str().is_some_and(|d| d.contains("expired")), "{:#}", expired.body);

    // A scope must name a campaign or battle that exists, in the service's own spelling.
    let unknown = json!({"role": "judge", "scope": "campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f"});
    assert_problem(
        &app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(unknown)).await,
        422,
        "token.scope_not_found",
    );
    let garbled = json!({"role": "judge", "scope": "round-1"});
    assert_problem(
        &app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(garbled)).await,
        400,
        "malformed_request",
    );

    // A revocation survives a restart.
    let app = app.restart().await;
    assert_problem(&app.request("GET", "/v1/tokens/me", Some(&judge), None).await, 401, "unauthenticated");
    assert_eq!(app.request("GET", "/v1/tokens/me", Some(&cast.judge), None).await.status, 200);
    app.stop().await;
}

#[tokio::test]
async fn the_host_chooses_who_reads_metrics() {
    let public = spawn_app().await;
    assert_eq!(public.request("GET", "/metrics", None, None).await.status, 200);
    public.stop().await;

    let admin = spawn_app_with(|settings| settings.metrics = MetricsExposure::Admin).await;
    assert_problem(&admin.request("GET", "/metrics", None, None).await, 401, "unauthenticated");
    let judge = admin.token("judge", None).await;
    assert_problem(&admin.request("GET", "/metrics", Some(&judge), None).await, 403, "forbidden");
    let scraped = admin.request("GET", "/metrics", Some(ADMIN_TOKEN), None).await;
    assert_eq!(scraped.status, 200);
    assert!(scraped.body.as_str().is_some_and(|text| text.contains("herald_")), "{:#}", scraped.body);
    admin.stop().await;

    let off = spawn_app_with(|settings| settings.metrics = MetricsExposure::Off).await;
    assert_problem(&off.request("GET", "/metrics", Some(ADMIN_TOKEN), None).await, 404, "not_found");
    off.stop().await;
}
