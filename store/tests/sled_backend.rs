//! sled-specific behaviour the backend-agnostic suite cannot express: reopening, the on-disk
//! layout as tools see it, and damaged bytes.

use herald_store::codec::{self, decode_event, encode_event, position_key};
use herald_store::conformance::{read_all_to_end, request, unique_stream};
use herald_store::{AppendRequest, Direction, EventStore, ExpectedVersion, SledStore, StoreError};

#[test]
fn a_reopened_store_continues_positions_and_remembers_streams_and_commands() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stream = unique_stream("battle");
    let first = {
        let store = SledStore::open(dir.path()).expect("open");
        store.append(request(&stream, ExpectedVersion::NoStream, 3)).expect("append");
        let with_command =
            AppendRequest { command_id: Some("cmd-1".into()), ..request(&stream, ExpectedVersion::Exact(2), 1) };
        store.append(with_command).expect("append with command")
    };
    let store = SledStore::open(dir.path()).expect("reopen");
    assert_eq!(store.head_position().expect("head"), Some(3));
    assert_eq!(*store.watch_head().borrow(), Some(3), "the watch starts at the stored head");
    assert_eq!(store.stream_version(&stream).expect("version"), Some(3));
    let again = AppendRequest { command_id: Some("cmd-1".into()), ..request(&stream, ExpectedVersion::Any, 1) };
    let replay = store.append(again).expect("repeat after reopen");
    assert!(replay.replayed);
    assert_eq!(replay.events, first.events);
    let next = store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 2)).expect("append");
    assert_eq!(next.events.iter().map(|e| e.position).collect::<Vec<_>>(), [4, 5], "positions continue densely");
}

#[test]
fn an_event_tampered_through_the_codec_reads_back_changed() {
    let (store, _dir) = herald_store::conformance::sled_store();
    let stream = unique_stream("battle");
    let result = store.append(request(&stream, ExpectedVersion::Any, 2)).expect("append");
    let events = store.db().expect("the database").open_tree(codec::EVENTS_TREE).expect("events tree");
    let key = position_key(result.events[1].position);
    let mut event = decode_event(&events.get(key).expect("get").expect("stored")).expect("decode");
    event.data = serde_json::json!({ "n": 99 }).into();
    events.insert(key, encode_event(&event)).expect("write back");
    let read = store.read_stream(&stream, 1, Direction::Forwards, 1).expect("read");
    assert_eq!(read[0].data.to_value(), serde_json::json!({ "n": 99 }));
    assert_eq!(read[0].id, result.events[1].id, "everything else is unchanged");
}

#[test]
fn damaged_event_bytes_are_a_backend_error_not_a_panic() {
    let (store, _dir) = herald_store::conformance::sled_store();
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::Any, 2)).expect("append");
    let events = store.db().expect("the database").open_tree(codec::EVENTS_TREE).expect("events tree");
    events.insert(position_key(1), &[1, 2, 3][..]).expect("damage");
    assert!(matches!(store.read_all(0, 10), Err(StoreError::Backend(_))));
    assert!(matches!(store.read_stream(&stream, 0, Direction::Forwards, 10), Err(StoreError::Backend(_))));
    assert_eq!(store.read_all(0, 1).expect("the undamaged event still reads").len(), 1);
}

#[test]
fn dropping_the_store_answers_every_append_already_made() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stream = unique_stream("battle");
    {
        let store = SledStore::open(dir.path()).expect("open");
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..10 {
                        store.append(request(&stream, ExpectedVersion::Any, 1)).expect("append");
                    }
                });
            }
        });
    }
    let store = SledStore::open(dir.path()).expect("reopen");
    assert_eq!(read_all_to_end(&store).len(), 40);
    assert_eq!(store.stream_version(&stream).expect("version"), Some(39));
}

#[test]
fn stream_names_with_nul_are_invalid_and_read_empty() {
    let (store, _dir) = herald_store::conformance::sled_store();
    let result = store.append(request("battle-\0x", ExpectedVersion::Any, 1));
    assert!(matches!(result, Err(StoreError::Invalid(_))), "got {result:?}");
    assert!(store.read_stream("battle-\0x", 0, Direction::Forwards, 1).expect("read").is_empty());
    assert_eq!(store.stream_version("battle-\0x").expect("version"), None);
}

/// A backend that keeps the trait's default `replay_stream`, to check the default itself.
struct DefaultReplay(SledStore);

