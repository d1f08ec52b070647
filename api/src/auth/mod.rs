//! Bearer tokens with roles and scopes.
//!
//! A token is `hrd_` + 64 hex digits of OS randomness. Only its SHA-256 is kept (in the store's
//! secret tree, never in the readable log), so a copy of the data directory does not leak
//! working tokens. Issuing and revoking a token are audited as `auth.TokenIssued` and
//! `auth.TokenRevoked` events on the `tokens` stream, without the secret.
//!
//! A token grants a role within a [`Scope`] (the host, a campaign with its battles, or one
//! battle), until an optional expiry or until an admin revokes it. Tokens are cached in memory;
//! one this process has not seen (issued through another instance sharing a PostgreSQL log) is
//! looked up in the store once, and when the `tokens` stream has moved past what the cache has
//! seen (another instance revoked one), its new events are read before the token is trusted.

mod actors;
pub mod request;
mod scope;

use std::{collections::HashMap, sync::RwLock};

use chrono::{DateTime, Utc};
use herald_domain::{Actor, Role};
use herald_projections::Catalog;
use herald_store::{Direction, EventStore};
use rand_core::{OsRng, TryRngCore};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

pub use actors::{ActorFilter, Actors};
pub use scope::{Scope, ScopeError, PATTERN as SCOPE_PATTERN};

use crate::problem::ApiError;

/// The stream where issuing and revoking tokens is audited.
pub const TOKENS_STREAM: &str = "tokens";

/// What a token grants, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TokenRecord {
    /// Public id of the token (appears as the actor of what it does: `token:<id>`).
    pub id: String,
    /// Its role.
    pub role: Role,
    /// For players: the player name it is bound to.
    pub player: Option<String>,
    /// Where the role holds (tokens issued before scopes existed hold on the whole host).
    #[serde(default)]
    pub scope: Scope,
    /// A note for admins ("Battle Judge, round 12").
    pub label: Option<String>,
    /// When it was issued.
    pub created_at: DateTime<Utc>,
    /// When it stops working, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
    /// When an admin revoked it, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<DateTime<Utc>>,
}

impl TokenRecord {
    /// The actor this token acts as.
    pub fn actor(&self) -> Actor {
        Actor { id: format!("token:{}", self.id), role: self.role.clone(), player: self.player.clone() }
    }

    /// Refuse a token that was revoked or has expired by `now` (401: the caller must get a new one).
    pub fn usable_at(&self, now: DateTime<Utc>) -> Result<(), ApiError> {
        if let Some(revoked) = self.revoked_at {
            return Err(ApiError::Unauthenticated(format!("this token was revoked at {}", revoked.to_rfc3339())));
        }
        match self.expires_at {
            Some(expiry) if expiry <= now => {
                Err(ApiError::Unauthenticated(format!("this token expired at {}", expiry.to_rfc3339())))
            }
            _ => Ok(()),
        }
    }
}

/// The payload of `auth.TokenRevoked`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TokenRevoked {
    /// The revoked token's id.
    pub id: String,
    /// When.
    pub revoked_at: DateTime<Utc>,
}

const SECRET_PREFIX: &str = "token:";
const INDEX: &str = "token-index";

/// Issued tokens, cached in memory by hash.
#[derive(Debug, Default)]
pub struct Tokens {
    by_hash: RwLock<HashMap<String, TokenRecord>>,
    /// The version of the `tokens` stream the cache reflects (revocations read up to it).
    synced: RwLock<Option<u64>>,
}

