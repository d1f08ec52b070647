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
    pub data: serde_json::Value,
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
    pub data: serde_json::Value,
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
    /// The command, stored with the events it produced so a decision can be run again.
    pub command: Option<serde_json::Value>,
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
    /// The command payload as the application recorded it.
    pub command: Option<serde_json::Value>,
    /// Versions of the events it produced, first and last.
    pub first_version: u64,
    /// Last version it produced.
    pub last_version: u64,
    /// Position in `$all` of its first event.
    pub first_position: u64,
}
