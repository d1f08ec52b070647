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
    // A route with parameters is counted under its pattern, not the path it was called with.
    let entropy = line(&["route=\"/v1/battles/{battle_id}/entropy\"", "method=\"POST\"", "status=\"200\""])
        .expect("POST /v1/battles/{battle_id}/entropy counted under its pattern");
    assert!(entropy.ends_with(" 1"), "{entropy}");
    assert!(line(&["status=\"422\""]).is_some(), "refusals are counted: {text}");
    assert!(line(&["status=\"404\""]).is_some(), "unknown routes are counted: {text}");
    assert!(text.contains("herald_http_request_duration_seconds"), "{text}");
    assert!(text.contains("herald_commands_total"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("herald_commands_total") && l.contains("outcome=\"refused\"")),
        "{text}"
    );
    // 4 tokens, the battle and one contribution.
    assert!(text.contains("# TYPE herald_events_total counter\nherald_events_total 6\n"), "{text}");
    assert!(text.contains("herald_read_model_lag_events 0\n"), "the read models are caught up: {text}");
    // Command latency by ruleset and command type: the creation, the contribution, the refusal.
    let commands = |command: &str| {
        text.lines()
            .find(|l| {
                l.starts_with("herald_command_duration_seconds_count")
                    && l.contains("rules=\"coalition-battle@")
                    && l.contains(&format!("command=\"{command}\""))
            })
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
    };
    assert_eq!(commands("create_battle"), Some(1), "{text}");
    assert_eq!(commands("contribute_entropy"), Some(1), "{text}");
    assert_eq!(commands("assign_strategy_bonus"), Some(1), "a refused command is timed too: {text}");
    // One append per command the rules accepted, until durable.
    assert!(text.contains("herald_store_append_duration_seconds_count 2\n"), "{text}");
    // Group commits: at least one flush, and no more than one per append (tokens' included).
    let flushes = text
        .lines()
        .find_map(|l| l.strip_prefix("herald_store_flush_duration_seconds_count "))
        .and_then(|n| n.parse::<u64>().ok())
        .expect("flushes counted");
    assert!((1..=6).contains(&flushes), "{flushes} flushes: {text}");
    assert!(text.contains("herald_store_flush_appends_bucket"), "{text}");
    // The process: CPU, memory, file descriptors, under their standard names.
    for process in ["process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds"] {
        assert!(text.lines().any(|l| l.starts_with(process)), "{process}: {text}");
    }
    // What the server holds in memory, each beside its bound (docs/OPERATIONS.md "Memory").
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{name}: {text}"))
    };
    assert_eq!(value("herald_read_model_streams"), 2, "the tokens stream and the battle: {text}");
    assert_eq!(value("herald_read_model_states"), 1, "the battle's state: {text}");
    assert_eq!(value("herald_view_cache_entries"), 0, "no view was read yet: {text}");
    assert_eq!(value("herald_view_cache_bytes"), 0, "{text}");
    assert_eq!(value("herald_view_cache_capacity_bytes"), 16 << 20, "{text}");
    assert_eq!(value("herald_store_cache_capacity_bytes"), 64 << 20, "{text}");
    assert_eq!(value("herald_token_cache_entries"), 5, "the admin's and the cast's four: {text}");
    assert_eq!(value("herald_live_readers"), 0, "{text}");
    assert_eq!(value("herald_live_readers_limit"), 512, "{text}");
    assert_eq!(value("herald_stream_lock_stripes"), 64, "{text}");
    let label_sets = value("herald_metric_label_sets");
    assert!(label_sets >= 8, "every request, latency and command series counted: {label_sets}: {text}");
    app.request("GET", &battle.path(), None, None).await;
    let after = app.request("GET", "/metrics", None, None).await;
    let after = after.body.as_str().expect("text");
    assert!(after.contains("herald_view_cache_entries 1\n"), "the view read is kept: {after}");

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

/// `promtool check metrics` (Prometheus' own linter) finds nothing to say about `/metrics`: names,
/// types, units and help texts as Prometheus wants them. `.ci/install-promtool` installs it; without
/// it the test fails under `CI` and is skipped (with a message) elsewhere.
#[tokio::test]
async fn promtool_finds_the_metrics_clean() {
    let Some(promtool) = which("promtool") else {
        assert!(std::env::var_os("CI").is_none(), "promtool is missing: run .ci/install-promtool");
        eprintln!("skipped: promtool is not installed (bash .ci/install-promtool)");
        return;
    };
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let battle = create_sample(&app, &cast).await;
    ok(&app, &battle.at("/entropy"), &cast.alice, json!({"entropy": "m"})).await;
    app.request("GET", &battle.path(), None, None).await;
    let metrics = app.request("GET", "/metrics", None, None).await;
    let text = metrics.body.as_str().expect("text").to_string();
    app.stop().await;

    let mut child = std::process::Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run promtool");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), text.as_bytes()).expect("write metrics");
    let output = child.wait_with_output().expect("promtool ends");
    assert!(
        output.status.success() && output.stdout.is_empty() && output.stderr.is_empty(),
        "promtool check metrics: {}{}\n{text}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The first `name` on `PATH`.
fn which(name: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|path| path.is_file())
}
