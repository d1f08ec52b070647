//! The sled backend's side of planning ([`crate::plan`]): the committed log read from its trees,
//! and a committed command's first result read back.

use super::{backend, Trees};
use crate::codec::{decode_command, decode_event, decode_u64, position_key};
use crate::plan::CommittedLog;
use crate::{AppendResult, StoreError, StoredCommand};

impl CommittedLog for &Trees {
    fn stream_head(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        self.heads.get(stream.as_bytes()).map_err(backend)?.map(|v| decode_u64(&v)).transpose()
    }

    fn command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
        self.commands.get(command_id.as_bytes()).map_err(backend)?.map(|bytes| decode_command(&bytes)).transpose()
    }
}

/// The first result of a committed command, rebuilt from the events it wrote.
pub(crate) fn replay(trees: &Trees, stored: &StoredCommand) -> Result<AppendResult, StoreError> {
    let count = stored.last_version.checked_sub(stored.first_version).ok_or_else(|| {
        StoreError::Backend(format!("stored command {} has its versions reversed", stored.command_id))
    })?;
    let events = (0..=count)
        .map(|offset| {
            let position = stored.first_position.saturating_add(offset);
            let bytes = trees
                .events
                .get(position_key(position))
                .map_err(backend)?
                .ok_or_else(|| StoreError::Backend(format!("stored command points at missing event {position}")))?;
            decode_event(&bytes)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(AppendResult { events, stream_version: stored.last_version, replayed: true })
}
