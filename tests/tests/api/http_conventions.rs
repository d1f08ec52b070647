//! HTTP conventions (issue 17 item 2, docs/API.md "HTTP conventions"): 405 with `Allow`, HEAD
//! on every GET, 415 and 413 for bodies, 304 on `If-None-Match`, `Cache-Control`, compression,
//! CORS, field pointers in problems, `If-Match: *`, and ids as `<uuid>` or `<kind>-<uuid>`.

use herald_tests::{spawn_app, spawn_app_with, TestApp, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::support::*;

/// A raw exchange: status, headers and the body's bytes as sent (not decompressed).
struct Raw {
    status: u16,
    headers: reqwest::header::HeaderMap,
    bytes: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
    }
}

async fn raw(app: &TestApp, method: &str, path: &str, headers: &[(&str, &str)]) -> Raw {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
    let mut request = app.client.request(method, format!("{}{path}", app.address));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("sent");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.expect("a body").to_vec();
    Raw { status, headers, bytes }
}

fn army(name: &str, team: &str, colors: Value, creature: &str, color: &str) -> Value {
    json!({
        "name": name, "team": team, "rank": "cpl_lt_commander", "creator": null, "colors": colors, "legend": null,
        "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]
    })
}

/// A small campaign; returns its bare id.
async fn campaign(app: &TestApp, cast: &Cast) -> String {
    let body = json!({
        "name": "Round 1",
        "map": {"bounds": {"columns": 14, "rows": 38}, "terrain": {"8E": "swamp"}, "default_terrain": "plains",
                "sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"}, "win_condition": true}}},
        "armies": [
            {"army": army("Sai Rei", "coalition", json!(["red", "green", "blue"]), "Kris Mage", "red"),
             "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
            {"army": army("Plague Host", "phyrexia", json!([]), "Phyrexian Broodling", "black"),
             "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
        ],
        "options": {"enforce_army_counts": false, "enforce_site_counts": false}
    });
    let reply = app.request("POST", "/v1/campaigns", Some(&cast.judge), Some(body)).await;
    assert_eq!(reply.status, 201, "{:#}", reply.body);
    let location = reply.header("location").expect("a Location");
    let id = reply.body["stream"].as_str().expect("stream").trim_start_matches("campaign-").to_string();
    assert_eq!(location, format!("/v1/campaigns/{id}"));
    id
}

#[tokio::test]
async fn a_method_a_path_does_not_answer_is_405_with_allow_and_options_lists_them() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;

    let delete = app.request("DELETE", &battle.path(), Some(&cast.judge), None).await;
    assert_problem(&delete, 405, "method_not_allowed");
    assert_eq!(delete.header("allow").as_deref(), Some("GET, HEAD, OPTIONS"));
    let put = app.request("PUT", "/v1/battles", Some(&cast.judge), Some(json!({}))).await;
    assert_problem(&put, 405, "method_not_allowed");
    assert_eq!(put.header("allow").as_deref(), Some("GET, HEAD, POST, OPTIONS"));
    let get = app.request("GET", &battle.at("/actions"), None, None).await;
    assert_problem(&get, 405, "method_not_allowed");
    assert_eq!(get.header("allow").as_deref(), Some("POST, OPTIONS"));
    let patch = app.request("PATCH", "/openapi.json", None, None).await;
    assert_problem(&patch, 405, "method_not_allowed");

    let options = app.request("OPTIONS", &battle.path(), None, None).await;
    assert_eq!(options.status, 204);
    assert_eq!(options.header("allow").as_deref(), Some("GET, HEAD, OPTIONS"));

    // A path that is nothing stays a 404, whatever the method.
    for method in ["GET", "DELETE", "OPTIONS"] {
        assert_problem(&app.request(method, "/v1/nothing-here", None, None).await, 404, "not_found");
    }
    app.stop().await;
}

