//! The live read models, kept in memory and folded from `$all` in position order.
//!
//! The catalog is rebuilt from the log at start-up and caught up after every append, always by
//! reading `$all` from its checkpoint, so it sees events exactly once and in commit order no
//! matter how many requests append at once. A rebuilt catalog equals the live one (a test).
//!
//! It holds one folded state per stream of a registered ruleset (`battle-…`, `campaign-…`),
//! whatever the ruleset: the state is the ruleset's own, behind [`AnyState`], and every event is
//! folded by the ruleset its envelope's `rules` names (`coalition-battle@1`). The stream name alone
//! cannot say which ruleset a battle is (several rulesets' payloads look alike), and one stream
//! never mixes rulesets: an event of another ruleset than its stream's is reported, not folded.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use chrono::{DateTime, Utc};
use herald_domain::{registry, AnyRuleset, AnyState, StreamKind};
use herald_store::{EventRef, EventStore, RecordedEvent, StoreError};

/// One stream's folded state, the ruleset that folds it and the version it is folded to.
#[derive(Clone)]
pub struct Entry {
    /// The stream's ruleset.
    pub ruleset: &'static dyn AnyRuleset,
    /// The state, shared with readers: folding a new event copies it only while a reader holds it.
    pub state: Arc<dyn AnyState>,
    /// The stream version of the last event folded.
    pub version: u64,
    /// When its first event was recorded (what listings show as the day it was opened); `None`
    /// only for an entry restored from a snapshot written before the catalog kept it.
    pub created_at: Option<DateTime<Utc>>,
    /// When its last folded event was recorded.
    pub last_event_at: Option<DateTime<Utc>>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("ruleset", &self.ruleset.rules())
            .field("version", &self.version)
            .field("state", &self.state)
            .finish()
    }
}

impl Entry {
    /// The state as the ruleset's own type.
    pub fn state_as<T: 'static>(&self) -> Option<&T> {
        self.state.as_any().downcast_ref::<T>()
    }

    fn same_as(&self, other: &Entry) -> bool {
        self.version == other.version
            && self.ruleset.rules() == other.ruleset.rules()
            && self.state.same_as(other.state.as_ref())
    }
}

#[derive(Debug, Default)]
pub(crate) struct Inner {
    pub(crate) checkpoint: Option<u64>,
    pub(crate) entries: BTreeMap<String, Entry>,
    pub(crate) streams: BTreeMap<String, u64>,
    pub(crate) undecodable: Vec<u64>,
}

/// The in-memory read models.
#[derive(Debug, Default)]
pub struct Catalog {
    inner: RwLock<Inner>,
    /// Events folded so far (the checkpoint + 1), readable without the lock while catching up.
    pub(crate) folded: AtomicU64,
    /// Whether a catch-up has reached the head of the log once (start-up is over).
    caught_up: AtomicBool,
}

