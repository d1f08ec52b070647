//! Stream reads: through the `streams` index into `events`, never past the durable head.

use std::ops::ControlFlow;

use super::{backend, SledStore};
use crate::codec::{decode_event, decode_event_ref, decode_u64, position_key, stream_key};
use crate::{Direction, EventRef, RecordedEvent, StoreError};

impl SledStore {
    /// [`EventStore::read_stream`]: the index gives positions, runs of them are range-scanned.
    pub(super) fn scan_stream(
        &self,
        stream: &str,
        from: u64,
        direction: Direction,
        limit: usize,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        if limit == 0 || stream.contains('\0') {
            return Ok(Vec::new());
        }
        let positions = self.stream_positions(stream, from, direction, limit)?;
        let instance = self.shared.instance()?;
        let mut out = Vec::with_capacity(positions.len());
        // Events of one append sit at consecutive positions: read each run with one range scan
        // instead of a point lookup per event (replay spends most of its time here).
        for run in positions.chunk_by(|a, b| a.abs_diff(*b) == 1) {
            let (Some(&first), Some(&last)) = (run.first(), run.last()) else { continue };
            let range = instance.trees.events.range(position_key(first.min(last))..=position_key(first.max(last)));
            let before = out.len();
            if direction == Direction::Forwards {
                decode_run(range, &mut out)?;
            } else {
                decode_run(range.rev(), &mut out)?;
            }
            if out.len() - before != run.len() {
                return Err(StoreError::Backend(format!("index points at missing events {first}..={last}")));
            }
        }
        Ok(out)
    }

    /// [`EventStore::replay_stream`]: the index and the events scanned in step, nothing kept.
    pub(super) fn replay(
        &self,
        stream: &str,
        from: u64,
        visit: &mut dyn FnMut(EventRef<'_>) -> ControlFlow<()>,
    ) -> Result<u64, StoreError> {
        if stream.contains('\0') {
            return Ok(0);
        }
        let end = self.shared.visible_end();
        // One events scan per run of consecutive positions, advanced in step with the index.
        let instance = self.shared.instance()?;
        let mut cursor: Option<(sled::Iter, u64)> = None;
        let mut count = 0;
        for entry in instance.trees.streams.range(stream_key(stream, from)..=stream_key(stream, u64::MAX)) {
            let position = decode_u64(&entry.map_err(backend)?.1)?;
            if position >= end {
                break; // Versions follow positions: everything after this is newer still.
            }
            let mut events = match cursor.take() {
                Some((events, next)) if next == position => events,
                _ => instance.trees.events.range(position_key(position)..position_key(end)),
            };
            let (key, bytes) = events
                .next()
                .ok_or_else(|| StoreError::Backend(format!("index points at missing event {position}")))?
                .map_err(backend)?;
            if decode_u64(&key)? != position {
                return Err(StoreError::Backend(format!("index points at missing event {position}")));
            }
            count += 1;
            if visit(decode_event_ref(&bytes)?).is_break() {
                break;
            }
            cursor = Some((events, position + 1));
        }
        Ok(count)
    }

    /// Positions of up to `limit` durable events of `stream` from version `from`, in read order.
    fn stream_positions(
        &self,
        stream: &str,
        from: u64,
        direction: Direction,
        limit: usize,
    ) -> Result<Vec<u64>, StoreError> {
        let end = self.shared.visible_end();
        let instance = self.shared.instance()?;
        let mut positions = Vec::with_capacity(limit.min(1024));
        let mut push = |entry: sled::Result<(sled::IVec, sled::IVec)>| -> Result<bool, StoreError> {
            let position = decode_u64(&entry.map_err(backend)?.1)?;
            if position < end {
                positions.push(position);
            }
            Ok(positions.len() < limit)
        };
        match direction {
            Direction::Forwards => {
                for entry in instance.trees.streams.range(stream_key(stream, from)..=stream_key(stream, u64::MAX)) {
                    if !push(entry)? {
                        break;
                    }
                }
            }
            Direction::Backwards => {
                for entry in instance.trees.streams.range(stream_key(stream, 0)..=stream_key(stream, from)).rev() {
                    if !push(entry)? {
                        break;
                    }
                }
            }
        }
        Ok(positions)
    }
}

/// Decode every event of a range scan of `events` into `out`.
fn decode_run(
    entries: impl Iterator<Item = sled::Result<(sled::IVec, sled::IVec)>>,
    out: &mut Vec<RecordedEvent>,
) -> Result<(), StoreError> {
    for entry in entries {
        out.push(decode_event(&entry.map_err(backend)?.1)?);
    }
    Ok(())
}
