//! Operations: Prometheus metrics and readiness.

use herald_tests::spawn_app;
use serde_json::json;

use crate::support::*;

#[tokio::test]
async fn metrics_count_requests_and_commands_and_readiness_reports_the_projection_caught_up() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "m"})).await;
    let refused = app
        .request("POST", &battle.at("/strategy-bonuses"), Some(&cast.judge), Some(json!({"side": "a", "bonus": 11})))
        .await;
    assert_eq!(refused.status, 422);
    app.request("GET", "/v1/nothing", None, None).await;

    let metrics = app.request("GET", "/metrics", None, None).await;
    assert_eq!(metrics.status, 200);
    assert!(metrics.header("content-type").unwrap_or_default().starts_with("text/plain"));
    let text = metrics.body.as_str().expect("text").to_string();
    assert!(text.contains("# TYPE herald_http_requests_total counter"), "{text}");
    let line = |needle: &[&str]| {
        text.lines()
            .find(|l| l.starts_with("herald_http_requests_total") && needle.iter().all(|n| l.contains(n)))
            .map(str::to_string)
    };
    let created =
        line(&["route=\"/v1/battles\"", "method=\"POST\"", "status=\"201\""]).expect("POST /v1/battles counted");
    assert!(created.ends_with(" 1"), "{created}");
    assert!(line(&["status=\"422\""]).is_some(), "refusals are counted: {text}");
    assert!(line(&["status=\"404\""]).is_some(), "unknown routes are counted: {text}");
    assert!(text.contains("herald_http_request_duration_seconds"), "{text}");
    assert!(text.contains("herald_commands_total"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("herald_commands_total") && l.contains("outcome=\"refused\"")),
        "{text}"
    );
    // 4 tokens, the battle and one contribution.
    assert!(text.contains("herald_events_total 6"), "{text}");

    let ready = app.request("GET", "/readyz", None, None).await;
    assert_eq!(ready.status, 200, "{:#}", ready.body);
    assert_eq!(ready.body["status"], "ready");
    assert_eq!(ready.body["head"], 5);
    assert_eq!(ready.body["projected"], 5);
    assert_eq!(ready.body["undecodable"], json!([]));
    let request_id = app.request_with("GET", "/healthz", None, None, &[("x-request-id", "trace-me-42")]).await;
    assert_eq!(request_id.header("x-request-id").as_deref(), Some("trace-me-42"));
    app.stop().await;
}