#[tokio::test]
async fn head_answers_every_get_without_a_body() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    for path in [battle.path(), "/v1/battles".into(), "/v1/rulesets".into(), "/openapi.json".into(), "/healthz".into()]
    {
        let get = raw(&app, "GET", &path, &[]).await;
        let head = raw(&app, "HEAD", &path, &[]).await;
        assert_eq!((head.status, get.status), (200, 200), "HEAD {path}");
        assert!(head.bytes.is_empty(), "HEAD {path} sent a body");
        assert_eq!(head.header("content-type"), get.header("content-type"), "HEAD {path}");
        assert_eq!(head.header("etag"), get.header("etag"), "HEAD {path}");
        assert_eq!(head.header("content-length"), Some(get.bytes.len().to_string()), "HEAD {path}");
    }
    // The live stream answers HEAD at once instead of streaming for ever.
    let live = tokio::time::timeout(std::time::Duration::from_secs(10), raw(&app, "HEAD", "/v1/events/live", &[]))
        .await
        .expect("HEAD of the live stream ends");
    assert_eq!(live.status, 200);
    assert!(raw(&app, "HEAD", "/v1/nothing-here", &[]).await.status == 404);
    app.stop().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_415_and_one_over_the_limit_413() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    for path in [battle.at("/entropy"), "/v1/battles".to_string(), battle.at("/actions")] {
        let text = app.post_raw(&path, Some(&cast.judge), "text/plain", "{\"entropy\": \"x\"}").await;
        assert_problem(&text, 415, "unsupported_media_type");
    }
    // `application/…+json` is JSON.
    let problem_json = app
        .post_raw(&battle.at("/entropy"), Some(&cast.alice), "application/merge-patch+json", "{\"entropy\": \"x\"}")
        .await;
    assert_eq!(problem_json.status, 200, "{:#}", problem_json.body);

    let big = format!("{{\"entropy\": \"{}\"}}", "x".repeat(3 << 20));
    for path in [battle.at("/entropy"), "/v1/battles".to_string()] {
        let reply = app.post_raw(&path, Some(&cast.alice), "application/json", &big).await;
        assert_problem(&reply, 413, "content_too_large");
    }
    // Just under the limit is read (and refused for what it says, not for its size).
    let under = format!("{{\"entropy\": \"{}\"}}", "x".repeat((1 << 20) - 100));
    let reply = app.post_raw(&battle.at("/entropy"), Some(&cast.alice), "application/json", &under).await;
    assert_ne!(reply.status, 413, "{:#}", reply.body);
    app.stop().await;
}

#[tokio::test]
async fn if_none_match_gives_304_and_reads_say_how_to_cache() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let first = app.request("GET", &battle.path(), None, None).await;
    let etag = first.header("etag").expect("an ETag");
    assert_eq!(first.header("cache-control").as_deref(), Some("no-cache"));
    assert!(first.header("vary").unwrap_or_default().to_ascii_lowercase().contains("authorization"));

    for condition in [etag.clone(), format!("W/{etag}"), format!("\"99\", {etag}"), "*".to_string()] {
        let again = raw(&app, "GET", &battle.path(), &[("if-none-match", &condition)]).await;
        assert_eq!(again.status, 304, "If-None-Match: {condition}");
        assert!(again.bytes.is_empty());
        assert_eq!(again.header("etag"), Some(etag.clone()));
    }
    let head = raw(&app, "HEAD", &battle.path(), &[("if-none-match", &etag)]).await;
    assert_eq!(head.status, 304);
    assert_eq!(raw(&app, "GET", &battle.path(), &[("if-none-match", "\"99\"")]).await.status, 200);

    // A write moves the version on: the old tag no longer matches.
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "more"})).await;
    let moved = raw(&app, "GET", &battle.path(), &[("if-none-match", &etag)]).await;
    assert_eq!(moved.status, 200);
    assert_ne!(moved.header("etag"), Some(etag.clone()));
    // Event pages and the viewer's documents revalidate the same way.
    let page = app.request("GET", &battle.events_path(), None, None).await;
    let page_tag = page.header("etag").expect("an ETag");
    assert_eq!(raw(&app, "GET", &battle.events_path(), &[("if-none-match", &page_tag)]).await.status, 304);

    // A past version of a battle that has not ended can still change (its sealed strategies
    // become public at the end); once it has ended, it never changes.
    let past = app.request("GET", &format!("{}?at=1", battle.path()), None, None).await;
    assert_eq!(past.header("cache-control").as_deref(), Some("no-cache"));
    prepare(&app, &cast, &battle).await;
    resolve(&app, &cast, &battle).await;
    let ended = app.request("GET", &format!("{}?at=1", battle.path()), None, None).await;
    assert_eq!(ended.header("cache-control").as_deref(), Some("public, max-age=31536000, immutable"));
    let as_judge = app.request("GET", &format!("{}?at=1", battle.path()), Some(&cast.judge), None).await;
    assert_eq!(as_judge.header("cache-control").as_deref(), Some("private, max-age=31536000, immutable"));
    let current = app.request("GET", &battle.path(), None, None).await;
    assert_eq!(current.header("cache-control").as_deref(), Some("no-cache"));
    app.stop().await;
}

