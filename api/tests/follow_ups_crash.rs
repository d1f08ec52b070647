//! Follow-ups that cannot be lost: the `herald` binary is SIGKILLed while a battle is resolved or
//! a campaign turn adjudicated, again and again on the same data directory; after every restart
//! each battle that ended has its seed revealed (anyone can verify it) and each battle a campaign
//! announced has its stream — whether the kill came before, during or after the command, or
//! between it and the service's own follow-up. A retried request with the same Idempotency-Key
//! gets the first answer, follow-up included.

use std::{
    collections::hash_map::RandomState,
    hash::{BuildHasher, Hasher},
    net::TcpListener,
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use reqwest::blocking::Client;
use serde_json::{json, Value};

const ADMIN: &str = "hrd_follow-ups-crash-admin";
const CYCLES: usize = 20;

/// A random number from the process's hash seed: good enough to vary the kill moment.
fn random_below(bound: u64) -> u64 {
    RandomState::new().build_hasher().finish() % bound
}

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(dir: &Path) -> Self {
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a port");
        let started = Instant::now();
        loop {
            let child = Command::new(env!("CARGO_BIN_EXE_herald"))
                .args(["serve", "--port", &port.to_string(), "--data-dir"])
                .arg(dir)
                .env("HERALD_ADMIN_TOKEN", ADMIN)
                .env("RUST_LOG", "error")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("herald starts");
            let mut server = Self { child, base: format!("http://127.0.0.1:{port}") };
            if server.wait_until_ready() {
                return server;
            }
            // The killed server's store may still have been closing: start again.
            let _ = server.child.kill();
            let _ = server.child.wait();
            assert!(started.elapsed() < Duration::from_secs(60), "the server never became ready");
        }
    }

    fn wait_until_ready(&mut self) -> bool {
        let client = Client::new();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return false;
            }
            let ready = client.get(format!("{}/readyz", self.base)).send().is_ok_and(|r| r.status().is_success());
            if ready {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(client: &Client, base: &str, path: &str, token: &str, body: Value, key: Option<&str>) -> (u16, Value) {
    let mut request = client.post(format!("{base}{path}")).bearer_auth(token).json(&body);
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    match request.send() {
        Ok(response) => {
            let status = response.status().as_u16();
            (status, response.json().unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

fn ok(client: &Client, base: &str, path: &str, token: &str, body: Value) -> Value {
    let (status, reply) = post(client, base, path, token, body, None);
    assert!((200..300).contains(&status), "POST {path}: {status} {reply:#}");
    reply
}

fn get(client: &Client, base: &str, path: &str) -> (u16, Value) {
    let response = client.get(format!("{base}{path}")).send().expect("a response");
    let status = response.status().as_u16();
    (status, response.json().unwrap_or(Value::Null))
}

fn token(client: &Client, base: &str, body: Value) -> String {
    ok(client, base, "/v1/tokens", ADMIN, body)["token"].as_str().expect("a token").to_string()
}

fn battle(deadline: &str) -> Value {
    json!({
        "armies": {
            "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
                  "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000}]},
            "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
                  "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}
        },
        "engagement": {"kind": "attack", "attacker": "a"},
        "strategy_deadline": deadline,
    })
}

fn campaign_army(name: &str, team: &str, colors: Value, creature: &str, color: &str) -> Value {
    json!({"name": name, "team": team, "rank": "cpl_lt_commander", "creator": null, "colors": colors, "legend": null,
           "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]})
}

/// Send `path` with an Idempotency-Key on a thread and SIGKILL the server a random few
/// milliseconds later: before, during or after the command and its follow-up.
fn kill_during(server: Server, path: String, token: String, body: Value, key: String) {
    let base = server.base.clone();
    let request = std::thread::spawn(move || {
        let client = Client::builder().timeout(Duration::from_secs(5)).build().expect("a client");
        post(&client, &base, &path, &token, body, Some(&key))
    });
    std::thread::sleep(Duration::from_micros(random_below(25_000)));
    server.kill();
    let _ = request.join();
}

#[test]
fn a_battle_resolved_or_a_turn_adjudicated_when_the_server_is_killed_keeps_its_follow_ups() {
    let dir = tempfile::tempdir().expect("a data directory");
    let client = Client::new();
    let mut server = Server::start(dir.path());
    let base = server.base.clone();
    let judge = token(&client, &base, json!({"role": "judge"}));
    let alice = token(&client, &base, json!({"role": "player", "player": "alice"}));
    let bob = token(&client, &base, json!({"role": "player", "player": "bob"}));
    let deadline = (chrono::Utc::now() + chrono::Duration::days(1)).to_rfc3339();

    for cycle in 0..CYCLES {
        // A battle ready to resolve; the resolve is killed at a random moment.
        let base = server.base.clone();
        let created = ok(&client, &base, "/v1/battles", &judge, battle(&deadline));
        let id = created["stream"].as_str().expect("a stream").trim_start_matches("battle-").to_string();
        ok(&client, &base, &format!("/v1/battles/{id}/strategies"), &alice, json!({"side": "a", "strategy": "hold"}));
        ok(&client, &base, &format!("/v1/battles/{id}/strategies"), &bob, json!({"side": "b", "strategy": "rush"}));
        for side in ["a", "b"] {
            ok(
                &client,
                &base,
                &format!("/v1/battles/{id}/strategy-bonuses"),
                &judge,
                json!({"side": side, "bonus": 5}),
            );
        }
        let key = format!("resolve-{cycle}");
        kill_during(server, format!("/v1/battles/{id}/resolve"), judge.clone(), json!({}), key.clone());
        server = Server::start(dir.path());
        let base = server.base.clone();
        // Retried with its key, the resolve answers as the first time (or resolves now).
        let (status, reply) = post(&client, &base, &format!("/v1/battles/{id}/resolve"), &judge, json!({}), Some(&key));
        assert_eq!(status, 200, "cycle {cycle}: the retried resolve {reply:#}");
        let (_, view) = get(&client, &base, &format!("/v1/battles/{id}"));
        assert!(view["seed"].is_string(), "cycle {cycle}: the ended battle's seed is revealed: {view:#}");
        let (status, verified) = get(&client, &base, &format!("/v1/battles/{id}/verify"));
        assert_eq!((status, verified["result"].as_str()), (200, Some("verified")), "cycle {cycle}: {verified:#}");

        // A campaign turn in which two armies meet; the adjudication is killed at a random moment.
        let body = json!({
            "name": format!("Round {cycle}"),
            "armies": [
                {"army": campaign_army("Sai Rei", "coalition", json!(["red", "green", "blue"]), "Kris Mage", "red"),
                 "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
                {"army": campaign_army("Plague Host", "phyrexia", json!([]), "Phyrexian Broodling", "black"),
                 "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
            ],
            "options": {"enforce_army_counts": false, "enforce_site_counts": false}
        });
        let created = ok(&client, &base, "/v1/campaigns", &judge, body);
        let campaign = created["stream"].as_str().expect("a stream").trim_start_matches("campaign-").to_string();
        ok(&client, &base, &format!("/v1/campaigns/{campaign}/turns"), &judge, json!({"deadline": deadline}));
        ok(&client, &base, &format!("/v1/campaigns/{campaign}/orders"), &alice, json!({"text": "Sai Rei: 5E > 8E"}));
        ok(&client, &base, &format!("/v1/campaigns/{campaign}/orders"), &bob, json!({"text": "Plague Host: 9E > 8E"}));
        ok(&client, &base, &format!("/v1/campaigns/{campaign}/lock"), &judge, json!({}));
        let key = format!("adjudicate-{cycle}");
        kill_during(server, format!("/v1/campaigns/{campaign}/adjudicate"), judge.clone(), json!({}), key.clone());
        server = Server::start(dir.path());
        let base = server.base.clone();
        let (status, reply) =
            post(&client, &base, &format!("/v1/campaigns/{campaign}/adjudicate"), &judge, json!({}), Some(&key));
        assert_eq!(status, 200, "cycle {cycle}: the retried adjudication {reply:#}");
        let (_, events) = get(&client, &base, &format!("/v1/streams/campaign-{campaign}/events?limit=1000"));
        let announced: Vec<String> = events["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["type"] == "coalition.BattleAnnounced")
            .map(|e| e["data"]["battle"].as_str().expect("a battle").to_string())
            .collect();
        assert_eq!(announced.len(), 1, "cycle {cycle}: the armies met in 8E");
        for battle in announced {
            let (status, view) = get(&client, &base, &format!("/v1/battles/{battle}"));
            assert_eq!(status, 200, "cycle {cycle}: announced battle {battle} was opened: {view:#}");
        }
    }
    server.kill();
}
