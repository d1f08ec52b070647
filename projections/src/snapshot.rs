//! The read models as saved, so a restart folds only what was appended since (issue 13: restart
//! in ≤ 2 s on a million events).
//!
//! A snapshot holds the catalog's checkpoint, every stream's version and every folded state as
//! its ruleset's own JSON. Taking one is checked: every state is read back and compared with the
//! live one before the snapshot is handed out, so a state whose JSON does not round-trip is never
//! saved. Whether a snapshot still fits the log and the build is for its keeper to say (the
//! server checks the event at the checkpoint and its own executable: `api/src/snapshots.rs`).

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use herald_domain::registry;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::catalog::{Catalog, Entry, Inner};

/// One stream's folded state, saved.
#[derive(Debug, Serialize, Deserialize)]
pub struct SavedEntry {
    /// The stream.
    pub stream: String,
    /// The rules that fold it (`coalition-battle@2`).
    pub rules: String,
    /// The version folded to.
    pub version: u64,
    /// The ruleset's state as JSON.
    pub state: Box<RawValue>,
    /// When its first event was recorded (absent in snapshots written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<chrono::DateTime<chrono::Utc>>,
    /// When its last folded event was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_event_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The read models, saved.
#[derive(Debug, Serialize, Deserialize)]
pub struct Snapshot {
    /// The position of the last event folded.
    pub checkpoint: Option<u64>,
    /// Every stream and its version.
    pub streams: BTreeMap<String, u64>,
    /// Positions of events that could not be decoded.
    pub undecodable: Vec<u64>,
    /// Every folded state.
    pub entries: Vec<SavedEntry>,
}

/// Why a snapshot cannot be taken or restored.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// A state's JSON does not read back as the same state (a snapshot would be wrong).
    #[error("the state of {stream} does not survive being saved: {why}")]
    NotRoundTrip {
        /// The stream.
        stream: String,
        /// What went wrong.
        why: String,
    },
    /// A saved stream's rules are not registered in this build.
    #[error("{stream} is folded by {rules}, which this build does not know")]
    UnknownRules {
        /// The stream.
        stream: String,
        /// Its rules.
        rules: String,
    },
    /// A saved state does not load.
    #[error("the saved state of {stream} does not load: {why}")]
    Undecodable {
        /// The stream.
        stream: String,
        /// What went wrong.
        why: String,
    },
    /// Restoring needs an empty catalog.
    #[error("the read models already hold events; a snapshot restores only an empty catalog")]
    NotEmpty,
}

impl Catalog {
    /// Save the read models as they stand. The lock is held only to copy the map (the states are
    /// shared, not copied); serialising and the read-back check run outside it.
    pub fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        let (checkpoint, streams, undecodable, entries) = {
            let inner = self.read();
            (inner.checkpoint, inner.streams.clone(), inner.undecodable.clone(), inner.entries.clone())
        };
        let mut saved = Vec::with_capacity(entries.len());
        for (stream, entry) in entries {
            let not_round_trip = |why: String| SnapshotError::NotRoundTrip { stream: stream.clone(), why };
            let json = entry.ruleset.save_state(entry.state.as_ref()).map_err(&not_round_trip)?;
            let back = entry.ruleset.load_state(&json).map_err(&not_round_trip)?;
            if !back.same_as(entry.state.as_ref()) {
                return Err(not_round_trip("it reads back as another state".into()));
            }
            let state = RawValue::from_string(json).map_err(|error| not_round_trip(error.to_string()))?;
            saved.push(SavedEntry {
                rules: entry.ruleset.rules().to_string(),
                version: entry.version,
                state,
                stream,
                created_at: entry.created_at,
                last_event_at: entry.last_event_at,
            });
        }
        Ok(Snapshot { checkpoint, streams, undecodable, entries: saved })
    }

    /// Put a snapshot into an empty catalog; catching up then folds from its checkpoint on.
    pub fn restore(&self, snapshot: Snapshot) -> Result<(), SnapshotError> {
        let mut entries = BTreeMap::new();
        for saved in snapshot.entries {
            let Some(ruleset) = registry::by_rules(&saved.rules) else {
                return Err(SnapshotError::UnknownRules { stream: saved.stream, rules: saved.rules });
            };
            let state = ruleset
                .load_state(saved.state.get())
                .map_err(|why| SnapshotError::Undecodable { stream: saved.stream.clone(), why })?;
            entries.insert(
                saved.stream,
                Entry {
                    ruleset,
                    state: Arc::clone(&state),
                    version: saved.version,
                    created_at: saved.created_at,
                    last_event_at: saved.last_event_at,
                },
            );
        }
        let mut inner = self.write();
        if inner.checkpoint.is_some() || !inner.entries.is_empty() {
            return Err(SnapshotError::NotEmpty);
        }
        *inner = Inner {
            checkpoint: snapshot.checkpoint,
            entries,
            streams: snapshot.streams,
            undecodable: snapshot.undecodable,
        };
        self.folded.store(snapshot.checkpoint.map_or(0, |position| position + 1), Ordering::Release);
        Ok(())
    }
}
