//! The unknown-field walk (`api/src/unknown_fields.rs`, issue 29 item 3): the load test's five
//! battle set-ups and its roll, each walked against its route's schema by the walk that reads the
//! document at every node (the tests' oracle, `api/src/unknown_fields/document_walk.rs`) and by
//! the compiled tree the server uses, in turn in the same run.
//!
//! ```sh
//! chrt -i 0 nice -n 19 cargo bench -p herald-api --bench unknown_fields   # release; a minute
//! ```
//!
//! Prints, per body, microseconds per walk for each (the median of five rounds, the two walks
//! alternating round by round) and their ratio; and what compiling the tree costs, once. No
//! figure is asserted: the machine is shared (docs/PERFORMANCE.md states it). Run as a test (no
//! `--bench` argument) it walks each body a few times only, as a check that it still runs; both
//! walks must find every body clean.

#[path = "../src/unknown_fields/document_walk.rs"]
mod document_walk;
#[path = "load/setups.rs"]
mod setups;

use std::hint::black_box;
use std::time::{Duration, Instant};

use herald_api::unknown_fields;
use serde_json::{json, Value};

/// The load test's coalition set-up (`setups::coalition`), with the `ruleset` the create route
/// names in place before it walks the body.
fn coalition() -> Value {
    let mut setup = setups::coalition("2026-12-01T00:00:00Z");
    setup["ruleset"] = json!("coalition");
    setup
}

fn machine() {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo.lines().find(|line| line.starts_with("model name")).and_then(|line| line.split(':').nth(1));
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "machine: {cpus} CPUs ({}), load average {} (shared with builds; run at idle priority)",
        model.unwrap_or("unknown").trim(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
}

/// Microseconds per walk of `walk` over `times` walks.
fn time(times: u32, walk: impl Fn() -> Option<String>) -> f64 {
    let started = Instant::now();
    for _ in 0..times {
        black_box(walk());
    }
    started.elapsed().as_secs_f64() * 1e6 / f64::from(times)
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing we use.
    let bench = std::env::args().any(|argument| argument == "--bench");
    let (times, rounds) = if bench { (2_000, 5) } else { (3, 1) };
    machine();
    let document = herald_api::openapi::spec_value();
    unknown_fields::install(herald_api::openapi::spec_value);
    let mut bodies: Vec<(&str, &str, Value)> =
        setups::all(coalition()).into_iter().map(|(name, setup)| (name, "/v1/battles", setup)).collect();
    bodies.push(("roll", "/v1/streams/{stream}/rolls", json!({"expression": "1d6", "purpose": "load"})));

    // The first check compiles the tree (and builds the document, as start-up's first request
    // does): timed apart, once.
    let started = Instant::now();
    assert_eq!(unknown_fields::in_request("POST", "/v1/battles", &bodies[0].2), None);
    let first: Duration = started.elapsed();
    let started = Instant::now();
    black_box(herald_api::openapi::spec_value());
    let built = started.elapsed();
    println!(
        "first check: {:.1} ms, of which building the document {:.1} ms and compiling it {:.1} ms",
        first.as_secs_f64() * 1e3,
        built.as_secs_f64() * 1e3,
        first.saturating_sub(built).as_secs_f64() * 1e3
    );

    // A ruleset's command is checked against its component schema the same way.
    let roll = &bodies[5].2;
    assert_eq!(document_walk::in_component(&document, "JudgeRoll", roll), None);
    assert_eq!(unknown_fields::in_component("JudgeRoll", roll), None);

    println!("{times} walks a round, {rounds} rounds, the two walks in turn; median µs per walk:");
    println!("{:<22} {:>8} {:>14} {:>10} {:>7}", "body", "fields", "document walk", "compiled", "ratio");
    let (mut old_total, mut new_total) = (0.0, 0.0);
    for (name, pattern, body) in &bodies {
        let old = || document_walk::in_request(&document, "POST", pattern, black_box(body));
        let new = || unknown_fields::in_request("POST", pattern, black_box(body));
        assert_eq!(old(), None, "{name}: the document walk finds the body clean");
        assert_eq!(new(), None, "{name}: the compiled walk finds the body clean");
        let (mut olds, mut news) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            olds.push(time(times, old));
            news.push(time(times, new));
        }
        let (old, new) = (median(olds), median(news));
        (old_total, new_total) = (old_total + old, new_total + new);
        println!("{name:<22} {:>8} {old:>14.2} {new:>10.2} {:>6.1}x", fields(body), old / new);
    }
    println!("{:<22} {:>8} {old_total:>14.2} {new_total:>10.2} {:>6.1}x", "all six", "", old_total / new_total);
}

/// How many fields and items a body has (what a walk visits).
fn fields(value: &Value) -> usize {
    match value {
        Value::Object(fields) => fields.values().map(|field| 1 + self::fields(field)).sum(),
        Value::Array(items) => items.iter().map(|item| 1 + fields(item)).sum(),
        _ => 0,
    }
}