impl EventStore for DefaultReplay {
    fn append(&self, request: AppendRequest) -> Result<herald_store::AppendResult, StoreError> {
        self.0.append(request)
    }
    fn read_stream(
        &self,
        stream: &str,
        from: u64,
        direction: Direction,
        limit: usize,
    ) -> Result<Vec<herald_store::RecordedEvent>, StoreError> {
        self.0.read_stream(stream, from, direction, limit)
    }
    fn read_all(&self, from: u64, limit: usize) -> Result<Vec<herald_store::RecordedEvent>, StoreError> {
        self.0.read_all(from, limit)
    }
    fn stream_version(&self, stream: &str) -> Result<Option<u64>, StoreError> {
        self.0.stream_version(stream)
    }
    fn head_position(&self) -> Result<Option<u64>, StoreError> {
        self.0.head_position()
    }
    fn stored_command(&self, command_id: &str) -> Result<Option<herald_store::StoredCommand>, StoreError> {
        self.0.stored_command(command_id)
    }
    fn watch_head(&self) -> tokio::sync::watch::Receiver<Option<u64>> {
        self.0.watch_head()
    }
    fn put_secret(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.0.put_secret(key, value)
    }
    fn get_secret(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.0.get_secret(key)
    }
}

#[test]
fn the_default_replay_stream_pages_through_read_stream() {
    let (store, _dir) = herald_store::conformance::sled_store();
    herald_store::conformance::replay_stream_visits_every_event_from_a_version_in_order(&DefaultReplay(store));
}

/// Issue 15.6: sled's flush uses `sync_file_range`, which a power loss can undo; the store
/// syncs its files (`fdatasync` of the log and of new blob files) after every group flush that
/// wrote, before anything is acknowledged.
#[test]
fn every_acknowledged_append_is_synced_to_the_disk_before_it_is_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("open");
    let stream = unique_stream("battle");
    let before = store.syncs();
    for n in 0..5 {
        let expected = if n == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(n * 2 - 1) };
        store.append(request(&stream, expected, 2)).expect("append");
        assert_eq!(store.syncs(), before + n + 1, "append {n} was answered only after its own sync");
    }
    let conflict = store.append(request(&stream, ExpectedVersion::NoStream, 1));
    assert!(matches!(conflict, Err(StoreError::WrongExpectedVersion { .. })), "{conflict:?}");
    assert_eq!(store.syncs(), before + 5, "a batch that wrote nothing needs no sync");
}

#[test]
fn an_event_too_large_for_sleds_log_goes_to_a_blob_file_which_is_synced_and_reads_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stream = unique_stream("battle");
    let big = "x".repeat(600_000);
    {
        let store = SledStore::open(dir.path()).expect("open");
        let mut append = request(&stream, ExpectedVersion::NoStream, 1);
        append.events[0] = herald_store::conformance::new_event("test.Big", serde_json::json!({ "text": big }));
        store.append(append).expect("append a large event");
        assert!(store.syncs() >= 1);
        let blobs = std::fs::read_dir(dir.path().join("blobs")).expect("sled's blob directory").count();
        assert!(blobs >= 1, "sled wrote the large event to a blob file (the case the syncer covers)");
    }
    let store = SledStore::open(dir.path()).expect("reopen");
    let read = store.read_stream(&stream, 0, Direction::Forwards, 1).expect("read");
    assert_eq!(read[0].data.to_value()["text"].as_str().map(str::len), Some(600_000));
}

#[test]
fn a_store_opened_for_process_crashes_only_never_syncs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open_with(dir.path(), herald_store::Durability::ProcessCrash).expect("open");
    store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 3)).expect("append");
    assert_eq!(store.syncs(), 0);
}

#[test]
fn an_unfinished_snapshot_left_by_a_failed_start_is_removed_and_the_log_opens() {
    // A start on a full disk leaves a 0-byte `snap.<lsn>.generating` (issue 27); sled 0.34
    // reads it at the next start as a corrupted snapshot and refuses to open.
    let dir = tempfile::tempdir().expect("temp dir");
    let stream = unique_stream("battle");
    let written = SledStore::open(dir.path()).expect("open").append(request(&stream, ExpectedVersion::NoStream, 3));
    let written = written.expect("append");
    let unfinished = dir.path().join("snap.00000000000FFFFF.generating");
    std::fs::write(&unfinished, b"").expect("the file a failed start leaves");
    let store = SledStore::open(dir.path()).expect("the log opens");
    assert!(!unfinished.exists(), "the unfinished snapshot was removed");
    assert_eq!(read_all_to_end(&store), written.events);
}