#[tokio::test]
async fn json_and_svg_are_compressed_when_the_client_accepts_it_and_the_live_stream_is_not() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let id = campaign(&app, &cast).await;
    let plain = raw(&app, "GET", "/openapi.json", &[]).await;
    assert_eq!(plain.header("content-encoding"), None);
    for (encoding, magic) in [("gzip", &[0x1f_u8, 0x8b][..]), ("br", &[][..])] {
        let packed = raw(&app, "GET", "/openapi.json", &[("accept-encoding", encoding)]).await;
        assert_eq!(packed.status, 200);
        assert_eq!(packed.header("content-encoding").as_deref(), Some(encoding));
        assert!(packed.bytes.starts_with(magic));
        assert!(
            packed.bytes.len() * 4 < plain.bytes.len(),
            "{encoding}: {} of {}",
            packed.bytes.len(),
            plain.bytes.len()
        );
        let svg = raw(&app, "GET", &format!("/v1/campaigns/{id}/map.svg"), &[("accept-encoding", encoding)]).await;
        assert_eq!(svg.status, 200);
        assert_eq!(svg.header("content-encoding").as_deref(), Some(encoding), "map.svg");
    }
    let list = raw(&app, "GET", "/v1/battles", &[("accept-encoding", "gzip")]).await;
    assert_eq!(list.header("content-encoding").as_deref(), Some("gzip"));

    let live = app
        .client
        .get(format!("{}/v1/events/live", app.address))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .expect("the live stream opens");
    assert_eq!(live.status(), 200);
    assert!(live.headers().get("content-encoding").is_none(), "{:?}", live.headers());
    drop(live);
    app.stop_now().await;
}

#[tokio::test]
async fn cors_answers_allowed_origins_only_and_is_off_by_default() {
    let allowed = "https://maps.example.org";
    let app = spawn_app_with(|settings| settings.cors_origins = vec![allowed.to_string()]).await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let preflight = |origin: &'static str| {
        let path = battle.at("/entropy");
        let app = &app;
        async move {
            raw(
                app,
                "OPTIONS",
                &path,
                &[
                    ("origin", origin),
                    ("access-control-request-method", "POST"),
                    ("access-control-request-headers", "authorization, content-type, if-match, idempotency-key"),
                ],
            )
            .await
        }
    };
    let yes = preflight(allowed).await;
    assert!(yes.status == 200 || yes.status == 204, "{}", yes.status);
    assert_eq!(yes.header("access-control-allow-origin").as_deref(), Some(allowed));
    assert!(yes.header("access-control-allow-methods").unwrap_or_default().contains("POST"));
    let headers = yes.header("access-control-allow-headers").unwrap_or_default().to_ascii_lowercase();
    for header in ["authorization", "content-type", "if-match", "idempotency-key"] {
        assert!(headers.contains(header), "{header} in {headers}");
    }
    let no = preflight("https://evil.example.com").await;
    assert!(no.status >= 400, "{}", no.status);
    assert_eq!(no.header("access-control-allow-origin"), None);

    // The actual request: the origin is echoed and the headers a client needs are exposed.
    let read = raw(&app, "GET", &battle.path(), &[("origin", allowed)]).await;
    assert_eq!(read.status, 200);
    assert_eq!(read.header("access-control-allow-origin").as_deref(), Some(allowed));
    let exposed = read.header("access-control-expose-headers").unwrap_or_default().to_ascii_lowercase();
    for header in ["etag", "location", "link", "x-request-id"] {
        assert!(exposed.contains(header), "{header} in {exposed}");
    }
    let other = raw(&app, "GET", &battle.path(), &[("origin", "https://evil.example.com")]).await;
    assert_eq!(other.header("access-control-allow-origin"), None);
    app.stop().await;

    // Off by default: no CORS headers, the preflight is a plain OPTIONS.
    let app = spawn_app().await;
    let off =
        raw(&app, "OPTIONS", "/v1/battles", &[("origin", allowed), ("access-control-request-method", "POST")]).await;
    assert_eq!(off.header("access-control-allow-origin"), None);
    let read = raw(&app, "GET", "/v1/battles", &[("origin", allowed)]).await;
    assert_eq!(read.header("access-control-allow-origin"), None);
    app.stop().await;
}

