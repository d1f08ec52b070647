//! The read models saved beside the log, so a restart folds only what was appended since the
//! last save (issue 13: ready in ≤ 2 s on a million events; ARCHITECTURE.md "Snapshots of the
//! read models").
//!
//! The log stays the only truth: a snapshot is a cache of the catalog and is used only when it
//! provably fits both
//! - **the log**: the event at the snapshot's checkpoint position must be the very event (same
//!   UUID) it was taken after, so a log restored from a backup, imported, or replaced is never
//!   read with another log's models; and
//! - **the build**: the executable that wrote it (its version, size and modification time), so
//!   a new build, whose rules may fold events differently, folds the log afresh.
//!
//! Anything else (no file, another format, a state that no longer loads) is logged and the log is
//! folded from the start, as without snapshots. Taking one checks that every state reads back as
//! itself (`Catalog::snapshot`). The file is written beside and renamed over the old one, so a
//! crash while saving leaves the previous snapshot or none, never half of one.

use std::{
    fs::File,
    io::{BufWriter, Write},
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use herald_projections::{Catalog, Snapshot};
use herald_store::EventStore;
use serde::{Deserialize, Serialize};

/// The snapshot file's format; a file of another is ignored.
const FORMAT: u32 = 1;

/// Save again once the read models have folded this many events since the last save.
pub const SAVE_EVERY: u64 = 100_000;

const FILE: &str = "read-models.json";

/// What is written to disk.
#[derive(Serialize, Deserialize)]
struct SnapshotFile {
    format: u32,
    /// The executable that wrote it.
    build: String,
    /// The id of the event at the checkpoint position (`None` for an empty log).
    checkpoint_event: Option<uuid::Uuid>,
    catalog: Snapshot,
}

/// Where and when the read models are saved.
#[derive(Debug)]
pub struct Snapshots {
    dir: PathBuf,
    build: Option<String>,
    /// Events folded when the models were last saved or restored.
    saved: AtomicU64,
    /// One save at a time (the follower's and the one at stop share the file).
    saving: std::sync::Mutex<()>,
}

/// This executable, as far as a snapshot needs to know it is the same build.
fn build_id() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(exe).ok()?;
    let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(format!("{} {} {}", env!("CARGO_PKG_VERSION"), meta.len(), modified.as_nanos()))
}

impl Snapshots {
    /// Snapshots kept in `dir` (created when first saved).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir, build: build_id(), saved: AtomicU64::new(0), saving: std::sync::Mutex::default() }
    }

    fn path(&self) -> PathBuf {
        self.dir.join(FILE)
    }

    /// Restore `catalog` (empty) from the saved snapshot if it fits the log and this build;
    /// returns the number of events it holds. Never fails: a snapshot that does not fit is
    /// logged and left alone.
    pub fn restore(&self, store: &dyn EventStore, catalog: &Catalog) -> u64 {
        let started = Instant::now();
        match self.try_restore(store, catalog) {
            Ok(Some(folded)) => {
                self.saved.store(folded, Ordering::Release);
                tracing::info!(
                    events = folded,
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "read models restored from their snapshot"
                );
                folded
            }
            Ok(None) => 0,
            Err(why) => {
                tracing::warn!(%why, path = %self.path().display(), "the read models' snapshot is not used; folding the whole log");
                0
            }
        }
    }

    fn try_restore(&self, store: &dyn EventStore, catalog: &Catalog) -> anyhow::Result<Option<u64>> {
        let path = self.path();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => anyhow::bail!("cannot read it: {error}"),
        };
        let file: SnapshotFile = serde_json::from_slice(&bytes)?;
        anyhow::ensure!(file.format == FORMAT, "format {} is not this build's {FORMAT}", file.format);
        anyhow::ensure!(
            self.build.as_deref() == Some(file.build.as_str()),
            "it was written by another build ({}); this one is {}",
            file.build,
            self.build.as_deref().unwrap_or("unknown")
        );
        anyhow::ensure!(fits(store, file.catalog.checkpoint, file.checkpoint_event)?, "it was taken of another log");
        let folded = file.catalog.checkpoint.map_or(0, |position| position + 1);
        catalog.restore(file.catalog)?;
        Ok(Some(folded))
    }

    /// Save the read models as they stand. Blocking.
    pub fn save(&self, store: &dyn EventStore, catalog: &Catalog) -> anyhow::Result<()> {
        let Some(build) = self.build.clone() else {
            anyhow::bail!("this executable cannot be identified, so a snapshot could never be used");
        };
        let _one_at_a_time = self.saving.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let started = Instant::now();
        let snapshot = catalog.snapshot()?;
        let checkpoint_event = match snapshot.checkpoint {
            None => None,
            Some(position) => Some(
                event_at(store, position)?
                    .ok_or_else(|| anyhow::anyhow!("the log has no event at the read models' checkpoint {position}"))?,
            ),
        };
        let folded = snapshot.checkpoint.map_or(0, |position| position + 1);
        let streams = snapshot.entries.len();
        std::fs::create_dir_all(&self.dir)?;
        let partial = self.dir.join(format!("{FILE}.partial"));
        {
            let mut writer = BufWriter::new(File::create(&partial)?);
            let file = SnapshotFile { format: FORMAT, build, checkpoint_event, catalog: snapshot };
            serde_json::to_writer(&mut writer, &file)?;
            writer.flush()?;
            writer.get_ref().sync_all()?;
        }
        std::fs::rename(&partial, self.path())?;
        if let Ok(dir) = File::open(&self.dir) {
            // The rename itself survives a power loss once the directory is synced.
            let _ = dir.sync_all();
        }
        self.saved.store(folded, Ordering::Release);
        tracing::info!(
            events = folded,
            streams,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "read models saved"
        );
        Ok(())
    }

    /// Save if the read models have folded at least `every` events since the last save or
    /// restore; errors are logged (the log is intact; the next start folds more of it).
    pub fn save_if_behind(&self, store: &dyn EventStore, catalog: &Catalog, every: u64) {
        if catalog.folded() >= self.saved.load(Ordering::Acquire).saturating_add(every.max(1)) {
            if let Err(error) = self.save(store, catalog) {
                tracing::warn!(%error, "saving the read models failed; the next start folds more of the log");
            }
        }
    }
}

