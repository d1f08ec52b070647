//! Prometheus metrics, served at `/metrics`.

use prometheus::{Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder};

/// The service's metrics.
pub struct Metrics {
    registry: Registry,
    /// Requests by route pattern, method and status.
    pub requests: IntCounterVec,
    /// Request latency by route pattern and method.
    pub latency: HistogramVec,
    /// Commands by ruleset and outcome (`appended`, `replayed`, `refused`, `failed`).
    pub commands: IntCounterVec,
}

impl Metrics {
    /// Register every metric.
    pub fn new() -> anyhow::Result<Self> {
        let registry = Registry::new_custom(Some("herald".into()), None)?;
        let requests = IntCounterVec::new(
            Opts::new("http_requests_total", "HTTP requests by route, method and status"),
            &["route", "method", "status"],
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new("http_request_duration_seconds", "HTTP request latency by route and method"),
            &["route", "method"],
        )?;
        let commands =
            IntCounterVec::new(Opts::new("commands_total", "Commands by ruleset and outcome"), &["rules", "outcome"])?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(commands.clone()))?;
        Ok(Self { registry, requests, latency, commands })
    }

    /// The text exposition format, with `herald_events_total` from the store's head.
    pub fn render(&self, events_total: u64) -> String {
        let mut buffer = Vec::new();
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut buffer);
        let mut text = String::from_utf8_lossy(&buffer).into_owned();
        text.push_str("# HELP herald_events_total Events in the log ($all).\n# TYPE herald_events_total gauge\n");
        text.push_str(&format!("herald_events_total {events_total}\n"));
        text
    }
}