#[tokio::test]
async fn a_field_that_does_not_fit_is_named_by_a_json_pointer() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let pointer = |reply: &herald_tests::Reply| reply.body["errors"][0]["pointer"].as_str().map(str::to_string);

    let bonus = app
        .request("POST", &battle.at("/strategy-bonuses"), Some(&cast.judge), Some(json!({"side": "a", "bonus": "six"})))
        .await;
    assert_problem(&bonus, 400, "malformed_request");
    assert_eq!(pointer(&bonus).as_deref(), Some("/bonus"), "{:#}", bonus.body);
    assert!(bonus.body["errors"][0]["detail"].as_str().is_some_and(|d| d.contains("invalid type")));

    let side = app
        .request("POST", &battle.at("/strategies"), Some(&cast.alice), Some(json!({"side": "c", "strategy": "x"})))
        .await;
    assert_problem(&side, 400, "malformed_request");
    assert_eq!(pointer(&side).as_deref(), Some("/side"), "{:#}", side.body);

    // A ruleset's own set-up and commands (the body is free JSON until its ruleset reads it).
    let mut setup = herald_tests::sample_battle(&in_a_day(), None);
    setup["armies"]["a"]["slots"][1]["troops"] = json!("many");
    let created = app.request("POST", "/v1/battles", Some(&cast.judge), Some(setup)).await;
    assert_problem(&created, 400, "malformed_request");
    assert_eq!(pointer(&created).as_deref(), Some("/armies/a/slots/1/troops"), "{:#}", created.body);
    let action = app
        .request(
            "POST",
            &battle.at("/actions"),
            Some(&cast.judge),
            Some(json!({"type": "assign_strategy_bonus", "side": "a", "bonus": []})),
        )
        .await;
    assert_problem(&action, 400, "malformed_request");
    // Inside a `type`-tagged command serde cannot say which field failed: the body is named.
    assert_eq!(pointer(&action).as_deref(), Some(""), "{:#}", action.body);
    // In the API's words, not Rust's (issue 26 item 9).
    assert!(
        action.body["detail"].as_str().is_some_and(|d| d.contains("an integer from 0 to 255") && !d.contains("u8")),
        "{:#}",
        action.body
    );

    // Not JSON at all: no field to point at.
    let broken = app.post_raw(&battle.at("/entropy"), Some(&cast.alice), "application/json", "{nope").await;
    assert_problem(&broken, 400, "malformed_request");
    assert!(broken.body.get("errors").is_none(), "{:#}", broken.body);
    app.stop().await;
}

