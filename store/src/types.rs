//! Envelopes, expected versions and append results.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The version a stream must be at for an append to go through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedVersion {
    /// Append whatever the stream's state.
    Any,
    /// The stream must not exist yet.
    NoStream,
    /// The stream must exist (have at least one event).
    StreamExists,
    /// The stream's last event must have exactly this version.
    Exact(u64),
}

impl std::fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Any => f.write_str("any"),
            Self::NoStream => f.write_str("no stream"),
            Self::StreamExists => f.write_str("stream exists"),
            Self::Exact(version) => write!(f, "{version}"),
        }
    }
}

/// Direction of a stream read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Increasing versions.
    Forwards,
    /// Decreasing versions.
    Backwards,
}

/// An event's payload: its JSON text as written, parsed only by whoever reads it.
///
/// The store never needs the payload's structure, and the readers that do (a ruleset folding
/// its events) decode it straight into their own types; parsing every payload into a
/// `serde_json::Value` first cost more than the rest of a replay (docs/PERFORMANCE.md (d)).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Payload(Box<serde_json::value::RawValue>);

impl Payload {
    /// The payload of `value`.
    pub fn from_value(value: &serde_json::Value) -> Self {
        // A Value always serialises, and what it writes is JSON: not parsed again to check it
        // (as `from_json` does), which cost a command's append as much as writing it.
        serde_json::value::to_raw_value(value).map(Self).unwrap_or_else(|_| Self::null())
    }

    /// The payload of anything serialisable (a command record), written straight as JSON text
    /// without a `serde_json::Value` in between.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(value).map(Self)
    }

    /// A payload from JSON text; refused when the text is not JSON.
    pub fn from_json(text: String) -> Result<Self, serde_json::Error> {
        serde_json::value::RawValue::from_string(text).map(Self)
    }

    /// `null`.
    pub fn null() -> Self {
        Self(Box::default())
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The payload parsed into a `serde_json::Value` (for readers that walk it generically).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(self.get()).unwrap_or(serde_json::Value::Null)
    }

    /// The payload decoded into `T`.
    pub fn decode<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.get())
    }
}

impl Default for Payload {
    fn default() -> Self {
        Self::null()
    }
}

/// Two payloads are equal when they hold the same JSON text.
impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl From<serde_json::Value> for Payload {
    fn from(value: serde_json::Value) -> Self {
        Self::from_value(&value)
    }
}

/// An event to append: everything but the stream, version and position the store assigns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewEvent {
    /// Unique id (UUIDv7).
    pub id: uuid::Uuid,
    /// Type name, `ruleset.EventName`.
    pub event_type: String,
    /// Payload schema version.
    pub schema: u32,
    /// When the command that produced it was received.
    pub recorded_at: DateTime<Utc>,
    /// Who acted.
    pub actor: String,
    /// The command that produced the event.
    pub command_id: Option<String>,
    /// The request or process this event belongs to.
    pub correlation_id: Option<String>,
    /// The event or command that caused it.
    pub causation_id: Option<String>,
    /// Ruleset and rules version that produced it, `coalition@1`.
    pub rules: String,
    /// The payload.
    pub data: Payload,
}

/// An event as stored: the envelope of DESIGN.md "The event log".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedEvent {
    /// Unique id (UUIDv7).
    pub id: uuid::Uuid,
    /// Stream name, `{kind}-{uuid}`.
    pub stream: String,
    /// Version within the stream, from 0.
    pub version: u64,
    /// Position in `$all`, from 0, gap-free.
    pub position: u64,
    /// Type name.
    pub event_type: String,
    /// Payload schema version.
    pub schema: u32,
    /// When the command that produced it was received.
    pub recorded_at: DateTime<Utc>,
    /// Who acted.
    pub actor: String,
    /// The command that produced the event.
    pub command_id: Option<String>,
    /// The request or process this event belongs to.
    pub correlation_id: Option<String>,
    /// The event or command that caused it.
    pub causation_id: Option<String>,
    /// Ruleset and rules version that produced it.
    pub rules: String,
    /// The payload.
    pub data: Payload,
}

impl RecordedEvent {
    /// The event, borrowed.
    pub fn as_ref(&self) -> EventRef<'_> {
        EventRef {
            id: self.id,
            stream: &self.stream,
            version: self.version,
            position: self.position,
            event_type: &self.event_type,
            schema: self.schema,
            recorded_at: self.recorded_at,
            actor: &self.actor,
            command_id: self.command_id.as_deref(),
            correlation_id: self.correlation_id.as_deref(),
            causation_id: self.causation_id.as_deref(),
            rules: &self.rules,
            data: self.data.get(),
        }
    }
}

