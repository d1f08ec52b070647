//! The application service: how a command becomes events.
//!
//! Load the stream, fold it, position the dice tape where the stream's last draw ended, decide,
//! append with the expected version (retrying on a concurrent append when the client did not
//! pin a version with `If-Match`), store the command with its events, catch the projections up,
//! and apply the service's own policies (reveal the seed when a battle ends).

pub mod campaign;
pub mod verify;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use herald_domain::{
    dice::{seed, DiceTape},
    Actor, Context, Decider, EventType,
};
use herald_projections::Catalog;
use herald_store::{AppendRequest, Direction, EventStore, ExpectedVersion, NewEvent, RecordedEvent, StoreError};
use serde::{Deserialize, Serialize};

use crate::problem::ApiError;

/// How many times a command is decided again when another append moved the stream on.
const CONFLICT_RETRIES: usize = 5;

/// Who, when and under which keys a command runs.
#[derive(Debug, Clone)]
pub struct CommandMeta {
    /// The acting principal.
    pub actor: Actor,
    /// When the request was received (taken once, stored with the command).
    pub recorded_at: DateTime<Utc>,
    /// The client's `Idempotency-Key`, if any.
    pub idempotency_key: Option<String>,
    /// The request id, stored as the events' correlation id.
    pub correlation_id: Option<String>,
    /// The client's `If-Match` version, if any.
    pub expected_version: Option<u64>,
}

/// The command as stored with its events, so verification can run it again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CommandRecord {
    /// The ruleset that decided it.
    pub rules: String,
    /// Who acted.
    pub actor: Actor,
    /// When it was received.
    pub recorded_at: DateTime<Utc>,
    /// The command itself.
    pub command: serde_json::Value,
}

/// What a command appended.
#[derive(Debug, Clone)]
pub struct CommandOutcome {
    /// The stream.
    pub stream: String,
    /// The stream's version after the append.
    pub version: u64,
    /// The events appended (or, for a repeated idempotency key, appended the first time).
    pub events: Vec<RecordedEvent>,
    /// Whether this repeats an earlier request with the same idempotency key.
    pub replayed: bool,
}

/// Lock stripes that serialize decisions on one stream within this process.
const STREAM_LOCKS: usize = 64;

/// The application service, shared by every handler.
pub struct Service {
    store: Arc<dyn EventStore>,
    catalog: Arc<Catalog>,
    /// Writers to the same stream take turns here, so they decide on each other's results
    /// instead of racing to a conflict; the expected version still guards across processes.
    stream_locks: Vec<std::sync::Mutex<()>>,
}

fn seed_key(stream: &str) -> String {
    format!("seed:{stream}")
}

impl Service {
    /// A service over `store`, keeping `catalog` caught up.
    pub fn new(store: Arc<dyn EventStore>, catalog: Arc<Catalog>) -> Self {
        Self { store, catalog, stream_locks: (0..STREAM_LOCKS).map(|_| std::sync::Mutex::new(())).collect() }
    }

    /// The store.
    pub fn store(&self) -> &dyn EventStore {
        self.store.as_ref()
    }

    /// The read models.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Seal a server seed for `stream` (supplied, or fresh OS randomness); returns its commitment.
    pub fn seal_seed(&self, stream: &str, supplied: Option<[u8; 32]>) -> Result<[u8; 32], ApiError> {
        let server_seed = match supplied {
            Some(seed) => seed,
            None => {
                use rand_core::{OsRng, TryRngCore};
                let mut seed = [0u8; 32];
                OsRng
                    .try_fill_bytes(&mut seed)
                    .map_err(|e| ApiError::internal(anyhow::anyhow!("OS randomness: {e}")))?;
                seed
            }
        };
        self.store.put_secret(&seed_key(stream), &server_seed)?;
        Ok(seed::commitment(&server_seed))
    }

    /// The sealed server seed of `stream`.
    pub fn sealed_seed(&self, stream: &str) -> Result<Option<[u8; 32]>, ApiError> {
        Ok(self.store.get_secret(&seed_key(stream))?.and_then(|bytes| bytes.try_into().ok()))
    }

    /// Fold `stream` up to and including `at` (or to its end), streaming: no page of events is
    /// kept in memory (docs/PERFORMANCE.md (d)).
    pub fn load<D: Decider>(&self, stream: &str, at: Option<u64>) -> Result<Option<(D::State, u64)>, ApiError> {
        use std::ops::ControlFlow;
        let mut state = D::State::default();
        let mut last = None;
        let mut failure = None;
        self.store.replay_stream(stream, 0, &mut |event| {
            if at.is_some_and(|at| event.version > at) {
                return ControlFlow::Break(());
            }
            let (version, position) = (event.version, event.position);
            match serde_json::from_value::<D::Event>(event.data) {
                Ok(decoded) => {
                    D::evolve(&mut state, &decoded);
                    last = Some(version);
                    ControlFlow::Continue(())
                }
                Err(error) => {
                    failure =
                        Some(format!("event {version} of {stream} (position {position}) does not decode: {error}"));
                    ControlFlow::Break(())
                }
            }
        })?;
        if let Some(failure) = failure {
            return Err(ApiError::internal(anyhow::anyhow!(failure)));
        }
        Ok(last.map(|version| (state, version)))
    }

