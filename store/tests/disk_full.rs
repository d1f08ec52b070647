//! A full disk under the sled store, caused for real: the log on a small tmpfs the test mounts
//! itself (root only; CI runs as root), filled by the writers. Every append is answered either
//! as acknowledged (and then it is in the log, at its position, after the disk has room again
//! and after a reopen) or as `StorageFull`/`Unavailable` (and then it is nowhere); every event a
//! reader saw stays at the position it saw it; writes resume by themselves once space returns.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use herald_store::conformance::{new_event, read_all_to_end, Tmpfs};
use herald_store::{AppendRequest, EventStore, ExpectedVersion, RecordedEvent, SledStore, StoreError};

/// An append of one event of `bytes` of payload to a new stream.
fn append_request(writer: usize, n: usize, bytes: usize) -> AppendRequest {
    AppendRequest {
        stream: format!("battle-{writer}-{n}"),
        expected: ExpectedVersion::NoStream,
        events: vec![new_event(
            "test.Happened",
            serde_json::json!({ "writer": writer, "n": n, "pad": "x".repeat(bytes) }),
        )],
        command_id: Some(format!("command-{writer}-{n}")),
        command: None,
    }
}

/// Fill `dir`'s filesystem with a file until it refuses a byte more.
fn fill(path: &Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(path).expect("filler");
    let chunk = vec![0u8; 64 * 1024];
    loop {
        if file.write_all(&chunk).and_then(|()| file.sync_all()).is_err() {
            break;
        }
    }
    let small = [0u8; 512];
    while file.write_all(&small).and_then(|()| file.sync_all()).is_ok() {}
}

