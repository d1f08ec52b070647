//! Settings: defaults, then an optional TOML file, then `HERALD_*` environment variables, then
//! command-line flags (each later source wins).

use std::{net::IpAddr, path::PathBuf};

use serde::Deserialize;

/// Everything the server needs to start.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Where sled keeps the event log (`./data`), unless `store` names another log.
    pub data_dir: PathBuf,
    /// The event log, when not sled in `data_dir`: `postgres://user:password@host/database`
    /// (a database several instances share) or `sled:PATH`. See `crate::store`.
    pub store: Option<String>,
    /// Address to listen on (`127.0.0.1`; `0.0.0.0` in containers).
    pub bind: IpAddr,
    /// Port to listen on (`8080`; `0` picks a free one).
    pub port: u16,
    /// The admin bearer token. When unset, one is generated on first start and printed once.
    pub admin_token: Option<String>,
    /// Log format: `pretty` or `json`.
    pub log_format: LogFormat,
    /// Log filter in `RUST_LOG` syntax (`info`).
    pub log_filter: String,
    /// Limits on open live event streams (`GET /v1/events/live`).
    pub live_readers: LiveReaderLimits,
    /// Who may read `/metrics`: `public` (the default), `admin` or `off`.
    pub metrics: MetricsExposure,
    /// Origins a browser app may call the API from (CORS), e.g. `https://maps.example.org`.
    /// Empty (the default): no cross-origin access.
    pub cors_origins: Vec<String>,
    /// MiB the sled log leaves free on its filesystem (`64`): below that, writes are refused
    /// with `507 storage_full` (nothing recorded) so that reads keep working; they resume by
    /// themselves once there is that much free again. `0` writes until the disk is full.
    pub storage_reserve_mb: u64,
    /// Bounds on what the server keeps in memory besides the read models (`[caches]` in the
    /// config file; docs/OPERATIONS.md "Memory").
    pub caches: CacheLimits,
    /// Where webhook targets may point (`[webhooks]` in the config file; docs/WEBHOOKS.md).
    pub webhooks: WebhookSettings,
}

/// How much memory the caches may hold (`[caches]` in the config file). Each only spares work:
/// what it drops is read or rendered again, and every answer is the same with any size. Their
/// sizes are in `/metrics` (docs/API.md "Operations").
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CacheLimits {
    /// MiB of the log's pages sled keeps in memory (`64`; sled's own default was 1024). Also
    /// `--store-cache-mb`, `HERALD_STORE_CACHE_MB`. Not used with PostgreSQL.
    pub store_mb: u64,
    /// MiB of rendered views and pictures kept by stream, version and reader (`64`). Also
    /// `--view-cache-mb`, `HERALD_VIEW_CACHE_MB`; `0` renders every read afresh.
    pub views_mb: u64,
}

impl Default for CacheLimits {
    fn default() -> Self {
        Self { store_mb: herald_store::DEFAULT_CACHE >> 20, views_mb: crate::views::DEFAULT_BYTES >> 20 }
    }
}

/// Who may read `/metrics` (`metrics` in the config file, `--metrics`, `HERALD_METRICS`).
///
/// The figures say how busy the host is and how many events it holds, nothing of any battle;
/// `public` suits a scraper on a private network, `admin` a host on the open internet (scrape
/// with an admin token as the bearer), `off` a host that does not want them served at all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum MetricsExposure {
    /// Anyone may read them.
    #[default]
    Public,
    /// Only with an admin token of the host.
    Admin,
    /// Not served (404).
    Off,
}

/// How many live event streams may be open at once (`[live_readers]` in the config file).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LiveReaderLimits {
    /// In all (`512`); beyond it a new reader is answered 503 with `Retry-After`.
    pub total: usize,
    /// Per bearer token (`8`); beyond it 429 with `Retry-After`.
    pub per_token: usize,
    /// For every reader without a token together (`64`); beyond it 429.
    pub anonymous: usize,
}

impl Default for LiveReaderLimits {
    fn default() -> Self {
        Self { total: 512, per_token: 8, anonymous: 64 }
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Pretty,
    /// One JSON object per line.
    Json,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./data"),
            store: None,
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            admin_token: None,
            log_format: LogFormat::Pretty,
            log_filter: "info".to_string(),
            live_readers: LiveReaderLimits::default(),
            metrics: MetricsExposure::default(),
            cors_origins: Vec::new(),
            storage_reserve_mb: herald_store::DEFAULT_RESERVE >> 20,
            caches: CacheLimits::default(),
            webhooks: Default::default(),
        }
    }
}

impl Settings {
    /// Read a TOML settings file.
    pub fn from_file(path: &std::path::Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| anyhow::anyhow!("cannot read config file {}: {error}", path.display()))?;
        toml::from_str(&text).map_err(|error| anyhow::anyhow!("invalid config file {}: {error}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_config_parses_and_names_every_cache_bound() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/herald.example.toml");
        let settings = Settings::from_file(&path).expect("the example config parses");
        assert_eq!((settings.caches.store_mb, settings.caches.views_mb), (64, 16));
        let defaults = CacheLimits::default();
        assert_eq!((defaults.store_mb, defaults.views_mb), (64, 16), "the example says the defaults");
        let small: Settings = toml::from_str("[caches]\nstore_mb = 8").expect("a partial table");
        assert_eq!((small.caches.store_mb, small.caches.views_mb), (8, 16));
        assert!(toml::from_str::<Settings>("[caches]\nstore = 8").is_err(), "an unknown key is refused");
    }
}

/// Where webhook targets may point (`[webhooks]` in the config file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebhookSettings {
    /// Allow plain `http://` targets (`--webhook-allow-http`); off by default.
    pub allow_http: bool,
    /// Hosts allowed over plain http and on private, loopback or link-local addresses
    /// (`--webhook-allow-host 127.0.0.1`, repeatable).
    pub allow_hosts: Vec<String>,
}