/// A stored event, borrowed from the store's own buffer: what replays visit, so folding a
/// stream allocates nothing for envelopes it only looks at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventRef<'a> {
    /// Unique id (UUIDv7).
    pub id: uuid::Uuid,
    /// Stream name.
    pub stream: &'a str,
    /// Version within the stream.
    pub version: u64,
    /// Position in `$all`.
    pub position: u64,
    /// Type name.
    pub event_type: &'a str,
    /// Payload schema version.
    pub schema: u32,
    /// When the command that produced it was received.
    pub recorded_at: DateTime<Utc>,
    /// Who acted.
    pub actor: &'a str,
    /// The command that produced the event.
    pub command_id: Option<&'a str>,
    /// The request or process this event belongs to.
    pub correlation_id: Option<&'a str>,
    /// The event or command that caused it.
    pub causation_id: Option<&'a str>,
    /// Ruleset and rules version that produced it.
    pub rules: &'a str,
    /// The payload's JSON text (not checked: it is as the store keeps it).
    pub data: &'a str,
}

impl EventRef<'_> {
    /// An owned copy; fails when the payload is not JSON (a damaged record).
    pub fn to_owned(&self) -> Result<RecordedEvent, serde_json::Error> {
        Ok(RecordedEvent {
            id: self.id,
            stream: self.stream.to_string(),
            version: self.version,
            position: self.position,
            event_type: self.event_type.to_string(),
            schema: self.schema,
            recorded_at: self.recorded_at,
            actor: self.actor.to_string(),
            command_id: self.command_id.map(String::from),
            correlation_id: self.correlation_id.map(String::from),
            causation_id: self.causation_id.map(String::from),
            rules: self.rules.to_string(),
            data: Payload::from_json(self.data.to_string())?,
        })
    }
}

/// One append: events for one stream, with the command that produced them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppendRequest {
    /// Stream to append to.
    pub stream: String,
    /// Version the stream must be at.
    pub expected: ExpectedVersion,
    /// Events, at least one.
    pub events: Vec<NewEvent>,
    /// Idempotency key: a repeat returns the first result and writes nothing.
    pub command_id: Option<String>,
    /// The command, stored with the events it produced so a decision can be run again: its JSON
    /// text, written once by the application and copied as it is (never parsed by the store).
    pub command: Option<Payload>,
}

/// What an append wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppendResult {
    /// The events as stored, with versions and positions.
    pub events: Vec<RecordedEvent>,
    /// The stream's version after the append (the last event's version).
    pub stream_version: u64,
    /// Whether this was a repeat of an earlier append with the same command id.
    #[serde(default)]
    pub replayed: bool,
}

/// A command kept with the events it produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredCommand {
    /// Its id.
    pub command_id: String,
    /// The stream it was appended to.
    pub stream: String,
    /// The command payload as the application recorded it (its JSON text).
    pub command: Option<Payload>,
    /// Versions of the events it produced, first and last.
    pub first_version: u64,
    /// Last version it produced.
    pub last_version: u64,
    /// Position in `$all` of its first event.
    pub first_position: u64,
}

/// What one group commit cost, for metrics: how long making its batch durable took (sled: the
/// flush and the `fsync`; PostgreSQL: the transaction) and how many appends it held.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupCommit {
    /// From the start of the flush (or transaction) until the batch was durable.
    pub duration: std::time::Duration,
    /// Append requests the batch answered.
    pub appends: usize,
}

/// Called by the store's writer after each group commit that wrote something.
pub type CommitObserver = std::sync::Arc<dyn Fn(GroupCommit) + Send + Sync>;

/// Where a store keeps its [`CommitObserver`]: set once, read by the writer after each commit.
#[derive(Clone, Default)]
pub struct CommitObservers(std::sync::Arc<std::sync::OnceLock<CommitObserver>>);

impl CommitObservers {
    /// Install `observer`; a second call changes nothing and answers `false`.
    pub fn set(&self, observer: CommitObserver) -> bool {
        self.0.set(observer).is_ok()
    }

    /// Report `commit` to the observer, if any.
    pub fn report(&self, commit: GroupCommit) {
        if let Some(observer) = self.0.get() {
            observer(commit);
        }
    }
}

impl std::fmt::Debug for CommitObservers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommitObservers").field("set", &self.0.get().is_some()).finish()
    }
}
