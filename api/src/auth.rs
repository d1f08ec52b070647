//! Bearer tokens with roles.
//!
//! A token is `hrd_` + 64 hex digits of OS randomness. Only its SHA-256 is kept (in the store's
//! secret tree, never in the readable log), so a copy of the data directory does not leak
//! working tokens. Issuing a token is audited as an `auth.TokenIssued` event on the `tokens`
//! stream, without the secret. Tokens are cached in memory; one this process has not seen (issued
//! through another instance sharing a PostgreSQL log) is looked up in the store once.

use std::{collections::HashMap, future::Future, pin::Pin, sync::RwLock};

use actix_web::{web, FromRequest, HttpRequest};
use chrono::{DateTime, Utc};
use herald_domain::{Actor, Role};
use herald_store::EventStore;
use rand_core::{OsRng, TryRngCore};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::{problem::ApiError, startup::AppState};

/// What a token grants, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TokenRecord {
    /// Public id of the token (appears as the actor of what it does: `token:<id>`).
    pub id: String,
    /// Its role.
    pub role: Role,
    /// For players: the player name it is bound to.
    pub player: Option<String>,
    /// A note for admins ("Battle Judge, round 12").
    pub label: Option<String>,
    /// When it was issued.
    pub created_at: DateTime<Utc>,
}

impl TokenRecord {
    /// The actor this token acts as.
    pub fn actor(&self) -> Actor {
        Actor { id: format!("token:{}", self.id), role: self.role.clone(), player: self.player.clone() }
    }
}

const SECRET_PREFIX: &str = "token:";

/// Issued tokens, cached in memory by hash.
#[derive(Debug, Default)]
pub struct Tokens {
    by_hash: RwLock<HashMap<String, TokenRecord>>,
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
        if let Some(index) = store.get_secret("token-index")? {
            let hashes: Vec<String> = serde_json::from_slice(&index)?;
            let mut map = tokens.write();
            for token_hash in hashes {
                if let Some(bytes) = store.get_secret(&format!("{SECRET_PREFIX}{token_hash}"))? {
                    map.insert(token_hash, serde_json::from_slice(&bytes)?);
                }
            }
        }
        let admin = TokenRecord {
            id: "admin".into(),
            role: Role::Admin,
            player: None,
            label: Some("configured admin token".into()),
            created_at: DateTime::<Utc>::UNIX_EPOCH,
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

    /// Keep a new token.
    ///
    /// The index (which tokens to load at start-up) is merged with the stored one, since other
    /// instances sharing the log add to it too; a token missing from it is still found by
    /// [`Tokens::lookup_stored`].
    pub fn save(&self, store: &dyn EventStore, token: &str, record: TokenRecord) -> anyhow::Result<()> {
        let token_hash = hash(token);
        store.put_secret(&format!("{SECRET_PREFIX}{token_hash}"), &serde_json::to_vec(&record)?)?;
        let mut index: std::collections::BTreeSet<String> = match store.get_secret("token-index")? {
            Some(bytes) => serde_json::from_slice(&bytes)?,
            None => Default::default(),
        };
        let mut map = self.write();
        map.insert(token_hash, record);
        index.extend(map.iter().filter(|(_, r)| r.id != "admin").map(|(h, _)| h.clone()));
        store.put_secret("token-index", &serde_json::to_vec(&index)?)?;
        Ok(())
    }

    /// The record of a presented token, if this process knows it.
    pub fn lookup(&self, token: &str) -> Option<TokenRecord> {
        self.read().get(&hash(token)).cloned()
    }

    /// The record of a token this process does not know yet, from the store's secrets (issued
    /// through another instance sharing the log); kept for next time. Blocking.
    pub fn lookup_stored(&self, store: &dyn EventStore, token: &str) -> anyhow::Result<Option<TokenRecord>> {
        let token_hash = hash(token);
        let Some(bytes) = store.get_secret(&format!("{SECRET_PREFIX}{token_hash}"))? else { return Ok(None) };
        let record: TokenRecord = serde_json::from_slice(&bytes)?;
        self.write().insert(token_hash, record.clone());
        Ok(Some(record))
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, TokenRecord>> {
        self.by_hash.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, TokenRecord>> {
        self.by_hash.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The authenticated caller; rejects the request with 401 when there is no valid token.
#[derive(Debug, Clone)]
pub struct Authenticated(pub Actor);

/// The caller if a token was presented; anonymous readers see what is public.
#[derive(Debug, Clone)]
pub struct MaybeAuthenticated(pub Option<Actor>);

/// What the request's `Authorization` header says, as far as this process knows without IO.
enum Presented {
    /// No header: anonymous.
    Nobody,
    /// A token this process knows.
    Known(Actor),
    /// A well-formed token this process has not seen: another instance may have issued it.
    Unseen(String, web::Data<AppState>),
}

fn presented(req: &HttpRequest) -> Result<Presented, ApiError> {
    let Some(header) = req.headers().get(actix_web::http::header::AUTHORIZATION) else {
        return Ok(Presented::Nobody);
    };
    let value =
        header.to_str().map_err(|_| ApiError::Unauthenticated("the Authorization header is not text".into()))?;
    let token = value
        .strip_prefix("Bearer ")
        .ok_or_else(|| ApiError::Unauthenticated("use `Authorization: Bearer <token>`".into()))?
        .trim();
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("application state missing")))?;
    if let Some(record) = state.tokens.lookup(token) {
        return Ok(Presented::Known(record.actor()));
    }
    // Only the shape `generate_token` makes is worth a look in the store.
    let generated = token.len() == 68
        && token.starts_with("hrd_")
        && token[4..].bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    if generated {
        Ok(Presented::Unseen(token.to_string(), state.clone()))
    } else {
        Err(ApiError::Unauthenticated("unknown bearer token".into()))
    }
}

/// The caller, once any token this process has not seen is looked up in the store.
async fn principal(presented: Result<Presented, ApiError>) -> Result<Option<Actor>, ApiError> {
    match presented? {
        Presented::Nobody => Ok(None),
        Presented::Known(actor) => Ok(Some(actor)),
        Presented::Unseen(token, state) => {
            let record = web::block(move || {
                state.tokens.lookup_stored(state.store.as_ref(), &token).map_err(ApiError::internal)
            })
            .await
            .map_err(ApiError::internal)??;
            record
                .map(|record| Some(record.actor()))
                .ok_or_else(|| ApiError::Unauthenticated("unknown bearer token".into()))
        }
    }
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let presented = presented(req);
        Box::pin(async move {
            principal(presented).await.and_then(|actor| {
                actor
                    .map(Authenticated)
                    .ok_or_else(|| ApiError::Unauthenticated("this request needs a bearer token".into()))
            })
        })
    }
}

impl FromRequest for MaybeAuthenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let presented = presented(req);
        Box::pin(async move { principal(presented).await.map(MaybeAuthenticated) })
    }
}

/// Refuse unless the actor is an admin.
pub fn require_admin(actor: &Actor) -> Result<(), ApiError> {
    if actor.role == Role::Admin {
        Ok(())
    } else {
        Err(ApiError::Forbidden { code: "forbidden".into(), detail: "only an admin may do this".into(), rule: None })
    }
}
