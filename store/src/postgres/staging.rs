//! An import all or nothing (issue 27 item 3): the imported log is written into a staging schema
//! beside the target's, checked there, then copied into the target's tables and the staging
//! schema dropped, in one transaction. Until that transaction commits the target is as it was;
//! a kill, a lost connection or a full disk before or during it leaves the target untouched
//! (PostgreSQL rolls an unfinished transaction back). A kill before the copy leaves the staging
//! schema, which the next import into the same target drops first.
//!
//! Copying (rather than renaming the staging tables into place) keeps the target's tables, so a
//! server connected to the target keeps its prepared statements and sees the whole log appear
//! at once, announced on its channel like any commit.

use super::{backend, pool_error, PostgresStore};
use crate::StoreError;

/// Staging schemas are named `herald_import_<target>_<random>`, `<target>` a hash of the target
/// schema's name (eight hex digits), so an import finds the leftovers of earlier ones into the
/// same target, and never another target's.
const PREFIX: &str = "herald_import_";

/// FNV-1a, 32 bits: a hash stable across builds and platforms.
fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5_u32, |hash, byte| (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193))
}

impl PostgresStore {
    /// The schema this store's tables are in (`current_schema()`: the `schema` option, or the
    /// URL's search path, usually `public`).
    pub fn schema_name(&self) -> Result<String, StoreError> {
        let pool = self.pool.clone();
        self.runtime.block_on(async move {
            let client = pool.get().await.map_err(pool_error)?;
            let row = client.query_one("SELECT current_schema()::text", &[]).await.map_err(backend)?;
            row.try_get::<_, Option<String>>(0)
                .map_err(backend)?
                .ok_or_else(|| StoreError::Backend("the connection has no current schema".into()))
        })
    }

    /// A name for a new staging schema for an import into this store, after dropping every
    /// staging schema an earlier import into it left (one killed before it finished). Returns
    /// the name and how many leftovers were dropped. Nothing is created: a store connected with
    /// the name as its `schema` creates it.
    pub fn new_staging_schema(&self) -> Result<(String, usize), StoreError> {
        let target = self.schema_name()?;
        let family = format!("{PREFIX}{:08x}_", fnv1a(&target));
        let name = format!("{family}{}", &uuid::Uuid::now_v7().simple().to_string()[24..]);
        super::schema::check_name(&name)?;
        let pool = self.pool.clone();
        let dropped = self.runtime.block_on(async move {
            let client = pool.get().await.map_err(pool_error)?;
            let pattern = format!("{}%", family.replace('_', "\\_"));
            let rows = client
                .query("SELECT nspname::text FROM pg_namespace WHERE nspname LIKE $1", &[&pattern])
                .await
                .map_err(backend)?;
            let mut dropped = 0;
            for row in rows {
                let leftover: String = row.try_get(0).map_err(backend)?;
                super::schema::check_name(&leftover)?;
                tracing::warn!(schema = %leftover, "dropping the staging schema an unfinished import left");
                client
                    .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{leftover}\" CASCADE"))
                    .await
                    .map_err(backend)?;
                dropped += 1;
            }
            Ok(dropped)
        })?;
        Ok((name, dropped))
    }

    /// Drop a staging schema [`Self::new_staging_schema`] named (an import that failed).
    pub fn drop_staging_schema(&self, staging: &str) -> Result<(), StoreError> {
        Self::check_staging(staging)?;
        let (pool, sql) = (self.pool.clone(), format!("DROP SCHEMA IF EXISTS \"{staging}\" CASCADE"));
        self.runtime.block_on(async move {
            let client = pool.get().await.map_err(pool_error)?;
            client.batch_execute(&sql).await.map_err(backend)
        })
    }

    fn check_staging(staging: &str) -> Result<(), StoreError> {
        super::schema::check_name(staging)?;
        if !staging.starts_with(PREFIX) {
            return Err(StoreError::Invalid(format!("{staging} is not an import's staging schema")));
        }
        Ok(())
    }

    /// Take the whole log a store in the `staging` schema holds into this store's log, which
    /// must be empty (no event, command or secret), and drop `staging`: one transaction, so
    /// every reader sees none of it or all of it. Holds the head lock, as every append does
    /// (docs/adr/0001), so no append interleaves. Returns the number of events taken.
    pub fn take_staged_log(&self, staging: &str) -> Result<u64, StoreError> {
        Self::check_staging(staging)?;
        let (pool, channel, staging) = (self.pool.clone(), self.channel.clone(), staging.to_string());
        let taken = self.runtime.block_on(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let transaction = client.transaction().await.map_err(backend)?;
            let next: i64 = transaction
                .query_one("SELECT next_position FROM herald_head FOR UPDATE", &[])
                .await
                .map_err(backend)?
                .try_get(0)
                .map_err(backend)?;
            let held: i64 = transaction
                .query_one(
                    "SELECT (SELECT count(*) FROM (SELECT 1 FROM herald_events LIMIT 1) e)
                          + (SELECT count(*) FROM (SELECT 1 FROM herald_commands LIMIT 1) c)
                          + (SELECT count(*) FROM (SELECT 1 FROM herald_secrets LIMIT 1) s)",
                    &[],
                )
                .await
                .map_err(backend)?
                .try_get(0)
                .map_err(backend)?;
            if next != 0 || held != 0 {
                return Err(StoreError::Invalid(
                    "the target log is not empty (something was written to it during the import): nothing imported"
                        .into(),
                ));
            }
            let s = &staging;
            transaction
                .batch_execute(&format!(
                    "INSERT INTO herald_events (position, stream, version, id, event_type, schema, recorded_at,
                         recorded_nanos, actor, command_id, correlation_id, causation_id, rules, data)
                     SELECT position, stream, version, id, event_type, schema, recorded_at, recorded_nanos, actor,
                         command_id, correlation_id, causation_id, rules, data
                     FROM \"{s}\".herald_events ORDER BY position;
                     INSERT INTO herald_streams (stream, version) SELECT stream, version FROM \"{s}\".herald_streams;
                     INSERT INTO herald_commands (command_id, stream, command, first_version, last_version,
                         first_position)
                     SELECT command_id, stream, command, first_version, last_version, first_position
                     FROM \"{s}\".herald_commands;
                     INSERT INTO herald_secrets (key, value) SELECT key, value FROM \"{s}\".herald_secrets;
                     UPDATE herald_head SET next_position = (SELECT next_position FROM \"{s}\".herald_head);
                     DROP SCHEMA \"{s}\" CASCADE;"
                ))
                .await
                .map_err(backend)?;
            let next: i64 = transaction
                .query_one("SELECT next_position FROM herald_head", &[])
                .await
                .map_err(backend)?
                .try_get(0)
                .map_err(backend)?;
            let last = u64::try_from(next).ok().and_then(|next| next.checked_sub(1));
            if let Some(last) = last {
                // Other instances on this log learn of it as of any commit (`listener`).
                transaction
                    .execute("SELECT pg_notify($1, $2)", &[&channel, &last.to_string()])
                    .await
                    .map_err(backend)?;
            }
            transaction.commit().await.map_err(backend)?;
            Ok((last, u64::try_from(next).unwrap_or(0)))
        });
        let (last, events) = taken?;
        super::listener::publish(&self.head, last);
        Ok(events)
    }
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn the_target_hash_is_fnv1a() {
        assert_eq!(fnv1a(""), 0x811c_9dc5);
        assert_eq!(fnv1a("a"), 0xe40c_292c);
        assert_eq!(fnv1a("public"), fnv1a("public"));
        assert_ne!(fnv1a("public"), fnv1a("publid"));
    }
}
