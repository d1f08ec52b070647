//! Actors by name (issue 28 item 1; docs/API.md "Actors and who sees a token's label"): every
//! event view names its actor as a person — role, player name, the token's state — and the
//! token's label only to admins of the stream and to the token's own holder. Audit listings
//! filter by player and by role.

use std::time::Duration;

use herald_tests::{spawn_app, TestApp, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::{
    campaign,
    support::{assert_problem, in_a_day, stream_events, Cast},
};

const JUDGE_LABEL: &str = "Battle Judge, round 12";
const ALICE_LABEL: &str = "Sai Rei's controller, alice's phone";
const BOB_LABEL: &str = "bob, laptop";
const ADMIN_LABEL: &str = "campaign admin for round 1";

/// Issue a token with `body` as the host admin: its secret and its id.
async fn issue(app: &TestApp, body: Value) -> (String, String) {
    let reply = app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(body)).await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    let token = reply.body["token"].as_str().expect("a token").to_string();
    (token, reply.body["record"]["id"].as_str().expect("an id").to_string())
}

/// A campaign with a turn opened by a labelled judge and orders from two labelled players; a
/// campaign admin with a label of its own.
struct Table {
    app: TestApp,
    cast: Cast,
    /// Actor ids (`token:<id>`).
    judge: String,
    alice: String,
    bob: String,
    /// Token ids, for revoking.
    bob_token_id: String,
    /// An admin scoped to the campaign.
    campaign_admin: String,
    id: String,
    stream: String,
    /// The reply to alice's orders.
    alice_orders: Value,
}

async fn table() -> Table {
    let app = spawn_app().await;
    let (judge, judge_id) = issue(&app, json!({"role": "judge", "label": JUDGE_LABEL})).await;
    let (alice, alice_id) = issue(&app, json!({"role": "player", "player": "alice", "label": ALICE_LABEL})).await;
    let (bob, bob_id) = issue(&app, json!({"role": "player", "player": "bob", "label": BOB_LABEL})).await;
    let observer = app.token("observer", None).await;
    let cast = Cast { judge, alice, bob, observer };
    let (id, stream) = campaign::create(&app, &cast).await;
    let (campaign_admin, _) = issue(&app, json!({"role": "admin", "scope": stream, "label": ADMIN_LABEL})).await;
    let opened = app
        .request("POST", &format!("/v1/campaigns/{id}/turns"), Some(&cast.judge), Some(json!({"deadline": in_a_day()})))
        .await;
    assert_eq!(opened.status, 200, "{:#}", opened.body);
    let alice_orders = app
        .request(
            "POST",
            &format!("/v1/campaigns/{id}/orders"),
            Some(&cast.alice),
            Some(json!({"text": "Sai Rei: 5E > 8E"})),
        )
        .await;
    assert_eq!(alice_orders.status, 200, "{:#}", alice_orders.body);
    let bob_orders = app
        .request(
            "POST",
            &format!("/v1/campaigns/{id}/orders"),
            Some(&cast.bob),
            Some(json!({"text": "Plague Host: 9E > 8E"})),
        )
        .await;
    assert_eq!(bob_orders.status, 200, "{:#}", bob_orders.body);
    Table {
        app,
        cast,
        judge: format!("token:{judge_id}"),
        alice: format!("token:{alice_id}"),
        bob: format!("token:{bob_id}"),
        bob_token_id: bob_id,
        campaign_admin,
        id,
        stream,
        alice_orders: alice_orders.body,
    }
}

/// The `who` of the first event by `actor` in `events`.
fn who<'a>(events: &'a [Value], actor: &str) -> &'a Value {
    let event = events.iter().find(|event| event["actor"] == actor).unwrap_or_else(|| panic!("an event by {actor}"));
    &event["who"]
}

/// What one reader sees of the three actors' labels and names: (judge, alice, bob), each as
/// (label, name).
fn seen(events: &[Value], table: &Table) -> [(Value, Value); 3] {
    [&table.judge, &table.alice, &table.bob].map(|actor| {
        let who = who(events, actor);
        (who["label"].clone(), who["name"].clone())
    })
}