/// The id of the event at `position` of `$all`.
fn event_at(store: &dyn EventStore, position: u64) -> anyhow::Result<Option<uuid::Uuid>> {
    Ok(store.read_all(position, 1)?.into_iter().find(|event| event.position == position).map(|event| event.id))
}

/// Whether a snapshot taken after `checkpoint` (whose event was `event`) fits `store`'s log.
fn fits(store: &dyn EventStore, checkpoint: Option<u64>, event: Option<uuid::Uuid>) -> anyhow::Result<bool> {
    Ok(match (checkpoint, event) {
        (None, None) => true,
        (Some(position), Some(id)) => event_at(store, position)? == Some(id),
        _ => false,
    })
}

/// Where a server whose log is `location` keeps its snapshots: beside a sled log, in the data
/// directory for a shared PostgreSQL log (each instance keeps its own).
pub fn dir_for(location: &crate::store::StoreLocation, data_dir: &Path) -> PathBuf {
    match location {
        crate::store::StoreLocation::Sled(dir) => dir.join("read-models"),
        crate::store::StoreLocation::Postgres(_) => data_dir.join("read-models"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_store::{AppendRequest, ExpectedVersion, NewEvent, SledStore};

    fn append(store: &dyn EventStore, stream: &str, event_type: &str, data: serde_json::Value) {
        let event = NewEvent {
            id: uuid::Uuid::now_v7(),
            event_type: event_type.into(),
            schema: 1,
            recorded_at: chrono::Utc::now(),
            actor: "test".into(),
            command_id: None,
            correlation_id: None,
            causation_id: None,
            rules: "herald@1".into(),
            data: data.into(),
        };
        let request = AppendRequest {
            stream: stream.into(),
            expected: ExpectedVersion::Any,
            events: vec![event],
            command_id: None,
            command: None,
        };
        store.append(request).map(|_| ()).unwrap_or_else(|error| panic!("append: {error}"));
    }

    #[test]
    fn a_snapshot_is_used_only_with_the_log_it_was_taken_of() {
        let (one, two) = (tempfile::tempdir().expect("dir"), tempfile::tempdir().expect("dir"));
        let store = SledStore::open(one.path()).expect("a store");
        let other = SledStore::open(two.path()).expect("a store");
        for store in [&store, &other] {
            append(store, "tokens", "auth.TokenIssued", serde_json::json!({"id": "x"}));
        }
        let catalog = Catalog::new();
        catalog.catch_up(&store).expect("caught up");
        let snapshots = Snapshots::new(one.path().join("read-models"));
        snapshots.save(&store, &catalog).expect("saved");

        let restored = Catalog::new();
        assert_eq!(snapshots.restore(&store, &restored), 1);
        assert!(restored.same_as(&catalog));
        // Same position, another event: another log.
        let elsewhere = Catalog::new();
        assert_eq!(snapshots.restore(&other, &elsewhere), 0);
        assert_eq!(elsewhere.folded(), 0, "left empty, to be folded from the log");
    }

    #[test]
    fn a_snapshot_of_another_build_or_format_is_not_used() {
        let dir = tempfile::tempdir().expect("dir");
        let store = SledStore::open(dir.path()).expect("a store");
        append(&store, "tokens", "auth.TokenIssued", serde_json::json!({"id": "x"}));
        let catalog = Catalog::new();
        catalog.catch_up(&store).expect("caught up");
        let mut snapshots = Snapshots::new(dir.path().join("read-models"));
        snapshots.save(&store, &catalog).expect("saved");
        snapshots.build = Some("another build".into());
        assert_eq!(snapshots.restore(&store, &Catalog::new()), 0);
        std::fs::write(snapshots.path(), b"{\"format\": 1, \"build\": ").expect("written");
        assert_eq!(snapshots.restore(&store, &Catalog::new()), 0, "a torn file is not used");
    }
}
