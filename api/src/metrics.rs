//! Prometheus metrics, served at `/metrics` (docs/API.md "Operations" lists each and what it is
//! for).
//!
//! Herald's own metrics are prefixed `herald_`; the process metrics (CPU, resident memory, open
//! file descriptors, start time) keep the standard unprefixed `process_*` names that dashboards
//! and alerts expect, so they live in a registry of their own.

use prometheus::{Encoder, Histogram, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder};

/// Buckets for command and append latency, in seconds: from 100 µs (a read-model decision on a
/// short stream) to 10 s (a store stalled on its disk).
const LATENCY_BUCKETS: &[f64] =
    &[0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// The service's metrics.
pub struct Metrics {
    registry: Registry,
    process: Registry,
    /// Requests by route pattern, method and status.
    pub requests: IntCounterVec,
    /// Request latency by route pattern and method.
    pub latency: HistogramVec,
    /// Commands by ruleset and outcome (`appended`, `replayed`, `refused`, `failed`).
    pub commands: IntCounterVec,
    /// Command latency, deciding and appending, by ruleset and command type.
    pub command_latency: HistogramVec,
    /// How long one append to the store takes, until it is durable (the group flush included).
    pub store_append: Histogram,
    /// How long one group commit takes to make its batch durable (sled: flush and `fsync`).
    pub store_flush: Histogram,
    /// How many appends one group commit holds.
    pub store_flush_appends: Histogram,
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
        let command_latency = HistogramVec::new(
            HistogramOpts::new(
                "command_duration_seconds",
                "Command latency (deciding, appending until durable, and what the service appends in consequence) by ruleset and command type",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &["rules", "command"],
        )?;
        let store_append = Histogram::with_opts(
            HistogramOpts::new("store_append_duration_seconds", "One append to the event store, until durable")
                .buckets(LATENCY_BUCKETS.to_vec()),
        )?;
        let store_flush = Histogram::with_opts(
            HistogramOpts::new(
                "store_flush_duration_seconds",
                "One group commit of the event store, until its batch is durable (sled: flush and fsync; PostgreSQL: the transaction)",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
        )?;
        let store_flush_appends = Histogram::with_opts(
            HistogramOpts::new(
                "store_flush_appends",
                "Appends one group commit of the event store made durable together",
            )
            .buckets(vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0]),
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(commands.clone()))?;
        registry.register(Box::new(command_latency.clone()))?;
        registry.register(Box::new(store_append.clone()))?;
        registry.register(Box::new(store_flush.clone()))?;
        registry.register(Box::new(store_flush_appends.clone()))?;
        let process = Registry::new();
        #[cfg(target_os = "linux")]
        process.register(Box::new(prometheus::process_collector::ProcessCollector::for_self()))?;
        Ok(Self {
            registry,
            process,
            requests,
            latency,
            commands,
            command_latency,
            store_append,
            store_flush,
            store_flush_appends,
        })
    }

    /// What the store's writer calls after each group commit.
    pub fn commit_observer(&self) -> herald_store::CommitObserver {
        let (duration, appends) = (self.store_flush.clone(), self.store_flush_appends.clone());
        std::sync::Arc::new(move |commit: herald_store::GroupCommit| {
            duration.observe(commit.duration.as_secs_f64());
            appends.observe(commit.appends as f64);
        })
    }

    /// The text exposition format, with the log's and the read models' positions and what the
    /// server holds in memory.
    pub fn render(&self, log: &LogPositions, held: &Held) -> String {
        let mut families = self.registry.gather();
        // Every labelled series is a set of labels kept for the life of the process.
        let label_sets: usize = families
            .iter()
            .filter(|family| family.get_metric().iter().any(|m| !m.get_label().is_empty()))
            .map(|family| family.get_metric().len())
            .sum();
        families.extend(self.process.gather());
        let mut buffer = Vec::new();
        let _ = TextEncoder::new().encode(&families, &mut buffer);
        let mut text = String::from_utf8_lossy(&buffer).into_owned();
        let mut sample = |name: &str, kind: &str, help: &str, value: u64| {
            text.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"));
        };
        // A counter: the log only grows (an append-only log, seed-checked and never rewritten).
        sample("herald_events_total", "counter", "Events in the log ($all).", log.events);
        let mut gauge = |name: &str, help: &str, value: u64| sample(name, "gauge", help, value);
        gauge("herald_read_model_events", "Events of the log the read models have folded.", log.folded);
        gauge(
            "herald_read_model_lag_events",
            "Events in the log the read models have not folded yet (0 when caught up).",
            log.events.saturating_sub(log.folded),
        );
        // What the server holds in memory: each cache's size beside its bound (issue 27, "memory
        // follows data, not uptime"; docs/OPERATIONS.md "Memory").
        gauge(
            "herald_read_model_streams",
            "Streams the read models know, each with its version (grows with the log's streams).",
            held.streams,
        );
        gauge(
            "herald_read_model_states",
            "Folded states the read models hold, one per battle or campaign stream (grows with the log's streams).",
            held.states,
        );
        gauge("herald_view_cache_entries", "Rendered views and pictures kept for the next reader.", held.view_entries);
        gauge(
            "herald_view_cache_bytes",
            "Bytes of rendered views kept (bounded by herald_view_cache_capacity_bytes).",
            held.view_bytes,
        );
        gauge(
            "herald_view_cache_capacity_bytes",
            "The bound on herald_view_cache_bytes (caches.views_mb).",
            held.view_capacity,
        );
        if let Some(capacity) = held.store_cache_capacity {
            gauge(
                "herald_store_cache_capacity_bytes",
                "The bound on the log's pages sled keeps in memory (caches.store_mb); sled does not report its current use.",
                capacity,
            );
        }
        gauge(
            "herald_token_cache_entries",
            "Token records kept in memory (every token issued on the host).",
            held.tokens,
        );
        gauge("herald_live_readers", "Live event streams open now.", held.live_readers);
        gauge(
            "herald_live_readers_limit",
            "The most live event streams open at once (live_readers.total).",
            held.live_readers_limit,
        );
        gauge(
            "herald_stream_lock_stripes",
            "Locks that serialize decisions on one stream (fixed: streams share them by their name's hash).",
            held.stream_lock_stripes,
        );
        if let Some(allocator) = crate::allocator::stats() {
            gauge(
                "herald_allocator_in_use_bytes",
                "Heap bytes in use (glibc's mallinfo2: arena chunks in use plus blocks mapped alone).",
                allocator.in_use,
            );
            gauge(
                "herald_allocator_free_bytes",
                "Heap bytes freed but kept by the allocator's arenas (resident until reused or trimmed; src/allocator.rs).",
                allocator.free,
            );
        }
        gauge(
            "herald_metric_label_sets",
            "Label sets of herald_* metrics (bounded: routes by pattern, rulesets and command types by name).",
            label_sets as u64,
        );
        text
    }
}

/// What the server holds in memory, for [`Metrics::render`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Held {
    /// Streams the read models know.
    pub streams: u64,
    /// Folded states they hold.
    pub states: u64,
    /// Rendered views kept.
    pub view_entries: u64,
    /// Their bytes.
    pub view_bytes: u64,
    /// The bound on their bytes.
    pub view_capacity: u64,
    /// The bound of sled's page cache (`None` with PostgreSQL).
    pub store_cache_capacity: Option<u64>,
    /// Token records kept.
    pub tokens: u64,
    /// Live event streams open.
    pub live_readers: u64,
    /// Their limit.
    pub live_readers_limit: u64,
    /// Stream lock stripes.
    pub stream_lock_stripes: u64,
}

