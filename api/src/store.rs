//! Which event log a command works on: sled in a directory (the default) or PostgreSQL.
//!
//! `--store` (`HERALD_STORE`, `store` in the config file) takes `postgres://…` (or
//! `postgresql://…`) for a database several instances share, or `sled:PATH` for a directory;
//! unset, the log is sled in `data_dir`.

use std::path::PathBuf;
use std::sync::Arc;

use herald_store::{EventStore, PostgresOptions, PostgresStore, SledStore};

use crate::config::Settings;

/// Where the event log lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// The embedded sled log in this directory.
    Sled(PathBuf),
    /// A PostgreSQL database, by URL.
    Postgres(String),
}

impl StoreLocation {
    /// Parse a `--store` value.
    pub fn parse(spec: &str) -> anyhow::Result<Self> {
        if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
            Ok(Self::Postgres(spec.to_string()))
        } else if let Some(path) = spec.strip_prefix("sled:").filter(|path| !path.is_empty()) {
            Ok(Self::Sled(PathBuf::from(path)))
        } else {
            anyhow::bail!("--store takes postgres://user:password@host:port/database or sled:PATH, not {spec:?}")
        }
    }

    /// The log the settings name: `store` when set, else sled in `data_dir`.
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Self> {
        match &settings.store {
            Some(spec) => Self::parse(spec),
            None => Ok(Self::Sled(settings.data_dir.clone())),
        }
    }

    /// Open (connect to) the log; PostgreSQL's pending schema migrations are applied.
    pub fn open(&self) -> anyhow::Result<Arc<dyn EventStore>> {
        let store: Arc<dyn EventStore> = match self {
            Self::Sled(dir) => Arc::new(SledStore::open(dir)?),
            Self::Postgres(url) => Arc::new(PostgresStore::connect_with(url, PostgresOptions::default())?),
        };
        Ok(store)
    }

    /// [`Self::open`], a sled log leaving `reserve` bytes free on its disk
    /// (`SledStore::set_reserve`) and keeping at most `cache` bytes of its pages in memory
    /// (`SledStore::open_configured`).
    pub fn open_reserving(&self, reserve: u64, cache: u64) -> anyhow::Result<Arc<dyn EventStore>> {
        let store: Arc<dyn EventStore> = match self {
            Self::Sled(dir) => {
                let store = SledStore::open_configured(dir, herald_store::Durability::default(), cache)?;
                store.set_reserve(reserve);
                Arc::new(store)
            }
            Self::Postgres(_) => self.open()?,
        };
        Ok(store)
    }

    /// Bring a PostgreSQL log's schema up to this build's version; returns the versions applied.
    /// A sled log has nothing to migrate.
    pub fn migrate(&self) -> anyhow::Result<Vec<i32>> {
        match self {
            Self::Sled(_) => Ok(Vec::new()),
            Self::Postgres(url) => {
                Ok(PostgresStore::connect_with(url, PostgresOptions::default())?.applied_migrations().to_vec())
            }
        }
    }

    /// For logs and messages: the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Self::Sled(dir) => format!("sled:{}", dir.display()),
            Self::Postgres(url) => redact(url),
        }
    }
}

/// `url` with the password (`user:password@`) replaced by `***`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let Some((credentials, host)) = rest.split_once('@') else { return url.to_string() };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_locations_parse_postgres_urls_and_sled_paths_and_refuse_anything_else() {
        assert_eq!(
            StoreLocation::parse("postgres://h:pw@db:5432/herald").ok(),
            Some(StoreLocation::Postgres("postgres://h:pw@db:5432/herald".into()))
        );
        assert_eq!(
            StoreLocation::parse("postgresql://db/herald").ok(),
            Some(StoreLocation::Postgres("postgresql://db/herald".into()))
        );
        assert_eq!(
            StoreLocation::parse("sled:/var/lib/herald").ok(),
            Some(StoreLocation::Sled("/var/lib/herald".into()))
        );
        for wrong in ["", "sled:", "/var/lib/herald", "mysql://db", "redis://x"] {
            assert!(StoreLocation::parse(wrong).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn a_described_postgres_url_hides_its_password() {
        let location = StoreLocation::Postgres("postgres://herald:s3cret@db:5432/herald".into());
        assert_eq!(location.describe(), "postgres://herald:***@db:5432/herald");
        assert_eq!(StoreLocation::Postgres("postgres://db/herald".into()).describe(), "postgres://db/herald");
    }
}
