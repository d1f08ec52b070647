//! What the server keeps in memory has a bound, a setting and a size in `/metrics` (issue 27,
//! "memory follows data, not uptime"), and what a cache drops is read or rendered again: every
//! answer is the same whatever the bound.

use herald_tests::{spawn_app, spawn_app_with, TestApp, ADMIN_TOKEN};
use serde_json::{json, Value};

use crate::support::*;

/// The value of an unlabelled sample in `/metrics`.
async fn gauge(app: &TestApp, name: &str) -> u64 {
    let metrics = app.request("GET", "/metrics", None, None).await;
    let text = metrics.body.as_str().expect("text").to_string();
    text.lines()
        .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("{name} is not in /metrics: {text}"))
}

/// A battle's current view as three readers see it, the bodies as text (the bytes the cache keeps).
async fn views(app: &TestApp, cast: &Cast, battle: &Battle) -> Vec<String> {
    let mut bodies = Vec::new();
    for token in [None, Some(cast.alice.as_str()), Some(cast.judge.as_str())] {
        let view = app.request("GET", &battle.path(), token, None).await;
        assert_eq!(view.status, 200, "{:#}", view.body);
        bodies.push(view.body.to_string());
    }
    bodies
}

#[tokio::test]
async fn rendered_views_stay_within_their_bound_and_a_view_dropped_from_it_reads_the_same() {
    let app = spawn_app_with(|settings| settings.caches.views_mb = 1).await;
    let cast = Cast::issue(&app).await;
    assert_eq!(gauge(&app, "herald_view_cache_capacity_bytes").await, 1 << 20);
    let mut battles = Vec::new();
    let mut first_reads = Vec::new();
    let mut rendered = 0;
    // Enough streams that their views together are well over the bound.
    while rendered < 2 << 20 {
        let battle = create_sample(&app, &cast).await;
        ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": format!("{rendered}")})).await;
        let bodies = views(&app, &cast, &battle).await;
        rendered += bodies.iter().map(String::len).sum::<usize>();
        first_reads.push(bodies);
        battles.push(battle);
        if !battles.len().is_multiple_of(10) {
            continue;
        }
        let (bytes, capacity) =
            (gauge(&app, "herald_view_cache_bytes").await, gauge(&app, "herald_view_cache_capacity_bytes").await);
        assert!(bytes <= capacity, "{bytes} bytes of views kept, over the bound of {capacity}");
    }
    assert!(gauge(&app, "herald_view_cache_bytes").await <= 1 << 20);
    let kept = gauge(&app, "herald_view_cache_entries").await;
    assert!(kept > 0, "the cache keeps views");
    assert!(kept < 3 * battles.len() as u64, "{kept} views kept of {}: none was dropped", 3 * battles.len());
    // The first battles' views were dropped long ago: read again, they are rendered again, the same.
    for (battle, first) in battles.iter().zip(&first_reads).take(5) {
        assert_eq!(&views(&app, &cast, battle).await, first, "{} reads the same after eviction", battle.stream);
    }
    app.stop().await;
}

#[tokio::test]
async fn with_no_view_cache_every_read_is_rendered_and_answers_the_same() {
    let app = spawn_app_with(|settings| settings.caches.views_mb = 0).await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    let first = views(&app, &cast, &battle).await;
    assert_eq!(views(&app, &cast, &battle).await, first);
    assert_eq!(gauge(&app, "herald_view_cache_entries").await, 0);
    assert_eq!(gauge(&app, "herald_view_cache_bytes").await, 0);
    app.stop().await;
}

#[tokio::test]
async fn a_small_store_cache_is_reported_and_the_log_reads_the_same_before_and_after_a_restart() {
    let small = |settings: &mut herald_api::config::Settings| settings.caches.store_mb = 1;
    let app = spawn_app_with(small).await;
    assert_eq!(gauge(&app, "herald_store_cache_capacity_bytes").await, 1 << 20);
    let cast = Cast::issue(&app).await;
    let mut battles = Vec::new();
    for round in 0..20 {
        let battle = create_sample(&app, &cast).await;
        for roll in 0..5 {
            let body = json!({"expression": "4d20", "purpose": format!("{round}/{roll}")});
            ok(&app, &format!("/v1/streams/{}/rolls", battle.stream), &cast.judge, body).await;
        }
        battles.push(battle);
    }
    let before = all_events(&app).await;
    assert_eq!(before.len(), 120, "20 battles created and rolled on 5 times each");
    let first = views(&app, &cast, &battles[0]).await;
    // The same log opened again with the same small cache: every page read from the disk.
    let data_dir = app.data_dir.clone();
    let dir = app.stop().await;
    let mut app = herald_tests::spawn_app_in_with(&data_dir, small).await;
    app.keep(dir);
    assert_eq!(all_events(&app).await, before, "the log reads the same through a 1 MiB cache");
    assert_eq!(views(&app, &cast, &battles[0]).await, first);
    app.stop().await;
}

/// Every event of `$all`, page by page, as the public reads them.
async fn all_events(app: &TestApp) -> Vec<Value> {
    let mut events = Vec::new();
    let mut from = 0;
    loop {
        let page = app.request("GET", &format!("/v1/events?from={from}&limit=200"), None, None).await;
        assert_eq!(page.status, 200, "{:#}", page.body);
        events.extend(page.body["events"].as_array().cloned().unwrap_or_default());
        match page.body["next"].as_u64() {
            Some(next) => from = next,
            None => return events,
        }
    }
}

#[tokio::test]
async fn label_sets_and_token_records_do_not_grow_with_made_up_requests() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    // Warm every label these requests can use once.
    app.request("GET", "/v1/nothing-0", None, None).await;
    app.request("POST", &battle.at("/entropy"), Some(&cast.alice), Some(json!({"type": "made_up_0"}))).await;
    app.request("GET", "/v1/battles/0193aaaa-0000-7000-8000-000000000000", None, None).await;
    app.request("GET", &battle.path(), Some("hrd_0000"), None).await;
    app.request("GET", "/metrics", None, None).await;
    let labels = gauge(&app, "herald_metric_label_sets").await;
    let tokens = gauge(&app, "herald_token_cache_entries").await;
    // The admin token and the cast's four.
    assert_eq!(tokens, 5);
    for n in 1..40 {
        app.request("GET", &format!("/v1/nothing-{n}"), None, None).await;
        app.request("POST", &battle.at("/entropy"), Some(&cast.alice), Some(json!({"type": format!("made_up_{n}")})))
            .await;
        app.request("GET", &format!("/v1/battles/0193aaaa-0000-7000-8000-{n:012}"), None, None).await;
        let unknown = app.request("GET", &battle.path(), Some(&format!("hrd_{n:04}")), None).await;
        assert_eq!(unknown.status, 401);
    }
    assert_eq!(gauge(&app, "herald_metric_label_sets").await, labels, "made-up paths and types add no label");
    assert_eq!(gauge(&app, "herald_token_cache_entries").await, tokens, "unknown tokens are not kept");
    app.request("POST", "/v1/tokens", Some(ADMIN_TOKEN), Some(json!({"role": "observer"}))).await;
    assert_eq!(gauge(&app, "herald_token_cache_entries").await, tokens + 1, "an issued token is");
    app.stop().await;
}
