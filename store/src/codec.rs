//! The on-disk encoding of events and commands, and the layout of the sled trees.
//!
//! # Tree layout
//!
//! All trees live in one sled database, so one `db.flush()` makes a whole group commit durable
//! and one multi-tree transaction makes it atomic.
//!
//! | tree | key | value |
//! |------|-----|-------|
//! | [`EVENTS_TREE`] `events` | position in `$all`, `u64` big-endian | [`encode_event`] bytes |
//! | [`STREAMS_TREE`] `streams` | stream name, `0x00`, version `u64` big-endian ([`stream_key`]) | position, `u64` big-endian |
//! | [`HEADS_TREE`] `heads` | stream name | last version, `u64` big-endian |
//! | [`COMMANDS_TREE`] `commands` | command id | [`encode_command`] bytes (JSON [`StoredCommand`]) |
//! | [`SECRETS_TREE`] `secrets` | key | the secret, raw |
//!
//! Big-endian keys make sled's byte order the numeric order, so range scans read in version and
//! position order. Event bytes are stored once, in `events`; `streams` only points at them.
//! Stream names never contain `0x00`, so `name + 0x00` is an unambiguous prefix.
//!
//! # Event envelope
//!
//! A compact binary envelope around the JSON payload, because decoding the fixed fields from
//! JSON (UUID and timestamp parsing) dominated replay time. Format 1, in order:
//!
//! ```text
//! u8  format (1)
//! 16  id (UUID bytes)
//! u64 version, u64 position                  (big-endian)
//! u32 schema
//! i64 recorded_at seconds, u32 nanoseconds    (UTC)
//! str stream, str event_type, str actor       (u32 length + UTF-8)
//! opt command_id, opt correlation_id, opt causation_id   (u8 0 = none, 1 = str follows)
//! str rules
//! ... data: the rest of the bytes, JSON
//! ```
//!
//! To tamper with an event (tests do), read it from `events`, [`decode_event`], change it,
//! [`encode_event`] and insert it back under the same key.

use chrono::{DateTime, Utc};

use crate::{EventRef, RecordedEvent, StoreError, StoredCommand};

/// Tree of events by `$all` position.
pub const EVENTS_TREE: &str = "events";
/// Tree of stream index entries, `stream 0x00 version` to position.
pub const STREAMS_TREE: &str = "streams";
/// Tree of stream heads, stream to last version.
pub const HEADS_TREE: &str = "heads";
/// Tree of stored commands, command id to [`StoredCommand`].
pub const COMMANDS_TREE: &str = "commands";
/// Tree of secrets, kept apart so no event read can reach them.
pub const SECRETS_TREE: &str = "secrets";

/// The envelope format this build writes.
const FORMAT: u8 = 1;

/// The key of an `events` entry: the position, big-endian.
pub fn position_key(position: u64) -> [u8; 8] {
    position.to_be_bytes()
}

/// The key of a `streams` entry: the stream name, `0x00`, the version big-endian.
pub fn stream_key(stream: &str, version: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(stream.len() + 9);
    key.extend_from_slice(stream.as_bytes());
    key.push(0);
    key.extend_from_slice(&version.to_be_bytes());
    key
}

/// A big-endian `u64` value or key, as stored in `events` keys, `streams` and `heads` values.
pub fn decode_u64(bytes: &[u8]) -> Result<u64, StoreError> {
    let array: [u8; 8] =
        bytes.try_into().map_err(|_| corrupt(format!("expected 8 bytes for a u64, found {}", bytes.len())))?;
    Ok(u64::from_be_bytes(array))
}

/// Encode an event for the `events` tree.
pub fn encode_event(event: &RecordedEvent) -> Vec<u8> {
    let data = event.data.get().as_bytes();
    let text_len = event.stream.len() + event.event_type.len() + event.actor.len() + event.rules.len();
    let mut out = Vec::with_capacity(64 + text_len + data.len());
    out.push(FORMAT);
    out.extend_from_slice(event.id.as_bytes());
    out.extend_from_slice(&event.version.to_be_bytes());
    out.extend_from_slice(&event.position.to_be_bytes());
    out.extend_from_slice(&event.schema.to_be_bytes());
    out.extend_from_slice(&event.recorded_at.timestamp().to_be_bytes());
    out.extend_from_slice(&event.recorded_at.timestamp_subsec_nanos().to_be_bytes());
    put_str(&mut out, &event.stream);
    put_str(&mut out, &event.event_type);
    put_str(&mut out, &event.actor);
    put_opt(&mut out, event.command_id.as_deref());
    put_opt(&mut out, event.correlation_id.as_deref());
    put_opt(&mut out, event.causation_id.as_deref());
    put_str(&mut out, &event.rules);
    out.extend_from_slice(data);
    out
}

/// Decode an event from the `events` tree; damaged bytes give [`StoreError::Backend`].
pub fn decode_event(bytes: &[u8]) -> Result<RecordedEvent, StoreError> {
    decode_event_ref(bytes)?.to_owned().map_err(|e| corrupt(format!("event data: {e}")))
}