/// Where the log and the read models stand, for [`Metrics::render`].
#[derive(Debug, Clone, Copy)]
pub struct LogPositions {
    /// Events in the log.
    pub events: u64,
    /// Events the read models have folded.
    pub folded: u64,
}

/// The label of a command's type for the metrics: its `type` when the ruleset could read the
/// command, `other` for a body it refused as malformed, so that a client cannot grow the label
/// set by sending made-up types.
pub fn command_label(command_type: Option<&str>, understood: bool) -> &str {
    command_type
        .filter(|name| understood && name.len() <= 64 && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        .unwrap_or("other")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_type_is_a_label_only_when_the_ruleset_read_the_command() {
        assert_eq!(command_label(Some("contribute_entropy"), true), "contribute_entropy");
        assert_eq!(command_label(Some("contribute_entropy"), false), "other");
        assert_eq!(command_label(Some("Made Up!"), true), "other");
        assert_eq!(command_label(Some(&"a".repeat(65)), true), "other");
        assert_eq!(command_label(None, true), "other");
    }

    #[test]
    fn the_lag_is_what_the_log_holds_beyond_the_read_models() {
        let metrics = Metrics::new().expect("metrics");
        let text = metrics.render(&LogPositions { events: 10, folded: 7 }, &Held::default());
        assert!(text.contains("herald_read_model_lag_events 3\n"), "{text}");
        assert!(text.contains("# TYPE herald_events_total counter\nherald_events_total 10\n"), "{text}");
    }
}