    /// Run `command` against `stream`. Blocking: call from a blocking thread.
    pub fn execute<D: Decider>(
        &self,
        stream: &str,
        command: D::Command,
        meta: CommandMeta,
    ) -> Result<CommandOutcome, ApiError> {
        let command_id = match &meta.idempotency_key {
            Some(key) => format!("idem:{}:{key}", meta.actor.id),
            None => uuid::Uuid::now_v7().to_string(),
        };
        let outcome = {
            // Released before the policies run: they execute commands on the same stream.
            let _turn = self.stream_lock(stream);
            self.check_same_request(&command_id, &command)?;
            if let Some(outcome) = self.replay_of(stream, &command_id)? {
                return Ok(outcome);
            }
            let mut attempt = 0;
            loop {
                attempt += 1;
                match self.decide_and_append::<D>(stream, &command, &meta, &command_id) {
                    Err(ApiError::Conflict(_)) if meta.expected_version.is_none() && attempt < CONFLICT_RETRIES => {
                        continue
                    }
                    other => break other?,
                }
            }
        };
        self.catalog.catch_up(self.store.as_ref())?;
        let mut outcome = outcome;
        if !outcome.replayed {
            // What the service appends on its own in consequence (the seed reveal when a battle
            // ends) is part of this request's answer, so the caller's version stays current.
            if let Some(follow_up) = self.apply_policies::<D>(stream, &meta, &command_id)? {
                outcome.version = follow_up.version;
                outcome.events.extend(follow_up.events);
            }
        }
        Ok(outcome)
    }

    /// The outcome of an earlier `create_battle` by `actor` under `idempotency_key`, if any: a
    /// retried creation must answer with the battle it opened, not seal a seed for a new one.
    pub fn replayed_creation(&self, actor: &Actor, idempotency_key: &str) -> Result<Option<CommandOutcome>, ApiError> {
        let command_id = format!("idem:{}:{idempotency_key}", actor.id);
        let Some(stored) = self.store.stored_command(&command_id)? else { return Ok(None) };
        let created = stored.first_version == 0
            && stored.command.as_ref().and_then(|record| record.pointer("/command/type")).and_then(|t| t.as_str())
                == Some("create_battle");
        if !created {
            return Err(ApiError::Conflict(format!(
                "this Idempotency-Key was already used for a request to {}",
                stored.stream
            )));
        }
        self.replay_of(&stored.stream, &command_id)
    }

    fn stream_lock(&self, stream: &str) -> std::sync::MutexGuard<'_, ()> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        stream.hash(&mut hasher);
        let stripe = usize::try_from(hasher.finish() % STREAM_LOCKS as u64).unwrap_or(0);
        self.stream_locks[stripe].lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A retry must repeat its request: an `Idempotency-Key` already used for a different command
    /// is refused (409), so a client never takes the answer to one action for another.
    fn check_same_request<C: Serialize>(&self, command_id: &str, command: &C) -> Result<(), ApiError> {
        let Some(stored) = self.store.stored_command(command_id)? else { return Ok(()) };
        let requested = serde_json::to_value(command).map_err(ApiError::internal)?;
        match stored.command.as_ref().and_then(|record| record.get("command")) {
            Some(earlier) if *earlier != requested => Err(ApiError::Conflict(
                "this Idempotency-Key was already used for a different request; use a new key for a new action".into(),
            )),
            _ => Ok(()),
        }
    }

    fn replay_of(&self, stream: &str, command_id: &str) -> Result<Option<CommandOutcome>, ApiError> {
        let Some(stored) = self.store.stored_command(command_id)? else { return Ok(None) };
        if stored.stream != stream {
            return Err(ApiError::Conflict(format!(
                "this Idempotency-Key was already used for a request to {}",
                stored.stream
            )));
        }
        let count = usize::try_from(stored.last_version - stored.first_version + 1).unwrap_or(usize::MAX);
        let events = self.store.read_stream(stream, stored.first_version, Direction::Forwards, count)?;
        let mut outcome =
            CommandOutcome { stream: stream.to_string(), version: stored.last_version, events, replayed: true };
        // The first answer included what the service appended in consequence (the seed reveal,
        // see `apply_policies`); a replay answers the same.
        let follow_up = format!("idem:{}:{}", Actor::system().id, policy_key(command_id));
        if let Some(policy) = self.replay_of(stream, &follow_up)? {
            outcome.version = policy.version;
            outcome.events.extend(policy.events);
        }
        Ok(Some(outcome))
    }