/// Decode an event borrowing its strings and payload from `bytes` (no allocation): what replays
/// use. The payload's JSON is not checked here; whoever parses it finds out.
pub fn decode_event_ref(bytes: &[u8]) -> Result<EventRef<'_>, StoreError> {
    let mut r = Reader { bytes, at: 0 };
    let format = r.take(1)?[0];
    if format != FORMAT {
        return Err(corrupt(format!("unknown event format {format}")));
    }
    let id = uuid::Uuid::from_bytes(r.array()?);
    let version = u64::from_be_bytes(r.array()?);
    let position = u64::from_be_bytes(r.array()?);
    let schema = u32::from_be_bytes(r.array()?);
    let seconds = i64::from_be_bytes(r.array()?);
    let nanos = u32::from_be_bytes(r.array()?);
    let recorded_at: DateTime<Utc> = DateTime::from_timestamp(seconds, nanos)
        .ok_or_else(|| corrupt(format!("timestamp {seconds}.{nanos} out of range")))?;
    let stream = r.str()?;
    let event_type = r.str()?;
    let actor = r.str()?;
    let command_id = r.opt_str()?;
    let correlation_id = r.opt_str()?;
    let causation_id = r.opt_str()?;
    let rules = r.str()?;
    let data = std::str::from_utf8(r.rest()).map_err(|e| corrupt(format!("event data is not UTF-8: {e}")))?;
    Ok(EventRef {
        id,
        stream,
        version,
        position,
        event_type,
        schema,
        recorded_at,
        actor,
        command_id,
        correlation_id,
        causation_id,
        rules,
        data,
    })
}

/// Encode a stored command for the `commands` tree (JSON: rare, small, and easy to inspect).
pub fn encode_command(command: &StoredCommand) -> Vec<u8> {
    // Strings, integers and a serde_json::Value: serialising cannot fail.
    serde_json::to_vec(command).unwrap_or_default()
}

/// Decode a stored command; damaged bytes give [`StoreError::Backend`].
pub fn decode_command(bytes: &[u8]) -> Result<StoredCommand, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| corrupt(format!("stored command: {e}")))
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    // Strings over 4 GiB are not events; saturating keeps encoding total, decoding then fails.
    let len = u32::try_from(s.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put_opt(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => out.push(0),
        Some(s) => {
            out.push(1);
            put_str(out, s);
        }
    }
}

fn corrupt(message: String) -> StoreError {
    StoreError::Backend(format!("corrupt record: {message}"))
}

/// A bounds-checked cursor: every read of stored bytes goes through it, so nothing can panic.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StoreError> {
        let end =
            self.at.checked_add(n).filter(|end| *end <= self.bytes.len()).ok_or_else(|| {
                corrupt(format!("truncated: wanted {n} bytes at {} of {}", self.at, self.bytes.len()))
            })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], StoreError> {
        let slice = self.take(N)?;
        slice.try_into().map_err(|_| corrupt("short field".into()))
    }

    fn str(&mut self) -> Result<&'a str, StoreError> {
        let len = u32::from_be_bytes(self.array()?) as usize;
        let bytes = self.take(len)?;
        std::str::from_utf8(bytes).map_err(|e| corrupt(format!("string is not UTF-8: {e}")))
    }

    fn opt_str(&mut self) -> Result<Option<&'a str>, StoreError> {
        match self.take(1)?[0] {
            0 => Ok(None),
            1 => self.str().map(Some),
            tag => Err(corrupt(format!("bad option tag {tag}"))),
        }
    }

    fn rest(&mut self) -> &'a [u8] {
        let rest = &self.bytes[self.at.min(self.bytes.len())..];
        self.at = self.bytes.len();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event() -> RecordedEvent {
        RecordedEvent {
            id: uuid::Uuid::now_v7(),
            stream: "battle-1".into(),
            version: 7,
            position: 42,
            event_type: "coalition.UnitMoved".into(),
            schema: 3,
            recorded_at: DateTime::from_timestamp(1_700_000_000, 123_456_789).expect("valid timestamp"),
            actor: "gm".into(),
            command_id: Some("cmd-1".into()),
            correlation_id: None,
            causation_id: Some("cause".into()),
            rules: "coalition@1".into(),
            data: serde_json::json!({"unit": "a", "to": [1, 2], "nested": {"z": 1, "a": null}}).into(),
        }
    }

    #[test]
    fn an_encoded_event_decodes_to_the_same_event() {
        let event = event();
        assert_eq!(decode_event(&encode_event(&event)).expect("decodes"), event);
    }

    #[test]
    fn every_truncation_of_an_event_is_a_backend_error_not_a_panic() {
        let bytes = encode_event(&event());
        for len in 0..bytes.len() {
            match decode_event(&bytes[..len]) {
                Err(StoreError::Backend(_)) => {}
                other => panic!("truncated to {len}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_payload_that_is_not_json_is_a_backend_error_when_owned() {
        let mut bytes = encode_event(&event());
        bytes.truncate(bytes.len() - 1);
        assert!(decode_event_ref(&bytes).is_ok(), "a borrowed read does not parse the payload");
        assert!(matches!(decode_event(&bytes), Err(StoreError::Backend(_))));
    }

    #[test]
    fn garbage_bytes_are_a_backend_error() {
        let mut bytes = encode_event(&event());
        bytes[0] = 9;
        assert!(matches!(decode_event(&bytes), Err(StoreError::Backend(_))));
        assert!(matches!(decode_event(&[1, 0xff, 0xff]), Err(StoreError::Backend(_))));
        assert!(matches!(decode_u64(&[1, 2, 3]), Err(StoreError::Backend(_))));
        assert!(matches!(decode_command(b"{"), Err(StoreError::Backend(_))));
    }
}