#[tokio::test]
async fn every_event_names_its_actor_and_labels_go_only_to_admins_and_the_tokens_holder() {
    let table = table().await;
    let app = &table.app;

    // Everyone sees who acted: the id as recorded, the role, the player's name, the token's state.
    for reader in [None, Some(table.cast.alice.as_str()), Some(&table.cast.judge), Some(ADMIN_TOKEN)] {
        let events = stream_events(app, &table.stream, reader).await;
        for event in &events {
            assert_eq!(event["who"]["id"], event["actor"], "{event:#}");
        }
        let judge = who(&events, &table.judge);
        assert_eq!((&judge["role"], &judge["token"]), (&json!("judge"), &json!("active")));
        assert!(judge.get("player").is_none(), "{judge:#}");
        for (actor, player) in [(&table.alice, "alice"), (&table.bob, "bob")] {
            let who = who(&events, actor);
            assert_eq!(
                (&who["role"], &who["player"], &who["token"]),
                (&json!("player"), &json!(player), &json!("active"))
            );
            // A player's name is public: it is the name to show, whoever reads.
            assert_eq!(who["name"], player);
        }
    }

    // The labels, reader by reader, exactly as docs/API.md says.
    let hidden = || (json!("hidden"), json!("judge"));
    let anonymous = stream_events(app, &table.stream, None).await;
    assert_eq!(
        seen(&anonymous, &table),
        [hidden(), (json!("hidden"), json!("alice")), (json!("hidden"), json!("bob"))],
        "an anonymous reader sees no label"
    );
    let observer = stream_events(app, &table.stream, Some(&table.cast.observer)).await;
    assert_eq!(seen(&observer, &table), seen(&anonymous, &table), "an observer reads as the public");
    let alice = stream_events(app, &table.stream, Some(&table.cast.alice)).await;
    assert_eq!(
        seen(&alice, &table),
        [hidden(), (json!(ALICE_LABEL), json!("alice")), (json!("hidden"), json!("bob"))],
        "a player sees her own token's label, not another player's nor the judge's"
    );
    let judge = stream_events(app, &table.stream, Some(&table.cast.judge)).await;
    assert_eq!(
        seen(&judge, &table),
        [(json!(JUDGE_LABEL), json!(JUDGE_LABEL)), (json!("hidden"), json!("alice")), (json!("hidden"), json!("bob"))],
        "a judge sees his own label and no player's"
    );
    let everything = [
        (json!(JUDGE_LABEL), json!(JUDGE_LABEL)),
        (json!(ALICE_LABEL), json!("alice")),
        (json!(BOB_LABEL), json!("bob")),
    ];
    for admin in [ADMIN_TOKEN, table.campaign_admin.as_str()] {
        let events = stream_events(app, &table.stream, Some(admin)).await;
        assert_eq!(seen(&events, &table), everything, "an admin of the campaign sees every label");
    }

    // A command's reply names its actor the same way: alice sees her own label in it.
    let replied = table.alice_orders["events"].as_array().expect("events");
    assert!(!replied.is_empty());
    for event in replied {
        assert_eq!(event["who"]["label"], ALICE_LABEL, "{event:#}");
        assert_eq!(event["who"]["player"], "alice");
    }

    // The service itself is named as such, with no token.
    let all = app.request("GET", "/v1/events?role=system&limit=1000", Some(ADMIN_TOKEN), None).await;
    assert_eq!(all.status, 200, "{:#}", all.body);
    for event in all.body["events"].as_array().expect("events") {
        assert_eq!(event["actor"], "system");
        assert_eq!((&event["who"]["role"], &event["who"]["name"]), (&json!("system"), &json!("Herald")));
        assert!(event["who"].get("token").is_none() && event["who"].get("label").is_none(), "{event:#}");
    }
}

#[tokio::test]
async fn an_admin_scoped_elsewhere_reads_labels_as_the_public() {
    let table = table().await;
    let app = &table.app;
    let (other, other_stream) = campaign::create(app, &table.cast).await;
    assert_ne!(other, table.id);
    let (elsewhere, _) = issue(app, json!({"role": "admin", "scope": other_stream})).await;
    let events = stream_events(app, &table.stream, Some(&elsewhere)).await;
    let public = stream_events(app, &table.stream, None).await;
    assert_eq!(seen(&events, &table), seen(&public, &table));
    assert_eq!(who(&events, &table.alice)["label"], "hidden");
}

