//! The PostgreSQL backend's side of planning ([`crate::plan`]): the committed state the batch's
//! requests touch, read once under the `$all` head lock, so no other process can change it while
//! the batch is planned and written.

use std::collections::HashMap;

use crate::plan::CommittedLog;
use crate::{StoreError, StoredCommand};

/// The committed state the batch's requests touch, read under the head lock.
pub(crate) struct Committed {
    /// Last versions of the batch's streams that exist.
    pub(crate) heads: HashMap<String, u64>,
    /// The batch's command ids that were seen before.
    pub(crate) commands: HashMap<String, StoredCommand>,
}

impl CommittedLog for Committed {
    fn stream_head(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.heads.get(stream).copied())
    }

    fn command(&self, command_id: &str) -> Result<Option<StoredCommand>, StoreError> {
        Ok(self.commands.get(command_id).cloned())
    }
}