/// Events folded under one hold of the write lock, so readers (and `/readyz`) are never held
/// up for long by a catch-up over a long log.
const CHUNK: u64 = 16_384;

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Self::default()
    }

    /// A catalog rebuilt from the whole log.
    pub fn rebuild(store: &dyn EventStore) -> Result<Self, StoreError> {
        let catalog = Self::new();
        catalog.catch_up(store)?;
        Ok(catalog)
    }

    /// Fold every event of `$all` after the checkpoint. Returns the new checkpoint.
    pub fn catch_up(&self, store: &dyn EventStore) -> Result<Option<u64>, StoreError> {
        self.catch_up_reporting(store, &mut |_| {})
    }

    /// [`Catalog::catch_up`], calling `progress` with the number of events folded after each
    /// chunk (start-up logs it). The write lock is released between chunks.
    pub fn catch_up_reporting(
        &self,
        store: &dyn EventStore,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Option<u64>, StoreError> {
        loop {
            let mut inner = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
            let from = inner.checkpoint.map_or(0, |position| position + 1);
            let mut folded = 0;
            store.replay_all(from, &mut |event| {
                inner.fold(&event);
                folded += 1;
                if folded == CHUNK {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            })?;
            let checkpoint = inner.checkpoint;
            drop(inner);
            self.folded.store(checkpoint.map_or(0, |position| position + 1), Ordering::Release);
            if folded < CHUNK {
                self.caught_up.store(true, Ordering::Release);
                return Ok(checkpoint);
            }
            progress(checkpoint.map_or(0, |position| position + 1));
        }
    }

    /// Fold at least up to the event at `position` of `$all`. When another caller's catch-up
    /// already went past it (32 commands at once each end with one), nothing is read and no lock
    /// is taken: a command's own catch-up was 5% of the server's CPU under load, much of it
    /// waiting for the write lock (docs/PERFORMANCE.md, "The service under load").
    pub fn catch_up_through(&self, store: &dyn EventStore, position: u64) -> Result<(), StoreError> {
        if self.folded() > position {
            return Ok(());
        }
        self.catch_up(store).map(drop)
    }

    /// Fold a command's own events, as its append returned them, without reading them back from
    /// the store when they come next in `$all` (issue 29: the command path read back what it had
    /// just written). When another writer's events come between the checkpoint and them, the
    /// catalog catches up from the log instead, so events are still folded exactly once and in
    /// commit order; when a concurrent catch-up already folded them, nothing is done.
    pub fn fold_appended(&self, store: &dyn EventStore, events: &[RecordedEvent]) -> Result<(), StoreError> {
        let Some(last) = events.last() else { return self.catch_up(store).map(drop) };
        if self.folded() > last.position {
            return Ok(());
        }
        let contiguous = events.windows(2).all(|pair| pair[0].position + 1 == pair[1].position);
        {
            let mut inner = self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner());
            let next = inner.checkpoint.map_or(0, |position| position + 1);
            if next > last.position {
                return Ok(());
            }
            if contiguous && next == events[0].position {
                for event in events {
                    inner.fold(&event.as_ref());
                }
                self.folded.store(last.position + 1, Ordering::Release);
                return Ok(());
            }
        }
        self.catch_up(store).map(drop)
    }

    /// How many events of `$all` have been folded (without waiting for a catch-up in progress).
    pub fn folded(&self) -> u64 {
        self.folded.load(Ordering::Acquire)
    }

    /// Whether the read models have caught up with the log once since start-up.
    pub fn caught_up(&self) -> bool {
        self.caught_up.load(Ordering::Acquire)
    }

    /// The position of the last event folded.
    pub fn checkpoint(&self) -> Option<u64> {
        self.read().checkpoint
    }

    /// A stream's folded state, ruleset and version.
    pub fn entry(&self, stream: &str) -> Option<Entry> {
        self.read().entries.get(stream).cloned()
    }

    /// Every stream of `kind`, by name.
    pub fn entries(&self, kind: StreamKind) -> Vec<(String, Entry)> {
        self.read()
            .entries
            .iter()
            .filter(|(_, entry)| entry.ruleset.kind() == kind)
            .map(|(name, entry)| (name.clone(), entry.clone()))
            .collect()
    }

    /// Which ruleset a stream holds; `None` for a stream the catalog could not fold (unknown,
    /// not a ruleset's stream, or only undecodable events).
    pub fn ruleset_of(&self, stream: &str) -> Option<&'static dyn AnyRuleset> {
        self.read().entries.get(stream).map(|entry| entry.ruleset)
    }

    /// The version of one stream, if it has events (any stream, not only a ruleset's: the
    /// `tokens` stream's tells the token cache to look for revocations).
    pub fn version_of(&self, stream: &str) -> Option<u64> {
        self.read().streams.get(stream).copied()
    }

    /// Every stream and its version.
    pub fn streams(&self) -> BTreeMap<String, u64> {
        self.read().streams.clone()
    }

    /// How many streams the read models know (each with its version), and how many of them
    /// hold a folded state (a ruleset's streams: battles and campaigns). `/metrics` reports both:
    /// they grow with the log's streams, not with traffic.
    pub fn sizes(&self) -> (usize, usize) {
        let inner = self.read();
        (inner.streams.len(), inner.entries.len())
    }

    /// Positions of events whose payload could not be decoded (reported by `/readyz`).
    pub fn undecodable(&self) -> Vec<u64> {
        self.read().undecodable.clone()
    }

    /// Whether two catalogs hold the same read models (used to prove rebuilds are exact).
    pub fn same_as(&self, other: &Catalog) -> bool {
        let (ours, theirs) = (self.read(), other.read());
        ours.checkpoint == theirs.checkpoint
            && ours.streams == theirs.streams
            && ours.undecodable == theirs.undecodable
            && ours.entries.len() == theirs.entries.len()
            && ours.entries.iter().zip(theirs.entries.iter()).all(|((a, x), (b, y))| a == b && x.same_as(y))
    }

    pub(crate) fn write(&self) -> std::sync::RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Inner {
    fn fold(&mut self, event: &EventRef<'_>) {
        self.checkpoint = Some(event.position);
        match self.streams.get_mut(event.stream) {
            Some(version) => *version = event.version,
            None => {
                self.streams.insert(event.stream.to_string(), event.version);
            }
        }
        let Some(kind) = StreamKind::of(event.stream) else { return };
        let ruleset = match registry::by_rules(event.rules) {
            Some(ruleset) if ruleset.kind() == kind => ruleset,
            _ => return self.report(event, "an event of no registered ruleset of its stream's kind"),
        };
        if !self.entries.contains_key(event.stream) {
            let fresh = Entry {
                ruleset,
                state: ruleset.new_state(),
                version: 0,
                created_at: Some(event.recorded_at),
                last_event_at: None,
            };
            self.entries.insert(event.stream.to_string(), fresh);
        }
        let Some(entry) = self.entries.get_mut(event.stream) else { return };
        if entry.ruleset.rules() != ruleset.rules() {
            return self.report(event, "an event of another ruleset than its stream's");
        }
        if Arc::get_mut(&mut entry.state).is_none() {
            entry.state = entry.state.clone_arc();
        }
        let folded = match Arc::get_mut(&mut entry.state) {
            Some(state) => ruleset.evolve(state, event.event_type, event.schema, event.data),
            None => Err("the state is shared".into()),
        };
        match folded {
            Ok(()) => {
                entry.version = event.version;
                entry.last_event_at = Some(event.recorded_at);
                if event.version == 0 {
                    entry.created_at = Some(event.recorded_at);
                }
            }
            Err(error) => {
                // A stream whose first event does not decode holds nothing yet.
                if entry.version == 0 && event.version == 0 {
                    self.entries.remove(event.stream);
                }
                self.report(event, &error)
            }
        }
    }

    /// Report an event that cannot be folded: it means a damaged log or a payload this build
    /// cannot read. `/readyz` lists its position.
    fn report(&mut self, event: &EventRef<'_>, error: &str) {
        tracing::error!(
            position = event.position,
            stream = %event.stream,
            rules = %event.rules,
            error,
            "event not folded into the read models"
        );
        self.undecodable.push(event.position);
    }
}