/// A fresh random token.
pub fn generate_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    OsRng.try_fill_bytes(&mut bytes).map_err(|error| ApiError::internal(anyhow::anyhow!("OS randomness: {error}")))?;
    Ok(format!("hrd_{}", hex::encode(bytes)))
}

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl Tokens {
    /// Load the issued tokens and make sure an admin token exists.
    ///
    /// With `admin_token` configured, that token is the admin's. Without it, an admin token is
    /// generated on the very first start and returned so the caller can print it once.
    pub fn load(store: &dyn EventStore, admin_token: Option<&str>) -> anyhow::Result<(Self, Option<String>)> {
        let tokens = Self::default();
        let mut generated = None;
        // The stream's head first: a revocation appended after it is read on the next request.
        let head = store.read_stream(TOKENS_STREAM, u64::MAX, Direction::Backwards, 1)?;
        *tokens.synced.write().unwrap_or_else(|poisoned| poisoned.into_inner()) =
            head.first().map(|event| event.version);
        tokens.write().extend(Self::stored(store)?);
        let admin = TokenRecord {
            id: "admin".into(),
            role: Role::Admin,
            player: None,
            scope: Scope::Host,
            label: Some("configured admin token".into()),
            created_at: DateTime::<Utc>::UNIX_EPOCH,
            expires_at: None,
            revoked_at: None,
        };
        match admin_token {
            Some(token) => {
                tokens.write().insert(hash(token), admin);
            }
            None if !tokens.read().values().any(|record| record.id == "admin-generated") => {
                let token = generate_token().map_err(|error| anyhow::anyhow!("{error}"))?;
                let record = TokenRecord {
                    id: "admin-generated".into(),
                    label: Some("generated on first start".into()),
                    created_at: Utc::now(),
                    ..admin
                };
                tokens.save(store, &token, record)?;
                generated = Some(token);
            }
            None => {}
        }
        Ok((tokens, generated))
    }

    /// Every token the store keeps, by hash (those issued through other instances included).
    fn stored(store: &dyn EventStore) -> anyhow::Result<HashMap<String, TokenRecord>> {
        let mut stored = HashMap::new();
        let Some(index) = store.get_secret(INDEX)? else { return Ok(stored) };
        let hashes: Vec<String> = serde_json::from_slice(&index)?;
        for token_hash in hashes {
            if let Some(bytes) = store.get_secret(&format!("{SECRET_PREFIX}{token_hash}"))? {
                stored.insert(token_hash, serde_json::from_slice(&bytes)?);
            }
        }
        Ok(stored)
    }

    /// Keep a new token.
    ///
    /// The index (which tokens to load at start-up) is merged with the stored one, since other
    /// instances sharing the log add to it too; a token missing from it is still found by
    /// [`Tokens::lookup_stored`].
    pub fn save(&self, store: &dyn EventStore, token: &str, record: TokenRecord) -> anyhow::Result<()> {
        let token_hash = hash(token);
        store.put_secret(&format!("{SECRET_PREFIX}{token_hash}"), &serde_json::to_vec(&record)?)?;
        let mut index: std::collections::BTreeSet<String> = match store.get_secret(INDEX)? {
            Some(bytes) => serde_json::from_slice(&bytes)?,
            None => Default::default(),
        };
        let mut map = self.write();
        map.insert(token_hash, record);
        index.extend(map.iter().filter(|(_, r)| r.id != "admin").map(|(h, _)| h.clone()));
        store.put_secret(INDEX, &serde_json::to_vec(&index)?)?;
        Ok(())
    }

    /// Every token issued on this host (the configured admin token included), oldest first, as
    /// the store has them. Blocking.
    pub fn list(&self, store: &dyn EventStore) -> anyhow::Result<Vec<TokenRecord>> {
        let mut all = Self::stored(store)?;
        // The configured admin token lives in the config, not the store.
        all.extend(self.read().iter().filter(|(_, r)| r.id == "admin").map(|(h, r)| (h.clone(), r.clone())));
        let mut records: Vec<TokenRecord> = all.into_values().collect();
        records.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(records)
    }

    /// Revoke the token `id` at `now`; its record as revoked, or `None` if there is no such token.
    /// Revoking a revoked token changes nothing. The record is kept (with `revoked_at`) so the
    /// audit trail and the listing still show it. Blocking.
    pub fn revoke(
        &self,
        store: &dyn EventStore,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<TokenRecord>, ApiError> {
        if id == "admin" {
            return Err(ApiError::Rule(herald_domain::RuleError::new(
                "token.configured",
                "the configured admin token is set in the server's settings (`admin_token`); change it there and restart",
                "docs/AUTH.md",
            )));
        }
        let stored = Self::stored(store).map_err(ApiError::internal)?;
        let Some((token_hash, mut record)) = stored.into_iter().find(|(_, record)| record.id == id) else {
            return Ok(None);
        };
        if record.revoked_at.is_none() {
            record.revoked_at = Some(now);
            let bytes = serde_json::to_vec(&record).map_err(ApiError::internal)?;
            store.put_secret(&format!("{SECRET_PREFIX}{token_hash}"), &bytes)?;
        }
        self.write().insert(token_hash, record.clone());
        Ok(Some(record))
    }

    /// The record of a presented token, if this process knows it and has seen every revocation
    /// up to `tokens_version` (the `tokens` stream's version in the read models).
    pub fn lookup(&self, token: &str, tokens_version: Option<u64>) -> Option<TokenRecord> {
        if self.stale(tokens_version) {
            return None;
        }
        self.read().get(&hash(token)).cloned()
    }

    fn stale(&self, tokens_version: Option<u64>) -> bool {
        *self.synced.read().unwrap_or_else(|poisoned| poisoned.into_inner()) < tokens_version
    }

    /// The record of a token, once the revocations this process has not seen are read and a token
    /// it does not know is looked up in the store's secrets (issued through another instance
    /// sharing the log); kept for next time. Blocking.
    pub fn lookup_stored(&self, store: &dyn EventStore, token: &str) -> anyhow::Result<Option<TokenRecord>> {
        self.read_revocations(store)?;
        let token_hash = hash(token);
        if let Some(record) = self.read().get(&token_hash) {
            return Ok(Some(record.clone()));
        }
        let Some(bytes) = store.get_secret(&format!("{SECRET_PREFIX}{token_hash}"))? else { return Ok(None) };
        let record: TokenRecord = serde_json::from_slice(&bytes)?;
        self.write().insert(token_hash, record.clone());
        Ok(Some(record))
    }

    /// Apply the `auth.TokenRevoked` events of the `tokens` stream this cache has not seen.
    fn read_revocations(&self, store: &dyn EventStore) -> anyhow::Result<()> {
        let mut synced = self.synced.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        loop {
            let from = synced.map_or(0, |version| version + 1);
            let events = store.read_stream(TOKENS_STREAM, from, Direction::Forwards, 512)?;
            let Some(last) = events.last() else { return Ok(()) };
            *synced = Some(last.version);
            let mut map = self.write();
            for event in &events {
                if event.event_type != "auth.TokenRevoked" {
                    continue;
                }
                let revoked: TokenRevoked = event.data.decode()?;
                for record in map.values_mut().filter(|record| record.id == revoked.id) {
                    record.revoked_at.get_or_insert(revoked.revoked_at);
                }
            }
        }
    }

    /// The cached record of the token `id` (the configured admin token included), if this
    /// process has it.
    pub fn find(&self, id: &str) -> Option<TokenRecord> {
        self.read().values().find(|record| record.id == id).cloned()
    }

    /// How many token records this process keeps in memory: every token issued on the host
    /// (loaded at start, or looked up once when another instance issued it), revoked ones
    /// included; a presented token the store does not know is not kept.
    pub fn cached(&self) -> usize {
        self.read().len()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, TokenRecord>> {
        self.by_hash.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, TokenRecord>> {
        self.by_hash.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Refuse a command on `stream` by a token whose scope does not reach it.
pub fn check_scope(scope: &Scope, stream: &str, catalog: &Catalog) -> Result<(), ApiError> {
    if scope.covers(stream, catalog) {
        return Ok(());
    }
    let detail = if catalog.version_of(stream).is_none() {
        format!("a token scoped to {scope} cannot open new battles or campaigns; that takes a token for the whole host")
    } else {
        format!("this token's scope is {scope}, which does not reach {stream}")
    };
    Err(ApiError::Forbidden { code: "token.out_of_scope".into(), detail, rule: None })
}

/// Refuse unless the actor is an admin.
pub fn require_admin(actor: &Actor) -> Result<(), ApiError> {
    if actor.role == Role::Admin {
        Ok(())
    } else {
        Err(ApiError::Forbidden { code: "forbidden".into(), detail: "only an admin may do this".into(), rule: None })
    }
}