#[tokio::test]
async fn audits_filter_by_player_and_by_role() {
    let table = table().await;
    let app = &table.app;
    let stream_path = format!("/v1/streams/{}/events", table.stream);
    let campaign_path = format!("/v1/streams/{}/events", table.id);
    let listed = |path: String, token: Option<&'static str>| async move {
        let reply = app.request("GET", &path, token, None).await;
        assert_eq!(reply.status, 200, "{path}: {:#}", reply.body);
        reply.body["events"].as_array().expect("events").clone()
    };
    let actors = |events: &[Value]| {
        let mut actors: Vec<String> =
            events.iter().map(|event| event["actor"].as_str().expect("an actor").to_string()).collect();
        actors.dedup();
        actors
    };

    // By player, in a campaign's audit (by stream name or bare id) and in `$all`, for anyone.
    for path in [
        format!("{stream_path}?player=alice"),
        format!("{campaign_path}?player=alice"),
        "/v1/events?player=alice".to_string(),
    ] {
        let events = listed(path, None).await;
        assert_eq!(actors(&events), vec![table.alice.as_str()]);
        assert!(events.iter().all(|event| event["who"]["player"] == "alice"));
    }
    // By role: the judge's events only; the players' events of both players.
    let judged = listed(format!("{stream_path}?role=judge"), None).await;
    assert_eq!(actors(&judged), vec![table.judge.as_str()]);
    let played = listed(format!("{stream_path}?role=player"), None).await;
    let mut players = actors(&played);
    players.sort();
    players.dedup();
    let mut expected = vec![table.alice.clone(), table.bob.clone()];
    expected.sort();
    assert_eq!(players, expected);
    // Both filters together, and with the type filter.
    assert!(listed(format!("{stream_path}?role=judge&player=alice"), None).await.is_empty());
    let orders = listed(format!("{stream_path}?role=player&player=bob&type=coalition.OrdersPosted"), None).await;
    assert!(!orders.is_empty());
    assert!(orders.iter().all(|e| e["actor"] == table.bob.as_str() && e["type"] == "coalition.OrdersPosted"));
    // Nobody by that name: an empty page, not an error.
    assert!(listed(format!("{stream_path}?player=mallory"), None).await.is_empty());
    // The existing actor filter still holds.
    assert_eq!(actors(&listed(format!("{stream_path}?actor={}", table.judge), None).await), vec![table.judge.as_str()]);
    // A role that is no role is a bad filter.
    let refused = app.request("GET", &format!("{stream_path}?role=referee"), None, None).await;
    assert_problem(&refused, 400, "malformed_request");

    // A filter names no one it should not: filtering by role keeps hiding labels.
    for event in listed(format!("{stream_path}?role=player"), Some(ADMIN_TOKEN)).await {
        assert_ne!(event["who"]["label"], "hidden");
    }
    for event in listed(format!("{stream_path}?role=player"), None).await {
        assert_eq!(event["who"]["label"], "hidden");
    }

    // Live: the same filter on the SSE stream.
    let expected_alice = listed("/v1/events?player=alice".to_string(), None).await.len();
    let live = live_messages(app, "?player=alice", expected_alice).await;
    assert_eq!(live.len(), expected_alice);
    for data in &live {
        assert_eq!(data["actor"], table.alice.as_str());
        assert_eq!((&data["who"]["player"], &data["who"]["label"]), (&json!("alice"), &json!("hidden")));
    }
}

#[tokio::test]
async fn a_revoked_token_is_still_named_and_said_to_be_revoked() {
    let table = table().await;
    let app = &table.app;
    let revoked = app.request("DELETE", &format!("/v1/tokens/{}", table.bob_token_id), Some(ADMIN_TOKEN), None).await;
    assert_eq!(revoked.status, 200, "{:#}", revoked.body);
    for reader in [None, Some(ADMIN_TOKEN)] {
        let events = stream_events(app, &table.stream, reader).await;
        let bob = who(&events, &table.bob);
        assert_eq!((&bob["token"], &bob["player"], &bob["name"]), (&json!("revoked"), &json!("bob"), &json!("bob")));
        assert_eq!(who(&events, &table.alice)["token"], "active");
    }
    // What a revoked token did stays in the audit by its player.
    let page = app.request("GET", &format!("/v1/streams/{}/events?player=bob", table.stream), None, None).await;
    assert!(!page.body["events"].as_array().expect("events").is_empty());
}

/// The `data` of the first `count` messages of `/v1/events/live{query}`, read anonymously.
async fn live_messages(app: &TestApp, query: &str, count: usize) -> Vec<Value> {
    let read = async {
        let mut response =
            app.client.get(format!("{}/v1/events/live{query}", app.address)).send().await.expect("connected");
        assert_eq!(response.status().as_u16(), 200);
        let (mut buffer, mut messages) = (String::new(), Vec::new());
        while messages.len() < count {
            let chunk = response.chunk().await.expect("the stream stays open").expect("more bytes");
            buffer.push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                if let Some(data) = block.lines().find_map(|line| line.strip_prefix("data: ")) {
                    messages.push(serde_json::from_str::<Value>(data).expect("JSON data"));
                }
            }
        }
        messages
    };
    tokio::time::timeout(Duration::from_secs(20), read).await.expect("the live stream answers in time")
}