#[tokio::test]
async fn ids_are_taken_bare_or_as_the_stream_name_on_every_kind_of_route() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    // A sealed seed, so the judge may roll.
    let battle = create(&app, &cast.judge, herald_tests::sample_battle(&in_a_day(), None)).await;
    assert_eq!(battle.created.header("location"), Some(battle.path()));
    let campaign_id = campaign(&app, &cast).await;
    for id in [battle.id.clone(), battle.stream.clone()] {
        for path in [
            format!("/v1/battles/{id}"),
            format!("/v1/battles/{id}/verify"),
            format!("/v1/streams/{id}/events"),
            format!("/v1/streams/{id}/verify"),
        ] {
            let reply = app.request("GET", &path, Some(&cast.judge), None).await;
            assert_eq!(reply.status, 200, "GET {path} {:#}", reply.body);
        }
        ok(&app, &format!("/v1/battles/{id}/entropy"), &cast.alice, json!({"entropy": id})).await;
        ok(&app, &format!("/v1/battles/{id}/actions"), &cast.bob, json!({"type": "contribute_entropy", "entropy": id}))
            .await;
    }
    // A roll closes the entropy, so the rolls come last.
    for id in [battle.id.clone(), battle.stream.clone()] {
        let roll = json!({"expression": "d6", "purpose": "weather"});
        ok(&app, &format!("/v1/streams/{id}/rolls"), &cast.judge, roll).await;
    }
    for id in [campaign_id.clone(), format!("campaign-{campaign_id}")] {
        for path in [
            format!("/v1/campaigns/{id}"),
            format!("/v1/campaigns/{id}/map"),
            format!("/v1/campaigns/{id}/map.svg"),
            format!("/v1/streams/{id}/events"),
            format!("/v1/streams/{id}/verify"),
        ] {
            let reply = app.request("GET", &path, Some(&cast.judge), None).await;
            assert_eq!(reply.status, 200, "GET {path} {:#}", reply.body);
        }
        let roll = json!({"expression": "d6", "purpose": "weather"});
        ok(&app, &format!("/v1/streams/{id}/rolls"), &cast.judge, roll).await;
    }
    ok(&app, &format!("/v1/campaigns/campaign-{campaign_id}/turns"), &cast.judge, json!({"deadline": in_a_day()}))
        .await;
    // The wrong kind's prefix, or none that is a kind, is a malformed id.
    for path in [format!("/v1/battles/campaign-{campaign_id}"), format!("/v1/campaigns/battle-{}", battle.id)] {
        assert_problem(&app.request("GET", &path, None, None).await, 400, "malformed_request");
    }
    let nothing = "01936f3e-8f4d-7a31-8a9b-0c64d1f3a001";
    assert_problem(&app.request("GET", &format!("/v1/streams/{nothing}/events"), None, None).await, 404, "not_found");
    app.stop().await;
}

#[tokio::test]
async fn if_match_star_asks_for_a_stream_that_exists() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let entropy = |token: &str| (battle.at("/entropy"), token.to_string());
    let (path, token) = entropy(&cast.alice);
    let any = app.request_with("POST", &path, Some(&token), Some(json!({"entropy": "x"})), &[("if-match", "*")]).await;
    assert_eq!(any.status, 200, "{:#}", any.body);
    // A creation makes a new stream: `*` cannot hold.
    let create = app
        .request_with(
            "POST",
            "/v1/battles",
            Some(&cast.judge),
            Some(herald_tests::sample_battle(&in_a_day(), None)),
            &[("if-match", "*")],
        )
        .await;
    assert_problem(&create, 412, "precondition_failed");
    // An id that names nothing is a 404 first (RFC 9110 §13.2.1).
    let missing = "/v1/battles/01936f3e-8f4d-7a31-8a9b-0c64d1f3a001/entropy";
    let none =
        app.request_with("POST", missing, Some(&cast.alice), Some(json!({"entropy": "x"})), &[("if-match", "*")]).await;
    assert_problem(&none, 404, "not_found");
    let bad =
        app.request_with("POST", &path, Some(&token), Some(json!({"entropy": "x"})), &[("if-match", "soon")]).await;
    assert_problem(&bad, 400, "malformed_request");
    let _ = ADMIN_TOKEN;
    app.stop().await;
}

/// A browser keeps one copy per URL and, on a `Vary: Authorization` mismatch, revalidates it
/// with its version `ETag`: a `304` there would show the public's copy to a judge or a judge's
/// to the public. A read with a token is answered in full and not kept.
#[tokio::test]
async fn a_read_with_a_token_is_never_a_304_and_is_not_kept() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let public = app.request("GET", &battle.events_path(), None, None).await;
    let tag = public.header("etag").expect("an ETag");
    let judged =
        app.request_with("GET", &battle.events_path(), Some(&cast.judge), None, &[("if-none-match", &tag)]).await;
    assert_eq!(judged.status, 200, "{:#}", judged.body);
    assert_eq!(judged.header("cache-control").as_deref(), Some("private, no-store"));
    assert_eq!(judged.header("etag"), Some(tag.clone()), "the ETag is still the version");
    assert_eq!(raw(&app, "GET", &battle.events_path(), &[("if-none-match", &tag)]).await.status, 304);
    app.stop().await;
}