    fn decide_and_append<D: Decider>(
        &self,
        stream: &str,
        command: &D::Command,
        meta: &CommandMeta,
        command_id: &str,
    ) -> Result<CommandOutcome, ApiError> {
        let (state, version) = match self.load::<D>(stream, None)? {
            Some((state, version)) => (state, Some(version)),
            None => (D::State::default(), None),
        };
        if let Some(expected) = meta.expected_version {
            if version != Some(expected) {
                return Err(ApiError::PreconditionFailed(format!(
                    "If-Match expected version {expected}, but {stream} is at {}",
                    version.map_or("no version (it does not exist)".to_string(), |v| v.to_string())
                )));
            }
        }
        let dice = self.tape::<D>(stream, &state)?;
        let mut context =
            Context { stream: stream.to_string(), actor: meta.actor.clone(), recorded_at: meta.recorded_at, dice };
        let events = D::decide(&state, command, &mut context)?;
        if events.is_empty() {
            return Ok(CommandOutcome {
                stream: stream.into(),
                version: version.unwrap_or(0),
                events: vec![],
                replayed: false,
            });
        }
        let record = CommandRecord {
            rules: D::RULES.to_string(),
            actor: meta.actor.clone(),
            recorded_at: meta.recorded_at,
            command: serde_json::to_value(command).map_err(ApiError::internal)?,
        };
        let new_events = events
            .iter()
            .map(|event| {
                Ok(NewEvent {
                    id: uuid::Uuid::now_v7(),
                    event_type: event.event_type().to_string(),
                    schema: 1,
                    recorded_at: meta.recorded_at,
                    actor: meta.actor.id.clone(),
                    command_id: Some(command_id.to_string()),
                    correlation_id: meta.correlation_id.clone(),
                    causation_id: Some(command_id.to_string()),
                    rules: D::RULES.to_string(),
                    data: serde_json::to_value(event).map_err(ApiError::internal)?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let request = AppendRequest {
            stream: stream.to_string(),
            expected: version.map_or(ExpectedVersion::NoStream, ExpectedVersion::Exact),
            events: new_events,
            command_id: Some(command_id.to_string()),
            command: Some(serde_json::to_value(&record).map_err(ApiError::internal)?),
        };
        let result = self.store.append(request)?;
        Ok(CommandOutcome {
            stream: stream.to_string(),
            version: result.stream_version,
            events: result.events,
            replayed: result.replayed,
        })
    }

    /// The dice tape of `state`: the sealed seed, checked against the commitment, mixed with
    /// the stream name and the contributions, positioned at the next word.
    fn tape<D: Decider>(&self, stream: &str, state: &D::State) -> Result<DiceTape, ApiError> {
        let Some(cursor) = D::dice(state) else { return Ok(DiceTape::unavailable()) };
        let server_seed = self
            .sealed_seed(stream)?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sealed seed of {stream} is missing")))?;
        if seed::commitment(&server_seed) != cursor.commitment {
            return Err(ApiError::internal(anyhow::anyhow!(
                "the sealed seed of {stream} does not match its commitment"
            )));
        }
        Ok(DiceTape::new(seed::effective_seed(&server_seed, stream, &cursor.contributions), cursor.next_word))
    }

    /// Rules the service applies on its own after an append: a battle that ended has its seed
    /// revealed (DESIGN.md "Dice that anyone can check").
    fn apply_policies<D: Decider>(
        &self,
        stream: &str,
        meta: &CommandMeta,
        command_id: &str,
    ) -> Result<Option<CommandOutcome>, ApiError> {
        let Some((state, _)) = self.load::<D>(stream, None)? else { return Ok(None) };
        let due = D::dice(&state).is_some_and(|cursor| cursor.reveal_due);
        let Some(server_seed) = due.then(|| self.sealed_seed(stream)).transpose()?.flatten() else { return Ok(None) };
        let Some(reveal) = D::reveal_seed(hex::encode(server_seed)) else { return Ok(None) };
        let policy = CommandMeta {
            actor: Actor::system(),
            idempotency_key: Some(policy_key(command_id)),
            expected_version: None,
            ..meta.clone()
        };
        self.execute::<D>(stream, reveal, policy).map(Some)
    }
}

/// The idempotency key of what the service appends in consequence of command `command_id`.
fn policy_key(command_id: &str) -> String {
    format!("reveal-after:{command_id}")
}

/// Read a whole stream, or its events up to version `at`.
pub fn read_stream_to(store: &dyn EventStore, stream: &str, at: Option<u64>) -> Result<Vec<RecordedEvent>, StoreError> {
    let mut events = Vec::new();
    loop {
        let from = events.last().map_or(0, |event: &RecordedEvent| event.version + 1);
        if at.is_some_and(|at| from > at) {
            break;
        }
        let page = store.read_stream(stream, from, Direction::Forwards, 1024)?;
        let done = page.len() < 1024;
        events.extend(page.into_iter().filter(|event| at.is_none_or(|at| event.version <= at)));
        if done {
            break;
        }
    }
    Ok(events)
}

/// Decode stored payloads into a ruleset's events.
pub fn decode_events<D: Decider>(events: &[RecordedEvent]) -> Result<Vec<D::Event>, ApiError> {
    events
        .iter()
        .map(|event| {
            serde_json::from_value(event.data.clone()).map_err(|error| {
                ApiError::internal(anyhow::anyhow!(
                    "event {} of {} (position {}) does not decode: {error}",
                    event.version,
                    event.stream,
                    event.position
                ))
            })
        })
        .collect()
}
