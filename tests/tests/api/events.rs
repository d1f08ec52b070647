//! Reading the log: `$all` and one stream, paged with `limit` and `Link: rel="next"`, filtered by
//! type and actor, forwards and backwards.

use herald_tests::{spawn_app, Reply, TestApp, ADMIN_TOKEN};
use serde_json::Value;

use crate::support::*;

/// The target of a `Link: <…>; rel="next"` header.
fn next_link(reply: &Reply) -> Option<String> {
    let link = reply.header("link")?;
    assert!(link.ends_with("rel=\"next\""), "{link}");
    let start = link.find('<')? + 1;
    let end = link.find('>')?;
    Some(link[start..end].to_string())
}

/// Follow `Link` headers from `path`; returns the events and the number of pages read.
async fn follow(app: &TestApp, path: &str, token: Option<&str>) -> (Vec<Value>, usize) {
    let mut events = Vec::new();
    let mut pages = 0;
    let mut next = Some(path.to_string());
    while let Some(path) = next {
        let page = app.request("GET", &path, token, None).await;
        assert_eq!(page.status, 200, "GET {path}: {:#}", page.body);
        pages += 1;
        assert!(pages < 100, "paging ends");
        events.extend(page.body["events"].as_array().expect("events").iter().cloned());
        next = next_link(&page);
        assert_eq!(next.is_some(), page.body["next"].is_u64(), "Link and `next` agree");
    }
    (events, pages)
}

fn numbers(events: &[Value], field: &str) -> Vec<u64> {
    events.iter().map(|e| e[field].as_u64().expect("a number")).collect()
}

#[tokio::test]
async fn the_log_pages_with_link_headers_and_filters_by_type_actor_and_direction() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let first = create_sample(&app, &cast).await;
    let second = create_sample(&app, &cast).await;
    prepare(&app, &cast, &first).await;

    // $all: every event once, in position order, whatever the page size.
    // (As an admin: anyone else does not see the token events.)
    let (all, _) = follow(&app, "/v1/events?limit=1000", Some(ADMIN_TOKEN)).await;
    assert_eq!(numbers(&all, "position"), (0..all.len() as u64).collect::<Vec<_>>());
    assert_eq!(all.iter().filter(|e| e["type"] == "auth.TokenIssued").count(), 4);
    let (paged, pages) = follow(&app, "/v1/events?limit=3", Some(ADMIN_TOKEN)).await;
    assert_eq!(paged, all);
    assert!(pages >= all.len() / 3, "{pages} pages");
    let page = app.request("GET", "/v1/events?limit=3", Some(ADMIN_TOKEN), None).await;
    assert_eq!(page.body["events"].as_array().map(Vec::len), Some(3));
    let link = next_link(&page).expect("a next link");
    assert!(link.starts_with("/v1/events?") && link.contains("limit=3") && link.contains("from=3"), "{link}");
    let (rest, _) = follow(&app, "/v1/events?from=5&limit=2", Some(ADMIN_TOKEN)).await;
    assert_eq!(rest, all[5..].to_vec());

    // By type (comma-separated), keeping paging.
    let (created, _) = follow(&app, "/v1/events?type=coalition.BattleCreated&limit=1", None).await;
    assert_eq!(created.len(), 2);
    assert_eq!(created[0]["stream"], first.stream.as_str());
    assert_eq!(created[1]["stream"], second.stream.as_str());
    let (two_types, _) =
        follow(&app, "/v1/events?type=coalition.BattleCreated,coalition.StrategySubmitted&limit=2", None).await;
    assert_eq!(two_types.len(), 4);
    let (none, _) = follow(&app, "/v1/events?type=coalition.NoSuchEvent", None).await;
    assert!(none.is_empty());

    // By actor.
    let me = app.request("GET", "/v1/tokens/me", Some(&cast.alice), None).await;
    let alice = me.body["id"].as_str().expect("alice's id").to_string();
    let (by_alice, _) = follow(&app, &format!("/v1/events?actor={alice}&limit=1"), None).await;
    let types: Vec<&str> = by_alice.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types, ["coalition.EntropyContributed", "coalition.StrategySubmitted"]);
    assert!(by_alice.iter().all(|e| e["actor"] == alice.as_str()));
    let (in_stream, _) = follow(&app, &format!("{}?actor={alice}", first.events_path()), None).await;
    assert_eq!(in_stream, by_alice);

    // One stream, forwards and backwards.
    let (forwards, _) = follow(&app, &format!("{}?limit=2", first.events_path()), None).await;
    assert_eq!(numbers(&forwards, "version"), (0..7).collect::<Vec<_>>());
    assert!(forwards.iter().all(|e| e["stream"] == first.stream.as_str()));
    let (backwards, pages) = follow(&app, &format!("{}?direction=backwards&limit=2", first.events_path()), None).await;
    assert_eq!(numbers(&backwards, "version"), (0..7).rev().collect::<Vec<_>>());
    assert!(pages >= 4, "{pages}");
    let (tail, _) = follow(&app, &format!("{}?direction=backwards&from=2", first.events_path()), None).await;
    assert_eq!(numbers(&tail, "version"), [2, 1, 0]);
    let (strategies, _) =
        follow(&app, &format!("{}?type=coalition.StrategySubmitted&direction=backwards", first.events_path()), None)
            .await;
    assert_eq!(numbers(&strategies, "version"), [4, 3]);
    // Strategies are sealed in listings too, for readers they are sealed from.
    assert!(strategies.iter().all(|e| e["data"]["strategy"] == "hidden"));

    // Bad paging is a 400 problem.
    for query in ["limit=0", "limit=1001", "limit=-1", "limit=many", "from=x", "direction=sideways"] {
        let path = if query.starts_with("direction") {
            format!("{}?{query}", first.events_path())
        } else {
            format!("/v1/events?{query}")
        };
        assert_problem(&app.request("GET", &path, None, None).await, 400, "malformed_request");
        let path = format!("{}?{query}", first.events_path());
        assert_problem(&app.request("GET", &path, None, None).await, 400, "malformed_request");
    }
    app.stop().await;
}