/// Sets `stop` when dropped, so that a failed assertion stops the other threads too.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Wait (polling) until `done`, failing the test past `deadline`.
fn wait_until(deadline: Instant, what: &str, mut done: impl FnMut() -> bool) {
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_full_disk_refuses_writes_publishes_nothing_unacknowledged_and_writes_resume_once_space_returns() {
    let Some(disk) = Tmpfs::mount("16m") else { return };
    let log = disk.dir().join("log");
    let ballast = disk.dir().join("ballast");
    let filler = disk.dir().join("filler");
    let store = SledStore::open(&log).expect("open on the tmpfs");
    store.set_reserve(2 << 20);
    // Room the test gives back once the disk is full.
    std::fs::write(&ballast, vec![0u8; 3 << 20]).expect("ballast");

    let acked: Mutex<Vec<RecordedEvent>> = Mutex::new(Vec::new());
    let seen: Mutex<HashMap<u64, uuid::Uuid>> = Mutex::new(HashMap::new());
    let refused = Mutex::new(Vec::<StoreError>::new());
    // Reads must answer while the writer stops at the reserve; once sled itself met the full
    // disk they may answer `Unavailable` (sled writes as it reads), never anything else.
    let reads_may_fail = AtomicBool::new(false);
    let failed_reads = Mutex::new(Vec::<StoreError>::new());
    let stop = AtomicBool::new(false);
    let deadline = Instant::now() + Duration::from_secs(120);

    std::thread::scope(|scope| {
        let _stop = StopOnDrop(&stop);
        for writer in 0..4 {
            let (store, acked, refused, stop) = (&store, &acked, &refused, &stop);
            scope.spawn(move || {
                let _stop = StopOnDrop(stop);
                for n in 0.. {
                    if stop.load(Ordering::Acquire) {
                        break;
                    }
                    match store.append(append_request(writer, n, 2000)) {
                        Ok(result) => acked.lock().expect("acks").extend(result.events),
                        Err(error) => refused.lock().expect("refusals").push(error),
                    }
                }
            });
        }
        // A reader following $all by position, as a second instance or a live client would.
        let (reader, seen_by_reader, stopped, may_fail, failed) =
            (&store, &seen, &stop, &reads_may_fail, &failed_reads);
        scope.spawn(move || {
            let _stop = StopOnDrop(stopped);
            let mut from = 0;
            while !stopped.load(Ordering::Acquire) {
                match reader.read_all(from, 100) {
                    Ok(events) => {
                        for event in events {
                            seen_by_reader.lock().expect("seen").insert(event.position, event.id);
                            from = event.position + 1;
                        }
                    }
                    Err(error @ StoreError::Unavailable(_)) if may_fail.load(Ordering::Acquire) => {
                        failed.lock().expect("failed reads").push(error);
                    }
                    Err(error) => panic!("a read failed: {error}"),
                }
            }
        });

        // 1. The writers fill the disk down to the reserve: writes are refused, reads go on.
        wait_until(deadline, "the writers never filled the disk", || store.write_failure().is_some());
        let refused_before = refused.lock().expect("refusals").len();
        wait_until(deadline, "writes at the reserve were not refused", || {
            refused.lock().expect("refusals").len() >= refused_before + 50
        });
        assert!(matches!(store.write_failure(), Some(StoreError::StorageFull(_))), "{:?}", store.write_failure());
        let head = store.head_position().expect("the head reads at the reserve");
        assert_eq!(read_all_to_end(&store).len() as u64, head.map_or(0, |h| h + 1), "reads go on at the reserve");

        // 2. Something else takes the last byte, and the reserve is off: sled itself meets the
        //    full disk.
        reads_may_fail.store(true, Ordering::Release);
        fill(&filler);
        store.set_reserve(0);
        wait_until(deadline, "sled never met the full disk", || store.needs_reopen());
        let refused_before = refused.lock().expect("refusals").len();
        wait_until(deadline, "writes on a full disk were not refused", || {
            refused.lock().expect("refusals").len() >= refused_before + 200
        });
        assert!(store.write_failure().is_some(), "the store says writes fail");

        // 3. Space returns: writes resume by themselves (the log reopened), the reserve back on.
        store.set_reserve(2 << 20);
        std::fs::remove_file(&ballast).expect("free the ballast");
        std::fs::remove_file(&filler).expect("free the filler");
        let acked_before = acked.lock().expect("acks").len();
        wait_until(deadline, "writes did not resume once space returned", || {
            store.write_failure().is_none() && acked.lock().expect("acks").len() >= acked_before + 20
        });
    });

    assert!(store.reopens() >= 1, "sled met the full disk and the log was reopened");
    let refused = refused.into_inner().expect("refusals");
    assert!(
        refused.iter().any(|e| matches!(e, StoreError::StorageFull(_))),
        "some writes were refused as storage full"
    );
    let other = refused.iter().find(|e| !matches!(e, StoreError::StorageFull(_) | StoreError::Unavailable(_)));
    assert!(other.is_none(), "a full disk is told as such: {other:?}");
    let acked = acked.into_inner().expect("acks");
    let seen = seen.into_inner().expect("seen");
    let check = |store: &SledStore, when: &str| {
        let all = read_all_to_end(store);
        let by_position: HashMap<u64, &RecordedEvent> = all.iter().map(|e| (e.position, e)).collect();
        for (index, event) in all.iter().enumerate() {
            assert_eq!(event.position, index as u64, "{when}: $all is gap-free");
        }
        for event in &acked {
            assert_eq!(
                by_position.get(&event.position).map(|e| e.id),
                Some(event.id),
                "{when}: acknowledged {event:?}"
            );
        }
        for (position, id) in &seen {
            assert_eq!(
                by_position.get(position).map(|e| e.id),
                Some(*id),
                "{when}: an event seen at {position} stays there"
            );
        }
        // Nothing unacknowledged: every event in the log was acknowledged to its writer.
        let acked_ids: std::collections::HashSet<uuid::Uuid> = acked.iter().map(|e| e.id).collect();
        let unacked: Vec<u64> = all.iter().filter(|e| !acked_ids.contains(&e.id)).map(|e| e.position).collect();
        assert!(unacked.is_empty(), "{when}: events in the log that were never acknowledged at {unacked:?}");
        all.len()
    };
    let live = check(&store, "after space returned");
    drop(store);
    let store = SledStore::open(&log).expect("reopen after the full disk");
    assert_eq!(check(&store, "after a reopen"), live);
    eprintln!(
        "{} acknowledged, {} refused, {} seen by the reader, {} reads unavailable while sled met the full disk",
        acked.len(),
        refused.len(),
        seen.len(),
        failed_reads.into_inner().expect("failed reads").len()
    );
}

#[test]
fn a_start_on_a_full_disk_fails_cleanly_and_the_next_start_works_once_space_returns() {
    let Some(disk) = Tmpfs::mount("8m") else { return };
    let log = disk.dir().join("log");
    let filler = disk.dir().join("filler");
    let written = {
        let store = SledStore::open(&log).expect("open on the tmpfs");
        store.set_reserve(0);
        (0..50).map(|n| store.append(append_request(0, n, 500)).expect("append").events[0].id).collect::<Vec<_>>()
    };
    fill(&filler);
    // A start on the full disk: refused (sled writes at start), or started; either way nothing
    // it leaves may stop the next start.
    for _ in 0..3 {
        match SledStore::open(&log) {
            Ok(store) => drop(store),
            Err(error) => eprintln!("a start on the full disk failed: {error}"),
        }
    }
    std::fs::remove_file(&filler).expect("free the filler");
    let store = SledStore::open(&log).expect("the next start works once space returns");
    store.set_reserve(0);
    let ids: Vec<uuid::Uuid> = read_all_to_end(&store).iter().map(|event| event.id).collect();
    assert_eq!(ids, written, "every acknowledged event, at its position");
    store.append(append_request(1, 0, 500)).expect("writes work");
}
