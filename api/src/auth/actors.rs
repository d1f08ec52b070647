//! Actors by name: the token behind an event's actor id, looked up when the event is read.
//!
//! The log records only `token:<id>` (or `system`); the role, the player name and the label are
//! the token's. [`Actors`] resolves them for one reader, once per actor id, from the token
//! cache, and from the store's token records once when an id is not cached (a token issued
//! through another instance). Who may see a label is [`herald_projections::label_visible`]
//! (docs/API.md "Actors and who sees a token's label").

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use herald_domain::{Role, Viewer};
use herald_projections::{label_visible, ActorView, TokenFacts, TokenState, SYSTEM_ACTOR};
use herald_store::EventStore;

use super::{TokenRecord, Tokens};

/// The prefix of the actor ids tokens act as.
const TOKEN_ACTOR: &str = "token:";

/// Keep only events by actors of this role and/or this player (`role=`, `player=` on event
/// listings).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActorFilter {
    /// Only actors of this role (`system`: the service itself).
    pub role: Option<Role>,
    /// Only the tokens of this player.
    pub player: Option<String>,
}

impl ActorFilter {
    /// Whether the filter keeps every event.
    pub fn is_empty(&self) -> bool {
        self.role.is_none() && self.player.is_none()
    }
}

/// Resolves actor ids for one reader.
pub struct Actors<'a> {
    tokens: &'a Tokens,
    store: &'a dyn EventStore,
    now: DateTime<Utc>,
    /// The reader's own actor id, if it presented a token.
    reader: Option<String>,
    /// The store's token records by id, read at the first id the cache does not hold.
    stored: Option<HashMap<String, TokenRecord>>,
    resolved: HashMap<String, Option<TokenFacts>>,
}

impl<'a> Actors<'a> {
    /// A resolver for the reader whose actor id is `reader` (`None`: anonymous).
    pub fn new(tokens: &'a Tokens, store: &'a dyn EventStore, reader: Option<String>) -> Self {
        Self { tokens, store, now: Utc::now(), reader, stored: None, resolved: HashMap::new() }
    }

    /// What the registry says of the token `actor` acted with (`None`: the service itself, or
    /// no such token).
    pub fn facts(&mut self, actor: &str) -> Option<TokenFacts> {
        if let Some(facts) = self.resolved.get(actor) {
            return facts.clone();
        }
        let facts = actor.strip_prefix(TOKEN_ACTOR).and_then(|id| self.record(id)).map(|record| TokenFacts {
            state: if record.revoked_at.is_some() {
                TokenState::Revoked
            } else if record.expires_at.is_some_and(|expiry| expiry <= self.now) {
                TokenState::Expired
            } else {
                TokenState::Active
            },
            role: record.role,
            player: record.player,
            label: record.label,
        });
        self.resolved.insert(actor.to_string(), facts.clone());
        facts
    }

    fn record(&mut self, id: &str) -> Option<TokenRecord> {
        if let Some(record) = self.tokens.find(id) {
            return Some(record);
        }
        let (tokens, store) = (self.tokens, self.store);
        let stored = self.stored.get_or_insert_with(|| {
            // A token issued through another instance sharing the log, read once per resolver;
            // a store that cannot be read leaves the actor unknown rather than failing the read.
            match tokens.list(store) {
                Ok(records) => records.into_iter().map(|record| (record.id.clone(), record)).collect(),
                Err(error) => {
                    tracing::warn!(%error, "token records could not be read to name an actor");
                    HashMap::new()
                }
            }
        });
        stored.get(id).cloned()
    }

    /// `actor` as a person, for a reader who sees the event's stream as `viewer`.
    pub fn view(&mut self, actor: &str, viewer: &Viewer) -> ActorView {
        match self.facts(actor) {
            Some(facts) => ActorView::of_token(actor, &facts, label_visible(viewer, self.reader.as_deref(), actor)),
            None => ActorView::unresolved(actor),
        }
    }

    /// Whether `actor` passes `filter`.
    pub fn matches(&mut self, actor: &str, filter: &ActorFilter) -> bool {
        if filter.is_empty() {
            return true;
        }
        let (role, player) = match self.facts(actor) {
            Some(facts) => (Some(facts.role), facts.player),
            None if actor == SYSTEM_ACTOR => (Some(Role::System), None),
            None => (None, None),
        };
        filter.role.as_ref().is_none_or(|wanted| role.as_ref() == Some(wanted))
            && filter.player.as_ref().is_none_or(|wanted| player.as_ref() == Some(wanted))
    }
}
