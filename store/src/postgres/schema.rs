//! The tables and their migrations: numbered SQL files applied in order, each once, recorded in
//! `herald_migrations`, under an advisory lock so instances starting together apply them once.

use deadpool_postgres::Object;

use super::backend;
use crate::StoreError;

/// Every migration this build knows, in order: (version, name, SQL).
pub const MIGRATIONS: &[(i32, &str, &str)] = &[(1, "event log", include_str!("migrations/0001_event_log.sql"))];

/// The advisory lock key that serializes migrations (any fixed number; "herald" in ASCII).
const MIGRATION_LOCK: i64 = 0x6865_7261_6c64;

/// A schema name the store may quote into SQL: lowercase letters, digits and `_`, not empty,
/// not starting with a digit, at most 40 bytes (the notification channel adds a prefix).
pub(crate) fn check_name(schema: &str) -> Result<(), StoreError> {
    let valid = !schema.is_empty()
        && schema.len() <= 40
        && !schema.starts_with(|c: char| c.is_ascii_digit())
        && schema.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if valid {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "schema name {schema:?}: use lowercase letters, digits and _ (at most 40, not starting with a digit)"
        )))
    }
}

/// Apply pending migrations (when `migrate`), then make sure the database is at this build's
/// version. Returns the versions applied now.
pub(crate) async fn prepare(client: &mut Object, migrate: bool) -> Result<Vec<i32>, StoreError> {
    let transaction = client.transaction().await.map_err(backend)?;
    // Taken before anything is created: two first starts must not both create the tables.
    transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(backend)?;
    transaction
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS herald_migrations (
                version    integer     PRIMARY KEY,
                name       text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )",
        )
        .await
        .map_err(backend)?;
    let row = transaction.query_one("SELECT max(version) FROM herald_migrations", &[]).await.map_err(backend)?;
    let current: i32 = row.try_get::<_, Option<i32>>(0).map_err(backend)?.unwrap_or(0);
    let latest = MIGRATIONS.last().map_or(0, |(version, _, _)| *version);
    if current > latest {
        return Err(StoreError::Backend(format!(
            "the database's schema is at version {current}, newer than this herald knows ({latest}): upgrade herald"
        )));
    }
    let pending: Vec<_> = MIGRATIONS.iter().filter(|(version, _, _)| *version > current).collect();
    if !pending.is_empty() && !migrate {
        return Err(StoreError::Backend(format!(
            "the database's schema is at version {current}, this herald needs {latest}: run `herald migrate`"
        )));
    }
    let mut applied = Vec::new();
    for (version, name, sql) in pending {
        transaction.batch_execute(sql).await.map_err(backend)?;
        transaction
            .execute("INSERT INTO herald_migrations (version, name) VALUES ($1, $2)", &[version, name])
            .await
            .map_err(backend)?;
        tracing::info!(version, name, "applied a schema migration");
        applied.push(*version);
    }
    transaction.commit().await.map_err(backend)?;
    Ok(applied)
}
