//! Shared helpers: the cast of a battle (tokens by role), deadlines, battle set-up and assertions
//! on problem+json answers.

use herald_tests::{sample_battle, Reply, TestApp};
use serde_json::{json, Value};

/// A public server seed (the bytes 0, 1, …, 31 of docs/DICE.md's test vectors).
pub const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
/// `sha256(SEED)`, from docs/DICE.md.
pub const COMMITMENT: &str = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";

pub const STRATEGY_A: &str = "Hold the ridge at dawn; Kris Mages volley from the rocks.";
pub const STRATEGY_B: &str = "Broodlings swarm the left flank while the Ghouls feed.";

/// Tokens for everyone at the table.
pub struct Cast {
    pub judge: String,
    pub alice: String,
    pub bob: String,
    pub observer: String,
}

impl Cast {
    /// Issue a judge, alice, bob and an observer token with the admin token.
    pub async fn issue(app: &TestApp) -> Self {
        Self {
            judge: app.token("judge", None).await,
            alice: app.token("player", Some("alice")).await,
            bob: app.token("player", Some("bob")).await,
            observer: app.token("observer", None).await,
        }
    }
}

/// A deadline a day from now, RFC 3339.
pub fn in_a_day() -> String {
    (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339()
}

/// A deadline an hour ago, RFC 3339.
pub fn an_hour_ago() -> String {
    (chrono::Utc::now() - chrono::Duration::hours(1)).to_rfc3339()
}

/// A created battle.
pub struct Battle {
    pub id: String,
    pub stream: String,
    pub created: Reply,
}

impl Battle {
    pub fn path(&self) -> String {
        format!("/v1/battles/{}", self.id)
    }

    pub fn at(&self, rest: &str) -> String {
        format!("/v1/battles/{}{rest}", self.id)
    }

    pub fn events_path(&self) -> String {
        format!("/v1/streams/{}/events", self.stream)
    }
}

/// Open `body` as `judge`; asserts 201.
pub async fn create(app: &TestApp, judge: &str, body: Value) -> Battle {
    let created = app.request("POST", "/v1/battles", Some(judge), Some(body)).await;
    assert_eq!(created.status, 201, "battle created: {:#}", created.body);
    let stream = created.body["stream"].as_str().expect("a stream").to_string();
    let id = stream.strip_prefix("battle-").expect("a battle stream").to_string();
    Battle { id, stream, created }
}

/// Open the sample battle with a deadline a day away and the public seed.
pub async fn create_sample(app: &TestApp, cast: &Cast) -> Battle {
    create(app, &cast.judge, sample_battle(&in_a_day(), Some(SEED))).await
}

/// POST and assert 200; returns the reply.
pub async fn ok(app: &TestApp, path: &str, token: &str, body: Value) -> Reply {
    let reply = app.request("POST", path, Some(token), Some(body)).await;
    assert_eq!(reply.status, 200, "POST {path} {:#}", reply.body);
    reply
}

/// Entropy from both players, both strategies in, both bonuses assigned (7 and 4).
pub async fn prepare(app: &TestApp, cast: &Cast, battle: &Battle) {
    ok(app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "alice's lucky string 7f3a"})).await;
    ok(app, &battle.at("/entropy"), &cast.bob, json!({"entropy": "bob rolls for the Host"})).await;
    ok(app, &battle.at("/strategies"), &cast.alice, json!({"side": "a", "strategy": STRATEGY_A})).await;
    ok(app, &battle.at("/strategies"), &cast.bob, json!({"side": "b", "strategy": STRATEGY_B})).await;
    ok(app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "a", "bonus": 7, "note": "terrain"})).await;
    ok(app, &battle.at("/strategy-bonuses"), &cast.judge, json!({"side": "b", "bonus": 4})).await;
}

/// Resolve as the judge; asserts 200.
pub async fn resolve(app: &TestApp, cast: &Cast, battle: &Battle) -> Reply {
    ok(app, &battle.at("/resolve"), &cast.judge, json!({})).await
}

/// Every event of a stream (following `next`), as `token` sees them.
pub async fn stream_events(app: &TestApp, stream: &str, token: Option<&str>) -> Vec<Value> {
    let mut events = Vec::new();
    let mut from = 0;
    loop {
        let page = app.request("GET", &format!("/v1/streams/{stream}/events?from={from}&limit=100"), token, None).await;
        assert_eq!(page.status, 200, "{:#}", page.body);
        events.extend(page.body["events"].as_array().expect("events").iter().cloned());
        match page.body["next"].as_u64() {
            Some(next) => from = next,
            None => return events,
        }
    }
}

/// The first event of `type` in `events`.
pub fn find<'a>(events: &'a [Value], event_type: &str) -> Option<&'a Value> {
    events.iter().find(|event| event["type"] == event_type)
}

/// The events of a command response.
pub fn events_of(reply: &Reply) -> Vec<Value> {
    reply.body["events"].as_array().cloned().unwrap_or_default()
}

/// Assert an RFC 9457 problem with `status` and `code`.
pub fn assert_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "expected {status} {code}, got {:#}", reply.body);
    let content_type = reply.header("content-type").unwrap_or_default();
    assert!(content_type.starts_with("application/problem+json"), "content type {content_type:?}");
    assert_eq!(reply.body["code"], code, "{:#}", reply.body);
    assert_eq!(reply.body["status"], status, "{:#}", reply.body);
    assert!(reply.body["type"].is_string() && reply.body["title"].is_string(), "{:#}", reply.body);
    assert!(reply.body["detail"].as_str().is_some_and(|d| !d.is_empty()), "{:#}", reply.body);
}

/// Assert a rule violation: `status`, `code` and a `rule` naming `rule`.
pub fn assert_rule(reply: &Reply, status: u16, code: &str, rule: &str) {
    assert_problem(reply, status, code);
    let named = reply.body["rule"].as_str().unwrap_or_default();
    assert!(named.contains(rule), "rule {named:?} should name {rule:?}");
}
